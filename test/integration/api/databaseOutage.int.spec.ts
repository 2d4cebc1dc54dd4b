import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApiServer } from '../../../src/api/apiServer.js';
import { createPool } from '../../../src/db/database.js';
import { createPostgresEventStore } from '../../../src/eventStore/postgres/postgresEventStore.js';
import { systemClock } from '../../../src/shared/clock.js';
import { generateApiKey } from '../../../src/workspace/apiKeys.js';

/** A local port nothing listens on: every connection to it is refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A database that cannot be reached (docs/operations.md, "Database outage"): every request is
 * answered at once with a retry-safe 503 in the envelope, readiness says not ready without naming
 * the host, and nothing hangs.
 */
describe('an API server whose database is unreachable', () => {
  let app: FastifyInstance;
  let url: string;
  let pool: pg.Pool;
  let store: ReturnType<typeof createPostgresEventStore>;

  beforeAll(async () => {
    const databaseUrl = `postgres://postgres@127.0.0.1:${await closedPort()}/nowhere`;
    pool = createPool(databaseUrl, { max: 4 });
    store = createPostgresEventStore({ pool, connectionString: databaseUrl });
    app = buildApiServer({
      logger: pino({ level: 'silent' }),
      readiness: [{ name: 'postgres', check: async () => void (await pool.query('SELECT 1')) }],
      pool,
      store,
      sourceStaleAfterMs: 86_400_000,
      clock: systemClock,
    });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app?.close();
    await store?.close();
    await pool?.end();
  });

  it('answers reads and writes with 503 service_unavailable and Retry-After, not 500', async () => {
    // Well formed, so that authentication asks the database about it.
    const headers = { authorization: `Bearer ${generateApiKey().rawKey}` };
    for (const request of [
      fetch(`${url}/v1/groups`, { headers }),
      fetch(`${url}/v1/cases`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': 'outage-0001' },
        body: JSON.stringify({ subject: { name: 'Olli Outage' }, checks: { types: ['sanctions'] } }),
      }),
    ]) {
      const response = await request;
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('2');
      const body = (await response.json()) as {
        error: { code: string; message: string };
        meta: { request_id: string };
      };
      expect(body.error.code).toBe('service_unavailable');
      expect(body.error.message).toMatch(/cannot reach its database/);
      expect(body.meta.request_id).toMatch(/^req_/);
    }
  });

  it('says not ready without naming the host, port or error', async () => {
    const response = await fetch(`${url}/health/ready`);
    expect(response.status).toBe(503);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ status: 'not_ready', checks: { postgres: 'failed' } });
    expect(text).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|nowhere/);
  });
});
