import { describe, expect, it } from 'vitest';
import { guessPartyKind, hasOrganizationWord, looksLikePersonByForm } from './partyKind.js';

describe('guessPartyKind', () => {
  it.each([
    [['AL KAYALI CORPORATION'], 'company'],
    [['NEXIANT, LLC'], 'company'],
    [['Eco Biochem Sdn Bhd'], 'company'],
    [['ASMAT', 'APPLIED SYSTEMS METHODS AND TECHNOLOGY'], 'organization'],
    [['MAHAN AIRWAYS'], 'organization'],
    [['27th Scientific Center'], 'organization'],
    [['Huawei Cloud Argentina'], 'organization'],
    [['Beijing Liuhe BGI'], 'organization'],
    [['Dr. Artush Parsi'], 'person'],
    [['ZHANG, Fangjun'], 'person'],
    [['ABEL HERNANDEZ, JR.'], 'person'],
    [['BRAMWELL J. PRIDMORE-SMITH'], 'person'],
    [['Louis J. Kocurek, III'], 'person'],
    [['Michael Jordan'], 'person'],
    [['Lev Anatolyevich Yershov (Ershov)'], 'person'],
    [['TECHONWEB'], 'unknown'],
    [[''], 'unknown'],
  ] as const)('%j -> %s', (names, kind) => {
    expect(guessPartyKind(names)).toBe(kind);
  });

  it('knows persons by form and organisations by their words', () => {
    expect(looksLikePersonByForm('Mr. Frank John Friday Nnaji')).toBe(true);
    expect(looksLikePersonByForm('Constructora Toledo')).toBe(false);
    expect(hasOrganizationWord(['Javier Olcina Feliu', 'Olcina Trading'])).toBe(true);
    expect(hasOrganizationWord(['Javier Olcina Feliu'])).toBe(false);
  });
});
