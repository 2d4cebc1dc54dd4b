import { beforeAll, describe, expect, it } from 'vitest';
import type { ListedEntity } from '../../../src/screening/model/listedEntity.js';
import { everyPoliticianCsvFormat } from '../../../src/screening/parsers/everyPoliticianCsv.js';
import { collectEntities, entityById } from '../../support/parsedEntities.js';
import { screeningData } from '../../support/screeningData.js';

const data = screeningData('EveryPolitician CSV parser over the real 2015-11 legislatures');
const id = (ref: string) => `everypolitician:${ref}`;

describe.skipIf(!data.available)('everypolitician-csv over the real legislatures', () => {
  let entities: ListedEntity[];
  const dates: Date[] = [];
  beforeAll(async () => {
    entities = await collectEntities(
      everyPoliticianCsvFormat,
      [data.file('pep', 'everypolitician_2015-11')],
      {
        onPublishedAt: (d) => dates.push(d),
      },
    );
  });

  it('reads the 15 legislatures into 5,448 members (data/README.md says about 4,500)', () => {
    expect(entities).toHaveLength(5448);
    expect(new Set(entities.map((e) => e.id)).size).toBe(5448);
    const byCountry = new Map<string, number>();
    for (const entity of entities) {
      expect(entity).toMatchObject({ kind: 'person', topics: ['role.pep'] });
      expect(entity.countries).toHaveLength(1);
      byCountry.set(entity.countries[0]!, (byCountry.get(entity.countries[0]!) ?? 0) + 1);
    }
    expect(Object.fromEntries(byCountry)).toEqual({
      BY: 109,
      BR: 513,
      EE: 120,
      IR: 289,
      KE: 350,
      MX: 498,
      NG: 362,
      KP: 687,
      RU: 450,
      SY: 274,
      GB: 650,
      UA: 441,
      US: 543,
      VE: 162,
    });
    // The newest lastmod among the 15 legislatures, from countries.json.
    expect(dates).toEqual([new Date('2015-11-30T09:21:08Z')]);
  });

  it('reads Al Franken (US Senate) with his names in eight other scripts', () => {
    const franken = entities.find((e) => e.names[0]!.full === 'Al Franken')!;
    expect(franken).toMatchObject({
      gender: 'male',
      countries: ['US'],
      notes: [
        'Member of the Senate, United States of America (114th Congress)',
        'Group: Democrat',
        'Area: Minnesota',
      ],
    });
    expect(franken.names.map((n) => n.script)).toEqual([
      'Latn',
      'Cyrl',
      'Cyrl',
      'Hebr',
      'Hebr',
      'Arab',
      'Jpan',
      'Hani',
      'Hani',
      'Hang',
    ]);
  });

  it('makes one entity of a Rada member who changed groups, and drops qualifiers from Korean names', () => {
    expect(entityById(entities, id('a818db1c-dad2-4225-a9a2-bc77f5be5f3f'))).toMatchObject({
      names: [{ full: 'Єднак Остап Володимирович', script: 'Cyrl' }],
      countries: ['UA'],
      notes: [
        'Member of the Verkhovna Rada, Ukraine (8th Verkhovna Rada)',
        'Group: Фракція Політичної партії "Об\'єднання "САМОПОМІЧ" (until 2015-09-02)',
        'Area: Загальнодержавному багатомандатному округу',
        'Group: Позафракційні (from 2015-09-03)',
      ],
    });
    const an = entities.find((e) => e.names[0]!.full === 'An Myong-ok')!;
    expect(an.names.map((n) => n.full)).toEqual(['An Myong-ok', '안명옥']);
  });

  it('drops Wikipedia footnote markers from names: "Kim Jong-un[14]" is Kim Jong-un', () => {
    expect(entityById(entities, id('ebbf5070-ae94-4ae9-9c7a-5645c6ce7bb0')).names[0]!.full).toBe(
      'Kim Jong-un',
    );
    const marked = entities
      .flatMap((e) => e.names.map((n) => n.full))
      .filter((name) => /\[\d+\]$/.test(name));
    expect(marked).toEqual([]);
  });
});
