import { describe, expect, it } from 'vitest';
import { collectEntities, entityById, fixturePath, namesOf } from '../../../test/support/parsedEntities.js';
import { type ParseProgress, SourceParseError } from '../model/listedEntity.js';
import { everyPoliticianCsvFormat } from './everyPoliticianCsv.js';

const fixture = (...segments: string[]) => fixturePath('everypolitician-csv', ...segments);

describe('everypolitician-csv', () => {
  it('reads every legislature of the top folder as PEPs, the country from countries.json', async () => {
    const dates: Date[] = [];
    const reports: ParseProgress[] = [];
    const entities = await collectEntities(everyPoliticianCsvFormat, [fixture('ep')], {
      onPublishedAt: (d) => dates.push(d),
      onProgress: (p) => reports.push(p),
    });
    expect(entities.map((e) => [e.id, e.countries])).toEqual([
      ['everypolitician:ee-1', ['EE']],
      ['everypolitician:ee-2', ['EE']],
      ['everypolitician:us-1', ['US']],
      ['everypolitician:us-2', ['US']],
    ]);
    for (const entity of entities) {
      expect(entity).toMatchObject({ kind: 'person', topics: ['role.pep'], datasets: ['everypolitician'] });
    }
    // The newest lastmod of the legislatures read (the US Senate's).
    expect(dates).toEqual([new Date(1448852763 * 1000)]);
    expect(reports.at(-1)).toMatchObject({ entities: 4, bytesRead: reports.at(-1)!.bytesTotal });
  });

  it('reads names in other scripts from names.csv, and the parts from sort_name', async () => {
    const entities = await collectEntities(everyPoliticianCsvFormat, [fixture('ep')]);
    const laaneots = entityById(entities, 'everypolitician:ee-1');
    expect(laaneots.names).toEqual([
      {
        full: 'Ants Laaneots',
        kind: 'primary',
        parts: { given: 'Ants', family: 'Laaneots' },
        script: 'Latn',
      },
      { full: 'Antss Lāneotss', kind: 'alias', script: 'Latn' },
      { full: 'Лаанеотс, Антс', kind: 'alias', script: 'Cyrl' },
    ]);
    expect(laaneots).toMatchObject({
      gender: 'male',
      sourceRecordRef: 'ee-1',
      notes: [
        'Member of the Riigikogu, Estonia (XIII Riigikogu)',
        'Group: Eesti Reformierakonna fraktsioon',
        'Area: Valimisringkond nr 10',
      ],
    });
    expect(laaneots.sources).toEqual([
      {
        name: 'EveryPolitician',
        url: 'https://everypolitician.org/',
        dataset: 'everypolitician',
        priority: 3,
      },
    ]);
    expect(namesOf(entityById(entities, 'everypolitician:us-1'), 'alias')).toEqual([
      'Adam Schiff',
      'Адам Шифф',
      'אדם שיף',
    ]);
  });

  it('makes one entity of a member with several rows, or in two legislatures of one country', async () => {
    const entities = await collectEntities(everyPoliticianCsvFormat, [fixture('ep')]);
    expect(entityById(entities, 'everypolitician:ee-2').notes).toEqual([
      'Member of the Riigikogu, Estonia (XIII Riigikogu)',
      'Group: Eesti Reformierakonna fraktsioon (until 2015-06-01)',
      'Group: Fraktsioonitud (from 2015-06-02)',
    ]);
    const vanHollen = entityById(entities, 'everypolitician:us-2');
    expect(vanHollen.notes).toEqual([
      'Member of the House of Representatives, United States of America (114th Congress)',
      'Group: Democrat',
      'Area: Maryland 8',
      'Member of the Senate, United States of America (114th Congress)',
      'Area: Maryland',
    ]);
    expect(namesOf(vanHollen, 'alias')).toEqual(['Кріс Ван Голлен']);
  });

  it('accepts one legislature folder, finding countries.json beside it', async () => {
    const entities = await collectEntities(everyPoliticianCsvFormat, [fixture('ep', 'Estonia_Riigikogu')]);
    expect(entities.map((e) => [e.id, e.countries, e.notes?.[0]])).toEqual([
      ['everypolitician:ee-1', ['EE'], 'Member of the Riigikogu, Estonia (XIII Riigikogu)'],
      ['everypolitician:ee-2', ['EE'], 'Member of the Riigikogu, Estonia (XIII Riigikogu)'],
    ]);
  });

  it('without countries.json takes the country from the folder name and drops name qualifiers', async () => {
    const dates: Date[] = [];
    const [member] = await collectEntities(
      everyPoliticianCsvFormat,
      [fixture('no-index', 'North_Korea_National_Assembly')],
      { onPublishedAt: (d) => dates.push(d) },
    );
    expect(member).toMatchObject({
      id: 'everypolitician:kp-1',
      countries: ['KP'],
      gender: 'male',
      notes: ['Member of the Supreme People’s Assembly, North Korea (term 13)', 'Area: Pyoldong'],
    });
    expect(member!.names.map((n) => [n.full, n.script])).toEqual([
      ['Choe Pu-il', 'Latn'],
      ["Ch'oe Pu Il", 'Latn'],
      ['최부일', 'Hang'],
      ['崔富日', 'Hani'],
    ]);
    expect(dates).toEqual([]);
  });

  it('drops the Wikipedia footnote markers at the end of names ("Kim Jong-un[14]")', async () => {
    const entities = await collectEntities(everyPoliticianCsvFormat, [
      fixture('footnotes', 'North_Korea_National_Assembly'),
    ]);
    expect(entities.map((e) => [e.id, e.names.map((n) => [n.full, n.kind])])).toEqual([
      [
        'everypolitician:kp-9',
        [
          ['Kim Jong-un', 'primary'],
          ['김정은', 'alias'],
        ],
      ],
      ['everypolitician:kp-10', [['Pak Pong-ju', 'primary']]],
    ]);
  });

  describe('malformed input', () => {
    async function failure(name: string): Promise<SourceParseError> {
      const error = await collectEntities(everyPoliticianCsvFormat, [fixture(name)]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SourceParseError);
      return error as SourceParseError;
    }

    it('refuses a term file without an id column and names the row without a name', async () => {
      const header = await failure('missing-id');
      expect(header.file).toBe(fixture('missing-id', 'Testland_Assembly', 'term-1.csv'));
      expect(header.reason).toBe(
        'not an EveryPolitician term CSV file: the header lacks id (found name, group)',
      );
      expect(await failure('missing-name')).toMatchObject({
        location: { line: 3, record: 't-2' },
        reason: 'row without a name',
      });
    });

    it('refuses a folder without legislatures', async () => {
      expect((await failure('empty')).reason).toBe('no legislature folder (with term-*.csv files) here');
    });
  });
});
