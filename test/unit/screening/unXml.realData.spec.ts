import { beforeAll, describe, expect, it } from 'vitest';
import type { ListedEntity } from '../../../src/screening/model/listedEntity.js';
import { unXmlFormat } from '../../../src/screening/parsers/unXml.js';
import { collectEntities, entityById, namesOf } from '../../support/parsedEntities.js';
import { screeningData } from '../../support/screeningData.js';

const data = screeningData('UN consolidated XML parser over the real lists');

const persons = (entities: ListedEntity[]) => entities.filter((e) => e.kind === 'person').length;

describe.skipIf(!data.available)('un-xml over the real lists', () => {
  let april2025: ListedEntity[];
  let february2026: ListedEntity[];
  beforeAll(async () => {
    april2025 = await collectEntities(unXmlFormat, [data.file('un', 'UN_consolidated_2025-04.xml')]);
    february2026 = await collectEntities(unXmlFormat, [data.file('un', 'UN_consolidated_2026-02.xml')]);
  });

  it('reads 684+193 and 730+273 individuals+entities (data/README.md)', () => {
    expect([persons(april2025), april2025.length - persons(april2025)]).toEqual([684, 193]);
    expect([persons(february2026), february2026.length - persons(february2026)]).toEqual([730, 273]);
    for (const entity of [...april2025, ...february2026]) {
      expect(entity.names.filter((n) => n.kind === 'primary')).toHaveLength(1);
      expect(entity.sourceRecordRef).toMatch(/^[A-Z]{2}[ie]\.\d{3}$/);
    }
  });

  it('sees the Iran regime re-added in 2026', () => {
    const iran = (entities: ListedEntity[]) => entities.filter((e) => e.programs.includes('Iran'));
    expect(iran(april2025)).toHaveLength(0);
    expect(iran(february2026).length).toBeGreaterThan(100);
    const soleimani = entityById(february2026, 'un_sc_sanctions:110408');
    expect(soleimani).toMatchObject({
      sourceRecordRef: 'IRi.039',
      birthDates: [{ from: '1957-03-11' }],
      identifiers: [{ scheme: 'passport', value: '008827', country: 'IR' }],
      countries: ['IR'],
      listedOn: '2007-03-24',
    });
    expect(namesOf(soleimani, 'alias')).toHaveLength(8);
    expect(namesOf(soleimani, 'weak')).toEqual(['Haj Qasem', 'Haji Qassem', 'Sardar Soleimani']);
  });

  it('reads SADDAM HUSSEIN AL-TIKRITI (IQi.001) field by field', () => {
    const saddam = entityById(april2025, 'un_sc_sanctions:6908048');
    expect(saddam).toEqual(
      expect.objectContaining({
        kind: 'person',
        sourceRecordRef: 'IQi.001',
        birthDates: [{ from: '1937-04-28' }],
        nationalities: ['IQ'],
        countries: ['IQ'],
        programs: ['Iraq'],
        listedOn: '2003-06-27',
      }),
    );
    expect(saddam.names).toEqual([
      { full: 'SADDAM HUSSEIN AL-TIKRITI', kind: 'primary', script: 'Latn' },
      { full: 'صدام حسين التكريتي', kind: 'alias', script: 'Arab' },
      { full: 'Abu Ali', kind: 'weak', script: 'Latn' },
    ]);
  });

  it('reads MUHAMMAD TAHER ANWARI (TAi.005) with an approximate birth year', () => {
    const anwari = entityById(april2025, 'un_sc_sanctions:110447');
    expect(anwari.birthDates).toEqual([{ from: '1961', approximate: true }]);
    expect(namesOf(anwari, 'weak')).toEqual(['Haji Mudir']);
    expect(anwari.modifiedOn).toBe('2011-11-29');
  });
});
