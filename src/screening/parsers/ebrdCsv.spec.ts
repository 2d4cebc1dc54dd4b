import { describe, expect, it } from 'vitest';
import { collectEntities, fixturePath, namesOf } from '../../../test/support/parsedEntities.js';
import { type ListedEntity, type ParseProgress, SourceParseError } from '../model/listedEntity.js';
import { ebrdCsvFormat, splitFirmName } from './ebrdCsv.js';
import { hashedId } from './recordKeys.js';

const fixture = (name: string) => fixturePath('ebrd-csv', name);
const byName = (entities: ListedEntity[], name: string) => {
  const found = entities.find((e) => e.names[0]!.full === name);
  if (!found) throw new Error(`no entity named ${name}`);
  return found;
};

describe('ebrd-csv', () => {
  it('reads the BOM, the " Ineligible Until" column, leading spaces, line breaks and unescaped quotes', async () => {
    const entities = await collectEntities(ebrdCsvFormat, [fixture('ineligible.csv')]);
    expect(entities.map((e) => e.names[0]!.full)).toEqual([
      'China Gezhouba Group Co., Ltd. by Shares Nigeria Co., Ltd.',
      '"Supper Fortuna" LLC',
      'A2Z Infra Engineering Limited',
      'China Gezhouba Group Construction Engineering Co., Ltd.',
      'ENOVA ENERJI URETIM A.S.',
      "Cabinet de Recherche, de Formation et D'Expertise en Sante",
      'Mr. Frank John Friday Nnaji',
      'ZHANG, Fangjun',
    ]);
    const first = entities[0]!;
    expect(first).toMatchObject({
      id: `ebrd_ineligible:${hashedId('China Gezhouba Group Co., Ltd. by Shares Nigeria Co., Ltd.', 'NG')}`,
      kind: 'company',
      topics: ['debarment'],
      countries: ['NG'],
      programs: ['EBRD'],
      listedOn: '2024-07-01',
      sourceRecordRef: 'China Gezhouba Group Co., Ltd. by Shares Nigeria Co., Ltd. (Nigeria)',
      notes: [
        'Address: CGGC House, Plot No.464 Jabi District Abuja Nigeria',
        'Ineligible from 2024-07-01 until 2025-05-31',
        'Effective at EBRD from 2024-07-01',
        'Prohibited practice: Fraudulent Practice',
      ],
    });
    expect(first.sources).toEqual([
      { name: 'EBRD Ineligible Entities', url: expect.any(String), dataset: 'ebrd_ineligible', priority: 2 },
    ]);
  });

  it('merges two rows of one firm (same folded name, same country however written) into one entity', async () => {
    const entities = await collectEntities(ebrdCsvFormat, [fixture('ineligible.csv')]);
    const firm = byName(entities, 'China Gezhouba Group Construction Engineering Co., Ltd.');
    expect(firm.id).toBe(
      `ebrd_ineligible:${hashedId('China Gezhouba Group Construction Engineering Co., Ltd.', 'CN')}`,
    );
    expect(firm.countries).toEqual(['CN']);
    expect(firm.notes?.filter((n) => n.startsWith('Address:'))).toEqual([
      'Address: No. 31, Zhenping Road Yichang City Hubei Province',
      'Address: Building 2, Kunming Export Processing Zone, Kunming',
    ]);
    // "European Bank for Reconstruction and Development" and "EBRD" are one institution.
    expect(firm.programs).toEqual(['EBRD']);
  });

  it('reports progress with every firm counted by the end of the file', async () => {
    const reports: ParseProgress[] = [];
    await collectEntities(ebrdCsvFormat, [fixture('ineligible.csv')], { onProgress: (p) => reports.push(p) });
    expect(reports.at(-1)).toMatchObject({ entities: 8, bytesRead: reports.at(-1)!.bytesTotal });
  });

  it('reads previous names, short forms and open-ended periods', async () => {
    const entities = await collectEntities(ebrdCsvFormat, [fixture('ineligible.csv')]);
    const a2z = byName(entities, 'A2Z Infra Engineering Limited');
    expect(namesOf(a2z, 'previous')).toEqual(['A2Z Maintenance & Engineering Services Limited']);
    expect(a2z.listedOn).toBe('2024-12-06');
    expect(a2z.notes).toContain('Ineligible (ongoing)');
    const cabinet = byName(entities, "Cabinet de Recherche, de Formation et D'Expertise en Sante");
    expect(cabinet.kind).toBe('organization');
    expect(namesOf(cabinet, 'weak')).toEqual(['CREFES']);
    expect(cabinet.countries).toEqual(['CD']);
  });

  it('takes individuals for persons by a title or "FAMILY, Given", with the nationality', async () => {
    const entities = await collectEntities(ebrdCsvFormat, [fixture('ineligible.csv')]);
    expect(byName(entities, 'Mr. Frank John Friday Nnaji')).toMatchObject({
      kind: 'person',
      nationalities: ['NG'],
      notes: expect.arrayContaining(['Ineligible (indefinite)']),
    });
    expect(byName(entities, 'ZHANG, Fangjun')).toMatchObject({
      kind: 'person',
      nationalities: ['CN'],
      names: [{ full: 'ZHANG, Fangjun', parts: { family: 'ZHANG', given: 'Fangjun' } }],
    });
  });

  it('splits the other names a Firm Name holds', () => {
    expect(
      splitFirmName(
        'Development and Relief Corporation International B.V. (also known as DRC International b.v.; also d.b.a. DRC Medical)',
      ),
    ).toEqual([
      { name: 'Development and Relief Corporation International B.V.', kind: 'primary' },
      { name: 'DRC International b.v.', kind: 'alias' },
      { name: 'DRC Medical', kind: 'alias' },
    ]);
    expect(
      splitFirmName('Flowbird Transport Limited (formerly operating as Parkeon Transit Limited)'),
    ).toEqual([
      { name: 'Flowbird Transport Limited', kind: 'primary' },
      { name: 'Parkeon Transit Limited', kind: 'previous' },
    ]);
    expect(splitFirmName('Construtora OAS LLC (Qatar)')).toEqual([
      { name: 'Construtora OAS LLC (Qatar)', kind: 'primary' },
    ]);
    expect(splitFirmName('lnvepar Construtora Ltda - ME (CNPJ: 20.182.043/0001-42)')).toEqual([
      { name: 'lnvepar Construtora Ltda - ME', kind: 'primary', notes: ['CNPJ: 20.182.043/0001-42'] },
    ]);
    expect(
      splitFirmName(
        'Mr. X Y and any entity controlled directly or indirectly by Mr. X Y, which was established',
      ),
    ).toEqual([
      {
        name: 'Mr. X Y',
        kind: 'primary',
        notes: [
          'Ineligibility covers: and any entity controlled directly or indirectly by Mr. X Y, which was established',
        ],
      },
    ]);
  });

  describe('malformed input', () => {
    async function failure(name: string): Promise<SourceParseError> {
      const error = await collectEntities(ebrdCsvFormat, [fixture(name)]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SourceParseError);
      return error as SourceParseError;
    }

    it('refuses a header without the EBRD columns', async () => {
      const error = await failure('bad-header.csv');
      expect(error.location).toEqual({ line: 1 });
      expect(error.reason).toMatch(
        /^not an EBRD ineligible entities CSV file: the header lacks Firm Name, Nationality/,
      );
    });

    it('names the line of a row without a firm name and of a row whose quote never closes', async () => {
      const missing = await failure('missing-name.csv');
      expect(missing.location).toEqual({ line: 3 });
      expect(missing.reason).toBe('row without a Firm Name');
      const quote = await failure('bad-quote.csv');
      expect(quote.location).toEqual({ line: 3 });
      expect(quote.reason).toBe('expected 8 fields, found 7');
    });

    // Relaxed quotes alone read both files below as 8 fields of garbage ("Unclosed Firm Ltd.,"Street 1").
    it('refuses a firm name whose closing quote is missing, though the row still has 8 fields', async () => {
      const error = await failure('unclosed-quote.csv');
      expect(error.location).toEqual({ line: 3 });
      expect(error.reason).toBe(
        'Firm Name: a quoted field is not closed (it runs on over a delimiter or line break): read as "Unclosed Firm Ltd.,"Street 1',
      );
    });

    it('refuses a bare quote in an unquoted field (a missing opening quote)', async () => {
      const error = await failure('unopened-quote.csv');
      expect(error.location).toEqual({ line: 3 });
      expect(error.reason).toBe(
        'Firm Name: a quote inside an unquoted field: read as No Opening Quote Ltd."',
      );
    });
  });
});
