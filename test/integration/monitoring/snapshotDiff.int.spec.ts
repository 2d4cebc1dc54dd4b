import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffSnapshots } from '../../../src/monitoring/delta/snapshotDiff.js';
import { changeSummary } from '../../../src/monitoring/materialChanges.js';
import { ofacCsvFormat } from '../../../src/screening/parsers/ofacCsv.js';
import { loadSnapshot } from '../../../src/screening/snapshots/loadSnapshot.js';
import { screeningData } from '../../support/screeningData.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';

const data = screeningData('snapshot difference on the OFAC SDN 2024-05-02 -> 2024-05-03 pair');

describe.skipIf(!data.available)('diffSnapshots on OFAC SDN 2024-05-02 -> 2024-05-03', () => {
  let db: TestDatabase;
  let before: string;
  let after: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    const load = async (day: string) =>
      (
        await loadSnapshot(db.pool, {
          format: ofacCsvFormat,
          paths: [data.file('ofac', `sdn_${day}.csv`)],
          publishedAt: new Date(`${day}T00:00:00Z`),
          allowPartial: true,
        })
      ).snapshot.id;
    before = await load('2024-05-02');
    after = await load('2024-05-03');
  }, 120_000);
  afterAll(async () => {
    await db?.drop();
  });

  it('finds the 8 delistings as removed, and nothing added or changed', async () => {
    await diffSnapshots(db.pool, before, after); // warm the cache: the figure below is the steady one
    const started = performance.now();
    const diff = await diffSnapshots(db.pool, before, after);
    const ms = performance.now() - started;
    console.info(
      `diffSnapshots OFAC SDN 14,973 -> 14,965 entities: ${ms.toFixed(0)} ms (added ${diff.added.length}, changed ${diff.changed.length}, removed ${diff.removed.length})`,
    );

    expect(diff.added).toEqual([]);
    expect(diff.removed).toHaveLength(8);
    expect(diff.removed.map((e) => e.kind).sort()).toEqual([...Array(7).fill('aircraft'), 'company']);
    expect(diff.removed.find((e) => e.id === 'us_ofac_sdn:38556')?.names[0]?.full).toBe(
      'EMPEROR AVIATION LTD',
    );
    expect(changeSummary([], { displayName: 'EMPEROR AVIATION LTD', delisted: true })).toBe(
      'EMPEROR AVIATION LTD: removed from the list.',
    );

    // The day's only change to the SDN main file is the delistings: no record changed in place.
    expect(diff.changed).toEqual([]);
  });

  it('gives the same difference whatever the page size', async () => {
    const whole = await diffSnapshots(db.pool, before, after);
    const paged = await diffSnapshots(db.pool, before, after, { pageSize: 97 });
    expect(paged).toEqual(whole);
  });

  it('counts everything as added against no previous snapshot', async () => {
    const diff = await diffSnapshots(db.pool, null, before, { pageSize: 4000 });
    expect(diff.added).toHaveLength(14973);
    expect(diff.changed).toEqual([]);
    expect(diff.removed).toEqual([]);
  });
});
