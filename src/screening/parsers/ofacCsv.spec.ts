import { describe, expect, it } from 'vitest';
import { collectEntities, entityById, fixturePath, namesOf } from '../../../test/support/parsedEntities.js';
import { type ParseProgress, SourceParseError } from '../model/listedEntity.js';
import { ofacCsvFormat } from './ofacCsv.js';

const fixture = (...segments: string[]) => fixturePath('ofac-csv', ...segments);

describe('ofac-csv', () => {
  it('joins the set on ent_num and reads every entry of a directory', async () => {
    const entities = await collectEntities(ofacCsvFormat, [fixture('set')]);
    expect(entities.map((e) => e.id)).toEqual([
      'us_ofac_sdn:36',
      'us_ofac_sdn:173',
      'us_ofac_sdn:306',
      'us_ofac_sdn:12300',
      'us_ofac_sdn:15037',
      'us_ofac_sdn:15431',
      'us_ofac_sdn:28264',
    ]);
    const airline = entityById(entities, 'us_ofac_sdn:36');
    expect(airline).toMatchObject({
      kind: 'organization',
      countries: ['CU'],
      programs: ['CUBA'],
      topics: ['sanction'],
      datasets: ['us_ofac_sdn'],
      sourceRecordRef: 'ofac:sdn:36',
      notes: ['Address: Havana, Cuba'],
    });
    expect(airline.sources).toEqual([
      { name: expect.stringContaining('OFAC'), url: expect.any(String), dataset: 'us_ofac_sdn', priority: 1 },
    ]);
    expect(namesOf(airline, 'primary')).toEqual(['AEROCARIBBEAN AIRLINES']);
    expect(namesOf(airline, 'alias')).toEqual(['AERO-CARIBBEAN']);
  });

  it('tells companies from organisations by legal form and reads weak aliases from the remarks', async () => {
    const entities = await collectEntities(ofacCsvFormat, [fixture('set')]);
    expect(entityById(entities, 'us_ofac_sdn:173').kind).toBe('company');
    const bank = entityById(entities, 'us_ofac_sdn:306');
    expect(bank.kind).toBe('organization');
    expect(namesOf(bank, 'weak')).toEqual(['BNC']);
    expect(namesOf(bank, 'alias')).toEqual(['NATIONAL BANK OF CUBA']);
  });

  it('reads a person: name parts, birth dates, citizenship, identifiers, gender', async () => {
    const person = entityById(await collectEntities(ofacCsvFormat, [fixture('set')]), 'us_ofac_sdn:12300');
    expect(person.kind).toBe('person');
    expect(person.names[0]).toEqual({
      full: 'CIFUENTES VILLA, Jorge Milton',
      kind: 'primary',
      parts: { family: 'CIFUENTES VILLA', given: 'Jorge Milton' },
      script: 'Latn',
    });
    expect(person.names.find((n) => n.full === 'LOPEZ SALAZAR, Elkin de Jesus')).toMatchObject({
      kind: 'alias',
      parts: { family: 'LOPEZ SALAZAR', given: 'Elkin de Jesus' },
    });
    expect(namesOf(person, 'weak')).toEqual(['EL PATRON']);
    expect(person.birthDates).toEqual([
      { from: '1965-05-13' },
      { from: '1968-04-13' },
      { from: '1964', approximate: true },
    ]);
    expect(person.nationalities).toEqual(['CO']);
    expect(person.countries).toEqual(['CO', 'MX']);
    expect(person.identifiers).toEqual([
      { scheme: 'national_id', value: '7548733', country: 'CO' },
      { scheme: 'passport', value: 'AL720622', country: 'CO' },
      { scheme: 'tax_id', value: 'CIVJ650513LJA', country: 'MX' },
    ]);
    expect(person.gender).toBe('male');
    expect(person.programs).toEqual(['SDNTK']);
  });

  it('reads vessels and aircraft with their identifiers, and previous names', async () => {
    const entities = await collectEntities(ofacCsvFormat, [fixture('set')]);
    const ship = entityById(entities, 'us_ofac_sdn:15037');
    expect(ship.kind).toBe('vessel');
    expect(ship.identifiers).toEqual([
      { scheme: 'imo', value: '9187655' },
      { scheme: 'mmsi', value: '256842000' },
    ]);
    expect(ship.countries).toEqual(['PA']);
    expect(namesOf(ship, 'previous')).toEqual(['ABADEH']);
    expect(ship.notes?.[0]).toBe(
      'Vessel: call sign 9HDQ9, type Crude/Oil Products Tanker, tonnage 99,030, GRT 56,068, flag Panama',
    );
    const plane = entityById(entities, 'us_ofac_sdn:15431');
    expect(plane.kind).toBe('aircraft');
    expect(plane.programs).toEqual(['IRAN', 'SDGT']);
    expect(plane.identifiers).toEqual([
      { scheme: 'aircraft_serial', value: '727' },
      { scheme: 'aircraft_tail', value: 'EP-GOM' },
    ]);
  });

  it('continues remarks cut off in the main file with the spill-over file', async () => {
    const person = entityById(await collectEntities(ofacCsvFormat, [fixture('set')]), 'us_ofac_sdn:28264');
    expect(namesOf(person, 'weak')).toEqual(['blackjack1987']);
    expect(person.notes).toContain(
      "DOB 1960 to 1962; nationality China; Gender Male; Identification Number 210302198701102136 (China); Phone Number 8613314257947; a.k.a. 'blackjack1987'; Linked To: LAZARUS GROUP.",
    );
    expect(person.birthDates).toEqual([{ from: '1960', to: '1962' }]);
    expect(person.identifiers).toEqual([
      { scheme: 'national_id', value: '210302198701102136', country: 'CN' },
    ]);
  });

  it('accepts the set files listed one by one, and a lone main file of any name', async () => {
    const files = ['sdn.csv', 'alt.csv', 'add.csv', 'sdn_comments.csv'].map((name) => fixture('set', name));
    const fromFiles = await collectEntities(ofacCsvFormat, files);
    expect(fromFiles).toEqual(await collectEntities(ofacCsvFormat, [fixture('set')]));
    const mainOnly = await collectEntities(ofacCsvFormat, [fixture('main-only', 'sdn_2024-05-02.csv')], {
      dataset: 'us_ofac_sdn_daily',
    });
    expect(mainOnly.map((e) => e.id)).toEqual([
      'us_ofac_sdn_daily:36',
      'us_ofac_sdn_daily:173',
      'us_ofac_sdn_daily:306',
    ]);
    expect(mainOnly[0]!.names).toHaveLength(1);
  });

  describe('missing side files', () => {
    const missing = (...paths: string[]) => ofacCsvFormat.missingFiles!(paths);

    it('names none for the whole set, as a folder or file by file', async () => {
      expect(await missing(fixture('set'))).toEqual([]);
      const files = ['sdn_comments.csv', 'add.csv', 'sdn.csv', 'alt.csv'].map((name) => fixture('set', name));
      expect(await missing(...files)).toEqual([]);
    });

    it('names every side file a lone main file lacks, and what each would have added', async () => {
      expect(await missing(fixture('main-only', 'sdn_2024-05-02.csv'))).toEqual([
        { name: 'alt.csv', holds: 'the aliases' },
        { name: 'add.csv', holds: 'the addresses' },
        { name: 'sdn_comments.csv', holds: 'the rest of long remarks' },
      ]);
      expect(
        (await missing(fixture('set', 'sdn.csv'), fixture('set', 'alt.csv'))).map((f) => f.name),
      ).toEqual(['add.csv', 'sdn_comments.csv']);
    });

    it('names them as the consolidated set does when the main file is cons_prim.csv', async () => {
      expect((await missing(fixture('cons-partial'))).map((f) => f.name)).toEqual([
        'cons_add.csv',
        'cons_comments.csv',
      ]);
      // The partial set still parses: the aliases it has are joined.
      const entities = await collectEntities(ofacCsvFormat, [fixture('cons-partial')]);
      expect(namesOf(entityById(entities, 'us_ofac_sdn:306'), 'alias')).toEqual(['NATIONAL BANK OF CUBA']);
    });

    it('refuses inputs without a main file as parsing does', async () => {
      await expect(missing(fixture('set', 'alt.csv'))).rejects.toThrow(SourceParseError);
    });
  });

  it('reports progress over all files of the set, ending at the total', async () => {
    const reports: ParseProgress[] = [];
    await collectEntities(ofacCsvFormat, [fixture('set')], { onProgress: (p) => reports.push(p) });
    const last = reports[reports.length - 1]!;
    expect(last.bytesRead).toBe(last.bytesTotal);
    expect(last.entities).toBe(7);
    expect(reports.map((r) => r.bytesRead)).toEqual(
      [...reports.map((r) => r.bytesRead)].sort((a, b) => a - b),
    );
  });

  describe('malformed input', () => {
    async function failure(paths: string[]): Promise<SourceParseError> {
      const error = await collectEntities(ofacCsvFormat, paths).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SourceParseError);
      return error as SourceParseError;
    }

    it('names file and line of a row with the wrong column count', async () => {
      const error = await failure([fixture('bad-columns')]);
      expect(error.file).toBe(fixture('bad-columns', 'sdn.csv'));
      expect(error.location).toEqual({ line: 2 });
      expect(error.reason).toBe('expected 12 columns, found 11');
    });

    it('names file, line and ent_num of an alias whose entry is not in the main file', async () => {
      const error = await failure([fixture('orphan-alias')]);
      expect(error.file).toBe(fixture('orphan-alias', 'alt.csv'));
      expect(error.location).toEqual({ line: 2, record: '999' });
      expect(error.message).toContain('ent_num 999 is not in sdn.csv');
    });

    it('names the record of an entry without a name', async () => {
      const error = await failure([fixture('missing-name')]);
      expect(error.location).toEqual({ line: 2, record: '173' });
    });

    it('names the line of broken quoting', async () => {
      const error = await failure([fixture('bad-quote')]);
      expect(error.file).toBe(fixture('bad-quote', 'sdn.csv'));
      expect(error.location).toEqual({ line: 2 });
      expect(error.reason).toMatch(/^malformed CSV/);
    });

    it('refuses a set without a main file and a path that does not exist', async () => {
      expect((await failure([fixture('set', 'alt.csv')])).reason).toMatch(/no main file/);
      expect((await failure([fixture('nowhere')])).reason).toMatch(/^cannot read/);
    });
  });
});
