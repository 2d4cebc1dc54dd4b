import { beforeAll, describe, expect, it } from 'vitest';
import type { ListedEntity } from '../../../src/screening/model/listedEntity.js';
import { usCongressYamlFormat } from '../../../src/screening/parsers/usCongressYaml.js';
import { collectEntities, entityById, namesOf } from '../../support/parsedEntities.js';
import { screeningData } from '../../support/screeningData.js';

const data = screeningData('US Congress YAML parser over the real legislators and executive files');
const id = (ref: string) => `us_congress:${ref}`;

describe.skipIf(!data.available)('us-congress-yaml over the real files', () => {
  let entities: ListedEntity[];
  beforeAll(async () => {
    entities = await collectEntities(usCongressYamlFormat, [data.file('pep', 'us_congress')]);
  });

  it('reads the 537 members (data/README.md) and the 12 presidents and vice presidents born after 1925', () => {
    expect(entities).toHaveLength(549);
    expect(new Set(entities.map((e) => e.id)).size).toBe(549);
    const roles = new Map<string, number>();
    for (const entity of entities) {
      expect(entity).toMatchObject({ kind: 'person', topics: ['role.pep'], countries: ['US'] });
      expect(entity.birthDates).toHaveLength(1);
      const role = entity.notes![0]!.replace(/ for .*| \(.*$/, '');
      roles.set(role, (roles.get(role) ?? 0) + 1);
    }
    expect(Object.fromEntries(roles)).toEqual({
      'U.S. Representative': 437,
      'U.S. Senator': 100,
      'Vice President of the United States': 7,
      'President of the United States': 5,
    });
    // executive.yaml states no deaths: those born 100 years before its newest term are left out.
    const executives = entities.slice(537).map((e) => e.names[0]!.full);
    expect(executives).toEqual([
      'Walter Frederick Mondale',
      'James Danforth Quayle',
      'Albert Arnold Gore, Jr.',
      'William Jefferson Clinton',
      'Richard Bruce Cheney',
      'George Walker Bush',
      'Joseph Robinette Biden, Jr.',
      'Barack Hussein Obama',
      'Mike Pence',
      'Donald J. Trump',
      'Kamala D. Harris',
      'J.D. Vance',
    ]);
  });

  it('reads Charles E. Schumer (S000148) field by field', () => {
    const schumer = entityById(entities, id('S000148'));
    expect(schumer).toMatchObject({
      birthDates: [{ from: '1950-11-23' }],
      gender: 'male',
      nationalities: ['US'],
      sourceRecordRef: 'S000148',
      notes: [
        'U.S. Senator for NY (Democrat), 2023-01-03 to 2029-01-03',
        'Leadership: Senate Minority Leader, from 2025-01-03',
        'Wikidata: Q380900',
      ],
    });
    expect(schumer.names[0]).toMatchObject({
      full: 'Charles E. Schumer',
      parts: { given: 'Charles', middle: 'E.', family: 'Schumer' },
    });
    expect(namesOf(schumer, 'alias')).toEqual(['Charles Schumer', 'Chuck Schumer']);
  });

  it('reads Nancy Pelosi and Donald J. Trump (no bioguide id: govtrack-412733)', () => {
    expect(entityById(entities, id('P000197')).notes).toEqual([
      'U.S. Representative for CA-11 (Democrat), 2025-01-03 to 2027-01-03',
      'Leadership: Speaker of the House, 2021-01-03 to 2023-01-03',
      'Wikidata: Q170581',
    ]);
    expect(entityById(entities, id('govtrack-412733'))).toMatchObject({
      names: [
        { full: 'Donald J. Trump', kind: 'primary' },
        { full: 'Donald Trump', kind: 'alias' },
      ],
      birthDates: [{ from: '1946-06-14' }],
      notes: ['President of the United States (Republican), 2025-01-20 to 2029-01-20', 'Wikidata: Q22686'],
    });
  });
});
