import { describe, expect, it } from 'vitest';
import { collectEntities, entityById, fixturePath, namesOf } from '../../../test/support/parsedEntities.js';
import { type ParseProgress, SourceParseError } from '../model/listedEntity.js';
import { ftmCountry } from './ftmEntity.js';
import { ftmJsonFormat } from './ftmJson.js';

const fixture = (...segments: string[]) => fixturePath('ftm', ...segments);

describe('ftm', () => {
  it('yields the parties only, in file order, under <dataset>:<FtM id>', async () => {
    const entities = await collectEntities(ftmJsonFormat, [fixture('entities.ftm.jsonl')]);
    expect(entities.map((e) => [e.id, e.kind])).toEqual([
      ['opensanctions:NK-company1', 'company'],
      ['opensanctions:NK-legal1', 'unknown'],
      ['opensanctions:NK-person1', 'person'],
      ['opensanctions:NK-plane1', 'aircraft'],
      ['opensanctions:NK-vessel1', 'vessel'],
      ['opensanctions:Q-body', 'organization'],
    ]);
    const withDataset = await collectEntities(ftmJsonFormat, [fixture('entities.ftm.jsonl')], {
      dataset: 'eu_fsf',
    });
    expect(withDataset[0]).toMatchObject({ id: 'eu_fsf:NK-company1', datasets: ['eu_fsf', 'us_bis_el'] });
  });

  it('maps a person: names by kind with the parts they contain, dates, countries, identifiers, topics', async () => {
    const person = entityById(
      await collectEntities(ftmJsonFormat, [fixture('entities.ftm.jsonl')]),
      'opensanctions:NK-person1',
    );
    expect(person.names).toEqual([
      {
        full: 'Ivan Petrovich SIDOROV',
        kind: 'primary',
        parts: { given: 'Ivan', middle: 'Petrovich', family: 'SIDOROV' },
        script: 'Latn',
      },
      {
        full: 'Иван Петрович Сидоров',
        kind: 'alias',
        parts: { given: 'Иван', family: 'Сидоров', patronymic: 'Петрович' },
        script: 'Cyrl',
      },
      { full: 'Vanya Sidorov', kind: 'alias', parts: { family: 'Sidorov' }, script: 'Latn' },
      {
        full: 'Ivan Petrovich IVANOV',
        kind: 'previous',
        parts: { given: 'Ivan', middle: 'Petrovich', family: 'IVANOV' },
        script: 'Latn',
      },
      { full: 'Vanya', kind: 'weak', script: 'Latn' },
    ]);
    expect(person).toMatchObject({
      sourceRecordRef: 'NK-person1',
      birthDates: [{ from: '1970-05-01' }, { from: '1971' }],
      // "suhh" (Soviet Union) and "zz" (global) are no countries.
      countries: ['RU'],
      nationalities: ['RU'],
      topics: ['sanction', 'role.pep'],
      datasets: ['opensanctions', 'eu_fsf', 'gb_hmt_sanctions'],
      sources: [
        {
          name: 'OpenSanctions',
          url: 'https://www.opensanctions.org/',
          dataset: 'opensanctions',
          priority: 3,
        },
      ],
      programs: ['EU-UKR'],
      gender: 'male',
      modifiedOn: '2024-02-03',
    });
    // The INN repeated as taxNumber and idNumber is one identifier; the Passport entity gives the
    // passport's country and a second number.
    expect(person.identifiers).toEqual([
      { scheme: 'inn', value: '772345678901' },
      { scheme: 'passport', value: '751234567', country: 'RU' },
      { scheme: 'national_id', value: '4500123456' },
      { scheme: 'passport', value: '760000001', country: 'RU' },
    ]);
  });

  it('takes listing dates and programmes from the Sanction entities, wherever they are in the file', async () => {
    const entities = await collectEntities(ftmJsonFormat, [fixture('entities.ftm.jsonl')]);
    const person = entityById(entities, 'opensanctions:NK-person1');
    // The sanction's listing date (2014) is earlier than the record's createdAt (2022).
    expect(person.listedOn).toBe('2014-03-17');
    expect(person.notes).toEqual([
      'Position: Deputy Minister of Industry',
      'Place of birth: Tula',
      'Address: Moscow, Tverskaya 1',
      'Listed for his role in the defence industry.',
      'Sanction: Council of the European Union, Russia/Ukraine territorial integrity, listed 2014-03-17',
    ]);
    const company = entityById(entities, 'opensanctions:NK-company1');
    expect(company).toMatchObject({
      listedOn: '2020-06-01',
      modifiedOn: '2023-05-05',
      programs: ['Entity List'],
      notes: ['Sanction: Bureau of Industry and Security, Entity List, listed 2020-06-01, until 2030-01-01'],
    });
    expect(namesOf(company, 'previous')).toEqual(['ZAO Romashka']);
    expect(namesOf(company, 'weak')).toEqual(['ROM']);
    // The OGRN repeated as registrationNumber is one identifier; Identification adds the tax number.
    expect(company.identifiers).toEqual([
      { scheme: 'ogrn', value: '1027700123456' },
      { scheme: 'lei', value: '253400ABCDEFGHIJKL12' },
      { scheme: 'swift_bic', value: 'ROMARUMM' },
      { scheme: 'registration', value: 'REG-42' },
      { scheme: 'tax_id', value: '7712345678', country: 'RU' },
    ]);
  });

  it('reads vessel and aircraft numbers, Kosovo, and first_seen when nothing else dates the listing', async () => {
    const entities = await collectEntities(ftmJsonFormat, [fixture('entities.ftm.jsonl')]);
    expect(entityById(entities, 'opensanctions:NK-vessel1')).toMatchObject({
      countries: ['PA'],
      identifiers: [
        { scheme: 'imo', value: '9187655' },
        { scheme: 'mmsi', value: '256842000' },
      ],
    });
    expect(entityById(entities, 'opensanctions:NK-plane1').identifiers).toEqual([
      { scheme: 'aircraft_serial', value: '727' },
      { scheme: 'aircraft_tail', value: 'EP-GOM' },
    ]);
    expect(entityById(entities, 'opensanctions:NK-legal1')).toMatchObject({ countries: ['XK'], topics: [] });
    expect(ftmCountry('ru')).toBe('RU');
    for (const code of ['suhh', 'zz', 'eu', 'ge-ab', '']) expect(ftmCountry(code)).toBeUndefined();
  });

  it('reads several files and a directory of FtM files, reporting progress over both passes', async () => {
    const reports: ParseProgress[] = [];
    const two = await collectEntities(
      ftmJsonFormat,
      [fixture('entities.ftm.jsonl'), fixture('second.ftm.jsonl')],
      { onProgress: (p) => reports.push(p) },
    );
    expect(two.map((e) => e.id).at(-1)).toBe('opensanctions:NK-other');
    const last = reports.at(-1)!;
    expect(last).toMatchObject({ entities: 7, bytesRead: last.bytesTotal });
    expect(reports.map((r) => r.bytesRead)).toEqual(
      [...reports.map((r) => r.bytesRead)].sort((a, b) => a - b),
    );
    // A directory: its *.ftm.json and *.ftm.jsonl files in name order, nothing else.
    expect(await collectEntities(ftmJsonFormat, [fixture('set')])).toEqual(two);
  });

  describe('malformed input', () => {
    async function failure(name: string): Promise<SourceParseError> {
      const error = await collectEntities(ftmJsonFormat, [fixture(name)]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SourceParseError);
      return error as SourceParseError;
    }

    it('names the line of bad JSON', async () => {
      const error = await failure('bad-json.ftm.jsonl');
      expect(error.location).toEqual({ line: 2 });
      expect(error.reason).toMatch(/^not a JSON line: /);
    });

    it('names line and id of a party listed twice and of a party without a name', async () => {
      const duplicate = await failure('duplicate.ftm.jsonl');
      expect(duplicate.location).toEqual({ line: 3, record: 'NK-vessel1' });
      expect(duplicate.reason).toBe('FtM id listed twice');
      const nameless = await failure('no-name.ftm.jsonl');
      expect(nameless.location).toEqual({ line: 2, record: 'NK-noname' });
      expect(nameless.reason).toBe('Company without a name');
    });

    it('refuses an entity without a schema and a property that is not a list', async () => {
      expect((await failure('no-schema.ftm.jsonl')).reason).toBe('FtM entity without a schema');
      const property = await failure('bad-property.ftm.jsonl');
      expect(property.location).toEqual({ line: 1, record: 'NK-x' });
      expect(property.reason).toBe('FtM property name must be a list');
    });
  });
});
