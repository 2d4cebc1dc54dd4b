import { describe, expect, it } from 'vitest';
import { listedParty } from '../../../test/support/listedEntities.js';
import type { EntityName, ListedEntity } from '../model/listedEntity.js';
import { EntityStoreBuilder } from './entityStore.js';

/** The party's names with the given token ids, as the index hands them to the store. */
const namesOf = (entity: ListedEntity, ids: number[][]) =>
  entity.names.map((name, n) => ({ kind: name.kind, tokens: ids[n] ?? [] }));

let serial = 0;
function listed(fields: Partial<ListedEntity> = {}): ListedEntity {
  serial++;
  return listedParty(`test:${serial}`, [`Person ${serial}`], {
    sources: [{ name: 'Test list', url: null, dataset: 'test', priority: 1 }],
    sourceRecordRef: `ref-${serial}`,
    ...fields,
  });
}

const name = (full: string, kind: EntityName['kind'] = 'primary'): EntityName => ({ full, kind });

describe('EntityStore: what goes in comes back', () => {
  const person = listed({
    kind: 'person',
    names: [
      {
        full: 'Viktor Fedorovych YANUKOVYCH',
        kind: 'primary',
        parts: { given: 'Viktor', family: 'Yanukovych' },
      },
      name('Виктор Янукович', 'alias'),
      name('The Boss', 'weak'),
    ],
    birthDates: [
      { from: '1950-07-09' },
      { from: '1950', to: '1952' },
      { from: '1949-07', approximate: true },
    ],
    countries: ['UA', 'RU'],
    nationalities: ['UA'],
    identifiers: [{ scheme: 'passport', value: 'EC 123456', country: 'UA' }],
    programs: ['UKRAINE-EO13660'],
    listedOn: '2014-03-06',
    gender: 'male',
    notes: ['Former President of Ukraine'],
  });
  const company = listed({
    kind: 'company',
    names: [name('Acme Construction Ltd'), name('Acme Building Company', 'previous')],
    countries: ['RU', 'CY'],
    identifiers: [
      { scheme: 'inn', value: '7702070139' },
      { scheme: 'ogrn', value: '1027700132195' },
    ],
  });
  const vessel = listed({
    kind: 'vessel',
    names: [name('OCEAN STAR')],
    birthDates: [],
    countries: [],
    identifiers: [{ scheme: 'imo', value: '9123456' }],
  });
  const bare = listed({ kind: 'unknown', names: [] });
  const entities = [person, company, vessel, bare];
  const tokens = [
    [
      [0, 1, 2],
      [3, 4],
      [5, 6],
    ],
    [
      [7, 8, 9],
      [7, 10, 11],
    ],
    [[12, 13]],
    [],
  ];

  const builder = new EntityStoreBuilder();
  const ids = entities.map((entity, i) => builder.add(entity, namesOf(entity, tokens[i]!)));
  const store = builder.build();

  it('numbers the parties in the order they were added', () => {
    expect(ids).toEqual([0, 1, 2, 3]);
    expect(store.size).toBe(4);
    expect(store.nameCount).toBe(3 + 2 + 1 + 0);
  });

  it('gives back each party as it was added', () => {
    for (const [id, entity] of entities.entries()) expect(store.entity(id)).toEqual(entity);
    // A fresh copy each time: callers may change what they get.
    expect(store.entity(0)).not.toBe(store.entity(0));
  });

  it('keeps each kind', () => {
    expect(entities.map((_, id) => store.kind(id))).toEqual(['person', 'company', 'vessel', 'unknown']);
  });

  it('rebuilds the scoring facts: birth dates with their precision, ranges and approximate flag', () => {
    expect(store.facts(0)).toStrictEqual({
      kind: 'person',
      birthDates: [
        { from: '1950-07-09' },
        { from: '1950', to: '1952' },
        { from: '1949-07', approximate: true },
      ],
      countries: ['UA', 'RU'],
      identifiers: [{ scheme: 'passport', value: 'EC 123456', country: 'UA' }],
    });
  });

  it('keeps countries per party, also when parties share them', () => {
    expect(store.facts(1).countries).toEqual(['RU', 'CY']);
    expect(store.facts(0).countries).toEqual(['UA', 'RU']);
    expect(store.facts(2).countries).toEqual([]);
  });

  it('keeps identifiers per party, and none for parties without', () => {
    expect(store.facts(1).identifiers).toEqual(company.identifiers);
    expect(store.facts(2).identifiers).toEqual([{ scheme: 'imo', value: '9123456' }]);
    expect(store.facts(3).identifiers).toEqual([]);
    expect(store.facts(3)).toEqual({ kind: 'unknown', birthDates: [], countries: [], identifiers: [] });
  });

  it('gives each party a run of global name ids, with kinds and token ids in order', () => {
    expect([0, 1, 2, 3, 4].map((id) => store.firstName(id))).toEqual([0, 3, 5, 6, 6]);
    expect([0, 1, 2, 3, 4, 5].map((nameId) => store.nameKind(nameId))).toEqual([
      'primary',
      'alias',
      'weak',
      'primary',
      'previous',
      'primary',
    ]);
    const allTokens = [0, 1, 2, 3, 4, 5].map((nameId) => [...store.nameTokens(nameId)]);
    expect(allTokens).toEqual([
      [0, 1, 2],
      [3, 4],
      [5, 6],
      [7, 8, 9],
      [7, 10, 11],
      [12, 13],
    ]);
  });
});

describe('EntityStore: many parties', () => {
  it('keeps every party intact past the initial array sizes', () => {
    const builder = new EntityStoreBuilder();
    const entities: ListedEntity[] = [];
    const countries = ['RU', 'UA', 'BY', 'IR', 'KP', 'SY', 'CU', 'VE'];
    for (let i = 0; i < 1500; i++) {
      const year = 1900 + (i % 100);
      const entity = listed({
        names: [name(`Person ${i}`), name(`Alias ${i}`, 'alias')],
        birthDates: [
          { from: `${year}-01-0${1 + (i % 9)}` },
          { from: String(year), to: String(year + 2), ...(i % 2 === 0 && { approximate: true }) },
        ],
        countries: [countries[i % 8]!, countries[(i + 3) % 8]!],
      });
      entities.push(entity);
      builder.add(entity, namesOf(entity, [[i, i + 1], [i + 2]]));
    }
    const store = builder.build();
    expect(store.size).toBe(1500);
    expect(store.nameCount).toBe(3000);
    for (const i of [0, 511, 512, 1023, 1024, 1499]) {
      const entity = entities[i]!;
      expect(store.facts(i).birthDates, `party ${i}`).toStrictEqual(entity.birthDates);
      expect(store.facts(i).countries, `party ${i}`).toEqual(entity.countries);
      expect([...store.nameTokens(store.firstName(i))], `party ${i}`).toEqual([i, i + 1]);
      expect([...store.nameTokens(store.firstName(i) + 1)], `party ${i}`).toEqual([i + 2]);
      expect(store.entity(i)).toEqual(entity);
    }
  });
});
