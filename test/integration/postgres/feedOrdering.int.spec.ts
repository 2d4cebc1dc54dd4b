import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabaseIfMissing, createPool } from '../../../src/db/database.js';
import { type EmbeddedServer, startEmbeddedPostgres, url } from '../../../src/db/embeddedPostgres.js';
import { migrate } from '../../../src/db/migrate.js';
import type { EventStore } from '../../../src/eventStore/eventStore.js';
import { createPostgresEventStore } from '../../../src/eventStore/postgres/postgresEventStore.js';
import { eventually } from '../../support/eventually.js';

/**
 * These tests hold writing transactions open on purpose, and an open writer holds back every feed
 * reader of its whole cluster, so they run on a server of their own.
 */
describe('PostgreSQL feed ordering', () => {
  let server: EmbeddedServer;
  let pool: pg.Pool;
  let store: EventStore;
  let dbUrl: string;

  beforeAll(async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'casescreen-ordering-'));
    server = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg'), persistent: false });
    await createDatabaseIfMissing(server.adminUrl, 'ordering');
    await createDatabaseIfMissing(server.adminUrl, 'elsewhere');
    dbUrl = url(server.port, 'ordering');
    await migrate(dbUrl);
    pool = createPool(dbUrl);
    store = createPostgresEventStore({ pool, connectionString: dbUrl, pollIntervalMs: 50 });
  });
  afterAll(async () => {
    await store?.close();
    await pool?.end();
    await server?.stop();
  });

  async function openClient(database = dbUrl): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: database });
    await client.connect();
    return client;
  }

  /** Starts an append inside a transaction that stays open until the caller commits. */
  async function appendInOpenTransaction(client: pg.Client, stream: string, category: string) {
    await client.query('BEGIN');
    await client.query(
      `SELECT * FROM es_append($1, $2, 'any', ARRAY[$3::uuid], ARRAY['Late'], ARRAY['{"late":true}'::jsonb], ARRAY['{}'::jsonb])`,
      [stream, category, randomUUID()],
    );
  }

  /**
   * A store of its own whose completed `readFeed` calls are counted (a subscription's wait reads the
   * feed once each time, after the subscription's own page), and a wait until it has read the feed
   * `reads` more times: a live reader has then looked again since the caller's last step, and what it
   * delivered by then is what it would deliver however long the test waited.
   */
  /**
   * A store on a pool of its own that counts the feed reads it finished (any statement reading
   * `es_events` pages: a subscription's page, a wait's look), for a test to know a whole read went by.
   */
  function watchedStore(pollIntervalMs: number) {
    const ownPool = createPool(dbUrl);
    let completed = 0;
    ownPool.on('connect', (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
      (client as { query: unknown }).query = async (...args: unknown[]) => {
        const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string }).text;
        const result = await query(...args);
        if (text?.includes('FROM es_events')) completed += 1;
        return result;
      };
    });
    const watched = createPostgresEventStore({ pool: ownPool, connectionString: dbUrl, pollIntervalMs });
    const readAgain = async (reads = 2) => {
      const since = completed;
      await eventually(() => expect(completed).toBeGreaterThanOrEqual(since + reads));
    };
    const close = async () => {
      await watched.close();
      await ownPool.end();
    };
    return { store: watched, readAgain, close };
  }

  const typesOf = async (category: string, limit = 100) =>
    (await store.readFeed({ after: null, categories: [category], limit })).map((e) => e.type);

  it('never delivers a later commit before an earlier-started append that commits late', async () => {
    const category = `late${randomUUID().slice(0, 8)}`;
    const slow = await openClient();
    try {
      await appendInOpenTransaction(slow, `${category}-a`, category);
      await store.appendToStream(`${category}-b`, [{ type: 'Early', data: {} }]);
      // B committed first, but A holds a lower transaction id: B must wait behind A.
      expect(await typesOf(category)).toEqual([]);
      expect(await typesOf(category, 1)).toEqual([]);
      await slow.query('COMMIT');
      expect(await typesOf(category)).toEqual(['Late', 'Early']);
    } finally {
      await slow.end();
    }
  });

  it('a subscriber reading one event at a time does not skip the late commit', async () => {
    const category = `late${randomUUID().slice(0, 8)}`;
    await store.appendToStream(`${category}-x`, [{ type: 'First', data: {} }]);
    const first = await store.readFeed({ after: null, categories: [category], limit: 1 });
    const slow = await openClient();
    try {
      await appendInOpenTransaction(slow, `${category}-a`, category);
      await store.appendToStream(`${category}-b`, [{ type: 'Early', data: {} }]);
      expect(await store.readFeed({ after: first[0]!.position, categories: [category], limit: 1 })).toEqual(
        [],
      );
      await slow.query('COMMIT');
      const next = await store.readFeed({ after: first[0]!.position, categories: [category], limit: 1 });
      const last = await store.readFeed({ after: next[0]!.position, categories: [category], limit: 1 });
      expect([next[0]!.type, last[0]!.type]).toEqual(['Late', 'Early']);
    } finally {
      await slow.end();
    }
  });

  it('an append rolled back leaves no trace on the feed', async () => {
    const category = `rb${randomUUID().slice(0, 8)}`;
    const slow = await openClient();
    try {
      await appendInOpenTransaction(slow, `${category}-a`, category);
      await store.appendToStream(`${category}-b`, [{ type: 'Kept', data: {} }]);
      await slow.query('ROLLBACK');
      expect(await typesOf(category)).toEqual(['Kept']);
      expect((await store.readStream(`${category}-a`)).exists).toBe(false);
    } finally {
      await slow.end();
    }
  });

  it('refuses an append in a transaction that already wrote, since its order could not be kept', async () => {
    const client = await openClient();
    try {
      await client.query('BEGIN');
      await client.query('CREATE TEMP TABLE scratch (x int)');
      await client.query('INSERT INTO scratch VALUES (1)');
      await expect(
        client.query(
          `SELECT * FROM es_append('case-guard', 'case', 'any', ARRAY[$1::uuid], ARRAY['X'], ARRAY['{}'::jsonb], ARRAY['{}'::jsonb])`,
          [randomUUID()],
        ),
      ).rejects.toMatchObject({ code: 'ES001' });
      await client.query('ROLLBACK');
    } finally {
      await client.end();
    }
  });

  it('an idle writing transaction in another database holds delivery back until it ends', async () => {
    const category = `idle${randomUUID().slice(0, 8)}`;
    const other = await openClient(url(server.port, 'elsewhere'));
    try {
      await other.query('BEGIN');
      await other.query('SELECT pg_current_xact_id()');
      await store.appendToStream(`${category}-a`, [{ type: 'Held', data: {} }]);
      expect(await typesOf(category)).toEqual([]);
      await other.query('COMMIT');
      expect(await typesOf(category)).toEqual(['Held']);
    } finally {
      await other.end();
    }
  });

  it('a live subscriber waiting behind a late commit receives both events, in order, once it commits', async () => {
    const category = `live${randomUUID().slice(0, 8)}`;
    const watched = watchedStore(50);
    const controller = new AbortController();
    const seen: string[] = [];
    const reader = (async () => {
      for await (const item of watched.store.subscribe({
        after: null,
        categories: [category],
        signal: controller.signal,
      })) {
        if ('kind' in item) continue;
        seen.push(item.type);
        if (seen.length === 2) controller.abort();
      }
    })();
    const slow = await openClient();
    try {
      await appendInOpenTransaction(slow, `${category}-a`, category);
      await store.appendToStream(`${category}-b`, [{ type: 'Early', data: {} }]);
      // A whole read after Early committed, and still nothing: Early waits behind the open append.
      await watched.readAgain();
      expect(seen).toEqual([]);
      await slow.query('COMMIT');
      await reader;
      expect(seen).toEqual(['Late', 'Early']);
    } finally {
      controller.abort();
      await slow.end();
      await watched.close();
    }
  });

  it('a wait that began while an event was held back ends soon after the holder ends between its looks', async () => {
    const category = `gap${randomUUID().slice(0, 8)}`;
    const other = await openClient(url(server.port, 'elsewhere'));
    const waiting = createPostgresEventStore({ pool, connectionString: dbUrl, pollIntervalMs: 3_600_000 });
    try {
      // The store listens for notifications first (it wakes every waiter once it has connected).
      const warmUp = `${category}w`;
      const listening = waiting.waitForEvents({
        signal: new AbortController().signal,
        timeoutMs: 3_600_000,
        categories: [warmUp],
      });
      await store.appendToStream(`${warmUp}-x`, [{ type: 'WarmUp', data: {} }]);
      await listening;

      await other.query('BEGIN');
      await other.query('SELECT pg_current_xact_id()');
      // The append's notification is taken by a wait of its own, so it cannot end the wait below.
      const notified = waiting.waitForEvents({
        signal: new AbortController().signal,
        timeoutMs: 3_600_000,
        categories: [category],
      });
      await store.appendToStream(`${category}-a`, [{ type: 'Held', data: {} }]);
      await notified;
      // The holder ends right after the wait's look at the feed: the event was not read then, and
      // no notification will come for it. Only a wait that knew it was held back looks again soon.
      const read = waiting.readFeed.bind(waiting);
      let ended = false;
      waiting.readFeed = async (options) => {
        const page = await read(options);
        if (!ended) {
          ended = true;
          await other.query('COMMIT');
        }
        return page;
      };
      const controller = new AbortController();
      let woke = false;
      const wait = waiting
        .waitForEvents({
          signal: controller.signal,
          timeoutMs: 3_600_000,
          categories: [category],
          after: null,
        })
        .then(() => {
          woke = true;
        });
      try {
        await eventually(() => expect(woke).toBe(true));
      } finally {
        controller.abort();
        await wait;
      }
      expect(await typesOf(category)).toEqual(['Held']);
    } finally {
      await other.end();
      await waiting.close();
    }
  });

  it.each([
    ['of its categories', true],
    ['of any category (no filter)', false],
  ])('does not report caught up while a committed event %s is held back, and delivers it once the holder ends, without waiting for a poll', async (_, filtered) => {
    const category = `held${randomUUID().slice(0, 8)}`;
    // An hour's poll: delivery within the test can only come from noticing the held-back event.
    const slowPoller = watchedStore(3_600_000);
    const other = await openClient(url(server.port, 'elsewhere'));
    const controller = new AbortController();
    const items: string[] = [];
    try {
      // Unfiltered, from the head: the next event on the whole feed is the held-back one.
      const after = filtered ? null : await store.headCheckpoint();
      await other.query('BEGIN');
      await other.query('SELECT pg_current_xact_id()');
      await store.appendToStream(`${category}-a`, [{ type: 'Held', data: {} }]);
      const reader = (async () => {
        for await (const item of slowPoller.store.subscribe({
          after,
          categories: filtered ? [category] : undefined,
          signal: controller.signal,
        })) {
          items.push('kind' in item ? item.kind : item.type);
          if (!('kind' in item)) controller.abort();
        }
      })();
      await slowPoller.readAgain();
      expect(items).toEqual([]);
      await other.query('COMMIT');
      await eventually(() => expect(items).toEqual(['Held']));
      await reader;
    } finally {
      controller.abort();
      await other.end();
      await slowPoller.close();
    }
  });
});
