import { describe, expect, it } from 'vitest';
import { EntityDraft } from './entityDraft.js';

function draft() {
  return new EntityDraft({
    publisherId: '42',
    dataset: 'test_list',
    source: { name: 'Test list', url: null },
    sourceRecordRef: 'T.42',
    kind: 'person',
    topics: ['sanction'],
  });
}

describe('EntityDraft', () => {
  it('keeps exactly one primary name: a second one becomes an alias', () => {
    const d = draft();
    d.addName('  John   SMITH ', 'primary');
    d.addName('Jon Smith', 'primary');
    const names = d.build().names;
    expect(names.filter((n) => n.kind === 'primary').map((n) => n.full)).toEqual(['John SMITH']);
    expect(names.find((n) => n.full === 'Jon Smith')?.kind).toBe('alias');
  });

  it('de-duplicates names keeping the stronger kind, skips blanks and detects the script', () => {
    const d = draft();
    d.addName('John Smith', 'primary');
    d.addName('Johnny', 'weak');
    d.addName('Johnny', 'alias');
    d.addName('John Smith', 'weak');
    d.addName('   ', 'alias');
    d.addName('Джон Смит', 'alias');
    expect(d.build().names).toEqual([
      { full: 'John Smith', kind: 'primary', script: 'Latn' },
      { full: 'Johnny', kind: 'alias', script: 'Latn' },
      { full: 'Джон Смит', kind: 'alias', script: 'Cyrl' },
    ]);
  });

  it('resolves countries, counts nationalities among them, and drops repeats', () => {
    const d = draft();
    d.addName('X', 'primary');
    d.addNationality('Russian Federation');
    d.addCountry('Russia');
    d.addCountry('Atlantis');
    d.addCountry('Iran (Islamic Republic of)');
    d.addIdentifier({ scheme: 'passport', value: ' A1 ', country: 'RU' });
    d.addIdentifier({ scheme: 'passport', value: 'A1', country: 'RU' });
    d.addBirthDates([{ from: '1960' }, { from: '1960' }, { from: '1960', approximate: true }]);
    const entity = d.build();
    expect(entity.countries).toEqual(['RU', 'IR']);
    expect(entity.nationalities).toEqual(['RU']);
    expect(entity.identifiers).toEqual([{ scheme: 'passport', value: 'A1', country: 'RU' }]);
    expect(entity.birthDates).toEqual([{ from: '1960' }, { from: '1960', approximate: true }]);
  });

  it('builds id, dataset and source from the basics', () => {
    const d = draft();
    d.addName('X', 'primary');
    d.setGender('Female');
    const entity = d.build();
    expect(entity.id).toBe('test_list:42');
    expect(entity.datasets).toEqual(['test_list']);
    expect(entity.sources).toEqual([{ name: 'Test list', url: null, dataset: 'test_list', priority: 1 }]);
    expect(entity.gender).toBe('female');
    expect(entity.notes).toBeUndefined();
  });
});
