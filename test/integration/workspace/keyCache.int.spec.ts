import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '../../../src/db/database.js';
import type { EventStore } from '../../../src/eventStore/eventStore.js';
import { createPostgresEventStore } from '../../../src/eventStore/postgres/postgresEventStore.js';
import { SCOPES } from '../../../src/workspace/keyPolicy.js';
import { type CreatedApiKey, expireApiKey } from '../../../src/workspace/keyStore.js';
import { createWorkspace } from '../../../src/workspace/workspaceStore.js';
import { createKey, startApiServer } from '../../support/caseApi.js';
import { runCliCaptured } from '../../support/cli.js';
import { eventually } from '../../support/eventually.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';

/**
 * Two service processes' worth of API servers on one database, each with its own pool, LISTEN
 * session and key cache, and a CLI as a third: a key change made anywhere holds on the very next
 * request everywhere, although both servers answer that key from their caches in the steady state.
 */
describe('API key cache across processes', () => {
  let db: TestDatabase;
  let accountId: string;
  const servers: {
    pool: pg.Pool;
    store: EventStore;
    app: FastifyInstance;
    url: string;
    statements: string[];
  }[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    accountId = (await createWorkspace(db.pool, { name: 'Cache' })).account.id;
    for (let i = 0; i < 2; i++) {
      const pool = createPool(db.url, { max: 5, applicationName: `casescreen-test-${i}` });
      const statements: string[] = [];
      pool.on('connect', (client) => {
        const query = client.query.bind(client) as (...args: unknown[]) => unknown;
        (client as { query: unknown }).query = (...args: unknown[]) => {
          const sql = args[0];
          statements.push(typeof sql === 'string' ? sql : String((sql as { text?: string }).text));
          return query(...args);
        };
      });
      const store = createPostgresEventStore({ pool, connectionString: db.url });
      const { app, url } = await startApiServer({ pool, store, rateLimit: 100_000 });
      servers.push({ pool, store, app, url, statements });
    }
  });
  afterAll(async () => {
    for (const server of servers) {
      await server.app.close();
      await server.store.close();
      await server.pool.end();
    }
    await db?.drop();
  });

  const cli = (...argv: string[]) => runCliCaptured(argv, { DATABASE_URL: db.url });

  async function get(server: number, key: CreatedApiKey) {
    const response = await fetch(`${servers[server]!.url}/v1/groups`, {
      headers: { authorization: `Bearer ${key.rawKey}` },
    });
    return {
      status: response.status,
      headers: response.headers,
      body: (await response.json()) as { error?: { code: string; message: string } },
    };
  }

  /** The statements one request sent through the server's pool. */
  async function statementsOf(server: number, key: CreatedApiKey) {
    const sent = servers[server]!.statements;
    const before = sent.length;
    const result = await get(server, key);
    return { result, statements: sent.slice(before) };
  }

  /** Waits until both servers answer the key from their caches (their listeners are up and filled). */
  async function cachedOnBoth(key: CreatedApiKey): Promise<void> {
    for (const server of [0, 1]) {
      await eventually(async () => {
        const { result, statements } = await statementsOf(server, key);
        expect(result.status).toBe(200);
        expect(statements.filter((sql) => /api_keys\b/.test(sql))).toEqual([]);
      });
    }
  }

  function expectRefused(result: Awaited<ReturnType<typeof get>>, message: string) {
    expect(result.status).toBe(401);
    expect(result.body.error).toMatchObject({ code: 'unauthorized', message });
    expect(result.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(result.headers.get('ratelimit-limit')).toBeNull();
  }

  it('answers a known key without reading it: the rate-limit statement and the route query only', async () => {
    const key = await createKey(db.pool, accountId, SCOPES);
    await cachedOnBoth(key);
    const { result, statements } = await statementsOf(1, key);
    expect(result.status).toBe(200);
    // The request log is written off the request path, in batches.
    const onPath = statements.filter((sql) => !/api_request_log/.test(sql));
    expect(onPath).toHaveLength(2);
    expect(onPath[0]).toMatch(/rate_limit_windows[\s\S]*api_key_epoch/);
  });

  it('refuses a revoked key on the next request even when no process hears of it (a lost notification)', async () => {
    const key = await createKey(db.pool, accountId, SCOPES);
    await cachedOnBoth(key);
    // The change and its epoch, without the trigger and so without a notification: as if it were lost.
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('ALTER TABLE api_keys DISABLE TRIGGER api_keys_updated');
      await client.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [key.key.id]);
      await client.query('UPDATE api_key_epoch SET epoch = epoch + 1');
      await client.query('ALTER TABLE api_keys ENABLE TRIGGER api_keys_updated');
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    for (const server of [1, 0]) {
      const { result, statements } = await statementsOf(server, key);
      expectRefused(result, 'The API key has been revoked.');
      // The cache still held the key; the epoch the rate-limit statement read sent it to the table.
      expect(statements.some((sql) => /FROM api_keys WHERE key_prefix/.test(sql))).toBe(true);
    }
  });

  it('refuses a key revoked through the CLI on the very next request in the other processes', async () => {
    for (let round = 0; round < 5; round++) {
      const key = await createKey(db.pool, accountId, SCOPES);
      await cachedOnBoth(key);
      const revoked = await cli('keys', 'revoke', key.key.id);
      expect(revoked.code).toBe(0);
      // No waiting: the CLI has returned, so the revocation has committed.
      expectRefused(await get(1, key), 'The API key has been revoked.');
      expectRefused(await get(0, key), 'The API key has been revoked.');
    }
  });

  it('refuses a key expired through one process on the very next request in the other', async () => {
    for (let round = 0; round < 5; round++) {
      const key = await createKey(db.pool, accountId, SCOPES, {
        expiresAt: new Date(Date.now() + 3_600_000),
      });
      await cachedOnBoth(key);
      expect(await expireApiKey(servers[0]!.pool, key.key.id, new Date())).toMatchObject({
        outcome: 'expired',
      });
      expectRefused(await get(1, key), 'The API key has expired.');
      expectRefused(await get(0, key), 'The API key has expired.');
    }
  });

  it('keeps refusing a revoked key from the cache, and admits the other keys without reading them', async () => {
    const kept = await createKey(db.pool, accountId, SCOPES);
    const revoked = await createKey(db.pool, accountId, SCOPES);
    await cachedOnBoth(kept);
    await cachedOnBoth(revoked);
    expect((await cli('keys', 'revoke', revoked.key.id)).code).toBe(0);
    expectRefused(await get(1, revoked), 'The API key has been revoked.');
    // Once the notification is in, neither key needs a read: the refusal is cached as well.
    await eventually(async () => {
      const refused = await statementsOf(1, revoked);
      expectRefused(refused.result, 'The API key has been revoked.');
      expect(refused.statements).toEqual([]);
      const admitted = await statementsOf(1, kept);
      expect(admitted.result.status).toBe(200);
      expect(admitted.statements.filter((sql) => /api_keys\b/.test(sql))).toEqual([]);
    });
  });

  it('announces only the changes authentication depends on', async () => {
    const key = await createKey(db.pool, accountId, SCOPES);
    const epoch = async () =>
      (await db.pool.query<{ epoch: string }>('SELECT epoch::text AS epoch FROM api_key_epoch')).rows[0]!
        .epoch;
    const before = await epoch();
    await db.pool.query('UPDATE api_keys SET last_used_at = now() WHERE id = $1', [key.key.id]);
    expect(await epoch()).toBe(before);
    await db.pool.query("UPDATE api_keys SET name = 'renamed' WHERE id = $1", [key.key.id]);
    expect(await epoch()).toBe(String(BigInt(before) + 1n));
  });
});
