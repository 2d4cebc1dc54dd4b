import type { Queryable } from '../db/sql.js';
import { type Clock, systemClock } from '../shared/clock.js';
import { entryProblem, type RequestLogEntry, recordRequests } from './requestLog.js';

/** A request is written at most this long after its response, unless the database is unreachable. */
export const DEFAULT_FLUSH_INTERVAL_MS = 1000;
/** Entries per INSERT; a buffer this full is written at once rather than at the next interval. */
export const DEFAULT_MAX_BATCH = 500;
/** Entries kept while the database refuses them; beyond it the oldest are dropped (and reported). */
export const DEFAULT_MAX_PENDING = 10_000;

export interface RequestLogWriterOptions {
  flushIntervalMs?: number;
  maxBatch?: number;
  maxPending?: number;
  /** Stamps each entry with the moment it was recorded (its response), not the moment it is written. */
  clock?: Clock;
  /** An entry or a batch that could not be written: `lost` entries are gone for good (0: kept for a retry). */
  onError?(error: unknown, lost: number): void;
}

export interface RequestLogWriter {
  /** Buffers one entry; never waits on the database and never throws. */
  record(entry: RequestLogEntry): void;
  /** Writes everything recorded so far; resolves once it is stored or has failed. */
  flush(): Promise<void>;
  /** Flushes and stops the timer; entries recorded afterwards are written at once. */
  close(): Promise<void>;
}

/**
 * The request metadata log off the request path: entries are buffered in the process and written
 * in one multi-row INSERT every `flushIntervalMs`, or as soon as `maxBatch` are waiting, one write at
 * a time. What a crash can lose is bounded: the entries of the responses sent in the last flush
 * interval (and of a write still in flight), at most `maxBatch` plus what arrived meanwhile; while
 * the database is unreachable, what waits for it (at most `maxPending`). A graceful shutdown
 * (`close`) writes everything.
 */
export function createRequestLogWriter(
  db: Queryable,
  options: RequestLogWriterOptions = {},
): RequestLogWriter {
  const flushIntervalMs = options.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS;
  const maxBatch = options.maxBatch ?? DEFAULT_MAX_BATCH;
  const maxPending = options.maxPending ?? DEFAULT_MAX_PENDING;
  const clock = options.clock ?? systemClock;
  const onError = options.onError ?? (() => {});
  let buffer: RequestLogEntry[] = [];
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  // One write at a time, in the order recorded; at most one more queued behind it.
  let writing: Promise<void> = Promise.resolve();
  let queued: Promise<void> | undefined;

  const writeLater = () => {
    // Closed: the last flush has run; a failed one is not retried against a pool being closed.
    if (closed || timer || queued || buffer.length === 0) return;
    timer = setTimeout(() => void flush(), flushIntervalMs);
    // A buffered entry must not keep alive a process told to stop: close() writes it.
    timer.unref();
  };

  async function writeBuffered(): Promise<void> {
    while (buffer.length > 0) {
      const batch = buffer.splice(0, maxBatch);
      try {
        await recordRequests(db, batch);
      } catch (error) {
        if (isDataError(error) && batch.length > 1) {
          // One entry the table refuses must not cost the others: write them one by one.
          for (const entry of batch) await recordRequests(db, [entry]).catch((e: unknown) => onError(e, 1));
          continue;
        }
        // Most likely the database is unreachable: keep the entries for the next interval, bounded.
        buffer = [...batch, ...buffer];
        const lost = Math.max(0, buffer.length - maxPending);
        if (lost > 0) buffer.splice(0, lost);
        onError(error, lost);
        return;
      }
    }
  }

  function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (queued) return queued;
    const next = writing
      .then(() => {
        queued = undefined;
        return writeBuffered();
      })
      // Whatever arrived meanwhile, or stayed after a failure, goes at the next interval.
      .finally(writeLater);
    queued = next;
    writing = next;
    return next;
  }

  return {
    record(entry) {
      const problem = entryProblem(entry);
      if (problem) {
        onError(new Error(`request log entry refused: ${problem}`), 1);
        return;
      }
      buffer.push({ ...entry, occurredAt: entry.occurredAt ?? clock() });
      if (closed || buffer.length >= maxBatch) void flush();
      else writeLater();
    },
    flush,
    async close() {
      closed = true;
      await flush();
    },
  };
}

/** PostgreSQL's data exception (22) and integrity constraint violation (23) classes: retrying cannot help. */
function isDataError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && (code.startsWith('22') || code.startsWith('23'));
}
