import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installProjections } from '../../../projections/registryStore.js';
import { startProjections } from '../../../projections/startProjections.js';
import { findStream, listStreams } from '../../../projections/streamIndex/queries.js';
import { streamIndexProjection } from '../../../projections/streamIndex/streamIndexProjection.js';
import type { EventStore } from '../../../src/eventStore/eventStore.js';
import { fastRunnerOptions, feedOf, uniqueCategory } from '../../support/subscriptionFixtures.js';
import type { TestDatabase } from '../../support/testDatabase.js';
import { openTestEventStore, type TestEventStore } from '../../support/testEventStore.js';

describe('stream index projection', () => {
  let db: TestDatabase;
  let store: EventStore;
  let opened: TestEventStore | undefined;

  beforeAll(async () => {
    opened = await openTestEventStore();
    ({ db, store } = opened);
  });
  afterAll(() => opened?.close());

  it('keeps one row per stream with its revision, count, last type and times', async () => {
    const category = uniqueCategory('si');
    await store.appendToStream(`${category}-a`, [
      { type: 'Opened', data: {} },
      { type: 'Noted', data: {} },
    ]);
    await store.appendToStream(`${category}-b`, [{ type: 'Opened', data: {} }]);
    const last = await store.appendToStream(`${category}-a`, [{ type: 'Closed', data: {} }]);

    const workers = await startProjections({
      pool: db.pool,
      databaseUrl: db.url,
      store,
      runner: fastRunnerOptions,
    });
    try {
      await workers.waitForCheckpoint('stream_index', last.position);
    } finally {
      await workers.stop();
    }

    const events = await feedOf(store, category, 4);
    const a = await findStream(db.pool, `${category}-a`);
    expect(a).toEqual({
      streamName: `${category}-a`,
      category,
      lastRevision: 2n,
      eventCount: 3,
      lastEventType: 'Closed',
      firstRecordedAt: events[0]!.recordedAt,
      lastRecordedAt: events.at(-1)!.recordedAt,
    });
    expect(
      (await listStreams(db.pool, category)).map((entry) => [entry.streamName, entry.eventCount]),
    ).toEqual([
      [`${category}-a`, 3],
      [`${category}-b`, 1],
    ]);
  });

  it('ignores events it has already applied (replays change nothing)', async () => {
    await installProjections(db.pool, [streamIndexProjection]);
    const category = uniqueCategory('rp');
    await store.appendToStream(`${category}-x`, [
      { type: 'One', data: {} },
      { type: 'Two', data: {} },
    ]);
    const events = await feedOf(store, category, 2);
    const client = await db.pool.connect();
    try {
      const tables = { stream_index: 'stream_index_v1' };
      await streamIndexProjection.handle(events, client, tables);
      await streamIndexProjection.handle(events, client, tables);
      await streamIndexProjection.handle(events.slice(0, 1), client, tables);
    } finally {
      client.release();
    }
    expect(await findStream(db.pool, `${category}-x`)).toMatchObject({
      lastRevision: 1n,
      eventCount: 2,
      lastEventType: 'Two',
    });
  });
});
