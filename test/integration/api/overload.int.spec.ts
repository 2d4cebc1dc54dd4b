import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApiServer } from '../../../src/api/apiServer.js';
import { type ApiRoute, defineRoute } from '../../../src/api/route.js';
import { createPool } from '../../../src/db/database.js';
import { createPostgresEventStore } from '../../../src/eventStore/postgres/postgresEventStore.js';
import { createRateLimiter } from '../../../src/rateLimit/rateLimiter.js';
import { listRequests } from '../../../src/requestLog/requestLog.js';
import { systemClock } from '../../../src/shared/clock.js';
import { SCOPES } from '../../../src/workspace/keyPolicy.js';
import type { CreatedApiKey } from '../../../src/workspace/keyStore.js';
import { createWorkspace } from '../../../src/workspace/workspaceStore.js';
import { createKey } from '../../support/caseApi.js';
import { eventually } from '../../support/eventually.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';

const REQUEST_ID = /^req_[0-9a-f]{32}$/;

interface ErrorBody {
  error: { code: string; message: string; details: unknown };
  meta: { request_id: string };
}

/** Requests held inside the probe route's handler until the test lets them go. */
class HeldRequests {
  private readonly releases: (() => void)[] = [];

  get count(): number {
    return this.releases.length;
  }

  hold(): Promise<void> {
    return new Promise((resolve) => this.releases.push(resolve));
  }

  releaseAll(): void {
    for (const release of this.releases.splice(0)) release();
  }
}

/** A POST through the full pipeline (idempotency included) whose work waits on `held`. */
function heldRoute(held: HeldRequests, runs: { count: number }): ApiRoute {
  return defineRoute({
    method: 'POST',
    path: '/v1/probe/held',
    operationId: 'probeHeld',
    summary: 'probe',
    tag: 'Probe',
    scopes: ['cases:create'],
    body: z.object({}),
    response: z.object({ run: z.number() }),
    successStatuses: [201],
    errorStatuses: [400, 401, 403, 409, 429],
    async handle() {
      runs.count += 1;
      const run = runs.count;
      await held.hold();
      return { status: 201, data: { run } };
    },
  });
}

describe('overload: past capacity, 503 service_unavailable with Retry-After at once', () => {
  let db: TestDatabase;
  let accountId: string;
  let key: CreatedApiKey;

  beforeAll(async () => {
    db = await createTestDatabase();
    accountId = (await createWorkspace(db.pool, { name: 'Overload Co' })).account.id;
    key = await createKey(db.pool, accountId, SCOPES);
  });
  afterAll(async () => {
    await db?.drop();
  });

  const post = (url: string, idempotencyKey: string) =>
    fetch(`${url}/v1/probe/held`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key.rawKey}`,
        'content-type': 'application/json',
        'idempotency-key': idempotencyKey,
      },
      body: '{}',
    });

  async function expectOverloaded(response: Response, retryAfter: string): Promise<ErrorBody> {
    const body = (await response.json()) as ErrorBody;
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe(retryAfter);
    expect(body.error).toMatchObject({
      code: 'service_unavailable',
      details: { retry_after_seconds: Number(retryAfter) },
    });
    expect(body.meta.request_id).toMatch(REQUEST_ID);
    expect(body.meta.request_id).toBe(response.headers.get('x-request-id'));
    return body;
  }

  describe('the in-flight limit', () => {
    const LIMIT = 2;
    const held = new HeldRequests();
    const runs = { count: 0 };
    // One pinned window, so the count read at the end is this test's alone.
    const windowNow = new Date();
    let app: FastifyInstance;
    let url: string;

    beforeAll(async () => {
      app = buildApiServer({
        logger: pino({ level: 'silent' }),
        readiness: [],
        pool: db.pool,
        store: createPostgresEventStore({ pool: db.pool, connectionString: db.url }),
        sourceStaleAfterMs: 14 * 86_400_000,
        clock: systemClock,
        rateLimiter: createRateLimiter(db.pool, { clock: () => windowNow }),
        maxInFlightRequests: LIMIT,
        extraRoutes: [heldRoute(held, runs)],
      });
      url = await app.listen({ port: 0, host: '127.0.0.1' });
    });
    afterEach(() => held.releaseAll());

    it('answers the request past the limit with 503 while the others are held, and that request does nothing', async () => {
      const heldResponses = [post(url, `idem-${randomUUID()}`), post(url, `idem-${randomUUID()}`)];
      await eventually(() => expect(held.count).toBe(LIMIT));

      // The held requests are still blocked: any answer now is one that did not queue behind them.
      const refusedKey = `idem-${randomUUID()}`;
      const refused = await post(url, refusedKey);
      const refusedBody = await expectOverloaded(refused, '1');
      expect(refused.headers.get('ratelimit-remaining')).toBeNull();
      // Health is never gated.
      expect((await fetch(`${url}/health/live`)).status).toBe(200);
      expect(held.count).toBe(LIMIT);

      held.releaseAll();
      expect((await Promise.all(heldResponses)).map((response) => response.status)).toEqual([201, 201]);
      expect(runs.count).toBe(LIMIT);

      // Not counted against the key's window: the two held requests and this one only.
      const after = await fetch(`${url}/v1/groups`, { headers: { authorization: `Bearer ${key.rawKey}` } });
      expect(after.status).toBe(200);
      expect(after.headers.get('ratelimit-remaining')).toBe(String(120 - LIMIT - 1));
      // No Idempotency-Key claimed: the same key now runs the work.
      const { rows } = await db.pool.query(
        'SELECT 1 FROM idempotency_keys WHERE api_key_id = $1 AND idempotency_key = $2',
        [key.key.id, refusedKey],
      );
      expect(rows).toHaveLength(0);
      const retried = post(url, refusedKey);
      await eventually(() => expect(held.count).toBe(1));
      held.releaseAll();
      expect((await retried).status).toBe(201);
      expect(runs.count).toBe(LIMIT + 1);

      // Not in the request log (closing the server writes what it buffered).
      await app.close();
      const logged = await listRequests(db.pool, { apiKeyId: key.key.id, limit: 50 });
      expect(logged.map((entry) => entry.requestId)).not.toContain(refusedBody.meta.request_id);
      expect(logged).toHaveLength(LIMIT + 2);
    });
  });

  describe('the wait for a database connection', () => {
    let pool: pg.Pool;
    let app: FastifyInstance;
    let url: string;
    let heldClient: pg.PoolClient | undefined;

    beforeAll(async () => {
      pool = createPool(db.url, { max: 1, connectionTimeoutMillis: 200, applicationName: 'overload-test' });
      app = buildApiServer({
        logger: pino({ level: 'silent' }),
        readiness: [],
        pool,
        store: createPostgresEventStore({ pool, connectionString: db.url }),
        sourceStaleAfterMs: 14 * 86_400_000,
        clock: systemClock,
      });
      url = await app.listen({ port: 0, host: '127.0.0.1' });
    });
    afterAll(async () => {
      heldClient?.release();
      await app?.close();
      await pool?.end();
    });

    it('answers 503 with Retry-After, not 500, when no connection becomes free in time', async () => {
      heldClient = await pool.connect();
      const response = await fetch(`${url}/v1/groups`, {
        headers: { authorization: `Bearer ${key.rawKey}` },
      });
      await expectOverloaded(response, '1');
      heldClient.release();
      heldClient = undefined;
      const after = await fetch(`${url}/v1/groups`, { headers: { authorization: `Bearer ${key.rawKey}` } });
      expect(after.status).toBe(200);
    });
  });
});
