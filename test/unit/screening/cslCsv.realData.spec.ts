import { beforeAll, describe, expect, it } from 'vitest';
import type { ListedEntity } from '../../../src/screening/model/listedEntity.js';
import { cslCsvFormat } from '../../../src/screening/parsers/cslCsv.js';
import { collectEntities, entityById, namesOf } from '../../support/parsedEntities.js';
import { screeningData } from '../../support/screeningData.js';

const data = screeningData('US CSL CSV parser over the real consolidated list');
const id = (ref: string) => `us_trade_csl:${ref}`;

describe.skipIf(!data.available)('csl-csv over the real list', () => {
  let entities: ListedEntity[];
  beforeAll(async () => {
    entities = await collectEntities(cslCsvFormat, [data.file('us_csl', 'consolidated.csv.gz')]);
  });

  it('reads the 14,160 rows (data/README.md) into 14,159 entities: CAPTA repeats one entry, only its link differing', () => {
    expect(entities).toHaveLength(14159);
    expect(new Set(entities.map((e) => e.id)).size).toBe(14159);
    // One assertion per property, naming the entities that break it (one per entity is slow).
    const idsWhere = (broken: (entity: ListedEntity) => boolean) => entities.filter(broken).map((e) => e.id);
    expect(idsWhere((e) => e.names.filter((n) => n.kind === 'primary').length !== 1)).toEqual([]);
    expect(idsWhere((e) => !e.countries.every((c) => /^[A-Z]{2}$/.test(c)))).toEqual([]);
  });

  it('gives each list its topic: 10,697 sanctions, 2,735 export controls, 727 ITAR debarments', () => {
    const byList = new Map<string, number>();
    const byTopic = new Map<string, number>();
    for (const entity of entities) {
      const list = entity.id.slice('us_trade_csl:'.length).split('/')[0]!;
      byList.set(list, (byList.get(list) ?? 0) + 1);
      for (const topic of entity.topics) byTopic.set(topic, (byTopic.get(topic) ?? 0) + 1);
    }
    expect(Object.fromEntries(byList)).toEqual({
      sdn: 10026,
      el: 2001,
      dtc: 727,
      dpl: 462,
      ssi: 290,
      uvl: 201,
      isn: 163,
      plc: 78,
      meu: 71,
      cmic: 68,
      cap: 52,
      'ns-mbs': 17,
      fse: 3,
    });
    expect(Object.fromEntries(byTopic)).toEqual({ sanction: 10697, 'export.control': 2735, debarment: 727 });
  });

  it("reads 'ABD AL-RAZZIQ (SDN 9935) field by field", () => {
    const person = entityById(entities, id('sdn/9935'));
    expect(person).toMatchObject({
      kind: 'person',
      programs: ['SDGT'],
      birthDates: [{ from: '1962-08-06' }],
      nationalities: ['CA', 'SD'],
      identifiers: [{ scheme: 'passport', value: 'BC166787', country: 'CA' }],
      sources: [{ name: 'Specially Designated Nationals (SDN) - Treasury Department', priority: 1 }],
    });
    expect(person.names[0]).toMatchObject({
      full: "'ABD AL-RAZZIQ, Abu Sufian al-Salamabi Muhammed Ahmed",
      parts: { family: "'ABD AL-RAZZIQ", given: 'Abu Sufian al-Salamabi Muhammed Ahmed' },
    });
    expect(namesOf(person, 'alias')).toHaveLength(14);
    expect(person.notes).toEqual(['Place of birth: Al-Bawgah, Sudan', 'Place of birth: Albaouga, Sudan']);
  });

  it('lists AUCTION LLC (18741) once per list it is on, with its OGRN', () => {
    for (const list of ['sdn', 'ssi']) {
      expect(entityById(entities, id(`${list}/18741`))).toMatchObject({
        kind: 'company',
        identifiers: [{ scheme: 'ogrn', value: '1027700256297', country: 'RU' }],
        programs: ['UKRAINE-EO13662', 'RUSSIA-EO14024'],
      });
    }
  });

  it('reads the tanker ARK, an Entity List plant and an ISN individual', () => {
    expect(entityById(entities, id('sdn/15037'))).toMatchObject({
      kind: 'vessel',
      countries: ['PA'],
      identifiers: [
        { scheme: 'mmsi', value: '256842000' },
        { scheme: 'imo', value: '9187655' },
      ],
    });
    const plant = entityById(entities, id('el/4398d33e9e93c7477af39f1e0bfffc13ddd47bcc'));
    expect(plant).toMatchObject({
      kind: 'company',
      topics: ['export.control'],
      countries: ['BY'],
      listedOn: '2022-04-07',
    });
    expect(namesOf(plant, 'alias')).toEqual([
      'Open Joint Stock Company 140 Repair Plant',
      'JSC 140 Repair Plant',
    ]);
    expect(entityById(entities, id('isn/2d2db09c686e4829d0ef1b0b04145eec3d42cd88'))).toMatchObject({
      kind: 'person',
      names: [{ full: 'Abdul Qadeer Khan' }, { full: 'ZAMAN' }, { full: 'Haydar' }],
      programs: ['E.O. 13382', 'Export-Import Bank Act', 'Nuclear Proliferation Prevention Act'],
      listedOn: '2009-01-09',
    });
  });
});
