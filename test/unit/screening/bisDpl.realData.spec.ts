import { beforeAll, describe, expect, it } from 'vitest';
import type { ListedEntity } from '../../../src/screening/model/listedEntity.js';
import { bisDplFormat } from '../../../src/screening/parsers/bisDpl.js';
import { collectEntities } from '../../support/parsedEntities.js';
import { screeningData } from '../../support/screeningData.js';

const data = screeningData('BIS Denied Persons List parser over the real list');
const byName = (entities: ListedEntity[], name: string) => {
  const found = entities.find((e) => e.names[0]!.full === name);
  if (!found) throw new Error(`no entity named ${name}`);
  return found;
};

describe.skipIf(!data.available)('bis-dpl over the real list', () => {
  let entities: ListedEntity[];
  beforeAll(async () => {
    entities = await collectEntities(bisDplFormat, [data.file('us_bis', 'dpl_2022-09.txt')]);
  });

  it('reads the 581 rows (data/README.md) into 459 denied parties with 579 addresses', () => {
    expect(entities).toHaveLength(459);
    expect(new Set(entities.map((e) => e.id)).size).toBe(459);
    // Two rows repeat another word for word (DAQING ZHOU's, for one).
    const addresses = entities.flatMap((e) => e.notes ?? []).filter((n) => n.startsWith('Address:'));
    expect(addresses).toHaveLength(579);
    for (const entity of entities) {
      expect(entity.topics).toEqual(['export.control']);
      expect(entity.names.filter((n) => n.kind === 'primary')).toHaveLength(1);
    }
    const kinds = new Map<string, number>();
    for (const entity of entities) kinds.set(entity.kind, (kinds.get(entity.kind) ?? 0) + 1);
    expect(Object.fromEntries(kinds)).toEqual({ person: 350, company: 68, organization: 38, unknown: 3 });
  });

  it('merges " I. ASH" (first row, leading space) with the two later "I. ASH" rows', () => {
    const ash = byName(entities, 'I. ASH');
    expect(ash).toMatchObject({
      kind: 'person',
      countries: ['US'],
      listedOn: '2002-03-04',
      modifiedOn: '2007-01-31',
    });
    expect(ash.notes?.filter((n) => n.startsWith('Address:'))).toHaveLength(3);
    expect(ash.notes).toContain('Denied until 2056-06-29');
  });

  it('reads other names out of the Name column', () => {
    expect(byName(entities, 'PEARL LI')).toMatchObject({
      names: [{ full: 'PEARL LI' }, { full: 'NEI-CHIEN CHU', kind: 'alias' }],
      sourceRecordRef: 'PEARL (A.K.A. NEI-CHIEN CHU) LI',
      countries: ['US'],
      listedOn: '2006-06-23',
    });
    expect(byName(entities, 'SIBERIAN AIRLINES')).toMatchObject({
      kind: 'organization',
      names: [{ full: 'SIBERIAN AIRLINES' }, { full: 'S7 AIRLINES', kind: 'alias' }],
      listedOn: '2022-06-24',
    });
  });
});
