import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RebuildEvent, rebuildProjection } from '../../../projections/rebuild.js';
import { loadRegistryEntry } from '../../../projections/registryStore.js';
import { startProjections } from '../../../projections/startProjections.js';
import { findStream } from '../../../projections/streamIndex/queries.js';
import { streamIndexProjection } from '../../../projections/streamIndex/streamIndexProjection.js';
import type { EventStore } from '../../../src/eventStore/eventStore.js';
import { loadCheckpoint } from '../../../src/subscriptions/checkpointStore.js';
import { eventually } from '../../support/eventually.js';
import { fastRunnerOptions, feedOf, uniqueCategory } from '../../support/subscriptionFixtures.js';
import type { TestDatabase } from '../../support/testDatabase.js';
import { openTestEventStore, type TestEventStore } from '../../support/testEventStore.js';

describe('projection rebuild', () => {
  let db: TestDatabase;
  let store: EventStore;
  let opened: TestEventStore | undefined;

  beforeAll(async () => {
    opened = await openTestEventStore();
    ({ db, store } = opened);
  });
  afterAll(() => opened?.close());

  const streamCount = async () =>
    Number((await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM stream_index')).rows[0]!.n);

  it('builds v2 from the start while v1 keeps serving, swaps atomically and drops v1 once workers switched', async () => {
    const category = uniqueCategory('rb');
    const streams = Array.from({ length: 40 }, (_, n) => `${category}-${n}`);
    for (let round = 0; round < 5; round++) {
      for (const stream of streams) await store.appendToStream(stream, [{ type: `Round${round}`, data: {} }]);
    }
    const workers = await startProjections({
      pool: db.pool,
      databaseUrl: db.url,
      store,
      registryPollMs: 100,
      runner: fastRunnerOptions,
    });
    try {
      const initial = await feedOf(store, category, 200);
      await workers.waitForCheckpoint('stream_index', initial.at(-1)!.position);
      expect(await streamCount()).toBe(40);

      // Readers and writers keep going through the whole rebuild.
      let busy = true;
      const counts: number[] = [];
      const readErrors: unknown[] = [];
      const reader = (async () => {
        while (busy) {
          try {
            counts.push(await streamCount());
          } catch (error) {
            readErrors.push(error);
          }
        }
      })();
      let appended = 0;
      const writer = (async () => {
        while (busy) {
          await store.appendToStream(`${category}-live${appended++}`, [{ type: 'Live', data: {} }]);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      })();

      // Reads before the rebuild starts and after it has swapped, whatever the machine's pace.
      const readsSince = async (since: number, more: number) =>
        eventually(() => expect(counts.length).toBeGreaterThanOrEqual(since + more));
      await readsSince(0, 1);
      const reported: RebuildEvent[] = [];
      const result = await rebuildProjection({
        pool: db.pool,
        databaseUrl: db.url,
        store,
        definition: streamIndexProjection,
        progressIntervalMs: 20,
        // The worker lets go of v1 at its next registry poll; a busy machine may take a while.
        releaseWaitMs: 60_000,
        runner: { ...fastRunnerOptions, batchSize: 5 },
        report: (event) => reported.push(event),
      });
      await readsSince(counts.length, 3);
      busy = false;
      await Promise.all([reader, writer]);

      expect(result).toMatchObject({ fromVersion: 1, toVersion: 2, oldVersionDropped: true });
      expect(reported[0]).toEqual({ kind: 'started', fromVersion: 1, toVersion: 2, resumed: false });
      expect(reported.some((event) => event.kind === 'progress' && event.processed > 0)).toBe(true);
      expect(reported.map((event) => event.kind)).toContain('swapped');

      // Never an empty or shrinking view, never a failed read, across the swap.
      expect(readErrors).toEqual([]);
      expect(Math.min(...counts)).toBeGreaterThanOrEqual(40);
      expect(counts.every((count, n) => n === 0 || count >= counts[n - 1]!)).toBe(true);

      expect(await loadRegistryEntry(db.pool, 'stream_index')).toMatchObject({
        activeVersion: 2,
        buildingVersion: null,
        retiredVersion: null,
      });
      const { rows: tables } = await db.pool.query<{ v1: string | null; v2: string | null; view: string }>(
        `SELECT to_regclass('stream_index_v1')::text AS v1, to_regclass('stream_index_v2')::text AS v2,
                pg_get_viewdef('stream_index'::regclass) AS view`,
      );
      expect(tables[0]).toMatchObject({ v1: null, v2: 'stream_index_v2' });
      expect(tables[0]!.view).toContain('stream_index_v2');
      expect(await loadCheckpoint(db.pool, 'projection:stream_index:v1')).toBeUndefined();

      // The worker switched to v2 and keeps it current.
      await eventually(() =>
        expect(workers.runners().get('stream_index')?.subscriptionId).toBe('projection:stream_index:v2'),
      );
      const late = await store.appendToStream(`${category}-0`, [{ type: 'AfterSwap', data: {} }]);
      await workers.waitForCheckpoint('stream_index', late.position);
      expect(await findStream(db.pool, `${category}-0`)).toMatchObject({
        lastRevision: 5n,
        eventCount: 6,
        lastEventType: 'AfterSwap',
      });
      expect(await streamCount()).toBe(40 + appended);
    } finally {
      await workers.stop();
    }
  });

  it('resumes an interrupted build instead of starting over', async () => {
    const category = uniqueCategory('ri');
    for (let n = 0; n < 30; n++) await store.appendToStream(`${category}-${n}`, [{ type: 'Made', data: {} }]);
    await feedOf(store, category, 30);
    const interrupted = new AbortController();
    // Interrupted while it handles its first batch: that batch commits, and the build stops there.
    const interruptedInFirstBatch: typeof streamIndexProjection = {
      ...streamIndexProjection,
      handle: (...batch) => {
        interrupted.abort();
        return streamIndexProjection.handle(...batch);
      },
    };
    const firstTry = rebuildProjection({
      pool: db.pool,
      databaseUrl: db.url,
      store,
      definition: interruptedInFirstBatch,
      signal: interrupted.signal,
      runner: { ...fastRunnerOptions, batchSize: 1 },
    });
    await expect(firstTry).rejects.toThrow(/interrupted/);
    const building = await loadRegistryEntry(db.pool, 'stream_index');
    expect(building?.buildingVersion).toBe(building!.activeVersion + 1);
    const partial = await loadCheckpoint(db.pool, `projection:stream_index:v${building!.buildingVersion}`);
    expect(partial?.checkpoint).not.toBeNull();

    const reported: RebuildEvent[] = [];
    const result = await rebuildProjection({
      pool: db.pool,
      databaseUrl: db.url,
      store,
      definition: streamIndexProjection,
      runner: fastRunnerOptions,
      report: (event) => reported.push(event),
    });
    expect(reported[0]).toMatchObject({
      kind: 'started',
      resumed: true,
      toVersion: building!.buildingVersion,
    });
    expect(result.toVersion).toBe(building!.buildingVersion);
    expect(await findStream(db.pool, `${category}-29`)).toMatchObject({
      eventCount: 1,
      lastEventType: 'Made',
    });
  });

  it("stops a build whose checkpoint is on another event store, with the runner's operator message", async () => {
    const category = uniqueCategory('rw');
    for (let n = 0; n < 5; n++) await store.appendToStream(`${category}-${n}`, [{ type: 'Made', data: {} }]);
    await feedOf(store, category, 5);
    const interrupted = new AbortController();
    const interruptedInFirstBatch: typeof streamIndexProjection = {
      ...streamIndexProjection,
      handle: (...batch) => {
        interrupted.abort();
        return streamIndexProjection.handle(...batch);
      },
    };
    await expect(
      rebuildProjection({
        pool: db.pool,
        databaseUrl: db.url,
        store,
        definition: interruptedInFirstBatch,
        signal: interrupted.signal,
        runner: { ...fastRunnerOptions, batchSize: 1 },
      }),
    ).rejects.toThrow(/interrupted/);
    const building = (await loadRegistryEntry(db.pool, 'stream_index'))!.buildingVersion!;
    const subscriptionId = `projection:stream_index:v${building}`;
    // As if the build's checkpoint had been written against another server.
    await db.pool.query(
      `UPDATE es_checkpoints SET store_kind = 'esdb', store_instance = 'store id elsewhere' WHERE subscription_id = $1`,
      [subscriptionId],
    );
    const rebuild = () =>
      rebuildProjection({
        pool: db.pool,
        databaseUrl: db.url,
        store,
        definition: streamIndexProjection,
        runner: fastRunnerOptions,
      });
    await expect(rebuild()).rejects.toThrow(`Subscription ${subscriptionId} stopped: its checkpoint`);
    await expect(rebuild()).rejects.toThrow('on the event store esdb store id elsewhere');

    // Back on the store that wrote it, the build resumes and completes.
    await db.pool.query(
      'UPDATE es_checkpoints SET store_kind = NULL, store_instance = NULL WHERE subscription_id = $1',
      [subscriptionId],
    );
    expect((await rebuild()).toVersion).toBe(building);
  });
});
