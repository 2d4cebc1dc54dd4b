import type pg from 'pg';
import {
  type AppendResult,
  assertAppendable,
  assignEventIds,
  type Checkpoint,
  type EventStore,
  type ExpectedRevision,
  IdempotencyMismatchError,
  type ReadFeedOptions,
  type ReadStreamOptions,
  type ReadStreamResult,
  type RecordedEvent,
  streamCategory,
  type WaitForEventsOptions,
  WrongExpectedVersionError,
} from '../eventStore.js';
import { type LookAtFeedEnd, subscribeFromFeed } from '../subscribeFromFeed.js';
import { FeedNotifier } from './feedNotifier.js';
import { comparePositions, decodePosition, encodePosition, FEED_START } from './position.js';
import { FeedWakeups } from './wakeups.js';

export interface PostgresEventStoreOptions {
  pool: pg.Pool;
  /** For the LISTEN connection, which must not come from the pool. */
  connectionString: string;
  /** Fallback poll of the feed when no notification arrives. */
  pollIntervalMs?: number;
}

interface EventRow {
  global_position: string;
  transaction_id: string;
  stream_name: string;
  category: string;
  stream_revision: string;
  event_id: string;
  event_type: string;
  data: unknown;
  metadata: Record<string, unknown>;
  recorded_at: Date;
}

const EVENT_COLUMNS = `e.global_position, e.transaction_id::text AS transaction_id, e.stream_name, e.category,
  e.stream_revision, e.event_id, e.event_type, e.data, e.metadata, e.recorded_at`;

// Only rows of transactions older than every running one: nothing can commit before them later.
const VISIBLE = 'e.transaction_id < pg_snapshot_xmin(pg_current_snapshot())';

/**
 * Committed events after ($1, $2) that VISIBLE leaves out: a transaction that began earlier is still
 * open and might commit events that sort before them. With categories, only theirs ($3).
 */
function heldBackSql(categories?: string[]): string {
  return `EXISTS (
    SELECT 1 FROM es_events e
     WHERE NOT (${VISIBLE})
       AND (e.transaction_id, e.global_position) > ($1::text::xid8, $2::bigint)
       ${categories ? 'AND e.category = ANY ($3::text[])' : ''})`;
}

function heldBackParameters(after: Checkpoint | null, categories?: string[]): unknown[] {
  const start = after ? decodePosition(after) : FEED_START;
  const parameters: unknown[] = [start.transactionId.toString(), start.globalPosition.toString()];
  return categories ? [...parameters, categories] : parameters;
}

/** The last visible event, as `transaction_id` (text) and `global_position`; no row when the feed is empty. */
const HEAD = `SELECT e.transaction_id::text AS transaction_id, e.global_position
  FROM es_events e WHERE ${VISIBLE}
 ORDER BY e.transaction_id DESC, e.global_position DESC LIMIT 1`;

interface HeadRow {
  transaction_id: string | null;
  global_position: string | null;
}

function headOf(row: HeadRow | undefined): Checkpoint | null {
  if (!row?.transaction_id || !row.global_position) return null;
  return encodePosition({
    transactionId: BigInt(row.transaction_id),
    globalPosition: BigInt(row.global_position),
  });
}

/** How soon a reader looks again while committed events wait behind an older open transaction. */
const HELD_BACK_RECHECK_MS = 25;

export function createPostgresEventStore(options: PostgresEventStoreOptions): EventStore {
  const { pool } = options;
  /** True when events after `after` have committed but are not on the feed yet (see heldBackSql). */
  const hasHeldBackEvents = async (after: Checkpoint | null, categories?: string[]): Promise<boolean> => {
    const { rows } = await pool.query<{ held: boolean }>(
      `SELECT ${heldBackSql(categories)} AS held`,
      heldBackParameters(after, categories),
    );
    return rows[0]!.held;
  };
  /** Held-back events and the head, from one snapshot (see subscribeFromFeed). */
  const lookAtFeedEnd: LookAtFeedEnd = async (after, categories) => {
    const { rows } = await pool.query<HeadRow & { held: boolean }>(
      `SELECT ${heldBackSql(categories)} AS held, head.*
         FROM (VALUES (1)) AS one LEFT JOIN LATERAL (${HEAD}) AS head ON true`,
      heldBackParameters(after, categories),
    );
    return { heldBack: rows[0]!.held, head: headOf(rows[0]) };
  };
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const wakeups = new FeedWakeups(options.connectionString);
  const notifier = new FeedNotifier(pool);

  const store: EventStore = {
    kind: 'postgres',

    async appendToStream(streamName, events, appendOptions = {}): Promise<AppendResult> {
      assertAppendable(streamName, events);
      const expected = appendOptions.expectedRevision ?? 'any';
      const ids = assignEventIds(streamName, events);
      const { rows } = await pool
        .query<{
          ok: boolean;
          next_revision: string;
          last_position: string | null;
          txid: string | null;
          actual_revision: string;
        }>(
          `SELECT ok, next_revision, last_position, txid::text AS txid, actual_revision
             FROM es_append($1, $2, $3, $4::uuid[], $5::text[],
                            ARRAY(SELECT jsonb_array_elements($6::jsonb)),
                            ARRAY(SELECT jsonb_array_elements($7::jsonb)))`,
          [
            streamName,
            streamCategory(streamName),
            expectedToText(expected),
            ids,
            events.map((event) => event.type),
            JSON.stringify(events.map((event) => event.data)),
            JSON.stringify(events.map((event) => event.metadata ?? {})),
          ],
        )
        .catch((error: { code?: string }) => {
          if (error.code === 'ES002') throw new IdempotencyMismatchError(streamName);
          throw error;
        });
      const result = rows[0]!;
      if (!result.ok)
        throw new WrongExpectedVersionError(streamName, expected, BigInt(result.actual_revision));
      notifier.notify(streamCategory(streamName));
      return {
        nextExpectedRevision: BigInt(result.next_revision),
        position: encodePosition({
          transactionId: BigInt(result.txid!),
          globalPosition: BigInt(result.last_position!),
        }),
      };
    },

    async readStream(streamName, readOptions: ReadStreamOptions = {}): Promise<ReadStreamResult> {
      streamCategory(streamName);
      const backwards = readOptions.direction === 'backwards';
      const from = readOptions.fromRevision ?? (backwards ? null : 0n);
      const limit = readOptions.maxCount ?? null;
      // One statement, so the head revision and the events come from the same snapshot.
      const { rows } = await pool.query<EventRow & { head: string; global_position: string | null }>(
        `SELECT s.revision AS head, ${EVENT_COLUMNS}
           FROM es_streams s
           LEFT JOIN LATERAL (
             SELECT * FROM es_events x
              WHERE x.stream_name = s.stream_name
                AND ($2::bigint IS NULL OR ${backwards ? 'x.stream_revision <= $2' : 'x.stream_revision >= $2'})
              ORDER BY x.stream_revision ${backwards ? 'DESC' : 'ASC'}
              LIMIT $3
           ) e ON true
          WHERE s.stream_name = $1`,
        [streamName, from?.toString() ?? null, limit],
      );
      if (rows.length === 0) return { exists: false, revision: -1n, events: [] };
      return {
        exists: true,
        revision: BigInt(rows[0]!.head),
        events: rows.filter((row) => row.global_position !== null).map(toRecordedEvent),
      };
    },

    async readFeed({ after, categories, limit }: ReadFeedOptions): Promise<RecordedEvent[]> {
      const start = after ? decodePosition(after) : FEED_START;
      const { rows } = await pool.query<EventRow>(
        `SELECT ${EVENT_COLUMNS}
           FROM es_events e
          WHERE ${VISIBLE}
            AND (e.transaction_id, e.global_position) > ($1::text::xid8, $2::bigint)
            ${categories ? 'AND e.category = ANY ($4::text[])' : ''}
          ORDER BY e.transaction_id, e.global_position
          LIMIT $3`,
        categories
          ? [start.transactionId.toString(), start.globalPosition.toString(), limit, categories]
          : [start.transactionId.toString(), start.globalPosition.toString(), limit],
      );
      return rows.map(toRecordedEvent);
    },

    subscribe(subscribeOptions) {
      return subscribeFromFeed(store, subscribeOptions, pollIntervalMs, lookAtFeedEnd);
    },

    async waitForEvents({ signal, timeoutMs, categories, after }: WaitForEventsOptions): Promise<void> {
      if (signal.aborted) return;
      // Register before looking, so a notification between the look and the wait is not missed.
      const registration = wakeups.register(categories);
      let timer: NodeJS.Timeout | undefined;
      let onAbort: (() => void) | undefined;
      try {
        // Committed events held back by an older open transaction: no notification will come when that
        // transaction ends without appending, so look again soon instead of sleeping a whole poll.
        // Asked before the feed is read: a holder ending between the two is then seen by the read,
        // where asked after it, the event would have been neither read nor held back, and missed
        // for a whole poll interval.
        const heldBack = after !== undefined && (await hasHeldBackEvents(after, categories));
        if (after !== undefined && (await store.readFeed({ after, categories, limit: 1 })).length > 0) return;
        const wait = heldBack ? Math.min(timeoutMs, HELD_BACK_RECHECK_MS) : timeoutMs;
        await Promise.race([
          registration.woken,
          new Promise<void>((resolve) => {
            timer = setTimeout(resolve, wait);
            onAbort = resolve;
            signal.addEventListener('abort', onAbort, { once: true });
          }),
        ]);
      } finally {
        registration.cancel();
        clearTimeout(timer);
        if (onAbort) signal.removeEventListener('abort', onAbort);
      }
    },

    async headCheckpoint(): Promise<Checkpoint | null> {
      const { rows } = await pool.query<HeadRow>(HEAD);
      return headOf(rows[0]);
    },

    compareCheckpoints: comparePositions,

    async close() {
      await notifier.drain();
      await wakeups.close();
    },
  };
  return store;
}

function expectedToText(expected: ExpectedRevision): string {
  if (typeof expected === 'bigint') {
    if (expected < 0n) throw new TypeError(`Expected revision must be >= 0, got ${expected}`);
    return expected.toString();
  }
  return expected;
}

function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    type: row.event_type,
    data: row.data,
    metadata: row.metadata,
    streamName: row.stream_name,
    category: row.category,
    revision: BigInt(row.stream_revision),
    position: encodePosition({
      transactionId: BigInt(row.transaction_id),
      globalPosition: BigInt(row.global_position),
    }),
    recordedAt: row.recorded_at,
  };
}
