import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApiServer } from '../../../src/api/apiServer.js';
import { defineRoute } from '../../../src/api/route.js';
import { createPostgresEventStore } from '../../../src/eventStore/postgres/postgresEventStore.js';
import { beginRequest, fingerprintRequest } from '../../../src/idempotency/idempotencyStore.js';
import { systemClock } from '../../../src/shared/clock.js';
import { SCOPES } from '../../../src/workspace/keyPolicy.js';
import type { CreatedApiKey } from '../../../src/workspace/keyStore.js';
import { createWorkspace } from '../../../src/workspace/workspaceStore.js';
import { createKey } from '../../support/caseApi.js';
import { eventually } from '../../support/eventually.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';

const LEASE_MS = 1_500;
const PATH = '/v1/probe/leased';

/**
 * Idempotency-Key leases are short and renewed while their request runs (docs/idempotency.md): a
 * live request keeps its key however long it works, a dead one frees it within a lease.
 */
describe('Idempotency-Key leases', () => {
  let db: TestDatabase;
  let key: CreatedApiKey;
  let app: FastifyInstance;
  let url: string;
  const waiting: (() => void)[] = [];
  const runs: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    const accountId = (await createWorkspace(db.pool, { name: 'Lease Co' })).account.id;
    key = await createKey(db.pool, accountId, SCOPES);
    app = buildApiServer({
      logger: pino({ level: 'silent' }),
      readiness: [],
      pool: db.pool,
      store: createPostgresEventStore({ pool: db.pool, connectionString: db.url }),
      sourceStaleAfterMs: 14 * 86_400_000,
      clock: systemClock,
      idempotencyLeaseMs: LEASE_MS,
      extraRoutes: [
        defineRoute({
          method: 'POST',
          path: PATH,
          operationId: 'probeLeased',
          summary: 'probe',
          tag: 'Probe',
          scopes: ['cases:create'],
          body: z.object({ hold: z.boolean() }),
          response: z.object({ run: z.number() }),
          successStatuses: [201],
          errorStatuses: [400, 401, 403, 409, 429],
          async handle({ body, idempotency }) {
            runs.push(`${idempotency?.key}:${idempotency?.recovered}`);
            if (body.hold) await new Promise<void>((resolve) => waiting.push(resolve));
            return { status: 201, data: { run: runs.length } };
          },
        }),
      ],
    });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    for (const release of waiting.splice(0)) release();
    await app?.close();
    await db?.drop();
  });

  const post = (idempotencyKey: string, hold: boolean) =>
    fetch(`${url}${PATH}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key.rawKey}`,
        'content-type': 'application/json',
        'idempotency-key': idempotencyKey,
      },
      body: JSON.stringify({ hold }),
    });

  /** The request `{hold: false}` with this key, begun by a holder other than this server. */
  const beginElsewhere = (idempotencyKey: string, leaseMs: number) =>
    beginRequest(db.pool, {
      apiKeyId: key.key.id,
      key: idempotencyKey,
      method: 'POST',
      path: PATH,
      fingerprint: fingerprintRequest({ method: 'POST', path: PATH, body: { hold: false } }),
      leaseMs,
    });

  const leaseOf = async (idempotencyKey: string) =>
    (
      await db.pool.query<{ lease_id: string; locked_until: Date; state: string }>(
        'SELECT lease_id, locked_until, state FROM idempotency_keys WHERE api_key_id = $1 AND idempotency_key = $2',
        [key.key.id, idempotencyKey],
      )
    ).rows[0];

  it('renews the lease of a request that is still running, then stores its response', async () => {
    const idempotencyKey = `held-${randomUUID()}`;
    const response = post(idempotencyKey, true);
    await eventually(() => expect(waiting).toHaveLength(1));
    const first = (await leaseOf(idempotencyKey))!;
    // Renewed while the handler runs: the same holder, its lease moved on (twice, to see it repeat).
    const seen = new Set<number>([first.locked_until.getTime()]);
    await eventually(async () => {
      const now = (await leaseOf(idempotencyKey))!;
      expect(now.lease_id).toBe(first.lease_id);
      seen.add(now.locked_until.getTime());
      expect(seen.size).toBeGreaterThanOrEqual(3);
    });
    waiting.shift()!();
    expect((await response).status).toBe(201);
    // Completed: no lease left to renew, and the retry is a replay.
    expect(await leaseOf(idempotencyKey)).toMatchObject({ state: 'completed', lease_id: null });
    const replay = await post(idempotencyKey, true);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });

  it('answers a retry of a request in flight 409 conflict with Retry-After', async () => {
    const idempotencyKey = `busy-${randomUUID()}`;
    // A holder that is not this server (another process): its lease is long and nobody renews it.
    await beginElsewhere(idempotencyKey, 600_000);
    const retry = await post(idempotencyKey, false);
    expect(retry.status).toBe(409);
    expect(retry.headers.get('retry-after')).toBe('1');
    expect(((await retry.json()) as { error: { code: string } }).error.code).toBe('conflict');
  });

  it('lets a retry take over the key of a holder that died, once its lease ran out', async () => {
    const idempotencyKey = `dead-${randomUUID()}`;
    // The holder began and died: nothing renews its (short) lease.
    await beginElsewhere(idempotencyKey, LEASE_MS);
    let retry: Response | undefined;
    await eventually(
      async () => {
        retry = await post(idempotencyKey, false);
        expect(retry.status).toBe(201);
      },
      60_000,
      // Spaced out: every retry counts against the key's rate limit.
      250,
    );
    // The work ran once, told that an earlier attempt may have written part of it.
    expect(runs.filter((run) => run.startsWith(idempotencyKey))).toEqual([`${idempotencyKey}:true`]);
  });
});
