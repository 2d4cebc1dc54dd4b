import { type Queryable, runRiderAlone, type StatementRider } from '../db/sql.js';
import { type Clock, systemClock } from '../shared/clock.js';

/** The spec's public API limit (Limits): 120 requests per fixed 60-second window per API key. */
export const DEFAULT_LIMIT = 120;
export const DEFAULT_WINDOW_MS = 60_000;

export interface RateLimitOptions {
  limit?: number;
  windowMs?: number;
  /** The time a request counts at: the wall clock, unless a test pins it inside one window. */
  clock?: Clock;
}

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  /** Requests still allowed in this window after this one; never negative. */
  remaining: number;
  /** When the current window ends and the budget is full again. */
  resetAt: Date;
  /** Whole seconds until resetAt (at least 1) when refused; 0 when allowed. */
  retryAfterSeconds: number;
}

export interface RateLimitHit extends RateLimitResult {
  /**
   * The API key epoch (migration 0012) read by the same statement, when the limiter has one: it lets
   * authentication confirm a cached key without a statement of its own (src/workspace/keyCache.ts).
   */
  keyEpoch?: bigint;
}

export interface RateLimiter {
  /** The time by the limiter's clock: what a request arriving now counts at. */
  now(): Date;
  hit(apiKeyId: string, now?: Date): Promise<RateLimitHit>;
  /** The same hit as a rider of another statement (a read that would cost a round trip anyway). */
  hitRider(apiKeyId: string, now?: Date): StatementRider<RateLimitHit>;
}

export interface Window {
  start: Date;
  end: Date;
}

/**
 * The fixed window holding `now`, aligned to the Unix epoch so that every process computes the same
 * window without coordinating (their clocks only need to agree, as NTP keeps them).
 */
export function windowAt(now: Date, windowMs: number = DEFAULT_WINDOW_MS): Window {
  const start = Math.floor(now.getTime() / windowMs) * windowMs;
  return { start: new Date(start), end: new Date(start + windowMs) };
}

/** Whole seconds from `now` until `at`, rounded up so a client waiting that long is never early. */
export function secondsUntil(at: Date, now: Date): number {
  return Math.max(0, Math.ceil((at.getTime() - now.getTime()) / 1000));
}

/** The verdict for the `count`-th request of the window ending at `resetAt`. */
export function decide(count: number, limit: number, resetAt: Date, now: Date): RateLimitResult {
  const allowed = count <= limit;
  return {
    allowed,
    limit,
    remaining: Math.max(0, limit - count),
    resetAt,
    retryAfterSeconds: allowed ? 0 : Math.max(1, secondsUntil(resetAt, now)),
  };
}

/**
 * A fixed-window limiter whose counters live in PostgreSQL, shared by every service process. One
 * atomic upsert per request: concurrent requests of a key serialize on the window's row, so exactly
 * `limit` of them see a count within the limit. Refused requests count too, which is harmless (the
 * window ends anyway) and keeps the hot path at a single statement, or none of its own where a read
 * carries it (`hitRider`: the case and check GETs). The same statement reads the
 * API key epoch, for authentication to confirm a cached key with (its snapshot is taken after the
 * request arrived, which is what makes a revocation committed before it visible).
 */
export function createRateLimiter(db: Queryable, options: RateLimitOptions = {}): RateLimiter {
  const limit = options.limit ?? DEFAULT_LIMIT;
  const windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
  const clock = options.clock ?? systemClock;
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer`);
  if (!Number.isInteger(windowMs) || windowMs < 1000) throw new RangeError(`windowMs must be >= 1000`);
  const hitRider = (apiKeyId: string, now: Date = clock()): StatementRider<RateLimitHit> => {
    const window = windowAt(now, windowMs);
    return {
      with: `rate_limit_hit AS (
                 INSERT INTO rate_limit_windows (api_key_id, window_start, count) VALUES ($1, $2, 1)
                 ON CONFLICT (api_key_id, window_start)
                 DO UPDATE SET count = rate_limit_windows.count + 1
                 RETURNING count
               )`,
      from: 'rate_limit_hit',
      columns:
        'rate_limit_hit.count AS rate_limit_count, (SELECT epoch FROM api_key_epoch)::text AS rate_limit_key_epoch',
      params: [apiKeyId, window.start],
      admits: `rate_limit_hit.count <= ${limit}`,
      settle: (row) => ({
        ...decide(Number(row.rate_limit_count), limit, window.end, now),
        keyEpoch: BigInt(row.rate_limit_key_epoch as string),
      }),
    };
  };
  return {
    now: clock,
    hitRider,
    hit: (apiKeyId, now = clock()) => runRiderAlone(db, hitRider(apiKeyId, now)),
  };
}

/**
 * Response headers for every rate-limited request, after the IETF draft
 * (draft-ietf-httpapi-ratelimit-headers, the RateLimit-Limit/-Remaining/-Reset form):
 * - RateLimit-Limit: requests allowed per window;
 * - RateLimit-Remaining: requests left in the current window;
 * - RateLimit-Reset: seconds until the window ends (delta seconds, not a timestamp, so client clock
 *   skew does not matter);
 * - Retry-After: seconds to wait, only on a refused (429) request.
 */
export function rateLimitHeaders(result: RateLimitResult, now: Date = new Date()): Record<string, string> {
  const headers: Record<string, string> = {
    'RateLimit-Limit': String(result.limit),
    'RateLimit-Remaining': String(result.remaining),
    'RateLimit-Reset': String(secondsUntil(result.resetAt, now)),
  };
  if (!result.allowed) headers['Retry-After'] = String(result.retryAfterSeconds);
  return headers;
}

/**
 * Deletes windows older than the previous one: only the current window is ever counted, the
 * previous one is kept so that a process with a slightly late clock still finds its row.
 */
export async function purgeOldWindows(
  db: Queryable,
  now: Date = new Date(),
  windowMs: number = DEFAULT_WINDOW_MS,
): Promise<number> {
  const cutoff = new Date(windowAt(now, windowMs).start.getTime() - windowMs);
  const { rowCount } = await db.query('DELETE FROM rate_limit_windows WHERE window_start < $1', [cutoff]);
  return rowCount ?? 0;
}
