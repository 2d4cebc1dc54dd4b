import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProjectionDefinition } from '../../../projections/projection.js';
import { type RebuildEvent, rebuildProjection } from '../../../projections/rebuild.js';
import { startProjections } from '../../../projections/startProjections.js';
import { createEsdbEventStore } from '../../../src/eventStore/esdb/esdbEventStore.js';
import type { EventStore } from '../../../src/eventStore/eventStore.js';
import { createPostgresEventStore } from '../../../src/eventStore/postgres/postgresEventStore.js';
import { EsdbProtocolFake } from '../../support/esdbProtocolFake.js';
import { fastRunnerOptions, feedOf, uniqueCategory } from '../../support/subscriptionFixtures.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';

interface OpenedStore {
  store: EventStore;
  close(): Promise<void>;
}

const stores: [string, (db: TestDatabase) => Promise<OpenedStore>][] = [
  [
    'PostgreSQL',
    async (db) => {
      const store = createPostgresEventStore({
        pool: db.pool,
        connectionString: db.url,
        pollIntervalMs: 100,
      });
      return { store, close: () => store.close() };
    },
  ],
  [
    'EventStoreDB (the real client, over the protocol-level fake server)',
    async () => {
      const server = await EsdbProtocolFake.start();
      const store = createEsdbEventStore({ connectionString: server.connectionString, pollIntervalMs: 100 });
      return {
        store,
        async close() {
          await store.close();
          await server.stop();
        },
      };
    },
  ],
];

/**
 * A projection that counts how often each event was handled. Not idempotent on purpose (real
 * projections must be): an event handled twice, once in the swap and again by the runner after it,
 * shows as times = 2.
 */
function handledTimesProjection(category: string): ProjectionDefinition<'swap_probe'> {
  return {
    name: 'swap_probe',
    version: 1,
    categories: [category],
    tables: ['swap_probe'],
    ddl: ({ swap_probe }) =>
      `CREATE TABLE ${pg.escapeIdentifier(swap_probe)} (event_id uuid PRIMARY KEY, times integer NOT NULL)`,
    async handle(events, tx, { swap_probe }) {
      const table = pg.escapeIdentifier(swap_probe);
      await tx.query(
        `INSERT INTO ${table} (event_id, times) SELECT unnest($1::uuid[]), 1
         ON CONFLICT (event_id) DO UPDATE SET times = ${table}.times + 1`,
        [events.map((event) => event.id)],
      );
    },
  };
}

/** Most appends a test's writers make: enough to tell a bounded swap from one that reads until empty. */
const STEADY_APPENDS = 200;

describe.each(stores)('rebuild swap under steady writes, on %s', (_name, openStore) => {
  let db: TestDatabase;
  let opened: OpenedStore;

  beforeAll(async () => {
    db = await createTestDatabase();
    opened = await openStore(db);
  });
  afterAll(async () => {
    await opened?.close();
    await db?.drop();
  });

  it('ends at the head it read, and the new version handles the events appended meanwhile after the swap, each once', async () => {
    const { store } = opened;
    const category = uniqueCategory('sw');
    const definition = handledTimesProjection(category);
    const appended: string[] = [];
    const append = async () => {
      const id = randomUUID();
      appended.push(id);
      await store.appendToStream(`${category}-${appended.length % 7}`, [{ id, type: 'Steady', data: {} }]);
    };
    for (let n = 0; n < 30; n++) await append();
    await feedOf(store, category, 30);

    // Steady writes the swap cannot outrun: every read of the feed finds one more event appended just
    // before it (the writer is faster than the reader), up to STEADY_APPENDS.
    const writingStore: EventStore = {
      ...store,
      async readFeed(options) {
        if (appended.length < STEADY_APPENDS) await append();
        return store.readFeed(options);
      },
    };
    const reported: RebuildEvent[] = [];
    const result = await rebuildProjection({
      pool: db.pool,
      databaseUrl: db.url,
      store: writingStore,
      definition,
      runner: { ...fastRunnerOptions, batchSize: 5 },
      releaseWaitMs: 0,
      report: (event) => reported.push(event),
    });
    expect(result).toMatchObject({ fromVersion: 1, toVersion: 2 });
    const swapped = reported.find((event) => event.kind === 'swapped');
    // Reading until empty would take in one event after another for as long as the writes go on
    // (on PostgreSQL the swap's transaction holds them back, so either way ends there).
    expect(swapped?.kind === 'swapped' && swapped.tailEvents).toBeLessThan(STEADY_APPENDS / 4);
    const writtenDuringRebuild = appended.length;
    expect(writtenDuringRebuild).toBeGreaterThan(30);

    // The new version's runner goes on from the swap's checkpoint while the writes go on.
    const workers = await startProjections({
      pool: db.pool,
      databaseUrl: db.url,
      store,
      definitions: [definition],
      registryPollMs: 100,
      runner: fastRunnerOptions,
    });
    try {
      for (let n = 0; n < 10; n++) await append();
      const all = await feedOf(store, category, appended.length);
      await workers.waitForCheckpoint('swap_probe', all.at(-1)!.position);
      expect(workers.runners().get('swap_probe')?.subscriptionId).toBe('projection:swap_probe:v2');
    } finally {
      await workers.stop();
    }
    const { rows } = await db.pool.query<{ event_id: string; times: number }>(
      'SELECT event_id, times FROM swap_probe',
    );
    expect(rows.map((row) => row.event_id).sort()).toEqual([...appended].sort());
    expect(rows.filter((row) => row.times !== 1)).toEqual([]);
  });
});
