import { beforeAll, describe, expect, it } from 'vitest';
import type { ListedEntity } from '../../../src/screening/model/listedEntity.js';
import { ofacXmlFormat } from '../../../src/screening/parsers/ofacXml.js';
import { collectEntities, entityById, namesOf } from '../../support/parsedEntities.js';
import { screeningData } from '../../support/screeningData.js';

const data = screeningData('OFAC sdnList XML parser over the real consolidated lists');

describe.skipIf(!data.available)('ofac-xml over the real lists', () => {
  let may2025: ListedEntity[];
  let jan2026: ListedEntity[];
  const published: Date[] = [];
  beforeAll(async () => {
    may2025 = await collectEntities(ofacXmlFormat, [data.file('ofac', 'consolidated_2025-05.xml')], {
      onPublishedAt: (d) => published.push(d),
    });
    jan2026 = await collectEntities(ofacXmlFormat, [data.file('ofac', 'consolidated_2026-01.xml')]);
  });

  it('reads 443 and 442 entries (data/README.md), each with one primary name', () => {
    expect(may2025).toHaveLength(443);
    expect(jan2026).toHaveLength(442);
    for (const entity of [...may2025, ...jan2026]) {
      expect(entity.names.filter((n) => n.kind === 'primary')).toHaveLength(1);
    }
  });

  it('reports the Publish_Date', () => {
    expect(published).toEqual([new Date('2025-03-28T00:00:00Z')]);
  });

  it('reads HANIYA, Ismail Abdul Salah (9639) field by field', () => {
    const person = entityById(may2025, 'us_ofac_cons:9639');
    expect(person).toMatchObject({
      kind: 'person',
      programs: ['NS-PLC'],
      birthDates: [{ from: '1962' }],
      sourceRecordRef: 'ofac:sdn:9639',
      notes: ['Place of birth: Shati'],
    });
    expect(person.names.map((n) => [n.kind, n.full, n.parts])).toEqual([
      ['primary', 'Ismail Abdul Salah HANIYA', { given: 'Ismail Abdul Salah', family: 'HANIYA' }],
      ['alias', 'Ismail HANIYA', { given: 'Ismail', family: 'HANIYA' }],
      ['alias', 'Ismaeel HANIYYA', { given: 'Ismaeel', family: 'HANIYYA' }],
    ]);
  });

  it('reads VTB BANK (17013): company, identifiers, former names', () => {
    const bank = entityById(may2025, 'us_ofac_cons:17013');
    expect(bank.kind).toBe('company');
    expect(bank.identifiers).toEqual(
      expect.arrayContaining([
        { scheme: 'ogrn', value: '1027739609391', country: 'RU' },
        { scheme: 'lei', value: '253400V1H6ART1UQ0N98' },
        { scheme: 'swift_bic', value: 'VTBRRUMM' },
      ]),
    );
    expect(namesOf(bank, 'previous')).toContain('BANK VNESHNEY TORGOVLI OPEN JOINT STOCK COMPANY');
    expect(namesOf(bank, 'weak')).toEqual(['JSC VTB BANK NEW DELHI BRANCH']);
    expect(bank.countries).toEqual(['RU', 'IN', 'CN']);
    expect(bank.programs).toEqual(['UKRAINE-EO13662', 'RUSSIA-EO14024']);
  });
});
