import { describe, expect, it } from 'vitest';
import { collectEntities, fixturePath, namesOf } from '../../../test/support/parsedEntities.js';
import { type ListedEntity, type ParseProgress, SourceParseError } from '../model/listedEntity.js';
import { bisDplFormat, splitDplName } from './bisDpl.js';
import { hashedId } from './recordKeys.js';

const fixture = (name: string) => fixturePath('bis-dpl', name);
const byName = (entities: ListedEntity[], name: string) => {
  const found = entities.find((e) => e.names[0]!.full === name);
  if (!found) throw new Error(`no entity named ${name}`);
  return found;
};

describe('bis-dpl', () => {
  it('merges the rows of one party (one per address, not always adjacent) into one entity', async () => {
    const entities = await collectEntities(bisDplFormat, [fixture('dpl.txt')]);
    expect(entities.map((e) => e.names[0]!.full)).toEqual([
      'I. ASH',
      'AL KAYALI CORPORATION',
      'FUYI SUN',
      'APPLIED SYSTEMS METHODS AND TECHNOLOGY',
      'DAQING ZHOU',
    ]);
    const ash = byName(entities, 'I. ASH');
    expect(ash).toMatchObject({
      id: `us_bis_dpl:${hashedId('I. ASH')}`,
      kind: 'person',
      topics: ['export.control'],
      datasets: ['us_bis_dpl'],
      sourceRecordRef: 'I. ASH',
      countries: ['US'],
      listedOn: '2002-03-04',
      modifiedOn: '2007-01-31',
    });
    expect(ash.sources).toEqual([
      {
        name: 'BIS Denied Persons List',
        url: expect.stringContaining('bis.gov'),
        dataset: 'us_bis_dpl',
        priority: 2,
      },
    ]);
    expect(ash.notes).toEqual([
      'Address: UPON THE DATE OF THE ORDER INCARCERATED AT USM NO: 26265-177, FCI SEAGOVILLE, 2113 NORTH HIGHWAY 175, SEAGOVILLE, TX, 75159, US',
      'Standard denial order',
      'Federal Register: 68 F.R. 38290 6/27/03',
      'Address: 605 TRAIL LAKE DRIVE, RICHARDSON, TX, 75081, US',
      'Federal Register: 67 F.R. 56530 9/4/02',
      'Denied until 2056-06-29',
    ]);
  });

  it('reports progress with every party counted by the end of the file', async () => {
    const reports: ParseProgress[] = [];
    await collectEntities(bisDplFormat, [fixture('dpl.txt')], { onProgress: (p) => reports.push(p) });
    expect(reports.at(-1)).toMatchObject({ entities: 5, bytesRead: reports.at(-1)!.bytesTotal });
  });

  it('tells companies by legal form, organisations by their words and persons by the form of the name', async () => {
    const entities = await collectEntities(bisDplFormat, [fixture('dpl.txt')]);
    expect(byName(entities, 'AL KAYALI CORPORATION').kind).toBe('company');
    expect(byName(entities, 'APPLIED SYSTEMS METHODS AND TECHNOLOGY').kind).toBe('organization');
    expect(byName(entities, 'DAQING ZHOU').kind).toBe('person');
  });

  it('reads other names out of the Name column and countries as codes ("PRC" too)', async () => {
    const entities = await collectEntities(bisDplFormat, [fixture('dpl.txt')]);
    expect(namesOf(byName(entities, 'FUYI SUN'), 'alias')).toEqual(['FRANK SUN']);
    expect(namesOf(byName(entities, 'APPLIED SYSTEMS METHODS AND TECHNOLOGY'), 'alias')).toEqual(['ASMAT']);
    const zhou = byName(entities, 'DAQING ZHOU');
    expect(zhou.countries).toEqual(['CN']);
    // The two identical rows leave one address.
    expect(zhou.notes?.filter((n) => n.startsWith('Address:'))).toHaveLength(1);
  });

  it('splits the forms of other names the Name column uses', () => {
    expect(splitDplName('PEARL (A.K.A. NEI-CHIEN CHU) LI')).toEqual([
      { name: 'PEARL LI', kind: 'primary' },
      { name: 'NEI-CHIEN CHU', kind: 'alias' },
    ]);
    expect(splitDplName('SIBERIAN AIRLINES D/B/A S7 AIRLINES')).toEqual([
      { name: 'SIBERIAN AIRLINES', kind: 'primary' },
      { name: 'S7 AIRLINES', kind: 'alias' },
    ]);
    expect(splitDplName('NEW NAME LTD F/K/A OLD NAME LTD')).toEqual([
      { name: 'NEW NAME LTD', kind: 'primary' },
      { name: 'OLD NAME LTD', kind: 'previous' },
    ]);
  });

  describe('malformed input', () => {
    async function failure(name: string): Promise<SourceParseError> {
      const error = await collectEntities(bisDplFormat, [fixture(name)]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SourceParseError);
      return error as SourceParseError;
    }

    it('refuses a header without the DPL columns, and a comma-separated file', async () => {
      const error = await failure('bad-header.txt');
      expect(error.location).toEqual({ line: 1 });
      expect(error.reason).toMatch(/^not a BIS Denied Persons List .* lacks Street_Address, City/);
      expect((await failure('comma-separated.txt')).reason).toMatch(/lacks Name, Street_Address/);
    });

    it('names the line of a row without a name', async () => {
      const error = await failure('missing-name.txt');
      expect(error.location).toEqual({ line: 3 });
      expect(error.reason).toBe('row without a Name');
    });
  });
});
