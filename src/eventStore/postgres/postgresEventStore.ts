import type pg from 'pg';
import { newNotificationSender } from '../../db/notifications.js';
import { prepared } from '../../db/sql.js';
import {
  type AppendResult,
  assertAppendable,
  assertAppendableAll,
  assignEventIds,
  type Checkpoint,
  type EventStore,
  type ExpectedRevision,
  IdempotencyMismatchError,
  type ReadFeedOptions,
  type ReadStreamOptions,
  type ReadStreamResult,
  type RecordedEvent,
  type StoreIdentity,
  streamCategory,
  type WaitForEventsOptions,
  WrongExpectedVersionError,
} from '../eventStore.js';
import { countFeedByPages } from '../feedCount.js';
import { HELD_BACK_RECHECK_MS, type ReadFeedPage, subscribeFromFeed } from '../subscribeFromFeed.js';
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

const AFTER_START = '(e.transaction_id, e.global_position) > ($1::text::xid8, $2::bigint)';

/** Restricts `e` to the categories in parameter `parameter` (e.g. '$4'), or not at all. */
function inCategories(parameter: string | null): string {
  return parameter ? `AND e.category = ANY (${parameter}::text[])` : '';
}

/** Up to $3 events of the feed after ($1, $2), in feed order (`feed_order` sorts an outer query). */
function feedPageSql(categoriesParameter: string | null): string {
  return `SELECT ${EVENT_COLUMNS}, e.transaction_id AS feed_order
    FROM es_events e
   WHERE ${VISIBLE} AND ${AFTER_START} ${inCategories(categoriesParameter)}
   ORDER BY e.transaction_id, e.global_position
   LIMIT $3`;
}

/**
 * Whether committed events after ($1, $2) are left out by VISIBLE: a transaction that began earlier
 * is still open and might commit events that sort before them. Such events sort after every visible
 * one, so it is enough to ask whether the last event after the start (per category) is one: a
 * backward step on a feed index, where "any row not visible" made the planner scan the whole table.
 */
function heldBackSql(categoriesParameter: string | null): string {
  const last = (categoryFilter: string) => `SELECT e.transaction_id FROM es_events e
     WHERE ${AFTER_START} ${categoryFilter}
     ORDER BY e.transaction_id DESC, e.global_position DESC LIMIT 1`;
  const isHeldBack = 'last.transaction_id >= pg_snapshot_xmin(pg_current_snapshot())';
  if (!categoriesParameter) return `COALESCE((SELECT ${isHeldBack} FROM (${last('')}) AS last), false)`;
  return `COALESCE((SELECT bool_or(${isHeldBack})
    FROM unnest(${categoriesParameter}::text[]) AS wanted(category)
    CROSS JOIN LATERAL (${last('AND e.category = wanted.category')}) AS last), false)`;
}

/** The last visible event, as `transaction_id` (text) and `global_position`; no row when the feed is empty. */
const HEAD = `SELECT e.transaction_id::text AS transaction_id, e.global_position
  FROM es_events e WHERE ${VISIBLE}
 ORDER BY e.transaction_id DESC, e.global_position DESC LIMIT 1`;

/**
 * A page of the feed with, from the same snapshot, whether events are held back after its start and
 * the head: one round trip gives a subscription what it needs to deliver and to mark caught up.
 */
function feedPageWithEndSql(categoriesParameter: string | null): string {
  return `SELECT look.held, look.head_transaction_id, look.head_global_position, page.*
    FROM (SELECT ${heldBackSql(categoriesParameter)} AS held,
                 head.transaction_id AS head_transaction_id, head.global_position AS head_global_position
            FROM (VALUES (1)) AS one LEFT JOIN LATERAL (${HEAD}) AS head ON true) AS look
    LEFT JOIN LATERAL (${feedPageSql(categoriesParameter)}) AS page ON true
   ORDER BY page.feed_order, page.global_position`;
}

function startParameters(after: Checkpoint | null): [string, string] {
  const start = after ? decodePosition(after) : FEED_START;
  return [start.transactionId.toString(), start.globalPosition.toString()];
}

function headOf(transactionId: string | null | undefined, globalPosition: string | null | undefined) {
  if (!transactionId || !globalPosition) return null;
  return encodePosition({ transactionId: BigInt(transactionId), globalPosition: BigInt(globalPosition) });
}

export function createPostgresEventStore(options: PostgresEventStoreOptions): EventStore {
  const { pool } = options;
  /** True when events after `after` have committed but are not on the feed yet (see heldBackSql). */
  const hasHeldBackEvents = async (after: Checkpoint | null, categories?: string[]): Promise<boolean> => {
    const { rows } = await pool.query<{ held: boolean }>(
      `SELECT ${heldBackSql(categories ? '$3' : null)} AS held`,
      categories ? [...startParameters(after), categories] : startParameters(after),
    );
    return rows[0]!.held;
  };
  const readFeedPage: ReadFeedPage = async ({ after, categories, limit }) => {
    const { rows } = await pool.query<
      Partial<EventRow> & {
        held: boolean;
        head_transaction_id: string | null;
        head_global_position: string | null;
      }
    >(
      feedPageWithEndSql(categories ? '$4' : null),
      categories ? [...startParameters(after), limit, categories] : [...startParameters(after), limit],
    );
    const look = rows[0]!;
    return {
      events: rows
        .filter((row) => row.global_position != null)
        .map((row) => toRecordedEvent(row as EventRow)),
      heldBack: look.held,
      head: headOf(look.head_transaction_id, look.head_global_position),
    };
  };
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  // This store wakes its own readers directly after an append; its listener skips its notifications.
  const sender = newNotificationSender();
  const wakeups = new FeedWakeups(options.connectionString, sender);
  const notifier = new FeedNotifier(pool, sender);
  /** After an append committed: this process's readers at once, every other process's through NOTIFY. */
  const announce = (categories: string[]) => {
    wakeups.wakeLocally(categories);
    notifier.notify(...categories);
  };

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
          prepared(
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
          ),
        )
        .catch((error: { code?: string }) => {
          if (error.code === 'ES002') throw new IdempotencyMismatchError(streamName);
          throw error;
        });
      const result = rows[0]!;
      if (!result.ok)
        throw new WrongExpectedVersionError(streamName, expected, BigInt(result.actual_revision));
      announce([streamCategory(streamName)]);
      return {
        nextExpectedRevision: BigInt(result.next_revision),
        position: encodePosition({
          transactionId: BigInt(result.txid!),
          globalPosition: BigInt(result.last_position!),
        }),
      };
    },

    async appendToStreams(appends): Promise<AppendResult[]> {
      assertAppendableAll(appends);
      const expected = appends.map((append) => append.expectedRevision ?? 'any');
      const ids = appends.flatMap((append) => assignEventIds(append.streamName, append.events));
      const events = appends.flatMap((append) => append.events);
      const { rows } = await pool
        .query<{ stream_index: number; next_revision: string; last_position: string; txid: string }>(
          prepared(
            `SELECT stream_index, next_revision, last_position, txid::text AS txid
               FROM es_append_all($1, $2, $3, $4, $5::uuid[], $6::text[],
                                  ARRAY(SELECT jsonb_array_elements($7::jsonb)),
                                  ARRAY(SELECT jsonb_array_elements($8::jsonb)))
              ORDER BY stream_index`,
            [
              appends.map((append) => append.streamName),
              appends.map((append) => streamCategory(append.streamName)),
              expected.map(expectedToText),
              appends.map((append) => append.events.length),
              ids,
              events.map((event) => event.type),
              JSON.stringify(events.map((event) => event.data)),
              JSON.stringify(events.map((event) => event.metadata ?? {})),
            ],
          ),
        )
        .catch((error: { code?: string; detail?: string }) => {
          if (error.code === 'ES003') {
            const { stream, actual_revision } = JSON.parse(error.detail!) as {
              stream: string;
              actual_revision: string;
            };
            const index = appends.findIndex((append) => append.streamName === stream);
            throw new WrongExpectedVersionError(stream, expected[index]!, BigInt(actual_revision));
          }
          if (error.code === 'ES002') {
            throw new IdempotencyMismatchError(error.detail ?? 'one of the streams');
          }
          throw error;
        });
      announce(appends.map((append) => streamCategory(append.streamName)));
      return rows.map((row) => ({
        nextExpectedRevision: BigInt(row.next_revision),
        position: encodePosition({
          transactionId: BigInt(row.txid),
          globalPosition: BigInt(row.last_position),
        }),
      }));
    },

    async readStream(streamName, readOptions: ReadStreamOptions = {}): Promise<ReadStreamResult> {
      streamCategory(streamName);
      const backwards = readOptions.direction === 'backwards';
      const from = readOptions.fromRevision ?? (backwards ? null : 0n);
      const limit = readOptions.maxCount ?? null;
      // One statement, so the head revision and the events come from the same snapshot.
      const { rows } = await pool.query<EventRow & { head: string; global_position: string | null }>(
        prepared(
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
        ),
      );
      if (rows.length === 0) return { exists: false, revision: -1n, events: [] };
      return {
        exists: true,
        revision: BigInt(rows[0]!.head),
        events: rows.filter((row) => row.global_position !== null).map(toRecordedEvent),
      };
    },

    async readFeed({ after, categories, limit }: ReadFeedOptions): Promise<RecordedEvent[]> {
      const { rows } = await pool.query<EventRow>(
        feedPageSql(categories ? '$4' : null),
        categories ? [...startParameters(after), limit, categories] : [...startParameters(after), limit],
      );
      return rows.map(toRecordedEvent);
    },

    countFeedEvents(options) {
      return countFeedByPages(store.readFeed, options);
    },

    subscribe(subscribeOptions) {
      const feed = {
        compareCheckpoints: comparePositions,
        watch: (categories?: string[]) => wakeups.watch(categories),
      };
      return subscribeFromFeed(feed, subscribeOptions, pollIntervalMs, readFeedPage);
    },

    async waitForEvents({ signal, timeoutMs, categories, after }: WaitForEventsOptions): Promise<void> {
      if (signal.aborted) return;
      // Watch before looking, so a notification between the look and the wait is not missed.
      const watch = wakeups.watch(categories);
      try {
        // Committed events held back by an older open transaction: no notification will come when that
        // transaction ends without appending, so look again soon instead of sleeping a whole poll.
        // Asked before the feed is read: a holder ending between the two is then seen by the read,
        // where asked after it, the event would have been neither read nor held back, and missed
        // for a whole poll interval.
        const heldBack = after !== undefined && (await hasHeldBackEvents(after, categories));
        if (after !== undefined && (await store.readFeed({ after, categories, limit: 1 })).length > 0) return;
        await watch.wait(heldBack ? Math.min(timeoutMs, HELD_BACK_RECHECK_MS) : timeoutMs, signal);
      } finally {
        watch.cancel();
      }
    },

    async headCheckpoint(): Promise<Checkpoint | null> {
      const { rows } = await pool.query<{ transaction_id: string; global_position: string }>(HEAD);
      return headOf(rows[0]?.transaction_id, rows[0]?.global_position);
    },

    compareCheckpoints: comparePositions,

    async identity(): Promise<StoreIdentity> {
      // Feed positions hold transaction ids, which only the cluster that issued them continues: a
      // dump restored into another cluster starts them again lower. The system identifier names the
      // cluster (kept by a physical copy, new for initdb), the oid the database within it (new when
      // it is recreated, kept when it is renamed).
      const { rows } = await pool.query<{ system_identifier: string; oid: string }>(
        `SELECT s.system_identifier::text AS system_identifier, d.oid::text AS oid
           FROM pg_control_system() s, pg_database d
          WHERE d.datname = current_database()`,
      );
      const { system_identifier, oid } = rows[0]!;
      return { kind: 'postgres', instance: `cluster ${system_identifier} database oid ${oid}` };
    },

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

/**
 * A stream's events after a revision, as one JSON array expression, for a read that wants a row of
 * its own (a read model's) and the stream's newer events from one snapshot in one statement
 * (src/cases/caseReadModel.ts). `streamName` and `afterRevision` are SQL expressions.
 */
export function streamTailJson(streamName: string, afterRevision: string): string {
  return `(SELECT coalesce(json_agg(json_build_object(
            'global_position', e.global_position::text, 'transaction_id', e.transaction_id::text,
            'stream_name', e.stream_name, 'category', e.category, 'stream_revision', e.stream_revision::text,
            'event_id', e.event_id, 'event_type', e.event_type, 'data', e.data, 'metadata', e.metadata,
            'recorded_at', e.recorded_at) ORDER BY e.stream_revision), '[]'::json)
      FROM es_events e WHERE e.stream_name = ${streamName} AND e.stream_revision > ${afterRevision})`;
}

/** The events of a `streamTailJson` expression. */
/** A whole stream read as a `streamTailJson(name, '-1')` expression, as `readStream` answers it. */
export function streamReadOfJson(tail: Parameters<typeof eventsOfStreamTail>[0]): ReadStreamResult {
  const events = eventsOfStreamTail(tail);
  const last = events.at(-1);
  return last ? { exists: true, revision: last.revision, events } : { exists: false, revision: -1n, events };
}

export function eventsOfStreamTail(
  tail: readonly (Omit<EventRow, 'recorded_at'> & { recorded_at: string })[],
): RecordedEvent[] {
  return tail.map((row) => toRecordedEvent({ ...row, recorded_at: new Date(row.recorded_at) }));
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
