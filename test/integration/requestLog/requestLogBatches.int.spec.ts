import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApiServer } from '../../../src/api/apiServer.js';
import type { EventStore } from '../../../src/eventStore/eventStore.js';
import { createPostgresEventStore } from '../../../src/eventStore/postgres/postgresEventStore.js';
import { listRequests } from '../../../src/requestLog/requestLog.js';
import { systemClock } from '../../../src/shared/clock.js';
import { SCOPES } from '../../../src/workspace/keyPolicy.js';
import { createWorkspace } from '../../../src/workspace/workspaceStore.js';
import { createKey } from '../../support/caseApi.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';

/** The API server's request log: written in batches off the request path, and all of it on close. */
describe('request log of the API server', () => {
  let db: TestDatabase;
  let store: EventStore;

  beforeAll(async () => {
    db = await createTestDatabase();
    store = createPostgresEventStore({ pool: db.pool, connectionString: db.url });
  });
  afterAll(async () => {
    await store.close();
    await db?.drop();
  });

  async function server(flushIntervalMs: number): Promise<{ app: FastifyInstance; url: string }> {
    const app = buildApiServer({
      logger: pino({ level: 'silent' }),
      readiness: [],
      pool: db.pool,
      store,
      sourceStaleAfterMs: 14 * 86_400_000,
      clock: systemClock,
      requestLogFlushIntervalMs: flushIntervalMs,
    });
    return { app, url: await app.listen({ port: 0, host: '127.0.0.1' }) };
  }

  it('answers before the entry is written, and writes every entry when the server closes', async () => {
    const accountId = (await createWorkspace(db.pool, { name: 'Log' })).account.id;
    const key = await createKey(db.pool, accountId, SCOPES);
    // An hour between writes: only the shutdown can have written these.
    const { app, url } = await server(3_600_000);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${url}/v1/groups?page=${i}`, {
        headers: { authorization: `Bearer ${key.rawKey}` },
      });
      expect(response.status).toBe(200);
      ids.push(((await response.json()) as { meta: { request_id: string } }).meta.request_id);
    }
    expect(await listRequests(db.pool, { apiKeyId: key.key.id, limit: 10 })).toEqual([]);

    await app.close();

    const logged = await listRequests(db.pool, { apiKeyId: key.key.id, limit: 10 });
    expect(logged.map((row) => row.requestId).sort()).toEqual([...ids].sort());
    expect(logged.every((row) => row.path === '/v1/groups' && row.status === 200)).toBe(true);
  });
});
