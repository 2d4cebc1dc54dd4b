import { beforeAll, describe, expect, it } from 'vitest';
import type { EntityDelta, ListedEntity } from '../../../src/screening/model/listedEntity.js';
import { ftmDeltaFormat } from '../../../src/screening/parsers/ftmDelta.js';
import { ftmJsonFormat } from '../../../src/screening/parsers/ftmJson.js';
import { collectEntities, entityById, namesOf } from '../../support/parsedEntities.js';
import { screeningData } from '../../support/screeningData.js';

const data = screeningData('FollowTheMoney entity and delta parsers over the real samples');
const id = (ftmId: string) => `opensanctions:${ftmId}`;

describe.skipIf(!data.available)('ftm over the real samples', () => {
  let zala: ListedEntity[];
  let t1: ListedEntity[];
  beforeAll(async () => {
    zala = await collectEntities(ftmJsonFormat, [data.file('ftm', 'samples', 'zala_entities.ftm.json')]);
    t1 = await collectEntities(ftmJsonFormat, [data.file('ftm', 'samples', 't1_entities.ftm.json')]);
  });

  it('reads the 91 + 7 entities (data/README.md) and keeps the 17 + 6 parties', () => {
    // zala: 11 Company, 6 Person; Sanction, Ownership, Address, Family, Directorship, Passport skipped.
    expect(zala).toHaveLength(17);
    expect(zala.filter((e) => e.kind === 'person')).toHaveLength(6);
    expect(zala.filter((e) => e.kind === 'company')).toHaveLength(11);
    // t1: 4 Person, 2 Organization; one Address skipped.
    expect(t1.map((e) => e.kind)).toEqual([
      'organization',
      'person',
      'person',
      'person',
      'person',
      'organization',
    ]);
    for (const entity of [...zala, ...t1]) {
      expect(entity.names.filter((n) => n.kind === 'primary')).toHaveLength(1);
      expect(entity.countries.every((c) => /^[A-Z]{2}$/.test(c))).toBe(true);
    }
  });

  it('reads Maria Aleksandrovna Osetrova (NK-2Tbri3s6GgNtAwsSXh4qpL) field by field', () => {
    const person = entityById(zala, id('NK-2Tbri3s6GgNtAwsSXh4qpL'));
    expect(person).toMatchObject({
      kind: 'person',
      sourceRecordRef: 'NK-2Tbri3s6GgNtAwsSXh4qpL',
      birthDates: [{ from: '1988-01-07' }],
      countries: ['RU'],
      nationalities: ['RU'],
      gender: 'female',
      topics: ['debarment', 'corp.disqual', 'sanction'],
      programs: ['UA-SA1644', 'US-RUSHAR', 'GB-RUS'],
      // Repeated as taxNumber and idNumber, the INN is one identifier.
      identifiers: [{ scheme: 'inn', value: '183116181362' }],
      listedOn: '2025-02-13',
      modifiedOn: '2026-04-29',
    });
    expect(person.datasets).toEqual([
      'opensanctions',
      'gb_coh_disqualified',
      'us_sam_exclusions',
      'gb_fcdo_sanctions',
      'us_ofac_sdn',
      'ua_nsdc_sanctions',
      'ext_ru_egrul',
      'us_trade_csl',
    ]);
    expect(person.names[0]).toEqual({
      full: 'Maria Aleksandrovna Osetrova',
      kind: 'primary',
      parts: { given: 'Maria Aleksandrovna', family: 'Osetrova' },
      script: 'Latn',
    });
    expect(namesOf(person, 'previous')).toEqual([
      'Maria Aleksandrovna Zakharova',
      'Мария Александровна Захарова',
    ]);
    expect(namesOf(person, 'alias')).toContain('Захарова Мария Александровна');
  });

  it('attaches the Sanction entities of LLC CST (NK-abdzbEBkqyT29GyREbiURZ), which follow it in the file', () => {
    const company = entityById(zala, id('NK-abdzbEBkqyT29GyREbiURZ'));
    expect(company).toMatchObject({
      kind: 'company',
      identifiers: expect.arrayContaining([
        { scheme: 'inn', value: '1841015504' },
        { scheme: 'ogrn', value: '1101841007938' },
      ]),
      topics: ['sanction', 'debarment', 'export.control', 'poi', 'corp.disqual'],
      listedOn: '2021-10-30',
    });
    expect(company.notes).toContain(
      'Sanction: Department of Foreign Affairs and Trade, Autonomous (Russia), listed 2023-02-24',
    );
    expect(company.programs).toEqual(expect.arrayContaining(['AU-RUSSIA', 'US-BIS-EL', 'CA-SEMA', 'EU-UKR']));
  });

  it('reads Vitaly Yurievich KUZMENKO (t1) with his tax number and the party without topics has none', () => {
    expect(entityById(t1, id('NK-2Ka3UvopqbpZmVDFjWd4LA'))).toMatchObject({
      birthDates: [{ from: '1971-01-22' }],
      identifiers: [{ scheme: 'tax_id', value: '366510784303' }],
      nationalities: ['RU'],
      datasets: ['opensanctions', 'eu_fsf'],
      notes: expect.arrayContaining(['Position: General Director of JSC 163 Armor Repair Plant']),
    });
    expect(entityById(zala, id('ru-inn-5920040846')).topics).toEqual([]);
  });
});

describe.skipIf(!data.available)('ftm-delta over the real sample', () => {
  let deltas: EntityDelta[];
  const dates: Date[] = [];
  beforeAll(async () => {
    deltas = [];
    const changes = ftmDeltaFormat.parseDelta([data.file('ftm', 'samples', 't2_delta')], {
      onPublishedAt: (d) => dates.push(d),
    });
    for await (const delta of changes) deltas.push(delta);
  });

  it('applies the 6 ops (data/README.md) of the four delta files in version order', () => {
    expect(deltas.map((d) => (d.op === 'delete' ? ['delete', d.id] : ['upsert', d.entity.id]))).toEqual([
      ['upsert', id('NK-2T3S8Hu29ktYnKSTgQp2wL')],
      ['upsert', id('NK-2sJaJRaPJcWUfMbHjTtWcL')],
      ['upsert', id('NK-500Poltergeist')],
      ['upsert', id('NK-2T3S8Hu29ktYnKSTgQp2wL')],
      ['delete', id('NK-500Poltergeist')],
      ['upsert', id('Q4365364')],
    ]);
    expect(dates).toEqual([new Date('2024-05-28T13:47:29Z')]);
  });

  it('carries the modified entity as the MOD states it', () => {
    const modified = deltas[3]!;
    expect(modified.op).toBe('upsert');
    if (modified.op !== 'upsert') return;
    expect(modified.entity).toMatchObject({
      kind: 'organization',
      names: expect.arrayContaining([
        { full: 'Iranian Revolutionary Guard Corps', kind: 'alias', script: 'Latn' },
      ]),
      countries: ['IR'],
      topics: ['sanction'],
    });
  });
});
