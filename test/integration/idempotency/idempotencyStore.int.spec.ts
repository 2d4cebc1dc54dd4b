import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  abandonRequest,
  type BeginRequest,
  beginRequest,
  completeRequest,
  fingerprintRequest,
  purgeExpired,
  renewRequestLease,
} from '../../../src/idempotency/idempotencyStore.js';
import { expireIdempotencyLease } from '../../support/idempotencyLeases.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';

const body = { subject: { name: 'Ada Lovelace', type: 'person' }, external_reference: 'crm-1' };

function request(overrides: Partial<BeginRequest> & { body?: unknown } = {}): BeginRequest {
  const method = overrides.method ?? 'POST';
  const path = overrides.path ?? '/v1/cases';
  return {
    apiKeyId: overrides.apiKeyId ?? randomUUID(),
    key: overrides.key ?? `key-${randomUUID()}`,
    method,
    path,
    fingerprint: overrides.fingerprint ?? fingerprintRequest({ method, path, body: overrides.body ?? body }),
    // Longer than any test runs: a lease runs out only when a test expires it.
    leaseMs: overrides.leaseMs ?? 600_000,
  };
}

describe('idempotency store', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it('starts, completes, then replays the original status and body', async () => {
    const first = request();
    const started = await beginRequest(db.pool, first);
    expect(started).toMatchObject({ kind: 'started', recovered: false });
    if (started.kind !== 'started') throw new Error('unreachable');
    const response = { data: { case_reference: 'ABC123456', tags: ['a', 'b'] }, meta: { request_id: 'r1' } };
    expect(
      await completeRequest(db.pool, { ...first, status: 201, body: response, leaseId: started.leaseId }),
    ).toBe(true);
    // A retry whose body differs only in key order and whitespace is the same request.
    const reordered = JSON.parse(
      '{ "external_reference": "crm-1", "subject": { "type": "person", "name": "Ada Lovelace" } }',
    );
    const retry = request({ ...first, fingerprint: undefined, body: reordered });
    expect(await beginRequest(db.pool, retry)).toEqual({ kind: 'replay', status: 201, body: response });
    expect(await beginRequest(db.pool, first)).toEqual({ kind: 'replay', status: 201, body: response });
  });

  it('reports a mismatch for the same key with another body, method or path', async () => {
    const first = request();
    await beginRequest(db.pool, first);
    expect(
      await beginRequest(db.pool, request({ ...first, fingerprint: undefined, body: { other: 1 } })),
    ).toEqual({
      kind: 'mismatch',
    });
    expect(
      await beginRequest(db.pool, request({ ...first, fingerprint: undefined, method: 'PATCH' })),
    ).toEqual({
      kind: 'mismatch',
    });
    expect(
      await beginRequest(
        db.pool,
        request({ ...first, fingerprint: undefined, path: '/v1/monitoring-configs' }),
      ),
    ).toEqual({ kind: 'mismatch' });
    // Also once the first request has completed: a mismatch is never a replay.
    await completeRequest(db.pool, { ...first, status: 201, body: { ok: true } });
    expect(
      await beginRequest(db.pool, request({ ...first, fingerprint: undefined, body: { other: 1 } })),
    ).toEqual({
      kind: 'mismatch',
    });
  });

  it('lets exactly one of ten concurrent first requests start', async () => {
    const first = request();
    const results = await Promise.all(Array.from({ length: 10 }, () => beginRequest(db.pool, first)));
    expect(results.filter((r) => r.kind === 'started')).toHaveLength(1);
    expect(results.filter((r) => r.kind === 'in_flight')).toHaveLength(9);
  });

  it('lets one retry take over an in-flight request whose lease expired', async () => {
    const first = request();
    const started = await beginRequest(db.pool, first);
    expect(await beginRequest(db.pool, first)).toEqual({ kind: 'in_flight' });
    await expireIdempotencyLease(db.pool, first.apiKeyId, first.key);
    const retries = await Promise.all(Array.from({ length: 5 }, () => beginRequest(db.pool, first)));
    const takeovers = retries.filter((r) => r.kind === 'started');
    expect(takeovers).toEqual([{ kind: 'started', recovered: true, leaseId: expect.any(String) }]);
    expect(retries.filter((r) => r.kind === 'in_flight')).toHaveLength(4);
    // The crashed owner's late completion must not overwrite the new owner's claim.
    if (started.kind !== 'started' || takeovers[0]?.kind !== 'started') throw new Error('unreachable');
    expect(
      await completeRequest(db.pool, { ...first, status: 201, body: 'stale', leaseId: started.leaseId }),
    ).toBe(false);
    expect(await abandonRequest(db.pool, { ...first, leaseId: started.leaseId })).toBe(false);
    expect(
      await completeRequest(db.pool, { ...first, status: 201, body: 'fresh', leaseId: takeovers[0].leaseId }),
    ).toBe(true);
    expect(await beginRequest(db.pool, first)).toEqual({ kind: 'replay', status: 201, body: 'fresh' });
  });

  it('renews the lease of its holder only: a renewal holds a takeover off, a stale holder cannot renew', async () => {
    const first = request({ leaseMs: 1_000 });
    const started = await beginRequest(db.pool, first);
    if (started.kind !== 'started') throw new Error('unreachable');
    const lockedUntil = async () =>
      (
        await db.pool.query<{ locked_until: Date }>(
          'SELECT locked_until FROM idempotency_keys WHERE api_key_id = $1 AND idempotency_key = $2',
          [first.apiKeyId, first.key],
        )
      ).rows[0]!.locked_until.getTime();
    const before = await lockedUntil();
    const holder = { apiKeyId: first.apiKeyId, key: first.key, leaseId: started.leaseId };
    expect(await renewRequestLease(db.pool, { ...holder, leaseMs: 600_000 })).toBe(true);
    expect(await lockedUntil()).toBeGreaterThan(before + 500_000);
    expect(await beginRequest(db.pool, first)).toEqual({ kind: 'in_flight' });

    // Past its lease, the key goes to a retry; the old holder's renewal then changes nothing.
    await expireIdempotencyLease(db.pool, first.apiKeyId, first.key);
    const takeover = await beginRequest(db.pool, first);
    expect(takeover).toMatchObject({ kind: 'started', recovered: true });
    const afterTakeover = await lockedUntil();
    expect(await renewRequestLease(db.pool, { ...holder, leaseMs: 600_000 })).toBe(false);
    expect(await lockedUntil()).toBe(afterTakeover);
    // Nor can anything renew a completed request.
    if (takeover.kind !== 'started') throw new Error('unreachable');
    await completeRequest(db.pool, { ...first, status: 201, body: 'done', leaseId: takeover.leaseId });
    expect(await renewRequestLease(db.pool, { ...holder, leaseId: takeover.leaseId, leaseMs: 600_000 })).toBe(
      false,
    );
  });

  it('releases an abandoned request so that a retry starts afresh', async () => {
    const first = request();
    const started = await beginRequest(db.pool, first);
    if (started.kind !== 'started') throw new Error('unreachable');
    expect(await abandonRequest(db.pool, { ...first, leaseId: started.leaseId })).toBe(true);
    expect(await beginRequest(db.pool, first)).toMatchObject({ kind: 'started', recovered: false });
  });

  it('stores 4xx responses for replay and refuses 5xx', async () => {
    const first = request();
    await beginRequest(db.pool, first);
    await expect(completeRequest(db.pool, { ...first, status: 500, body: {} })).rejects.toThrow(RangeError);
    const problem = { error: { code: 'unprocessable_entity', message: 'owner is not a member' } };
    expect(await completeRequest(db.pool, { ...first, status: 422, body: problem })).toBe(true);
    expect(await beginRequest(db.pool, first)).toEqual({ kind: 'replay', status: 422, body: problem });
  });

  it('scopes keys per API key', async () => {
    const key = `shared-${randomUUID()}`;
    const a = request({ key });
    const b = request({ key, body: { something: 'else' } });
    expect(await beginRequest(db.pool, a)).toMatchObject({ kind: 'started' });
    expect(await beginRequest(db.pool, b)).toMatchObject({ kind: 'started', recovered: false });
    await completeRequest(db.pool, { ...a, status: 201, body: 'a' });
    await completeRequest(db.pool, { ...b, status: 200, body: 'b' });
    expect(await beginRequest(db.pool, a)).toEqual({ kind: 'replay', status: 201, body: 'a' });
    expect(await beginRequest(db.pool, b)).toEqual({ kind: 'replay', status: 200, body: 'b' });
  });

  it('keeps keys 48 hours and purges expired rows only', async () => {
    const apiKeyId = randomUUID();
    const old = request({ apiKeyId });
    const fresh = request({ apiKeyId });
    const running = request({ apiKeyId });
    await beginRequest(db.pool, old);
    await completeRequest(db.pool, { ...old, status: 201, body: 'old' });
    await beginRequest(db.pool, fresh);
    await completeRequest(db.pool, { ...fresh, status: 201, body: 'fresh' });
    await beginRequest(db.pool, running);
    const { rows } = await db.pool.query<{ hours: number }>(
      `SELECT extract(epoch FROM expires_at - created_at) / 3600 AS hours FROM idempotency_keys
        WHERE api_key_id = $1`,
      [apiKeyId],
    );
    expect(rows.map((r) => Number(r.hours))).toEqual([48, 48, 48]);
    // Age `old` by three days and give `running` an expired row with a lease that is still live.
    await db.pool.query(
      `UPDATE idempotency_keys SET created_at = created_at - interval '3 days', expires_at = expires_at - interval '3 days',
              completed_at = completed_at - interval '3 days'
        WHERE api_key_id = $1 AND idempotency_key = $2`,
      [apiKeyId, old.key],
    );
    await db.pool.query(
      `UPDATE idempotency_keys SET created_at = created_at - interval '3 days', expires_at = expires_at - interval '3 days'
        WHERE api_key_id = $1 AND idempotency_key = $2`,
      [apiKeyId, running.key],
    );
    expect(await purgeExpired(db.pool, new Date())).toBe(1);
    const left = await db.pool.query<{ idempotency_key: string }>(
      'SELECT idempotency_key FROM idempotency_keys WHERE api_key_id = $1 ORDER BY idempotency_key',
      [apiKeyId],
    );
    expect(left.rows.map((r) => r.idempotency_key).sort()).toEqual([fresh.key, running.key].sort());
    // Two days on, the fresh row has expired too.
    expect(await purgeExpired(db.pool, new Date(Date.now() + 49 * 3600 * 1000))).toBeGreaterThanOrEqual(2);
  });

  it('treats an expired row that is not yet purged as absent', async () => {
    const first = request();
    await beginRequest(db.pool, first);
    await completeRequest(db.pool, { ...first, status: 201, body: 'old' });
    await db.pool.query(
      `UPDATE idempotency_keys SET created_at = created_at - interval '3 days', expires_at = expires_at - interval '3 days'
        WHERE api_key_id = $1 AND idempotency_key = $2`,
      [first.apiKeyId, first.key],
    );
    const reuse = request({ ...first, fingerprint: undefined, body: { new: 'body' } });
    expect(await beginRequest(db.pool, reuse)).toMatchObject({ kind: 'started', recovered: false });
  });
});
