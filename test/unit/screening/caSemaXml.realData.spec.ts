import { beforeAll, describe, expect, it } from 'vitest';
import type { ListedEntity } from '../../../src/screening/model/listedEntity.js';
import { caSemaXmlFormat } from '../../../src/screening/parsers/caSemaXml.js';
import { collectEntities, entityById, namesOf } from '../../support/parsedEntities.js';
import { screeningData } from '../../support/screeningData.js';

const data = screeningData('Canada SEMA XML parser over the real list');
const id = (ref: string) => `ca_dfatd_sema_sanctions:${ref}`;

describe.skipIf(!data.available)('ca-sema-xml over the real list', () => {
  let entities: ListedEntity[];
  beforeAll(async () => {
    entities = await collectEntities(caSemaXmlFormat, [data.file('canada', 'sema_sanctions_2025-05.xml')]);
  });

  it('reads all 4,759 records (data/README.md) under distinct ids', () => {
    expect(entities).toHaveLength(4759);
    expect(new Set(entities.map((e) => e.id)).size).toBe(4759);
    for (const entity of entities) expect(entity.names.filter((n) => n.kind === 'primary')).toHaveLength(1);
  });

  it('reads every ship as a vessel with its IMO number', () => {
    const vessels = entities.filter((e) => e.kind === 'vessel');
    expect(vessels.length).toBeGreaterThan(100);
    for (const vessel of vessels)
      expect(vessel.identifiers[0]).toMatchObject({ scheme: 'imo', value: expect.stringMatching(/^\d{7}$/) });
    expect(entityById(entities, id('russia/1.1/1'))).toMatchObject({
      names: [{ full: 'Balitiyskiy III', kind: 'primary' }],
      identifiers: [{ scheme: 'imo', value: '7612448' }],
      notes: ['Vessel type: General Cargo / Multi Purpose', 'Build date: 1980'],
    });
  });

  it('reads Aleksandr Grigoryevich Lukashenko (Belarus, Schedule 1, Part 1, Item 8)', () => {
    const person = entityById(entities, id('belarus/1-part-1/8'));
    expect(person).toMatchObject({
      kind: 'person',
      sourceRecordRef: 'Belarus, Schedule 1, Part 1, Item 8',
      birthDates: [{ from: '1954-08-30' }],
      countries: ['BY'],
      programs: ['Belarus'],
      listedOn: '2020-09-28',
    });
    expect(person.names[0]).toEqual({
      full: 'Aleksandr Grigoryevich Lukashenko',
      kind: 'primary',
      parts: { given: 'Aleksandr Grigoryevich', family: 'Lukashenko' },
      script: 'Latn',
    });
  });

  it('splits the Aliases of Sberbank (Russia, Schedule 1, Part 2, Item 74) into names with scripts', () => {
    const bank = entityById(entities, id('russia/1-part-2/74'));
    expect(bank.names.map((n) => [n.kind, n.full, n.script])).toEqual([
      ['primary', 'Sberbank', 'Latn'],
      ['alias', 'Сбербанк', 'Cyrl'],
      ['alias', 'Сбер', 'Cyrl'],
      ['alias', 'Sberbank of Russia', 'Latn'],
      ['alias', 'Sber', 'Latn'],
    ]);
    expect(namesOf(bank, 'weak')).toEqual([]);
  });
});
