import { describe, expect, it } from 'vitest';
import { collectEntities, entityById, fixturePath, namesOf } from '../../../test/support/parsedEntities.js';
import { type ParseProgress, SourceParseError } from '../model/listedEntity.js';
import { cslCsvFormat, parseCslIds } from './cslCsv.js';

const fixture = (name: string) => fixturePath('csl-csv', name);
const id = (ref: string) => `us_trade_csl:${ref}`;

describe('csl-csv', () => {
  it('reads one entity per list and _id, with the topic and priority of its list', async () => {
    const entities = await collectEntities(cslCsvFormat, [fixture('consolidated.csv')]);
    expect(entities.map((e) => [e.id, e.topics, e.sources[0]!.priority])).toEqual([
      [id('sdn/9935'), ['sanction'], 1],
      [id('sdn/18741'), ['sanction'], 1],
      [id('ssi/18741'), ['sanction'], 1],
      [id('cap/15268'), ['sanction'], 1],
      [id('sdn/15037'), ['sanction'], 1],
      [id('el/4398d33e9e93c7477af39f1e0bfffc13ddd47bcc'), ['export.control'], 2],
      [id('el/c2568ff6995aad449931e7d409e5b76c786a79b5'), ['export.control'], 2],
      [id('dpl/deb7a1d5743a85c354ca1a2c7f2664e2104b32d7'), ['export.control'], 2],
      [id('dtc/dc05874053b004556ee517f8efe7a62f49d1a7db'), ['debarment'], 2],
      [id('plc/9666'), ['sanction'], 1],
    ]);
    expect(entityById(entities, id('ssi/18741')).sources[0]).toEqual({
      name: 'Sectoral Sanctions Identifications List (SSI) - Treasury Department',
      url: 'https://www.trade.gov/consolidated-screening-list',
      dataset: 'us_trade_csl',
      priority: 1,
    });
  });

  it('reads a person: "FAMILY, Given" parts, aliases, birth date, nationalities, ids and gender', async () => {
    const person = entityById(
      await collectEntities(cslCsvFormat, [fixture('consolidated.csv')]),
      id('sdn/9935'),
    );
    expect(person).toMatchObject({
      kind: 'person',
      sourceRecordRef: '9935',
      programs: ['SDGT'],
      birthDates: [{ from: '1962-08-06' }],
      nationalities: ['CA', 'SD'],
      countries: ['CA', 'SD'],
      identifiers: [{ scheme: 'passport', value: 'BC166787', country: 'CA' }],
      gender: 'male',
      notes: ['Place of birth: Al-Bawgah, Sudan', 'Email Address: me@example.org'],
    });
    expect(person.names[0]).toEqual({
      full: "'ABD AL-RAZZIQ, Abu Sufian al-Salamabi Muhammed Ahmed",
      kind: 'primary',
      parts: { family: "'ABD AL-RAZZIQ", given: 'Abu Sufian al-Salamabi Muhammed Ahmed' },
      script: 'Latn',
    });
    expect(namesOf(person, 'alias')).toEqual(['ABDELRAZIK, Sofian', 'ABOU EL LAYTH']);
  });

  it('reads Russian registration and tax numbers as ogrn and inn, and the rest of ids as notes', async () => {
    const company = entityById(
      await collectEntities(cslCsvFormat, [fixture('consolidated.csv')]),
      id('sdn/18741'),
    );
    expect(company.kind).toBe('company');
    expect(company.identifiers).toEqual([
      { scheme: 'ogrn', value: '1027700256297', country: 'RU' },
      { scheme: 'inn', value: '7736640919', country: 'RU' },
    ]);
    expect(company.notes).toEqual([
      'Address: d.14 shosse Entuziastov, Moscow, 111024, RU',
      'Website: www.aukcion-sbrf.ru',
      'Executive Order 13662 Directive Determination: Subject to Directive 1',
      '(Linked To: PUBLIC JOINT STOCK COMPANY SBERBANK OF RUSSIA)',
    ]);
  });

  it('reads vessels with IMO, MMSI and flag; a former flag is no country', async () => {
    const ship = entityById(
      await collectEntities(cslCsvFormat, [fixture('consolidated.csv')]),
      id('sdn/15037'),
    );
    expect(ship).toMatchObject({
      kind: 'vessel',
      countries: ['PA'],
      identifiers: [
        { scheme: 'imo', value: '9187655' },
        { scheme: 'mmsi', value: '256842000' },
      ],
      notes: ['Vessel: call sign 9HDQ9, type Crude Oil Tanker, flag Panama', 'Former Vessel Flag: Malta'],
    });
  });

  it('guesses the kind of untyped Commerce and State entries and drops the "and" of Entity List aliases', async () => {
    const entities = await collectEntities(cslCsvFormat, [fixture('consolidated.csv')]);
    const plant = entityById(entities, id('el/4398d33e9e93c7477af39f1e0bfffc13ddd47bcc'));
    expect(plant).toMatchObject({
      kind: 'company',
      countries: ['BY'],
      listedOn: '2022-04-07',
      notes: [
        'Address: 19 Luysi Chalovskoy St., Borisov, 222512, BY',
        'Federal Register: 87 FR 20299',
        'License requirement: For all items subject to the EAR.',
        'License policy: Policy of denial.',
      ],
    });
    expect(namesOf(plant, 'alias')).toEqual([
      'Open Joint Stock Company 140 Repair Plant',
      'JSC 140 Repair Plant',
    ]);
    expect(entityById(entities, id('el/c2568ff6995aad449931e7d409e5b76c786a79b5')).kind).toBe('organization');
    expect(entityById(entities, id('dtc/dc05874053b004556ee517f8efe7a62f49d1a7db')).kind).toBe('person');
    const denied = entityById(entities, id('dpl/deb7a1d5743a85c354ca1a2c7f2664e2104b32d7'));
    expect(denied).toMatchObject({ kind: 'person', names: [{ full: 'I. ASH' }], countries: ['US'] });
    expect(denied.notes).toContain('Listed until 2056-06-29');
    expect(denied.notes).toContain('Standard denial order');
    expect(entityById(entities, id('plc/9666')).birthDates).toEqual([
      { from: '1952' },
      { from: '1953', approximate: true },
    ]);
  });

  it('drops a repeated row that reads to the same entity (CAPTA lists one bank twice)', async () => {
    const entities = await collectEntities(cslCsvFormat, [fixture('consolidated.csv')]);
    expect(entities.filter((e) => e.id === id('cap/15268'))).toHaveLength(1);
    expect(entityById(entities, id('cap/15268'))).toMatchObject({
      kind: 'company',
      identifiers: [{ scheme: 'swift_bic', value: 'CKLBCNBJ' }],
      countries: ['CN'],
    });
  });

  it('reads the gzipped file (known by its magic bytes) to the same entities', async () => {
    const plain = await collectEntities(cslCsvFormat, [fixture('consolidated.csv')]);
    const reports: ParseProgress[] = [];
    const gzipped = await collectEntities(cslCsvFormat, [fixture('consolidated-copy.csv.gz')], {
      onProgress: (p) => reports.push(p),
    });
    expect(gzipped).toEqual(plain);
    expect(reports.at(-1)).toMatchObject({ entities: 10, bytesRead: reports.at(-1)!.bytesTotal });
  });

  it('parses the ids column: country, issue date, value and label', () => {
    expect(
      parseCslIds(
        "MD, 2004-07-02, 04900377, Driver's License No.; TR, 23860719950, Turkish Identification Number; Government Entity, Target Type; China, Nationality of Registration",
      ),
    ).toEqual({
      identifiers: [
        { scheme: 'other', value: '04900377', country: 'MD' },
        { scheme: 'national_id', value: '23860719950', country: 'TR' },
      ],
      countries: ['China'],
      targetType: 'Government Entity',
      notes: [],
    });
  });

  describe('malformed input', () => {
    async function failure(name: string): Promise<SourceParseError> {
      const error = await collectEntities(cslCsvFormat, [fixture(name)]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SourceParseError);
      return error as SourceParseError;
    }

    it('names a file that cannot be read, and a gzip stream that breaks off', async () => {
      expect((await failure('absent.csv')).reason).toMatch(/^cannot read: ENOENT/);
      const truncated = await failure('truncated.csv.gz');
      expect(truncated.file).toBe(fixture('truncated.csv.gz'));
      expect(truncated.reason).toMatch(/^cannot read: /);
    });

    it('refuses a list the parser has no topic for, naming it', async () => {
      const error = await failure('unknown-list.csv');
      expect(error.location).toEqual({ line: 2, record: '1' });
      expect(error.reason).toMatch(/unknown source list "Some New List \(SNL\)/);
    });

    it('refuses a header without the CSL columns', async () => {
      const error = await failure('bad-header.csv');
      expect(error.location).toEqual({ line: 1 });
      expect(error.reason).toMatch(/^not a US CSL CSV file: the header lacks type, programs, name/);
    });

    it('names the line of a row without a name, of a row with too few fields, and of a conflicting repeat', async () => {
      expect((await failure('missing-name.csv')).location).toEqual({ line: 3, record: '77' });
      const columns = await failure('bad-columns.csv');
      expect(columns.location).toEqual({ line: 2 });
      expect(columns.reason).toBe('expected 29 fields, found 4');
      const repeat = await failure('conflicting-repeat.csv');
      expect(repeat.location).toEqual({ line: 3, record: '15268' });
      expect(repeat.reason).toBe('the same list and _id twice, with different content');
    });
  });
});
