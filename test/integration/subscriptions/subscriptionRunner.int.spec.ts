import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEsdbEventStore, esdbEventStoreOver } from '../../../src/eventStore/esdb/esdbEventStore.js';
import type { EventStore, SubscribeOptions } from '../../../src/eventStore/eventStore.js';
import { createPostgresEventStore } from '../../../src/eventStore/postgres/postgresEventStore.js';
import { loadCheckpoint, resumeSubscription } from '../../../src/subscriptions/checkpointStore.js';
import type { SubscriptionHandler } from '../../../src/subscriptions/handler.js';
import {
  createSubscriptionRunner,
  type SubscriptionRunner,
  type SubscriptionRunnerOptions,
} from '../../../src/subscriptions/subscriptionRunner.js';
import { EsdbProtocolFake } from '../../support/esdbProtocolFake.js';
import { eventually } from '../../support/eventually.js';
import { FakeEsdb } from '../../support/fakeEsdb.js';
import {
  appendEvents,
  createSeenTable,
  fastRunnerOptions,
  seenHandler,
  seenTimes,
  uniqueCategory,
} from '../../support/subscriptionFixtures.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';

describe('subscription runner', () => {
  let db: TestDatabase;
  let store: EventStore;
  const runners: SubscriptionRunner[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    store = createPostgresEventStore({ pool: db.pool, connectionString: db.url, pollIntervalMs: 200 });
    await createSeenTable(db.pool);
  });
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((runner) => runner.stop()));
  });
  afterAll(async () => {
    await store.close();
    await db.drop();
  });

  function runner(handler: SubscriptionHandler, options: Partial<SubscriptionRunnerOptions> = {}) {
    const created = createSubscriptionRunner({
      ...fastRunnerOptions,
      pool: db.pool,
      databaseUrl: db.url,
      store,
      ...options,
      handler,
    });
    runners.push(created);
    return created;
  }

  /** The pool as a runner gets it, counting the queries the runner sends through it. */
  function countingPool(pool: pg.Pool) {
    let queries = 0;
    const counted = new Proxy(pool, {
      get(target, property) {
        const value = Reflect.get(target, property, target);
        if (property !== 'query') return typeof value === 'function' ? value.bind(target) : value;
        return (...args: Parameters<pg.Pool['query']>) => {
          queries += 1;
          return target.query(...args);
        };
      },
    });
    return { pool: counted, queries: () => queries };
  }

  /**
   * The store as a runner gets it: every subscription it opens is recorded, and a direct read of the
   * feed (a reading loop of its own) is recorded as refused, and fails.
   */
  function subscribeOnlyStore() {
    const subscriptions: SubscribeOptions[] = [];
    const refused: string[] = [];
    const refuse = (name: string) => () => {
      refused.push(name);
      throw new Error(`the runner read the feed through ${name}`);
    };
    const wrapped: EventStore = {
      ...store,
      readFeed: refuse('readFeed'),
      waitForEvents: refuse('waitForEvents'),
      headCheckpoint: refuse('headCheckpoint'),
      subscribe(options) {
        subscriptions.push(options);
        return store.subscribe(options);
      },
    };
    return { store: wrapped, refused, starts: () => subscriptions.map((options) => options.after) };
  }

  const everyEventOnce = async (subscriptionId: string, expectedIds: string[]) => {
    const seen = await seenTimes(db.pool, subscriptionId);
    expect([...seen.keys()].sort()).toEqual([...expectedIds].sort());
    expect([...seen.values()].every((times) => times === 1)).toBe(true);
  };

  it('handles every event once and stores the checkpoint of the last one', async () => {
    const category = uniqueCategory();
    const events = await appendEvents(store, category, 25);
    const feed = subscribeOnlyStore();
    const subscription = runner(seenHandler(`sub-${category}`, category), { store: feed.store });
    const reached: string[] = [];
    subscription.onCheckpoint((passed) => reached.push(passed));
    subscription.start();
    await subscription.waitForCheckpoint(events.at(-1)!.position);

    await everyEventOnce(
      `sub-${category}`,
      events.map((event) => event.id),
    );
    expect((await loadCheckpoint(db.pool, `sub-${category}`))?.checkpoint).toBe(events.at(-1)!.position);
    // Notified after each committed batch of 10, in feed order.
    expect(reached.slice(0, 2)).toEqual([events[9]!.position, events[19]!.position]);
    expect(reached.at(-1)).toBe(subscription.checkpoint);
    // One subscription, from the start of the feed, and no reading of the feed besides it.
    expect(feed.starts()).toEqual([null]);
    expect(feed.refused).toEqual([]);
  });

  it('passes positions of other categories once caught up, so callers can wait on any position', async () => {
    const category = uniqueCategory();
    const own = await appendEvents(store, category, 3);
    const other = await appendEvents(store, uniqueCategory(), 1);
    const subscription = runner(seenHandler(`sub-${category}`, category));
    subscription.start();
    await subscription.waitForCheckpoint(other[0]!.position);
    // Stored too, though no event of its own is there: a restart goes on from where it looked.
    const stored = (await loadCheckpoint(db.pool, `sub-${category}`))?.checkpoint;
    expect(store.compareCheckpoints(stored!, other[0]!.position)).toBeGreaterThanOrEqual(0);
    expect(store.compareCheckpoints(stored!, own.at(-1)!.position)).toBe(1);
  });

  it('rolls back the handler writes with the checkpoint when the handler throws after writing', async () => {
    const category = uniqueCategory();
    const id = `sub-${category}`;
    const events = await appendEvents(store, category, 5);
    let calls = 0;
    let stateSeenByRetry: { rows: number; checkpoint: string | null | undefined } | undefined;
    const feed = subscribeOnlyStore();
    const subscription = runner(
      seenHandler(
        id,
        category,
        async () => {
          if (++calls === 2) {
            stateSeenByRetry = {
              rows: (await seenTimes(db.pool, id)).size,
              checkpoint: (await loadCheckpoint(db.pool, id))?.checkpoint,
            };
          }
        },
        () => {
          if (calls === 1) throw new Error('fails after writing');
        },
      ),
      { store: feed.store },
    );
    subscription.start();
    await subscription.waitForCheckpoint(events.at(-1)!.position);

    expect(stateSeenByRetry).toEqual({ rows: 0, checkpoint: null });
    await everyEventOnce(
      id,
      events.map((event) => event.id),
    );
    const row = await loadCheckpoint(db.pool, id);
    expect(row).toMatchObject({ status: 'active', attempts: 0, lastError: null });
    // The retry handled the events it held again: the subscription went on, it did not start over.
    expect(feed.starts()).toEqual([null]);
  });

  it('survives the database ending the connection of a batch in flight, and handles the batch again', async () => {
    const category = uniqueCategory();
    let terminated = false;
    const handler = seenHandler('sub-terminated', category, async (_events, tx) => {
      if (terminated) return;
      terminated = true;
      // The server ends this batch's session (a restart, an operator) while the runner holds it:
      // the client hears it between queries, which once was an unhandled 'error' and killed the process.
      const { rows } = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      // Not events.once: it would listen for 'error' itself.
      const ended = new Promise((resolve) => tx.once('end', resolve));
      await db.pool.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
      await ended;
    });
    const events = await appendEvents(store, category, 3);
    const started = runner(handler);
    started.start();
    await eventually(() =>
      everyEventOnce(
        'sub-terminated',
        events.map((event) => event.id),
      ),
    );
    expect(terminated).toBe(true);
    expect(started.state).not.toBe('parked');
  });

  it('rolls a batch back when another writer moved the checkpoint meanwhile (compare-and-swap)', async () => {
    const category = uniqueCategory();
    const id = `sub-${category}`;
    const events = await appendEvents(store, category, 15);
    const firstBatch = events.slice(0, 10);
    let moved = false;
    const feed = subscribeOnlyStore();
    const subscription = runner(
      seenHandler(id, category, undefined, async () => {
        if (moved) return;
        moved = true;
        // Another runner committing the same batch first: only its checkpoint is visible here.
        await db.pool.query('UPDATE es_checkpoints SET checkpoint = $2 WHERE subscription_id = $1', [
          id,
          firstBatch.at(-1)!.position,
        ]);
      }),
      { store: feed.store },
    );
    subscription.start();
    await subscription.waitForCheckpoint(events.at(-1)!.position);

    const seen = await seenTimes(db.pool, id);
    expect(firstBatch.filter((event) => seen.has(event.id))).toEqual([]);
    await everyEventOnce(
      id,
      events.slice(10).map((event) => event.id),
    );
    // The conflict ended the subscription; the next one starts from the checkpoint as stored.
    expect(feed.starts()).toEqual([null, firstBatch.at(-1)!.position]);
  });

  it('keeps a second runner on the same id on standby, following the leader, until the leader stops', async () => {
    const category = uniqueCategory();
    const id = `sub-${category}`;
    const handledBy: Record<string, number> = { first: 0, second: 0 };
    const counting = (name: string) =>
      seenHandler(id, category, (events) => {
        handledBy[name]! += events.length;
      });
    const first = runner(counting('first'));
    first.start();
    await eventually(() => expect(first.state).toBe('leading'));
    const second = runner(counting('second'));
    second.start();
    await eventually(() => expect(second.state).toBe('standby'));

    const before = await appendEvents(store, category, 12);
    await first.waitForCheckpoint(before.at(-1)!.position);
    await second.waitForCheckpoint(before.at(-1)!.position);
    expect(handledBy).toEqual({ first: 12, second: 0 });

    await first.stop();
    await eventually(() => expect(second.state).toBe('leading'));
    const all = await appendEvents(store, category, 8);
    await second.waitForCheckpoint(all.at(-1)!.position);
    expect(handledBy).toEqual({ first: 12, second: 8 });
    await everyEventOnce(
      id,
      all.map((event) => event.id),
    );
  });

  it('stops processing when the leader loses its lock session, and a standby takes over', async () => {
    const category = uniqueCategory();
    const id = `sub-${category}`;
    const handledBy: Record<string, number> = { first: 0, second: 0 };
    const counting = (name: string) =>
      seenHandler(id, category, (events) => {
        handledBy[name]! += events.length;
      });
    // The first steps back for longer than any test runs (it notices the loss from its session's end,
    // not from a probe), the second retries at once: the takeover order is then known.
    const first = runner(counting('first'), { standbyRetryMs: 600_000 });
    first.start();
    await eventually(() => expect(first.state).toBe('leading'));
    const second = runner(counting('second'), { standbyRetryMs: 50 });
    second.start();
    await eventually(() => expect(second.state).toBe('standby'));

    const { rows } = await db.pool.query<{ terminated: boolean }>(
      `SELECT pg_terminate_backend(pid) AS terminated FROM pg_locks
        WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND ((classid::bigint << 32) | objid::bigint) = hashtextextended('sub:' || $1::text, 0)`,
      [id],
    );
    expect(rows).toEqual([{ terminated: true }]);

    await eventually(() => expect(second.state).toBe('leading'));
    await eventually(() => expect(first.state).toBe('standby'));
    const events = await appendEvents(store, category, 6);
    await second.waitForCheckpoint(events.at(-1)!.position);
    expect(handledBy).toEqual({ first: 0, second: 6 });
    await everyEventOnce(
      id,
      events.map((event) => event.id),
    );
  });

  it('isolates a poison event, parks on it with a visible status while other subscriptions go on, and resumes', async () => {
    const category = uniqueCategory();
    const id = `sub-${category}`;
    const events = await appendEvents(store, category, 10);
    const poison = events[6]!;
    let fixed = false;
    let poisonTries = 0;
    const polls = countingPool(db.pool);
    const feed = subscribeOnlyStore();
    const failing = runner(
      seenHandler(id, category, (batch) => {
        if (!batch.some((event) => event.id === poison.id)) return;
        poisonTries += 1;
        if (!fixed) throw new Error('cannot project this event');
      }),
      { batchSize: 4, pool: polls.pool, store: feed.store },
    );
    const healthy = runner(seenHandler(`healthy-${category}`, category));
    failing.start();
    healthy.start();

    await eventually(() => expect(failing.state).toBe('parked'));
    const parked = await loadCheckpoint(db.pool, id);
    expect(parked).toMatchObject({
      status: 'parked',
      // The events before the poison one committed while it was being isolated.
      checkpoint: events[5]!.position,
      parkedEventId: poison.id,
      parkedPosition: poison.position,
      attempts: fastRunnerOptions.retry.maxAttempts,
    });
    expect(parked?.lastError).toContain('cannot project this event');
    expect(parked?.parkedAt).toBeInstanceOf(Date);
    await everyEventOnce(
      id,
      events.slice(0, 6).map((event) => event.id),
    );
    await healthy.waitForCheckpoint(events.at(-1)!.position);
    await everyEventOnce(
      `healthy-${category}`,
      events.map((event) => event.id),
    );

    // Parked means stopped: it looks for a resume (a query per poll) and neither retries nor moves on.
    const triesWhenParked = poisonTries;
    const queriesWhenParked = polls.queries();
    await eventually(() => expect(polls.queries()).toBeGreaterThanOrEqual(queriesWhenParked + 2));
    expect(poisonTries).toBe(triesWhenParked);
    expect(failing.state).toBe('parked');
    expect((await loadCheckpoint(db.pool, id))?.checkpoint).toBe(events[5]!.position);

    fixed = true;
    expect(await resumeSubscription(db.pool, id)).toBe('resumed');
    await failing.waitForCheckpoint(events.at(-1)!.position);
    await everyEventOnce(
      id,
      events.map((event) => event.id),
    );
    expect(await loadCheckpoint(db.pool, id)).toMatchObject({
      status: 'active',
      parkedEventId: null,
      lastError: null,
      attempts: 0,
    });
    // Retries and the one-by-one isolation ran on the events held in memory; only the resume
    // subscribed again, from the checkpoint before the poison event.
    expect(feed.starts()).toEqual([null, events[5]!.position]);
    expect(feed.refused).toEqual([]);
  });

  it('runs over the EventStoreDB adapter, going on from the last $all record it looked at, and stores it: after a long stretch of other categories, a new event costs what it delivers, restarted or not', async () => {
    const esdb = new FakeEsdb();
    // An hour's poll: the runner moves only on the adapter's wake-ups.
    const esdbStore = esdbEventStoreOver(esdb.client, { pollIntervalMs: 3_600_000 });
    try {
      const category = uniqueCategory();
      const id = `sub-${category}`;
      await esdbStore.appendToStream(`${category}-1`, [{ type: 'Tested', data: {} }]);
      // 1,000 events of another category after it, each with its `$ce` link record: 2,000 records.
      await esdbStore.appendToStream(
        `${uniqueCategory()}-1`,
        Array.from({ length: 1_000 }, (_, n) => ({ type: 'Other', data: { n } })),
      );
      const subscription = runner(seenHandler(id, category), { store: esdbStore });
      subscription.start();
      // Released by the marker, though the head is another category's event.
      const head = (await esdbStore.headCheckpoint())!;
      await subscription.waitForCheckpoint(head);
      // Stored as far as it looked, past the 2,000 records after its one event.
      const stored = (await loadCheckpoint(db.pool, id))?.checkpoint;
      expect(esdbStore.compareCheckpoints(stored!, head)).toBeGreaterThanOrEqual(0);

      const readBefore = esdb.allRecordsRead;
      const second = await esdbStore.appendToStream(`${category}-2`, [{ type: 'Tested', data: {} }]);
      await subscription.waitForCheckpoint(second.position);
      // Reading again after the first event would move all 2,000 records.
      expect(esdb.allRecordsRead - readBefore).toBeLessThan(20);

      // A runner started again goes on from the stored scan position, not from its last event.
      await subscription.stop();
      const readBeforeRestart = esdb.allRecordsRead;
      const restarted = runner(seenHandler(id, category), { store: esdbStore });
      restarted.start();
      const third = await esdbStore.appendToStream(`${category}-3`, [{ type: 'Tested', data: {} }]);
      await restarted.waitForCheckpoint(third.position);
      expect(esdb.allRecordsRead - readBeforeRestart).toBeLessThan(20);
      const seen = await seenTimes(db.pool, id);
      expect(seen.size).toBe(3);
      expect([...seen.values()]).toEqual([1, 1, 1]);
    } finally {
      await Promise.all(runners.splice(0).map((created) => created.stop()));
      await esdbStore.close();
    }
  });

  /** The adapter over the real client against a protocol-level fake server, closed after `test`. */
  async function overProtocolFake(
    pollIntervalMs: number,
    test: (esdbStore: EventStore, server: EsdbProtocolFake) => Promise<void>,
  ): Promise<void> {
    const server = await EsdbProtocolFake.start();
    const esdbStore = createEsdbEventStore({ connectionString: server.connectionString, pollIntervalMs });
    try {
      await test(esdbStore, server);
    } finally {
      await Promise.all(runners.splice(0).map((created) => created.stop()));
      await esdbStore.close();
      await server.stop();
    }
  }

  it('runs over the real EventStoreDB client, against the protocol-level fake server', async () => {
    await overProtocolFake(3_600_000, async (esdbStore, server) => {
      const category = uniqueCategory();
      const id = `real-${category}`;
      const events = await appendEvents(esdbStore, category, 25);
      const subscription = runner(seenHandler(id, category), { store: esdbStore });
      subscription.start();
      await subscription.waitForCheckpoint(events.at(-1)!.position);
      // Live: an event appended now arrives through the client's own subscription (the doorbell).
      const [late] = await appendEvents(esdbStore, category, 1).then((all) => all.slice(-1));
      await subscription.waitForCheckpoint(late!.position);
      await everyEventOnce(
        id,
        [...events, late!].map((event) => event.id),
      );
      expect((await loadCheckpoint(db.pool, id))?.store).toEqual(await esdbStore.identity());
      expect(server.calls.batchAppend).toBe(0);
    });
  });

  it('goes on over the real client after the server restarts under it: nothing lost, nothing twice', async () => {
    // A short fallback poll: a doorbell cut by the restart only delays the next read until it.
    await overProtocolFake(100, async (esdbStore, server) => {
      const category = uniqueCategory();
      const id = `restarted-${category}`;
      const before = await appendEvents(esdbStore, category, 10);
      const subscription = runner(seenHandler(id, category), { store: esdbStore });
      subscription.start();
      await subscription.waitForCheckpoint(before.at(-1)!.position);
      await server.restart();
      // The first call after the restart may find the connection cut: the retry, with the same id at
      // an explicit revision, lands once.
      const afterId = randomUUID();
      const after = await eventually(() =>
        esdbStore.appendToStream(`${category}-after`, [{ id: afterId, type: 'Tested', data: {} }], {
          expectedRevision: 'no_stream',
        }),
      );
      await subscription.waitForCheckpoint(after.position);
      const seen = await seenTimes(db.pool, id);
      expect(seen.size).toBe(11);
      expect([...seen.values()].every((times) => times === 1)).toBe(true);
    });
  });

  describe('checkpoints name their store', () => {
    it('records the store on first use, and adopts the connected store on a row from before stores were recorded', async () => {
      const category = uniqueCategory();
      const events = await appendEvents(store, category, 4);
      const fresh = runner(seenHandler(`sub-${category}`, category));
      fresh.start();
      await fresh.waitForCheckpoint(events.at(-1)!.position);
      expect((await loadCheckpoint(db.pool, `sub-${category}`))?.store).toEqual(await store.identity());

      // A row as migration 14 found it: a position, no store.
      const legacyId = `legacy-${category}`;
      await db.pool.query('INSERT INTO es_checkpoints (subscription_id, checkpoint) VALUES ($1, $2)', [
        legacyId,
        events[1]!.position,
      ]);
      const legacy = runner(seenHandler(legacyId, category));
      legacy.start();
      await legacy.waitForCheckpoint(events.at(-1)!.position);
      expect((await loadCheckpoint(db.pool, legacyId))?.store).toEqual(await store.identity());
      expect([...(await seenTimes(db.pool, legacyId)).keys()].sort()).toEqual(
        events
          .slice(2)
          .map((event) => event.id)
          .sort(),
      );
    });

    it('tells another PostgreSQL database apart, on the same server', async () => {
      const other = await createTestDatabase({ migrate: false });
      const otherStore = createPostgresEventStore({ pool: other.pool, connectionString: other.url });
      try {
        const [here, there] = await Promise.all([store.identity(), otherStore.identity()]);
        expect(here.kind).toBe('postgres');
        expect(there.kind).toBe('postgres');
        // The same cluster, another database.
        expect(here.instance.split(' database ')[0]).toBe(there.instance.split(' database ')[0]);
        expect(here.instance).not.toBe(there.instance);
      } finally {
        await otherStore.close();
        await other.drop();
      }
    });

    it('stops, for an operator, when its checkpoint is a position on another store, and handles nothing', async () => {
      const category = uniqueCategory();
      const id = `moved-${category}`;
      const events = await appendEvents(store, category, 3);
      const onPostgres = runner(seenHandler(id, category));
      onPostgres.start();
      await onPostgres.waitForCheckpoint(events.at(-1)!.position);
      await onPostgres.stop();

      // The service pointed at an EventStoreDB (with events of its own) while its checkpoints stay.
      const esdbStore = esdbEventStoreOver(new FakeEsdb().client, { pollIntervalMs: 3_600_000 });
      try {
        await esdbStore.appendToStream(`${category}-esdb`, [{ type: 'Tested', data: {} }]);
        const states: string[] = [];
        const onEsdb = runner(seenHandler(id, category), { store: esdbStore });
        onEsdb.onStateChange((state) => states.push(state));
        onEsdb.start();
        await onEsdb.done;
        expect(onEsdb.state).toBe('wrongStore');
        expect(states).not.toContain('leading');

        const row = await loadCheckpoint(db.pool, id);
        expect(row?.checkpoint).toBe(events.at(-1)!.position);
        expect(row?.store).toEqual(await store.identity());
        const connected = await esdbStore.identity();
        expect(row?.lastError).toContain(`Subscription ${id} stopped`);
        expect(row?.lastError).toContain(`on the event store postgres ${(await store.identity()).instance}`);
        expect(row?.lastError).toContain(`connected to esdb ${connected.instance}`);
        expect((await seenTimes(db.pool, id)).size).toBe(3);
      } finally {
        await esdbStore.close();
      }
    });
  });

  it('stops, for an operator, on a recreated EventStoreDB (the real client, over the protocol-level fake), and goes on once back on its own server', async () => {
    const original = await EsdbProtocolFake.start();
    const recreated = await EsdbProtocolFake.start();
    const open = (server: EsdbProtocolFake) =>
      createEsdbEventStore({ connectionString: server.connectionString, pollIntervalMs: 3_600_000 });
    const onOriginal = open(original);
    const onRecreated = open(recreated);
    try {
      const category = uniqueCategory();
      const id = `recreated-${category}`;
      const events = await appendEvents(onOriginal, category, 3);
      const first = runner(seenHandler(id, category), { store: onOriginal });
      first.start();
      await first.waitForCheckpoint(events.at(-1)!.position);
      await first.stop();

      // The server recreated empty, then written to: its positions look just like the old ones.
      await appendEvents(onRecreated, category, 5);
      const second = runner(seenHandler(id, category), { store: onRecreated });
      second.start();
      await second.done;
      expect(second.state).toBe('wrongStore');
      const row = await loadCheckpoint(db.pool, id);
      expect(row?.store).toEqual(await onOriginal.identity());
      expect(row?.lastError).toContain(`connected to esdb ${(await onRecreated.identity()).instance}`);
      expect((await seenTimes(db.pool, id)).size).toBe(3);

      // Pointed back at the server that wrote the checkpoint, it goes on from there.
      const [late] = (await appendEvents(onOriginal, category, 1)).slice(-1);
      const third = runner(seenHandler(id, category), { store: onOriginal });
      third.start();
      await third.waitForCheckpoint(late!.position);
      await everyEventOnce(
        id,
        [...events, late!].map((event) => event.id),
      );
    } finally {
      await Promise.all(runners.splice(0).map((created) => created.stop()));
      await Promise.all([onOriginal.close(), onRecreated.close()]);
      await Promise.all([original.stop(), recreated.stop()]);
    }
  });

  it('lets the batch in flight commit when stopped, then resolves', async () => {
    const category = uniqueCategory();
    const id = `sub-${category}`;
    const events = await appendEvents(store, category, 5);
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered!: () => void;
    const inHandler = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const subscription = runner(
      seenHandler(id, category, async () => {
        entered();
        await released;
      }),
    );
    subscription.start();
    await inHandler;

    let stopped = false;
    // What the database holds at the moment stop() resolves: the batch in flight, committed.
    const stopping = subscription.stop().then(() => {
      stopped = true;
      return loadCheckpoint(db.pool, id);
    });
    expect(stopped).toBe(false);
    release();
    expect((await stopping)?.checkpoint).toBe(events.at(-1)!.position);

    expect(subscription.state).toBe('stopped');
    await everyEventOnce(
      id,
      events.map((event) => event.id),
    );
  });

  it('neither loses nor repeats an event across many stops and starts while events keep coming', async () => {
    const category = uniqueCategory();
    const id = `sub-${category}`;
    const slowHandler = seenHandler(id, category, () => new Promise((resolve) => setTimeout(resolve, 3)));
    let appending = true;
    const appender = (async () => {
      while (appending) await appendEvents(store, category, 5);
    })();

    for (let round = 0; round < 12; round++) {
      const subscription = runner(slowHandler, { batchSize: 7 });
      subscription.start();
      await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 60));
      await subscription.stop();
    }
    appending = false;
    await appender;

    const all = await appendEvents(store, category, 1);
    const last = runner(slowHandler, { batchSize: 7 });
    last.start();
    await last.waitForCheckpoint(all.at(-1)!.position, { timeoutMs: 30_000 });
    await everyEventOnce(
      id,
      all.map((event) => event.id),
    );
  });
});
