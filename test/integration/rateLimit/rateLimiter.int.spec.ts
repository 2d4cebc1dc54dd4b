import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '../../../src/db/database.js';
import { createRateLimiter, purgeOldWindows } from '../../../src/rateLimit/rateLimiter.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';

describe('rate limiter on PostgreSQL', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  // Mid-window, so every hit of a test lands in the same window whatever the wall clock says.
  const now = new Date('2030-01-01T00:00:15Z');

  async function hitMany(limiter: ReturnType<typeof createRateLimiter>, key: string, n: number, at = now) {
    const results = [];
    for (let i = 0; i < n; i++) results.push(await limiter.hit(key, at));
    return results;
  }

  it('keeps its counters in an unlogged table: a GET whose only write is a bump waits for no WAL flush', async () => {
    const { rows } = await db.pool.query<{ relpersistence: string }>(
      "SELECT relpersistence FROM pg_class WHERE oid = 'rate_limit_windows'::regclass",
    );
    expect(rows[0]!.relpersistence).toBe('u');
  });

  it('allows 120 requests in a window and refuses the 121st with a retry-after', async () => {
    const limiter = createRateLimiter(db.pool);
    const key = randomUUID();
    const results = await hitMany(limiter, key, 120);
    expect(results.every((r) => r.allowed)).toBe(true);
    expect(results.map((r) => r.remaining).slice(-3)).toEqual([2, 1, 0]);

    const refused = await limiter.hit(key, now);
    expect(refused).toEqual({
      allowed: false,
      limit: 120,
      remaining: 0,
      resetAt: new Date('2030-01-01T00:01:00Z'),
      retryAfterSeconds: 45,
      // Read in the same statement, for authentication to confirm cached keys with: no key changed yet.
      keyEpoch: 0n,
    });
  });

  it('starts a full budget in the next window', async () => {
    const limiter = createRateLimiter(db.pool, { limit: 3 });
    const key = randomUUID();
    await hitMany(limiter, key, 3);
    expect((await limiter.hit(key, new Date('2030-01-01T00:00:59.999Z'))).allowed).toBe(false);
    const next = await limiter.hit(key, new Date('2030-01-01T00:01:00Z'));
    expect(next).toMatchObject({ allowed: true, remaining: 2, resetAt: new Date('2030-01-01T00:02:00Z') });
  });

  it('shares one budget between processes (separate pools)', async () => {
    const other = createPool(db.url, { max: 5 });
    try {
      const a = createRateLimiter(db.pool);
      const b = createRateLimiter(other);
      const key = randomUUID();
      const first = await hitMany(a, key, 60);
      const second = await hitMany(b, key, 61);
      expect([...first, ...second].filter((r) => r.allowed)).toHaveLength(120);
      expect(second.at(-1)).toMatchObject({ allowed: false, remaining: 0 });
      expect((await a.hit(key, now)).allowed).toBe(false);
    } finally {
      await other.end();
    }
  });

  it('allows exactly 120 of 200 concurrent requests', async () => {
    const other = createPool(db.url, { max: 20 });
    try {
      const limiters = [createRateLimiter(db.pool), createRateLimiter(other)];
      const key = randomUUID();
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) => limiters[i % 2]!.hit(key, now)),
      );
      expect(results.filter((r) => r.allowed)).toHaveLength(120);
      const { rows } = await db.pool.query('SELECT count FROM rate_limit_windows WHERE api_key_id = $1', [
        key,
      ]);
      expect(rows).toEqual([{ count: 200 }]);
    } finally {
      await other.end();
    }
  });

  it('keeps each key to its own budget', async () => {
    const limiter = createRateLimiter(db.pool, { limit: 2 });
    const [k1, k2] = [randomUUID(), randomUUID()];
    await hitMany(limiter, k1, 3);
    expect(await limiter.hit(k2, now)).toMatchObject({ allowed: true, remaining: 1 });
    expect((await limiter.hit(k1, now)).allowed).toBe(false);
  });

  it('purges windows older than the previous one', async () => {
    const limiter = createRateLimiter(db.pool);
    const key = randomUUID();
    for (const at of ['2031-01-01T00:00:10Z', '2031-01-01T00:01:10Z', '2031-01-01T00:02:10Z']) {
      await limiter.hit(key, new Date(at));
    }
    const deleted = await purgeOldWindows(db.pool, new Date('2031-01-01T00:02:30Z'));
    expect(deleted).toBeGreaterThanOrEqual(1);
    const { rows } = await db.pool.query<{ w: Date }>(
      'SELECT window_start AS w FROM rate_limit_windows WHERE api_key_id = $1 ORDER BY 1',
      [key],
    );
    expect(rows.map((r) => r.w.toISOString())).toEqual([
      '2031-01-01T00:01:00.000Z',
      '2031-01-01T00:02:00.000Z',
    ]);
  });
});
