import type { ListedEntity } from '../../src/screening/model/listedEntity.js';

/** A sanctioned person listed under `names` (the first primary, the others aliases) in dataset `test`. */
export function listedParty(
  id: string,
  names: string[],
  overrides: Partial<ListedEntity> = {},
): ListedEntity {
  return {
    id,
    kind: 'person',
    names: names.map((full, i) => ({ full, kind: i === 0 ? 'primary' : 'alias' })),
    birthDates: [],
    countries: [],
    nationalities: [],
    identifiers: [],
    topics: ['sanction'],
    datasets: ['test'],
    sources: [{ name: 'Test', url: null, dataset: 'test', priority: 1 }],
    programs: [],
    sourceRecordRef: id,
    ...overrides,
  };
}
