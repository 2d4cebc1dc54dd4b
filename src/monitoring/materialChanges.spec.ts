import { describe, expect, it } from 'vitest';
import type { ListedEntity } from '../screening/model/listedEntity.js';
import { changeSummary, materialChanges } from './materialChanges.js';

function entity(overrides: Partial<ListedEntity> = {}): ListedEntity {
  return {
    id: 'test:1',
    kind: 'person',
    names: [
      { full: 'Ivan PETROV', kind: 'primary' },
      { full: 'Ivan Petrovich PETROV', kind: 'alias' },
    ],
    birthDates: [{ from: '1965-03-01' }],
    countries: ['RU'],
    nationalities: ['RU'],
    identifiers: [{ scheme: 'passport', value: 'AB 123456', country: 'RU' }],
    topics: ['sanction'],
    datasets: ['test'],
    sources: [{ name: 'Test', url: 'https://example.test/a', dataset: 'test', priority: 1 }],
    programs: ['RUSSIA-EO14024'],
    listedOn: '2022-02-24',
    modifiedOn: '2022-02-24',
    sourceRecordRef: 'test:1',
    notes: ['first note'],
    ...overrides,
  };
}

describe('materialChanges', () => {
  it('finds none when only order, case, spacing and non-material fields change', () => {
    const before = entity();
    const after = entity({
      names: [
        { full: 'Ivan  Petrovich PETROV', kind: 'alias' },
        { full: 'IVAN PETROV', kind: 'primary' },
      ],
      identifiers: [{ scheme: 'passport', value: 'AB-123456', country: 'RU' }],
      sources: [{ name: 'Test', url: 'https://example.test/b', dataset: 'test', priority: 1 }],
      modifiedOn: '2024-05-03',
      sourceRecordRef: 'test:1b',
      notes: ['another note'],
      programs: ['russia-eo14024'],
    });
    expect(materialChanges(before, after)).toEqual([]);
  });

  it('reports each changed field as sorted sets of readable values', () => {
    const after = entity({
      names: [...entity().names, { full: 'Vanya PETROV', kind: 'weak' }],
      birthDates: [{ from: '1964', to: '1966', approximate: true }],
      countries: ['RU', 'BY'],
      identifiers: [],
      programs: ['RUSSIA-EO14024', 'UKRAINE-EO13662'],
      kind: 'unknown',
    });
    expect(materialChanges(entity(), after)).toEqual([
      {
        field: 'names',
        previous: ['Ivan PETROV', 'Ivan Petrovich PETROV'],
        current: ['Ivan PETROV', 'Ivan Petrovich PETROV', 'Vanya PETROV'],
      },
      { field: 'birth_dates', previous: ['1965-03-01'], current: ['circa 1964/1966'] },
      { field: 'countries', previous: ['RU'], current: ['BY', 'RU'] },
      { field: 'programs', previous: ['RUSSIA-EO14024'], current: ['RUSSIA-EO14024', 'UKRAINE-EO13662'] },
      { field: 'identifiers', previous: ['passport:AB 123456'], current: [] },
      { field: 'kind', previous: ['person'], current: ['unknown'] },
    ]);
  });

  it('notices a changed topic and nationality', () => {
    const changes = materialChanges(
      entity(),
      entity({ topics: ['sanction', 'role.pep'], nationalities: [] }),
    );
    expect(changes.map((c) => c.field)).toEqual(['nationalities', 'topics']);
  });
});

describe('changeSummary', () => {
  it('says in one sentence what was added, removed or changed', () => {
    const after = entity({
      names: [...entity().names, { full: 'Vanya PETROV', kind: 'weak' }, { full: 'I. PETROV', kind: 'weak' }],
      programs: ['UKRAINE-EO13662'],
      identifiers: [],
    });
    expect(changeSummary(materialChanges(entity(), after), { displayName: 'Ivan PETROV' })).toBe(
      'Ivan PETROV: names added: I. PETROV, Vanya PETROV; programmes changed from RUSSIA-EO14024 to UKRAINE-EO13662; identifiers removed: passport:AB 123456.',
    );
  });

  it('says a delisting first, and shortens long lists', () => {
    const many = ['A', 'B', 'C', 'D', 'E'].map((letter) => `PROGRAM-${letter}`);
    expect(
      changeSummary([{ field: 'programs', previous: [], current: many }], {
        displayName: 'ACME LTD',
        delisted: true,
      }),
    ).toBe('ACME LTD: removed from the list; programmes added: PROGRAM-A, PROGRAM-B, PROGRAM-C and 2 more.');
    expect(changeSummary([], { displayName: 'ACME LTD' })).toBe('ACME LTD: no material change.');
  });
});
