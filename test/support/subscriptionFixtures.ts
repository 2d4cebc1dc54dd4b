import { randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { EventStore, RecordedEvent } from '../../src/eventStore/eventStore.js';
import type { SubscriptionHandler } from '../../src/subscriptions/handler.js';
import type { SubscriptionRunnerOptions } from '../../src/subscriptions/subscriptionRunner.js';
import { eventually } from './eventually.js';

/** A category of its own per test, so tests sharing a database do not see each other's events. */
export const uniqueCategory = (prefix = 't') => `${prefix}${randomBytes(5).toString('hex')}`;

/** Fast retries and polls, so failure paths finish within a test. */
export const fastRunnerOptions = {
  batchSize: 10,
  standbyRetryMs: 100,
  parkedPollMs: 100,
  scanPositionSaveIntervalMs: 0,
  retry: { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 20 },
} satisfies Partial<SubscriptionRunnerOptions>;

/** A read model for runner tests: how many times each subscription applied each event. */
export async function createSeenTable(pool: pg.Pool): Promise<void> {
  await pool.query(`CREATE TABLE IF NOT EXISTS seen (
    subscription_id text NOT NULL,
    event_id uuid NOT NULL,
    times integer NOT NULL,
    PRIMARY KEY (subscription_id, event_id)
  )`);
}

/** Not idempotent on purpose: a duplicate delivery shows up as times > 1. */
export async function recordSeen(
  tx: pg.PoolClient,
  subscriptionId: string,
  events: RecordedEvent[],
): Promise<void> {
  await tx.query(
    `INSERT INTO seen (subscription_id, event_id, times) SELECT $1, unnest($2::uuid[]), 1
     ON CONFLICT (subscription_id, event_id) DO UPDATE SET times = seen.times + 1`,
    [subscriptionId, events.map((event) => event.id)],
  );
}

export async function seenTimes(pool: pg.Pool, subscriptionId: string): Promise<Map<string, number>> {
  const { rows } = await pool.query<{ event_id: string; times: number }>(
    'SELECT event_id, times FROM seen WHERE subscription_id = $1',
    [subscriptionId],
  );
  return new Map(rows.map((row) => [row.event_id, row.times]));
}

export function seenHandler(
  subscriptionId: string,
  category: string,
  before?: (events: RecordedEvent[], tx: pg.PoolClient) => Promise<void> | void,
  after?: (events: RecordedEvent[], tx: pg.PoolClient) => Promise<void> | void,
): SubscriptionHandler {
  return {
    subscriptionId,
    categories: [category],
    async handle(events, tx) {
      await before?.(events, tx);
      await recordSeen(tx, subscriptionId, events);
      await after?.(events, tx);
    },
  };
}

/**
 * Appends `count` events, one stream per event; returns the category's whole feed once they are on
 * it. The feed only shows an event once every transaction older than its own has ended anywhere on
 * the server, so other test files running at the same time can delay it.
 */
export async function appendEvents(
  store: EventStore,
  category: string,
  count: number,
): Promise<RecordedEvent[]> {
  const ids: string[] = [];
  for (let n = 0; n < count; n++) {
    const id = randomUUID();
    ids.push(id);
    await store.appendToStream(`${category}-${n}-${randomBytes(3).toString('hex')}`, [
      { id, type: 'Tested', data: { n } },
    ]);
  }
  return eventually(async () => {
    const events = await readAll(store, category);
    const delivered = new Set(events.map((event) => event.id));
    if (!ids.every((id) => delivered.has(id))) throw new Error('appended events are not on the feed yet');
    return events;
  });
}

/** The category's whole feed, once it holds at least `count` events. */
export function feedOf(store: EventStore, category: string, count: number): Promise<RecordedEvent[]> {
  return eventually(async () => {
    const events = await readAll(store, category);
    if (events.length < count) throw new Error(`${events.length} of ${count} events on the feed so far`);
    return events;
  });
}

async function readAll(store: EventStore, category: string): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  for (;;) {
    const page = await store.readFeed({
      after: events.at(-1)?.position ?? null,
      categories: [category],
      limit: 500,
    });
    if (page.length === 0) return events;
    events.push(...page);
  }
}
