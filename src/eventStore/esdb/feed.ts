import {
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  BACKWARDS,
  END,
  type EventStoreDBClient,
  excludeSystemEvents,
  type Filter,
  FORWARDS,
  type Position,
  type ReadPosition,
  START,
  streamNameFilter,
} from '@eventstore/db-client';
import { EventStoreUnavailableError, type FeedCount, type RecordedEvent } from '../eventStore.js';
import { mapReadError } from './clientErrors.js';
import { comparePositions, isOnFeed, toRecordedEvent } from './mapping.js';

/** Raw `$all` records per read, where the client reads `$all` itself (counts, the head). */
const PAGE_SIZE = 500;
const HEAD_PAGE_SIZE = 32;
/**
 * `$all` records the server looks at between two checkpoints of a filtered read (its max search
 * window, with a checkpoint interval multiplier of 1): how far a scan's cursor can trail the records
 * the server passed over when the read stops between checkpoints.
 */
export const CHECKPOINT_EVERY_RECORDS = 500;

export interface FeedScan {
  /** Feed events after the start, at most `limit`. */
  events: RecordedEvent[];
  /** Last `$all` position looked at, matching or not: where the next scan continues without rescanning. */
  cursor: Position | null;
  /** True when the scan ran into the end of `$all`. */
  reachedEnd: boolean;
}

export interface ScanOptions {
  /** Exclusive start; null = the beginning of `$all`. */
  after: Position | null;
  categories?: readonly string[];
  limit: number;
  /** Ends the scan early with what it has (not claiming the end). */
  signal?: AbortSignal;
}

/**
 * The feed events after `after`, filtered by the server: a catch-up subscription to `$all` from
 * `after` with a stream-prefix filter (event-type filter for the whole feed), so only the events
 * asked for travel, with a checkpoint every CHECKPOINT_EVERY_RECORDS records the server passed over;
 * it ends at `limit` events or at the server's "caught up" (servers from 23.10 send it). The filter
 * runs again in the client (`isOnFeed`: system events and foreign streams stay off the feed), and
 * positions at or before the start are dropped, whatever the server's start semantics.
 *
 * The cursor is the furthest position known to be passed: the last event taken, a checkpoint, or,
 * once caught up, the end of `$all` read just before subscribing (everything up to it has been
 * looked at). Checkpoints and "caught up" come as control messages beside the event stream, which
 * the client may still hold buffered; each is applied only once the events before it are taken.
 */
export async function scanFeed(client: EventStoreDBClient, options: ScanOptions): Promise<FeedScan> {
  const { after, categories, limit, signal } = options;
  if (limit <= 0 || categories?.length === 0 || signal?.aborted) {
    return { events: [], cursor: after, reachedEnd: !signal?.aborted };
  }
  const end = await lastRecordPosition(client);
  if (end === null || (after && comparePositions(end, after) <= 0)) {
    return { events: [], cursor: after, reachedEnd: true };
  }
  return new Promise<FeedScan>((resolve, reject) => {
    const events: RecordedEvent[] = [];
    let cursor = after;
    let settled = false;
    let received = 0;
    /** Control messages waiting for the events the client received before them. */
    const pending: { due: number; apply: () => void }[] = [];
    const advance = (position: Position) => {
      if (!cursor || comparePositions(position, cursor) > 0) cursor = position;
    };
    const inOrder = (apply: () => void) => {
      const due = received + subscription.readableLength;
      if (due <= received) apply();
      else pending.push({ due, apply });
    };
    const finish = (outcome: { reachedEnd: boolean } | { error: unknown }) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      // The read's answer does not wait for the server to see the cancellation.
      void subscription.unsubscribe().catch(() => undefined);
      if ('error' in outcome) reject(mapReadError(outcome.error));
      else resolve({ events, cursor, reachedEnd: outcome.reachedEnd });
    };
    const onAbort = () => finish({ reachedEnd: false });
    const subscription: AllStreamSubscription = client.subscribeToAll({
      fromPosition: after ?? START,
      resolveLinkTos: false,
      filter: feedFilter(categories, (_subscription, position) => {
        if (!settled) inOrder(() => advance(position));
      }),
    });
    subscription.on('data', ({ event: record }: AllStreamResolvedEvent) => {
      if (settled) return;
      received += 1;
      if (record && !(after && comparePositions(record.position, after) <= 0)) {
        advance(record.position);
        if (isOnFeed(record.streamId, record.type, categories)) {
          events.push(toRecordedEvent(record));
          if (events.length === limit) return finish({ reachedEnd: false });
        }
      }
      while (pending.length > 0 && pending[0]!.due <= received) pending.shift()!.apply();
    });
    subscription.on('caughtUp', () => {
      if (settled) return;
      inOrder(() => {
        advance(end);
        finish({ reachedEnd: true });
      });
    });
    subscription.on('error', (error: unknown) => finish({ error }));
    subscription.on('end', () =>
      finish({ error: new EventStoreUnavailableError('EventStoreDB ended a feed read before it caught up') }),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The server-side half of `isOnFeed`: the categories' stream prefixes, or no system event types. */
function feedFilter(
  categories: readonly string[] | undefined,
  checkpointReached: NonNullable<Filter['checkpointReached']>,
): Filter {
  const checkpoints = { checkpointInterval: 1, maxSearchWindow: CHECKPOINT_EVERY_RECORDS, checkpointReached };
  return categories
    ? streamNameFilter({ prefixes: categories.map((category) => `${category}-`), ...checkpoints })
    : excludeSystemEvents(checkpoints);
}

/** Position of the last record of `$all`, system records included; null when `$all` is empty. */
async function lastRecordPosition(client: EventStoreDBClient): Promise<Position | null> {
  const [last] = await readAllPage(client, END, BACKWARDS, 1);
  return last?.event?.position ?? null;
}

/**
 * What one lag count may read of `$all`: 20 reads of 500 records. A count reads `$all` in the client
 * rather than through the server's filter: either way a count of rare categories behind a long
 * stretch of others would pass over all of that stretch, on every status call, unless bounded.
 */
export const MAX_RECORDS_PER_COUNT = 10_000;

export interface CountOptions {
  /** Exclusive start; null = the beginning of `$all`. */
  after: Position | null;
  categories?: readonly string[] | undefined;
  maxEvents: number;
  maxRecords?: number;
}

/**
 * Counts feed events after `after` without building them, stopping past `maxEvents` events or after
 * `maxRecords` `$all` records examined, matching or not; either stop reports the count as capped.
 */
export async function countFeed(client: EventStoreDBClient, options: CountOptions): Promise<FeedCount> {
  const { categories, maxEvents, maxRecords = MAX_RECORDS_PER_COUNT } = options;
  if (categories?.length === 0) return { events: 0, capped: false };
  let cursor = options.after;
  let events = 0;
  let examined = 0;
  while (examined < maxRecords) {
    const page = await readAllPage(client, cursor ?? START, FORWARDS, PAGE_SIZE);
    for (const { event: record } of page) {
      if (!record || (cursor && comparePositions(record.position, cursor) <= 0)) continue;
      cursor = record.position;
      examined += 1;
      if (isOnFeed(record.streamId, record.type, categories)) events += 1;
      if (events > maxEvents) return { events: maxEvents, capped: true };
      if (examined === maxRecords) break;
    }
    if (page.length < PAGE_SIZE && examined < maxRecords) return { events, capped: false };
  }
  return { events, capped: true };
}

/** Position of the newest feed event, walking `$all` backwards past system and foreign events. */
export async function headPosition(client: EventStoreDBClient): Promise<Position | null> {
  let boundary: Position | null = null;
  for (;;) {
    const page = await readAllPage(client, boundary ?? END, BACKWARDS, HEAD_PAGE_SIZE);
    let moved = false;
    for (const { event: record } of page) {
      if (!record || (boundary && comparePositions(record.position, boundary) >= 0)) continue;
      boundary = record.position;
      moved = true;
      if (isOnFeed(record.streamId, record.type)) return record.position;
    }
    if (page.length < HEAD_PAGE_SIZE || !moved) return null;
  }
}

/** One bounded read, drained completely, so no half-read gRPC stream is left open. */
async function readAllPage(
  client: EventStoreDBClient,
  fromPosition: ReadPosition,
  direction: typeof FORWARDS | typeof BACKWARDS,
  maxCount: number,
): Promise<AllStreamResolvedEvent[]> {
  const page: AllStreamResolvedEvent[] = [];
  try {
    // From the leader, like stream reads: a follower's `$all` may end before appends already answered.
    for await (const resolved of client.readAll({
      fromPosition,
      direction,
      maxCount,
      resolveLinkTos: false,
      requiresLeader: true,
    })) {
      page.push(resolved);
    }
  } catch (error) {
    throw mapReadError(error);
  }
  return page;
}
