import {
  type AllStreamResolvedEvent,
  BACKWARDS,
  END,
  type EventStoreDBClient,
  FORWARDS,
  type Position,
  type ReadPosition,
  START,
} from '@eventstore/db-client';
import type { FeedCount, RecordedEvent } from '../eventStore.js';
import { mapReadError } from './clientErrors.js';
import { comparePositions, isOnFeed, toRecordedEvent } from './mapping.js';

/** Raw `$all` records per read; filtering is client-side (readAll takes no filter in client 6.x). */
const PAGE_SIZE = 500;
const HEAD_PAGE_SIZE = 32;

export interface FeedScan {
  /** Feed events after the start, at most `limit`. */
  events: RecordedEvent[];
  /** Last `$all` record looked at, matching or not: where the next scan continues without rescanning. */
  cursor: Position | null;
  /** True when the scan ran into the end of `$all`. */
  reachedEnd: boolean;
}

export interface ScanOptions {
  /** Exclusive start; null = the beginning of `$all`. */
  after: Position | null;
  categories?: readonly string[];
  limit: number;
  /** Stop after this many `$all` reads even if fewer than `limit` events matched. */
  maxPages?: number;
}

/**
 * Walks `$all` forwards, keeping the port's feed events (see `isOnFeed`). Positions at or before the
 * start are dropped explicitly, so it does not matter whether the server treats the read's start
 * position as inclusive.
 */
export async function scanFeed(client: EventStoreDBClient, options: ScanOptions): Promise<FeedScan> {
  const { categories, limit, maxPages = Number.POSITIVE_INFINITY } = options;
  const events: RecordedEvent[] = [];
  let cursor = options.after;
  if (limit <= 0 || categories?.length === 0) return { events, cursor, reachedEnd: true };
  for (let pages = 0; pages < maxPages; pages++) {
    const page = await readAllPage(client, cursor ?? START, FORWARDS, PAGE_SIZE);
    for (const { event: record } of page) {
      if (!record || (cursor && comparePositions(record.position, cursor) <= 0)) continue;
      cursor = record.position;
      if (!isOnFeed(record.streamId, record.type, categories)) continue;
      events.push(toRecordedEvent(record));
      if (events.length === limit) return { events, cursor, reachedEnd: false };
    }
    if (page.length < PAGE_SIZE) return { events, cursor, reachedEnd: true };
  }
  return { events, cursor, reachedEnd: false };
}

/**
 * What one lag count may read of `$all`: 20 reads of 500 records. The filter runs in the client, so
 * without it a count of rare categories behind a long stretch of others reads all of that stretch,
 * on every status call.
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
