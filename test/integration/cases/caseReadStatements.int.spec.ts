import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projections } from '../../../projections/registry.js';
import { installProjections } from '../../../projections/registryStore.js';
import { startProjections } from '../../../projections/startProjections.js';
import { createPool } from '../../../src/db/database.js';
import type { EventStore } from '../../../src/eventStore/eventStore.js';
import { createPostgresEventStore } from '../../../src/eventStore/postgres/postgresEventStore.js';
import { silentLogger } from '../../../src/shared/logger.js';
import { SCOPES } from '../../../src/workspace/keyPolicy.js';
import type { CreatedApiKey } from '../../../src/workspace/keyStore.js';
import { createWorkspace } from '../../../src/workspace/workspaceStore.js';
import { createKey, startApiServer } from '../../support/caseApi.js';
import { eventually } from '../../support/eventually.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';
import { loadUnList } from '../checks/checkFixtures.js';

/**
 * A GET of a case or a check on the PostgreSQL event store is one statement: the read-model row, the
 * stream's newer events and the request's rate-limit hit. Read-your-writes holds: an event the read
 * model has not folded yet is in the answer. A POST of a case: the hit with the Idempotency-Key claim,
 * the creation's reads, the append of both streams, the stored response (and, off its path, the
 * feed's wake-up).
 */
describe('the statements of a request', () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  let store: EventStore;
  let app: FastifyInstance;
  let url = '';
  let key: CreatedApiKey;
  const statements: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    const accountId = (await createWorkspace(db.pool, { name: 'Reads' })).account.id;
    await loadUnList(db);
    await installProjections(db.pool, projections);
    pool = createPool(db.url, { max: 5, applicationName: 'casescreen-test-reads' });
    pool.on('connect', (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as { query: unknown }).query = (...args: unknown[]) => {
        const sql = args[0];
        statements.push(typeof sql === 'string' ? sql : String((sql as { text?: string }).text));
        return query(...args);
      };
    });
    store = createPostgresEventStore({ pool, connectionString: db.url });
    ({ app, url } = await startApiServer({ pool, store, rateLimit: 100_000 }));
    key = await createKey(db.pool, accountId, SCOPES);
  });
  afterAll(async () => {
    await app?.close();
    await store?.close();
    await pool?.end();
    await db?.drop();
  });

  const get = async (path: string) => {
    const response = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${key.rawKey}` } });
    return {
      status: response.status,
      body: (await response.json()) as { data: { case_reference: string; checks: unknown[] } },
    };
  };

  it('answers from the stream before the read model has the case, then in one statement with the rate limit', async () => {
    const created = await fetch(`${url}/v1/cases`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key.rawKey}`,
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
      },
      body: JSON.stringify({
        subject: { name: 'Ivan Testov', mode: 'create_or_reuse' },
        checks: { types: ['sanctions'] },
      }),
    });
    expect(created.status).toBe(201);
    const reference = ((await created.json()) as { data: { case_reference: string } }).data.case_reference;

    // No projection runs yet: the read model has no row, the answer comes from the stream alone.
    const before = statements.length;
    const fromStream = await get(`/v1/cases/${reference}`);
    expect(fromStream.status).toBe(200);
    expect(fromStream.body.data.case_reference).toBe(reference);

    const running = await startProjections({
      pool: db.pool,
      databaseUrl: db.url,
      store,
      logger: silentLogger,
    });
    try {
      await eventually(async () => {
        const { rows } = await db.pool.query('SELECT revision FROM case_views WHERE case_reference = $1', [
          reference,
        ]);
        expect(rows).toHaveLength(1);
      });
    } finally {
      await running.stop();
    }
    // Steady state: a known key answered from the cache, the row present.
    const inOneStatement = (path: string) =>
      eventually(async () => {
        const at = statements.length;
        expect((await get(path)).status).toBe(200);
        const onPath = statements.slice(at).filter((sql) => !/api_request_log/.test(sql));
        expect(onPath).toHaveLength(1);
        expect(onPath[0]).toMatch(/rate_limit_windows[\s\S]*es_events[\s\S]*case_views/);
      });
    await inOneStatement(`/v1/cases/${reference}`);
    const checkReference = (await get(`/v1/cases/${reference}`)).body.data.checks.map(
      (check) => (check as { check_reference: string }).check_reference,
    )[0]!;
    await inOneStatement(`/v1/checks/${checkReference}`);
    expect(statements.length).toBeGreaterThan(before);
  });

  it('creates a case in four statements, the rate-limit hit carried by the Idempotency-Key claim', async () => {
    const post = (n: number) =>
      fetch(`${url}/v1/cases`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key.rawKey}`,
          'content-type': 'application/json',
          'idempotency-key': randomUUID(),
        },
        body: JSON.stringify({ subject: { name: `Olga Testova ${n}` }, checks: { types: ['sanctions'] } }),
      });
    // The key is known to this process by now (the steady state): no statement reads it.
    await eventually(async () => {
      const at = statements.length;
      expect((await post(at)).status).toBe(201);
      // The request log is written in batches and the feed's wake-up after the response: neither
      // is on the request's path.
      const onPath = statements.slice(at).filter((sql) => !/api_request_log|pg_notify/.test(sql));
      expect(onPath.filter((sql) => /rate_limit_windows/.test(sql))).toEqual([
        expect.stringMatching(/rate_limit_windows[\s\S]*idempotency_keys/),
      ]);
      expect(onPath).toHaveLength(4);
    });
  });
});
