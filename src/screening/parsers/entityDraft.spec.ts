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

  it('counts an identifier once with and once without its issuing country as one, with the country', () => {
    const d = draft();
    d.addName('X', 'primary');
    d.addIdentifier({ scheme: 'passport', value: '751234567' });
    d.addIdentifier({ scheme: 'inn', value: '7712345678' });
    d.addIdentifier({ scheme: 'passport', value: '751234567', country: 'RU' });
    d.addIdentifier({ scheme: 'passport', value: '751234567' });
    d.addIdentifier({ scheme: 'passport', value: '751234567', country: 'BY' });
    expect(d.build().identifiers).toEqual([
      { scheme: 'passport', value: '751234567', country: 'RU' },
      { scheme: 'inn', value: '7712345678' },
      { scheme: 'passport', value: '751234567', country: 'BY' },
    ]);
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

  it('takes the priority and further datasets from the basics when given', () => {
    const d = new EntityDraft({
      publisherId: 'NK-1',
      dataset: 'opensanctions',
      source: { name: 'OpenSanctions', url: null },
      sourceRecordRef: 'NK-1',
      kind: 'company',
      topics: ['debarment'],
      priority: 3,
      datasets: ['eu_fsf', 'opensanctions', 'us_ofac_sdn'],
    });
    d.addName('X', 'primary');
    const entity = d.build();
    expect(entity.datasets).toEqual(['opensanctions', 'eu_fsf', 'us_ofac_sdn']);
    expect(entity.sources).toEqual([
      { name: 'OpenSanctions', url: null, dataset: 'opensanctions', priority: 3 },
    ]);
  });
});
