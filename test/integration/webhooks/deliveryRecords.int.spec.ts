import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimDeliveries, recordAccepted } from '../../../src/webhooks/deliveries.js';
import { createWebhookEndpoint } from '../../../src/webhooks/webhookEndpoints.js';
import { createWorkspace } from '../../../src/workspace/workspaceStore.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';

/**
 * The batched record of accepted attempts (recordAccepted), on the outbox tables: what it writes
 * for each delivery is what recordAttempt writes for one, and the lease still guards every row.
 */

const hex = () => randomBytes(16).toString('hex');

describe('recording accepted attempts in a batch', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await db?.drop();
  });

  /** An endpoint failing for an hour, with `count` pending deliveries. */
  async function failingEndpointWithDeliveries(count: number) {
    const { account } = await createWorkspace(db.pool, { name: `Records ${hex()}` });
    const { endpoint } = await createWebhookEndpoint(
      db.pool,
      { accountId: account.id, url: 'http://127.0.0.1:9/hooks', eventTypes: 'all' },
      { clock: () => new Date(), allowPrivateTargets: true },
    );
    await db.pool.query(
      `UPDATE webhook_endpoints SET failing_since = now() - interval '1 hour' WHERE id = $1`,
      [endpoint.id],
    );
    const ids = Array.from({ length: count }, () => `whd_${hex()}`);
    await db.pool.query(
      `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, body, next_attempt_at, created_at, updated_at)
       SELECT id, $2, 'evt_' || md5(id), 'case.created', '{}', now() - interval '1 second', now(), now()
         FROM unnest($1::text[]) AS id`,
      [ids, endpoint.id],
    );
    return { endpointId: endpoint.id, ids };
  }

  it('marks each delivery delivered with its attempt, stops the failure clock, and skips a row taken over', async () => {
    const { endpointId, ids } = await failingEndpointWithDeliveries(3);
    const claims = await claimDeliveries(db.pool, 'worker-a', 60_000, 10);
    expect(claims.map((claim) => claim.id).sort()).toEqual([...ids].sort());
    // The third row's lease ran out and another worker claimed it as its next attempt.
    const takenOver = claims[2]!;
    await db.pool.query(
      `UPDATE webhook_deliveries SET lease_owner = 'worker-b', attempts = attempts + 1 WHERE id = $1`,
      [takenOver.id],
    );
    const startedAt = new Date('2026-06-09T10:00:00.000Z');

    const outcomes = await recordAccepted(
      db.pool,
      claims.map((claim, index) => ({
        claim,
        record: { startedAt, durationMs: 12.4 + index, httpStatus: 204, responseSnippet: null },
      })),
    );

    expect(outcomes).toEqual(['delivered', 'delivered', 'lease_lost']);
    const { rows } = await db.pool.query<{
      id: string;
      status: string;
      attempts: number;
      lease_owner: string | null;
      last_status: number | null;
      delivered: boolean;
      next_attempt_at: Date | null;
    }>(
      `SELECT id, status, attempts, lease_owner, last_status, delivered_at IS NOT NULL AS delivered, next_attempt_at
         FROM webhook_deliveries WHERE id = ANY($1::text[])`,
      [ids],
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const claim of claims.slice(0, 2)) {
      expect(byId.get(claim.id)).toMatchObject({
        status: 'delivered',
        attempts: 1,
        lease_owner: null,
        last_status: 204,
        delivered: true,
        next_attempt_at: null,
      });
    }
    expect(byId.get(takenOver.id)).toMatchObject({
      status: 'pending',
      attempts: 2,
      lease_owner: 'worker-b',
      delivered: false,
    });

    const attempts = await db.pool.query<{
      delivery_id: string;
      attempt: number;
      started_at: Date;
      duration_ms: number;
      http_status: number;
      error: string | null;
    }>('SELECT * FROM webhook_attempts WHERE delivery_id = ANY($1::text[]) ORDER BY duration_ms', [ids]);
    expect(
      attempts.rows.map((row) => [row.delivery_id, row.attempt, row.duration_ms, row.http_status, row.error]),
    ).toEqual([
      [claims[0]!.id, 1, 12, 204, null],
      [claims[1]!.id, 1, 13, 204, null],
    ]);
    expect(attempts.rows[0]!.started_at.toISOString()).toBe(startedAt.toISOString());

    const endpoint = await db.pool.query<{ failing_since: Date | null }>(
      'SELECT failing_since FROM webhook_endpoints WHERE id = $1',
      [endpointId],
    );
    expect(endpoint.rows[0]!.failing_since).toBeNull();
  });

  it('leaves a failing endpoint failing when every row of the batch was taken over', async () => {
    const { endpointId, ids } = await failingEndpointWithDeliveries(1);
    const claim = (await claimDeliveries(db.pool, 'worker-a', 60_000, 10)).find((c) => c.id === ids[0]);
    await db.pool.query(`UPDATE webhook_deliveries SET lease_owner = 'worker-b' WHERE id = $1`, [claim!.id]);

    const outcomes = await recordAccepted(db.pool, [
      {
        claim: claim!,
        record: { startedAt: new Date(), durationMs: 5, httpStatus: 200, responseSnippet: '{"ok":true}' },
      },
    ]);

    expect(outcomes).toEqual(['lease_lost']);
    const { rows } = await db.pool.query<{ failing_since: Date | null }>(
      'SELECT failing_since FROM webhook_endpoints WHERE id = $1',
      [endpointId],
    );
    expect(rows[0]!.failing_since).not.toBeNull();
    const attempts = await db.pool.query('SELECT 1 FROM webhook_attempts WHERE delivery_id = $1', [
      claim!.id,
    ]);
    expect(attempts.rows).toHaveLength(0);
  });
});
