import { describe, expect, it } from 'vitest';
import { collectEntities, entityById, fixturePath, namesOf } from '../../../test/support/parsedEntities.js';
import { SourceParseError } from '../model/listedEntity.js';
import { ofacXmlFormat } from './ofacXml.js';

const fixture = (name: string) => fixturePath('ofac-xml', name);

describe('ofac-xml', () => {
  it('reads a person: structured names, weak and previous aliases, identifiers, dates, countries', async () => {
    const entities = await collectEntities(ofacXmlFormat, [fixture('consolidated.xml')]);
    expect(entities).toHaveLength(3);
    const person = entityById(entities, 'us_ofac_cons:9647');
    expect(person).toMatchObject({
      kind: 'person',
      sourceRecordRef: 'ofac:sdn:9647',
      programs: ['NS-PLC', 'SDGT'],
      topics: ['sanction'],
      datasets: ['us_ofac_cons'],
      gender: 'male',
      nationalities: ['PS'],
      birthDates: [{ from: '1945', approximate: true }, { from: '1946-02-01' }],
    });
    expect(person.names).toEqual([
      {
        full: 'Mahmoud Khaled ZAHHAR',
        kind: 'primary',
        parts: { given: 'Mahmoud Khaled', family: 'ZAHHAR' },
        script: 'Latn',
      },
      {
        full: 'Mahmoud Khaled AL ZAHAR',
        kind: 'alias',
        parts: { given: 'Mahmoud Khaled', family: 'AL ZAHAR' },
        script: 'Latn',
      },
      { full: 'ZAHAR, Mahmoud', kind: 'weak', parts: { family: 'ZAHAR', given: 'Mahmoud' }, script: 'Latn' },
      {
        full: 'Mahmud ZAHHAR',
        kind: 'previous',
        parts: { given: 'Mahmud', family: 'ZAHHAR' },
        script: 'Latn',
      },
    ]);
    expect(person.identifiers).toEqual([{ scheme: 'passport', value: 'A1234567', country: 'EG' }]);
    expect(person.countries).toEqual(['EG', 'PS']);
    expect(person.notes).toEqual(
      expect.arrayContaining([
        'Website: www.example.org',
        'Address: Gaza City, Region: Gaza',
        '(Linked To: HAMAS)',
      ]),
    );
  });

  it('classifies entities by Target Type first, legal form second', async () => {
    const entities = await collectEntities(ofacXmlFormat, [fixture('consolidated.xml')]);
    const bank = entityById(entities, 'us_ofac_cons:17013');
    expect(bank.kind).toBe('company');
    expect(bank.identifiers).toEqual([
      { scheme: 'ogrn', value: '1027739609391', country: 'RU' },
      { scheme: 'swift_bic', value: 'VTBRRUMM' },
    ]);
    expect(bank.countries).toEqual(['RU']);
    expect(entityById(entities, 'us_ofac_cons:40001').kind).toBe('organization');
  });

  it('reports the publication date', async () => {
    const dates: Date[] = [];
    await collectEntities(ofacXmlFormat, [fixture('consolidated.xml')], {
      onPublishedAt: (d) => dates.push(d),
    });
    expect(dates).toEqual([new Date('2025-03-28T00:00:00Z')]);
  });

  it('reads sdn.xml in the older namespace: a vessel with IMO number and flag', async () => {
    const [vessel] = await collectEntities(ofacXmlFormat, [fixture('sdn-vessel.xml')], {
      dataset: 'us_ofac_sdn',
    });
    expect(vessel).toMatchObject({
      id: 'us_ofac_sdn:15037',
      kind: 'vessel',
      countries: ['PA'],
      identifiers: [
        { scheme: 'imo', value: '9187655' },
        { scheme: 'mmsi', value: '256842000' },
      ],
    });
    expect(namesOf(vessel!, 'primary')).toEqual(['ARK']);
  });

  describe('malformed input', () => {
    async function failure(name: string): Promise<SourceParseError> {
      const error = await collectEntities(ofacXmlFormat, [fixture(name)]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SourceParseError);
      expect((error as SourceParseError).file).toBe(fixture(name));
      return error as SourceParseError;
    }

    it('names the line of XML that is not well-formed', async () => {
      const error = await failure('malformed.xml');
      expect(error.location).toEqual({ line: 7 });
      expect(error.reason).toMatch(/^malformed XML/);
    });

    it('names the line of an entry without uid', async () => {
      const error = await failure('missing-uid.xml');
      expect(error.location).toEqual({ line: 8 });
      expect(error.reason).toBe('sdnEntry without uid');
    });

    it('refuses a file with fewer entries than its Record_Count', async () => {
      expect((await failure('count-mismatch.xml')).reason).toBe(
        'Record_Count says 2 entries, the file has 1',
      );
    });

    it('refuses a document of another format', async () => {
      const error = await collectEntities(ofacXmlFormat, [fixturePath('un-xml', 'consolidated.xml')]).catch(
        (e) => e,
      );
      expect(error).toBeInstanceOf(SourceParseError);
      expect(error.reason).toBe('expected a <sdnList> document, found <CONSOLIDATED_LIST>');
    });
  });
});
