import { describe, expect, it } from 'vitest';
import { collectEntities, entityById, fixturePath, namesOf } from '../../../test/support/parsedEntities.js';
import { SourceParseError } from '../model/listedEntity.js';
import { splitUnAliases, unXmlFormat } from './unXml.js';

const fixture = (name: string) => fixturePath('un-xml', name);

describe('un-xml', () => {
  it('reads individuals and entities, leaving out delisted records', async () => {
    const entities = await collectEntities(unXmlFormat, [fixture('consolidated.xml')]);
    expect(entities.map((e) => [e.id, e.kind, e.sourceRecordRef])).toEqual([
      ['un_sc_sanctions:110447', 'person', 'TAi.005'],
      ['un_sc_sanctions:6908555', 'person', 'KPi.033'],
      ['un_sc_sanctions:110339', 'company', 'KPe.001'],
      ['un_sc_sanctions:110402', 'organization', 'QDe.004'],
    ]);
  });

  it('maps an individual field by field', async () => {
    const person = entityById(
      await collectEntities(unXmlFormat, [fixture('consolidated.xml')]),
      'un_sc_sanctions:110447',
    );
    expect(person.names).toEqual([
      { full: 'MUHAMMAD TAHER ANWARI', kind: 'primary', script: 'Latn' },
      { full: 'محمد طاهر أنوري', kind: 'alias', script: 'Arab' },
      { full: 'Mohammad Taher Anwari', kind: 'alias', script: 'Latn' },
      { full: 'Muhammad Tahir Anwari', kind: 'alias', script: 'Latn' },
      { full: 'Haji Mudir', kind: 'weak', script: 'Latn' },
      // The alias's note gives it in its original script.
      { full: 'حاجي مدير', kind: 'weak', script: 'Arab' },
    ]);
    expect(person.birthDates).toEqual([
      { from: '1961', approximate: true },
      { from: '1958', to: '1963' },
    ]);
    expect(person.nationalities).toEqual(['AF']);
    expect(person.countries).toEqual(['AF', 'IR']);
    expect(person.identifiers).toEqual([
      { scheme: 'passport', value: 'D 000974', country: 'AF' },
      { scheme: 'national_id', value: '55252', country: 'IR' },
    ]);
    expect(person).toMatchObject({
      programs: ['Taliban'],
      listedOn: '2001-02-23',
      modifiedOn: '2011-11-29',
      gender: 'male',
      topics: ['sanction'],
      datasets: ['un_sc_sanctions'],
    });
    expect(person.notes).toEqual([
      'Nationality: former Soviet Union',
      'Place of birth: Zurmat District, Paktia Province, Afghanistan',
      'Title: Mullah',
      'Belongs to Andar tribe.',
    ]);
  });

  it('keeps names in other scripts as aliases, f.k.a. as previous names, and alias birth dates', async () => {
    const person = entityById(
      await collectEntities(unXmlFormat, [fixture('consolidated.xml')]),
      'un_sc_sanctions:6908555',
    );
    expect(person.names.find((n) => n.full === '金铁三')).toEqual({
      full: '金铁三',
      kind: 'alias',
      script: 'Hani',
    });
    expect(namesOf(person, 'alias')).toEqual(['Jin Tiesan', '金铁三']);
    expect(namesOf(person, 'previous')).toEqual(['Ri Won-ho']);
    expect(person.birthDates).toEqual([{ from: '1964-07-18' }, { from: '1964-07-17' }, { from: '1958-11' }]);
    expect(person.nationalities).toEqual(['KP']);
    expect(person.countries).toEqual(['KP', 'SY']);
    expect(person.names[0]!.parts).toBeUndefined();
  });

  it('reports dateGenerated as the publication date', async () => {
    const dates: Date[] = [];
    await collectEntities(unXmlFormat, [fixture('consolidated.xml')], {
      onPublishedAt: (d) => dates.push(d),
    });
    expect(dates).toEqual([new Date('2025-04-19T23:00:04.625Z')]);
  });

  it('splits alias lists', () => {
    expect(splitUnAliases('Mohammed Sabet; Mohammad Sabet b) M. Javad Kareemi Sabet')).toEqual([
      'Mohammed Sabet',
      'Mohammad Sabet',
      'M. Javad Kareemi Sabet',
    ]);
    expect(
      splitUnAliases('Safia Farkash Mohammed Al-Hadad, born 1 Jan. 1953 (Oman passport no.03825239)'),
    ).toEqual(['Safia Farkash Mohammed Al-Hadad']);
    expect(splitUnAliases('Akrin Saleh Akrin (أقرين صالح أقرين)')).toEqual([
      'Akrin Saleh Akrin',
      'أقرين صالح أقرين',
    ]);
    expect(splitUnAliases('Frank Kakorere (Aigle Blanc)')).toEqual(['Frank Kakorere (Aigle Blanc)']);
    expect(splitUnAliases('Abu Muhammad (original script: Абу Мухаммад)')).toEqual([
      'Abu Muhammad',
      'Абу Мухаммад',
    ]);
  });

  describe('malformed input', () => {
    async function failure(name: string): Promise<SourceParseError> {
      const error = await collectEntities(unXmlFormat, [fixture(name)]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SourceParseError);
      expect((error as SourceParseError).file).toBe(fixture(name));
      return error as SourceParseError;
    }

    it('names line and reference of a record without DATAID', async () => {
      const error = await failure('missing-dataid.xml');
      expect(error.location).toEqual({ line: 5, record: 'KPe.777' });
    });

    it('names the record without a name', async () => {
      const error = await failure('missing-name.xml');
      expect(error.location).toEqual({ line: 4, record: 'QDi.001' });
      expect(error.reason).toBe('INDIVIDUAL without a name');
    });

    it('refuses a truncated file', async () => {
      const error = await failure('truncated.xml');
      expect(error.reason).toMatch(/^malformed XML/);
      expect(error.location?.line).toBeGreaterThanOrEqual(6);
    });
  });
});
