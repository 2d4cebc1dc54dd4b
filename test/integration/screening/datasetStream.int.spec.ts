import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ofacCsvFormat } from '../../../src/screening/parsers/ofacCsv.js';
import {
  datasetStreamName,
  readDatasetStream,
  reconcileCurrentSnapshots,
  recordSnapshotBecameCurrent,
  type SnapshotBecameCurrentData,
  toDatasetEvent,
} from '../../../src/screening/snapshots/datasetStream.js';
import { loadSnapshot } from '../../../src/screening/snapshots/loadSnapshot.js';
import { currentSnapshots } from '../../../src/screening/snapshots/snapshotStore.js';
import { runCliCaptured } from '../../support/cli.js';
import { openTestEventStore, type TestEventStore } from '../../support/testEventStore.js';

/**
 * The dataset stream through the real paths: `casescreen sources load` of two versions of a small
 * OFAC CSV set, `sources retire`, and the reconcile after a crash between PostgreSQL's switch and
 * the append (simulated by a load that does not record).
 */

const SET = path.resolve('test/fixtures/screening/ofac-csv/set');
const FILES = ['sdn.csv', 'add.csv', 'alt.csv', 'sdn_comments.csv'];

describe('the sourceDataset stream', () => {
  let opened: TestEventStore;
  let dir: string;
  const cli = (argv: string[]) => runCliCaptured(argv, { DATABASE_URL: opened.db.url });

  /** A copy of the fixture set; `delist` leaves record 173 (no aliases, no addresses) out of sdn.csv. */
  async function version(name: string, delist: boolean): Promise<string> {
    const target = path.join(dir, name);
    await mkdir(target);
    for (const file of FILES) await copyFile(path.join(SET, file), path.join(target, file));
    if (delist) {
      const text = await readFile(path.join(SET, 'sdn.csv'), 'utf8');
      await writeFile(path.join(target, 'sdn.csv'), text.replace(/^173,.*\r?\n/m, ''));
    }
    return target;
  }

  async function events(dataset: string) {
    return (await opened.store.readStream(datasetStreamName(dataset))).events.map(toDatasetEvent);
  }

  beforeAll(async () => {
    opened = await openTestEventStore();
    dir = await mkdtemp(path.join(os.tmpdir(), 'dataset-stream-'));
  });
  afterAll(async () => {
    await opened?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('records each new current snapshot of `sources load` once, with the one it replaced', async () => {
    const first = await version('v1', false);
    const second = await version('v2', true);
    const load = (input: string, date: string) =>
      cli([
        'sources',
        'load',
        '--format',
        'ofac-csv',
        input,
        '--dataset',
        'ofac_test',
        '--published-at',
        date,
        '--json',
      ]);

    const v1 = await load(first, '2024-05-02');
    expect(v1, v1.stderr).toMatchObject({ code: 0 });
    const again = await load(first, '2024-05-02');
    expect(JSON.parse(again.stdout)).toMatchObject({ unchanged: true });
    const v2 = await load(second, '2024-05-03');
    expect(v2, v2.stderr).toMatchObject({ code: 0 });
    const ids = [JSON.parse(v1.stdout).snapshotId, JSON.parse(v2.stdout).snapshotId];

    const recorded = await events('ofac_test');
    expect(recorded.map((e) => e.type)).toEqual(['SnapshotBecameCurrent', 'SnapshotBecameCurrent']);
    const [one, two] = recorded.map((e) => e.data as SnapshotBecameCurrentData);
    expect(one).toMatchObject({
      dataset: 'ofac_test',
      snapshotId: ids[0],
      version: 1,
      previousSnapshotId: null,
    });
    expect(two).toMatchObject({
      snapshotId: ids[1],
      version: 2,
      previousSnapshotId: ids[0],
      format: 'ofac-csv',
      publishedAt: '2024-05-03T00:00:00.000Z',
      entityCount: one!.entityCount - 1,
      delta: null,
    });

    // A second record of the same snapshot (a retried call, a reconcile racing the CLI) appends nothing.
    const [current] = await currentSnapshots(opened.db.pool, ['ofac_test']);
    expect(await recordSnapshotBecameCurrent(opened.store, current!)).toBeNull();
    expect(await reconcileCurrentSnapshots(opened.db.pool, opened.store)).toEqual([]);
    expect(await events('ofac_test')).toHaveLength(2);
  });

  it('reconciles a switch whose event was lost: exactly one event, then none', async () => {
    // The loader committed the switch and died before the append: loadSnapshot without recording.
    const base = await loadSnapshot(opened.db.pool, {
      format: ofacCsvFormat,
      paths: [await version('crash-v1', false)],
      dataset: 'ofac_crash',
      publishedAt: new Date('2024-05-02T00:00:00Z'),
    });
    await recordSnapshotBecameCurrent(opened.store, base.snapshot);
    const lost = await loadSnapshot(opened.db.pool, {
      format: ofacCsvFormat,
      paths: [await version('crash-v2', true)],
      dataset: 'ofac_crash',
      publishedAt: new Date('2024-05-03T00:00:00Z'),
    });
    expect(await events('ofac_crash')).toHaveLength(1);

    const appended = await reconcileCurrentSnapshots(opened.db.pool, opened.store);
    expect(appended).toHaveLength(1);
    expect(appended[0]).toMatchObject({
      type: 'SnapshotBecameCurrent',
      data: {
        dataset: 'ofac_crash',
        snapshotId: lost.snapshot.id,
        previousSnapshotId: base.snapshot.id,
        occurredAt: lost.snapshot.loadedAt.toISOString(),
      },
    });
    expect(await reconcileCurrentSnapshots(opened.db.pool, opened.store)).toEqual([]);
    expect(await events('ofac_crash')).toHaveLength(2);
    // Recording the old version late (a stale caller) does not take the stream back.
    expect(await recordSnapshotBecameCurrent(opened.store, base.snapshot)).toBeNull();
    expect((await readDatasetStream(opened.store, 'ofac_crash')).current?.snapshotId).toBe(lost.snapshot.id);
  });

  it('records a retirement, and reconciles one whose event was lost', async () => {
    const retired = await cli(['sources', 'retire', 'ofac_test']);
    expect(retired, retired.stderr).toMatchObject({ code: 0 });
    const last = (await events('ofac_test')).at(-1)!;
    expect(last).toMatchObject({ type: 'DatasetRetired', data: { dataset: 'ofac_test' } });
    expect((await readDatasetStream(opened.store, 'ofac_test')).current).toBeNull();

    // Retired in PostgreSQL only (the CLI died before the append).
    await opened.db.pool.query("DELETE FROM source_dataset_current WHERE dataset = 'ofac_crash'");
    const appended = await reconcileCurrentSnapshots(
      opened.db.pool,
      opened.store,
      () => new Date('2024-06-01T00:00:00Z'),
    );
    expect(appended).toEqual([
      {
        type: 'DatasetRetired',
        data: {
          dataset: 'ofac_crash',
          snapshotId: (await readLastCurrent('ofac_crash'))!,
          occurredAt: '2024-06-01T00:00:00.000Z',
        },
      },
    ]);
    expect(await reconcileCurrentSnapshots(opened.db.pool, opened.store)).toEqual([]);
  });

  async function readLastCurrent(dataset: string): Promise<string | undefined> {
    const all = await events(dataset);
    return all.filter((e) => e.type === 'SnapshotBecameCurrent').at(-1)?.data.snapshotId;
  }
});
