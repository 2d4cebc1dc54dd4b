import { describe, expect, it } from 'vitest';
import type { EntityKind } from '../model/listedEntity.js';
import { acronymsSpelledBy } from './acronyms.js';
import { alignedScore, NAME_MATCH_THRESHOLD } from './nameAlignment.js';
import { nameTokens } from './nameTokens.js';
import { prepareName } from './preparedName.js';

const tokens = (name: string, kind: EntityKind = 'company') => nameTokens(name, kind);
const spelled = (name: string, kind: EntityKind = 'company') => [...acronymsSpelledBy(tokens(name, kind))];

function score(acronym: string, name: string): number {
  return alignedScore(
    prepareName({ full: acronym, kind: 'primary' }, 'company'),
    prepareName({ full: name, kind: 'primary' }, 'company'),
    { budgetFactor: 1, phonetic: true },
  );
}

describe('acronymsSpelledBy', () => {
  it('spells the whole name through connecting words, the Arabic article, number words and legal forms', () => {
    expect(spelled('Ministry of Intelligence and Security', 'organization').sort()).toEqual([
      'mias',
      'mis',
      'moias',
      'mois',
    ]);
    expect(spelled('National Iranian Oil Company').sort()).toEqual(['nio', 'nioc']);
    expect(spelled('Jaysh Rijal al-Tariq al-Naqshabandi', 'organization')).toContain('jrtn');
    expect(spelled('First Islamic Investment Bank Limited')).toContain('fiib');
    // "Company Limited" is one legal form, which lends the letter of either word.
    expect(spelled('Kharg Petrochemical Company Limited')).toEqual(expect.arrayContaining(['kpc', 'kpl']));
  });

  it('spells only the whole name: a run leaving a name word over is not listed', () => {
    expect(spelled("People's Liberation Army")).toEqual(['pla']);
    expect(spelled('Iranian Ministry of Intelligence and Security')).not.toContain('mois');
  });

  it('lets no legal form lend in front of a name or to two letters, and no Roman numeral lend at all', () => {
    expect(spelled('JSC Infraveb')).toEqual([]);
    expect(spelled('SBS LLC')).not.toContain('sl');
    // "I" is one in an organisation's name.
    expect(spelled('Jihun I')).not.toContain('ji');
  });

  it('lists only acronyms the scorer matches with the name', () => {
    for (const name of [
      'National Iranian Oil Company',
      'Syrian Company for Oil Transport',
      'Bank of the Republic',
      'Kharg Petrochemical Company Limited',
      'First Five Star Line Company Limited',
    ]) {
      const acronyms = spelled(name);
      expect(acronyms.length).toBeGreaterThan(0);
      for (const acronym of acronyms)
        expect(score(acronym, name)).toBeGreaterThanOrEqual(NAME_MATCH_THRESHOLD);
    }
  });
});
