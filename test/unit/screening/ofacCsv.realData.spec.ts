import { beforeAll, describe, expect, it } from 'vitest';
import type { ListedEntity } from '../../../src/screening/model/listedEntity.js';
import { ofacCsvFormat } from '../../../src/screening/parsers/ofacCsv.js';
import { collectEntities, entityById, namesOf } from '../../support/parsedEntities.js';
import { screeningData } from '../../support/screeningData.js';

const data = screeningData('OFAC legacy CSV parser over the real SDN files');

/** Record counts from data/README.md. */
describe.skipIf(!data.available)('ofac-csv over the real lists', () => {
  describe('the 2021-07 set (sdn, alt, add, comments)', () => {
    let entities: ListedEntity[];
    beforeAll(async () => {
      entities = await collectEntities(ofacCsvFormat, [data.file('ofac', 'sdn_2021-07')]);
    });

    it('yields every entry once, each with exactly one primary name and the sanction topic', () => {
      expect(entities).toHaveLength(8976);
      expect(new Set(entities.map((e) => e.id)).size).toBe(8976);
      // One assertion per property, naming the entries that break it (one per entry is slow).
      const idsWhere = (broken: (entity: ListedEntity) => boolean) =>
        entities.filter(broken).map((e) => e.id);
      expect(idsWhere((e) => e.names.filter((n) => n.kind === 'primary').length !== 1)).toEqual([]);
      expect(idsWhere((e) => e.topics.length !== 1 || e.topics[0] !== 'sanction')).toEqual([]);
      expect(idsWhere((e) => !e.countries.every((c) => /^[A-Z]{2}$/.test(c)))).toEqual([]);
    });

    it("attaches alt.csv's 11,910 names, less 6 that repeat a name the entry already has", () => {
      const strong = entities.reduce(
        (sum, e) => sum + e.names.filter((n) => n.kind === 'alias' || n.kind === 'previous').length,
        0,
      );
      expect(strong).toBe(11910 - 6);
    });

    it('reads CIFUENTES VILLA, Jorge Milton (12300) field by field', () => {
      const person = entityById(entities, 'us_ofac_sdn:12300');
      expect(person.kind).toBe('person');
      expect(person.names[0]).toMatchObject({
        full: 'CIFUENTES VILLA, Jorge Milton',
        parts: { family: 'CIFUENTES VILLA', given: 'Jorge Milton' },
      });
      expect(namesOf(person, 'alias')).toEqual(['LOPEZ SALAZAR, Elkin de Jesus', 'OSUNA VILLARREAL, Sergio']);
      expect(person.birthDates).toEqual([
        { from: '1965-05-13' },
        { from: '1968-04-13' },
        { from: '1964-07-07' },
      ]);
      expect(person.identifiers).toEqual(
        expect.arrayContaining([
          { scheme: 'passport', value: 'AL720622', country: 'CO' },
          { scheme: 'national_id', value: 'CIVJ650513HNEFLR06', country: 'MX' },
        ]),
      );
      expect(person.programs).toEqual(['SDNTK']);
      expect(person.countries).toEqual(expect.arrayContaining(['CO', 'MX', 'EC']));
    });

    it('reads the tanker ARK (15037) with IMO and MMSI numbers and former names', () => {
      const ship = entityById(entities, 'us_ofac_sdn:15037');
      expect(ship.kind).toBe('vessel');
      expect(ship.identifiers).toEqual([
        { scheme: 'imo', value: '9187655' },
        { scheme: 'mmsi', value: '256842000' },
      ]);
      expect(namesOf(ship, 'previous')).toEqual(['ABADEH', 'CRYSTAL', 'SUNDIAL']);
      expect(ship.countries).toEqual(['PA']);
    });

    it('completes the truncated remarks of LI, Jiadong (28264) from sdn_comments.csv', () => {
      const person = entityById(entities, 'us_ofac_sdn:28264');
      expect(namesOf(person, 'weak')).toEqual(['blackjack1987', 'khaleesi']);
      expect(person.identifiers).toEqual([
        { scheme: 'national_id', value: '210302198701102136', country: 'CN' },
      ]);
      expect(person).toMatchObject({
        gender: 'male',
        nationalities: ['CN'],
        birthDates: [{ from: '1987-01-10' }],
      });
    });
  });

  describe('the main file on two consecutive days', () => {
    let before: ListedEntity[];
    let after: ListedEntity[];
    beforeAll(async () => {
      before = await collectEntities(ofacCsvFormat, [data.file('ofac', 'sdn_2024-05-02.csv')]);
      after = await collectEntities(ofacCsvFormat, [data.file('ofac', 'sdn_2024-05-03.csv')]);
    });

    it('reads 14,973 and 14,965 entries', () => {
      expect(before).toHaveLength(14973);
      expect(after).toHaveLength(14965);
    });

    it('shows the 8 delistings: an aviation company and 7 aircraft', () => {
      const remaining = new Set(after.map((e) => e.id));
      const delisted = before.filter((e) => !remaining.has(e.id));
      expect(delisted.map((e) => e.kind).sort()).toEqual([...Array(7).fill('aircraft'), 'company']);
      const company = entityById(delisted, 'us_ofac_sdn:38556');
      expect(company.names[0]!.full).toBe('EMPEROR AVIATION LTD');
      expect(company.identifiers).toEqual([
        { scheme: 'tax_id', value: '21637116', country: 'MT' },
        { scheme: 'inn', value: '9909425511', country: 'RU' },
        { scheme: 'registration', value: 'C 62836', country: 'MT' },
      ]);
      expect(entityById(delisted, 'us_ofac_sdn:38557').identifiers).toEqual([
        { scheme: 'aircraft_serial', value: '9324' },
        { scheme: 'aircraft_tail', value: '9H-AMN' },
      ]);
    });

    it('has no aliases without alt.csv but still the weak ones from the remarks', () => {
      const bank = entityById(before, 'us_ofac_sdn:306');
      expect(bank.names.map((n) => [n.kind, n.full])).toEqual([
        ['primary', 'BANCO NACIONAL DE CUBA'],
        ['weak', 'BNC'],
      ]);
    });
  });
});
