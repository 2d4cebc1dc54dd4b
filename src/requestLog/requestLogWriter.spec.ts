import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Queryable } from '../db/sql.js';
import type { RequestLogEntry } from './requestLog.js';
import { createRequestLogWriter } from './requestLogWriter.js';

/** A database that records each INSERT's request ids, and fails while `failing` says so. */
function fakeDatabase() {
  const batches: string[][] = [];
  const times: unknown[][] = [];
  const state = { failing: undefined as undefined | ((ids: string[]) => Error | undefined) };
  const db: Queryable = {
    query: (async (_sql: string, params: unknown[][]) => {
      const ids = params[5] as string[];
      const error = state.failing?.(ids);
      if (error) throw error;
      batches.push(ids);
      times.push(params[7]!);
      return { rows: [], rowCount: ids.length };
    }) as unknown as Queryable['query'],
  };
  return { db, batches, times, state };
}

let sequence = 0;
function entry(more: Partial<RequestLogEntry> = {}): RequestLogEntry {
  sequence += 1;
  return {
    apiKeyId: '6f1c2a9e-8a4b-4c1e-9f3e-0a1b2c3d4e5f',
    accountId: '0b0c0d0e-1111-4222-8333-444455556666',
    method: 'GET',
    path: '/v1/cases/ABC',
    status: 200,
    requestId: `req-${sequence}`,
    idempotencyKeyPresent: false,
    ...more,
  };
}

describe('request log writer', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    sequence = 0;
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes nothing on the request path, then everything of the interval in one statement', async () => {
    const { db, batches, times } = fakeDatabase();
    const now = new Date('2030-01-01T00:00:00Z');
    const writer = createRequestLogWriter(db, { flushIntervalMs: 1000, clock: () => now });
    writer.record(entry());
    writer.record(entry());
    writer.record(entry());
    await vi.advanceTimersByTimeAsync(999);
    expect(batches).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(batches).toEqual([['req-1', 'req-2', 'req-3']]);
    // Stamped when recorded (the response), not when written.
    expect(times[0]).toEqual([now, now, now]);
  });

  it('writes a full batch at once, without waiting for the interval', async () => {
    const { db, batches } = fakeDatabase();
    const writer = createRequestLogWriter(db, { flushIntervalMs: 60_000, maxBatch: 2 });
    writer.record(entry());
    writer.record(entry());
    await vi.advanceTimersByTimeAsync(0);
    expect(batches).toEqual([['req-1', 'req-2']]);
    writer.record(entry());
    await vi.advanceTimersByTimeAsync(59_999);
    expect(batches).toEqual([['req-1', 'req-2']]);
    await vi.advanceTimersByTimeAsync(1);
    expect(batches).toEqual([['req-1', 'req-2'], ['req-3']]);
  });

  it('writes everything on close, and what is recorded after it at once', async () => {
    const { db, batches } = fakeDatabase();
    const writer = createRequestLogWriter(db, { flushIntervalMs: 60_000 });
    writer.record(entry());
    await writer.close();
    expect(batches).toEqual([['req-1']]);
    writer.record(entry());
    await vi.advanceTimersByTimeAsync(0);
    expect(batches).toEqual([['req-1'], ['req-2']]);
  });

  it('keeps entries while the database is unreachable, retries each interval, and drops the oldest past the bound', async () => {
    const { db, batches, state } = fakeDatabase();
    const errors: number[] = [];
    const writer = createRequestLogWriter(db, {
      flushIntervalMs: 1000,
      maxPending: 3,
      onError: (_error, lost) => errors.push(lost),
    });
    state.failing = () => Object.assign(new Error('connection refused'), { code: 'ECONNREFUSED' });
    writer.record(entry());
    writer.record(entry());
    await vi.advanceTimersByTimeAsync(1000);
    expect(errors).toEqual([0]);
    writer.record(entry());
    writer.record(entry());
    await vi.advanceTimersByTimeAsync(1000);
    expect(errors).toEqual([0, 1]);
    state.failing = undefined;
    await vi.advanceTimersByTimeAsync(1000);
    expect(batches).toEqual([['req-2', 'req-3', 'req-4']]);
  });

  it('writes a batch the table refuses one entry at a time, losing only the refused one', async () => {
    const { db, batches, state } = fakeDatabase();
    const errors: number[] = [];
    const writer = createRequestLogWriter(db, { onError: (_error, lost) => errors.push(lost) });
    state.failing = (ids) =>
      ids.includes('req-2') ? Object.assign(new Error('check violation'), { code: '23514' }) : undefined;
    writer.record(entry());
    writer.record(entry());
    writer.record(entry());
    await writer.flush();
    expect(batches).toEqual([['req-1'], ['req-3']]);
    expect(errors).toEqual([1]);
  });

  it('refuses entries the table would refuse when they are recorded', async () => {
    const { db, batches } = fakeDatabase();
    const errors: string[] = [];
    const writer = createRequestLogWriter(db, { onError: (error) => errors.push(String(error)) });
    writer.record(entry({ method: 'M-SEARCH' }));
    writer.record(entry({ status: 42 }));
    writer.record(entry());
    await writer.flush();
    expect(batches).toEqual([['req-3']]);
    expect(errors).toHaveLength(2);
  });
});
