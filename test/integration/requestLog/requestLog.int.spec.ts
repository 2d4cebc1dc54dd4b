import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPool } from '../../../src/db/database.js';
import {
  defaultPurgeTasks,
  type PurgeTask,
  runPurgeRound,
  startPurgeScheduler,
} from '../../../src/maintenance/purgeScheduler.js';
import { createRateLimiter } from '../../../src/rateLimit/rateLimiter.js';
import {
  listRequests,
  purgeRequestLog,
  type RequestLogEntry,
  recordRequest,
} from '../../../src/requestLog/requestLog.js';
import { capturedLogger } from '../../support/capturedLogger.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';

const DAY = 86_400_000;

describe('request metadata log', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });
  beforeEach(async () => {
    await db.pool.query('TRUNCATE api_request_log, rate_limit_windows');
  });

  function entry(overrides: Partial<RequestLogEntry> = {}): RequestLogEntry {
    return {
      apiKeyId: randomUUID(),
      accountId: randomUUID(),
      method: 'POST',
      path: '/v1/cases',
      status: 201,
      requestId: `req_${randomUUID()}`,
      idempotencyKeyPresent: true,
      ...overrides,
    };
  }

  it('stores only the allowed fields and never the query string', async () => {
    const request = {
      ...entry({ path: '/v1/cases?subject_name=Jane%20Doe', method: 'get', status: 200 }),
      // What a careless caller might pass along: must never reach the table.
      body: { subject: { name: 'Jane Doe' } },
      query: { subject_name: 'Jane Doe' },
      headers: { authorization: 'Bearer csk_0123456789abcdef_secret' },
    };
    await recordRequest(db.pool, request);

    const { rows } = await db.pool.query<{ row: Record<string, unknown> }>(
      'SELECT row_to_json(l) AS row FROM api_request_log l',
    );
    expect(rows).toHaveLength(1);
    expect(Object.keys(rows[0]!.row).sort()).toEqual(
      [
        'id',
        'api_key_id',
        'account_id',
        'method',
        'path',
        'status',
        'request_id',
        'idempotency_key_present',
        'occurred_at',
      ].sort(),
    );
    expect(rows[0]!.row).toMatchObject({ method: 'GET', path: '/v1/cases', status: 200 });
    const text = JSON.stringify(rows);
    expect(text).not.toContain('Jane');
    expect(text).not.toContain('secret');
    expect(text).not.toContain('subject_name');
  });

  it('refuses a query string at the table even when the code is bypassed', async () => {
    await expect(
      db.pool.query(
        `INSERT INTO api_request_log (api_key_id, account_id, method, path, status, request_id,
           idempotency_key_present) VALUES ($1, $2, 'GET', '/v1/cases?x=1', 200, 'r', false)`,
        [randomUUID(), randomUUID()],
      ),
    ).rejects.toMatchObject({ code: '23514' });
  });

  it('lists by key, account and time range, newest first', async () => {
    const keyA = randomUUID();
    const keyB = randomUUID();
    const account = randomUUID();
    const t = (minute: number) => new Date(Date.UTC(2030, 0, 1, 0, minute));
    for (const [key, minute] of [
      [keyA, 1],
      [keyA, 2],
      [keyA, 3],
      [keyB, 2],
    ] as const) {
      await recordRequest(
        db.pool,
        entry({ apiKeyId: key, accountId: account, occurredAt: t(minute), requestId: `${key}-${minute}` }),
      );
    }
    await recordRequest(db.pool, entry({ occurredAt: t(2) }));

    const byKey = await listRequests(db.pool, { apiKeyId: keyA, limit: 10 });
    expect(byKey.map((r) => r.occurredAt)).toEqual([t(3), t(2), t(1)]);
    expect(byKey[0]).toEqual({
      id: expect.any(String),
      apiKeyId: keyA,
      accountId: account,
      method: 'POST',
      path: '/v1/cases',
      status: 201,
      requestId: `${keyA}-3`,
      idempotencyKeyPresent: true,
      occurredAt: t(3),
    });

    const window = await listRequests(db.pool, { apiKeyId: keyA, from: t(2), to: t(3), limit: 10 });
    expect(window.map((r) => r.requestId)).toEqual([`${keyA}-2`]);
    expect(await listRequests(db.pool, { accountId: account, limit: 10 })).toHaveLength(4);
    expect(await listRequests(db.pool, { from: t(2), limit: 10 })).toHaveLength(4);
    expect(await listRequests(db.pool, { limit: 2 })).toHaveLength(2);
  });

  it('purges only rows older than 90 days', async () => {
    const now = new Date('2030-06-01T00:00:00Z');
    const at = (ms: number) => new Date(now.getTime() - ms);
    await recordRequest(db.pool, entry({ requestId: 'old', occurredAt: at(90 * DAY + 1) }));
    await recordRequest(db.pool, entry({ requestId: 'edge', occurredAt: at(90 * DAY) }));
    await recordRequest(db.pool, entry({ requestId: 'recent', occurredAt: at(DAY) }));

    expect(await purgeRequestLog(db.pool, now)).toBe(1);
    const left = await listRequests(db.pool, { limit: 10 });
    expect(left.map((r) => r.requestId)).toEqual(['recent', 'edge']);
  });

  describe('purge scheduler', () => {
    it('purges once as soon as it starts', async () => {
      await recordRequest(db.pool, entry({ requestId: 'old', occurredAt: new Date(Date.now() - 91 * DAY) }));
      await recordRequest(db.pool, entry({ requestId: 'new' }));
      const limiter = createRateLimiter(db.pool);
      await limiter.hit(randomUUID(), new Date(Date.now() - 10 * 60_000));
      await limiter.hit(randomUUID());

      const { logger, lines } = capturedLogger();
      const scheduler = startPurgeScheduler({ pool: db.pool, logger, intervalMs: 3_600_000 });
      await scheduler.stop();

      expect((await listRequests(db.pool, { limit: 10 })).map((r) => r.requestId)).toEqual(['new']);
      const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM rate_limit_windows');
      expect(rows).toEqual([{ n: 1 }]);
      expect(lines().filter((line) => line.msg === 'purge round done')).toEqual([
        expect.objectContaining({
          deleted: { requestLog: 1, rateLimitWindows: 1, idempotencyKeys: 0, webhookDeliveries: 0 },
        }),
      ]);
    });

    it('lets only one process purge in a round', async () => {
      const otherPool = createPool(db.url, { max: 2 });
      try {
        let release!: () => void;
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });
        let entered!: () => void;
        const started = new Promise<void>((resolve) => {
          entered = resolve;
        });
        const purgedBy: string[] = [];
        const task = (name: string, block: boolean): PurgeTask => ({
          name: 'probe',
          run: async () => {
            purgedBy.push(name);
            if (block) {
              entered();
              await held;
            }
            return 0;
          },
        });

        // Process A is mid-round, holding the lock, when process B's round starts.
        const a = startPurgeScheduler({ pool: db.pool, tasks: [task('a', true)] });
        await started;
        const b = startPurgeScheduler({ pool: otherPool, tasks: [task('b', false)] });
        await b.stop();
        release();
        await a.stop();
        expect(purgedBy).toEqual(['a']);

        // The lock ends with A's transaction: the next round purges.
        expect(await runPurgeRound(otherPool, { tasks: [task('b', false)] })).toMatchObject({ ran: true });
        expect(purgedBy).toEqual(['a', 'b']);
      } finally {
        await otherPool.end();
      }
    });

    it('names every retention rule it runs', () => {
      expect(defaultPurgeTasks().map((t) => t.name)).toEqual([
        'requestLog',
        'rateLimitWindows',
        'idempotencyKeys',
        'webhookDeliveries',
      ]);
    });
  });
});
