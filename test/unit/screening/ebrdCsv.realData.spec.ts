import { beforeAll, describe, expect, it } from 'vitest';
import type { ListedEntity } from '../../../src/screening/model/listedEntity.js';
import { ebrdCsvFormat } from '../../../src/screening/parsers/ebrdCsv.js';
import { collectEntities, namesOf } from '../../support/parsedEntities.js';
import { screeningData } from '../../support/screeningData.js';

const data = screeningData('EBRD ineligible entities parser over the real list');
const byName = (entities: ListedEntity[], name: string) => {
  const found = entities.find((e) => e.names[0]!.full === name);
  if (!found) throw new Error(`no entity named ${name}`);
  return found;
};

describe.skipIf(!data.available)('ebrd-csv over the real list', () => {
  let entities: ListedEntity[];
  beforeAll(async () => {
    entities = await collectEntities(ebrdCsvFormat, [data.file('debarment', 'ebrd_ineligible_firms.csv')]);
  });

  it('reads the 1,322 rows (data/README.md) into 1,320 firms: two are listed at two addresses each', () => {
    expect(entities).toHaveLength(1320);
    expect(new Set(entities.map((e) => e.id)).size).toBe(1320);
    for (const entity of entities) {
      expect(entity.topics).toEqual(['debarment']);
      expect(entity.names.filter((n) => n.kind === 'primary')).toHaveLength(1);
    }
    // Nationalities the country table cannot read: "Ecuatorial Guinea", "Kyrgz Republic", "Sri Lanca".
    expect(entities.filter((e) => e.countries.length === 0)).toHaveLength(3);
    const twice = byName(entities, 'China Gezhouba Group Construction Engineering Co., Ltd.');
    expect(twice.notes?.filter((n) => n.startsWith('Address:'))).toHaveLength(2);
  });

  it('repairs the unescaped quotes and line breaks of the firm names', () => {
    expect(byName(entities, '"Supper Fortuna" LLC')).toMatchObject({
      kind: 'company',
      countries: ['UZ'],
      programs: ['World Bank Group'],
      listedOn: '2022-09-25',
    });
    expect(byName(entities, 'Rafael "Ace" Freznoza Lim').notes).toContain('Ineligible (indefinite)');
    expect(byName(entities, 'ENOVA ENERJI URETIM A.S.')).toMatchObject({
      countries: ['TR'],
      programs: ['EBRD'],
    });
  });

  it('reads previous names and aliases out of the firm names', () => {
    const drc = byName(entities, 'Development and Relief Corporation International B.V.');
    expect(namesOf(drc, 'alias')).toEqual(['DRC International b.v.', 'DRC Medical']);
    expect(drc).toMatchObject({ countries: ['NL'], listedOn: '2022-01-21' });
    expect(namesOf(byName(entities, 'A2Z Infra Engineering Limited'), 'previous')).toEqual([
      'A2Z Maintenance & Engineering Services Limited',
    ]);
    expect(namesOf(byName(entities, 'Far Kurilish Montaj Invest'), 'previous')).toEqual([
      'Quvasoy Mukammal Tamir LLC',
    ]);
  });

  it('takes the individuals on the list for persons', () => {
    const kinds = new Map<string, number>();
    for (const entity of entities) kinds.set(entity.kind, (kinds.get(entity.kind) ?? 0) + 1);
    expect(Object.fromEntries(kinds)).toEqual({ company: 949, organization: 240, person: 131 });
    expect(byName(entities, 'ZHANG, Fangjun')).toMatchObject({ kind: 'person', nationalities: ['CN'] });
  });
});
