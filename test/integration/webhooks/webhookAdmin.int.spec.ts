import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPurgeRound } from '../../../src/maintenance/purgeScheduler.js';
import {
  deliveryStats,
  getDelivery,
  listDeliveries,
  purgeWebhookDeliveries,
  queuePing,
  redeliver,
  redeliverDead,
} from '../../../src/webhooks/deliveryAdmin.js';
import { WebhookAdminError } from '../../../src/webhooks/webhookAdminError.js';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  disableWebhookEndpoint,
  enableWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpoints,
  type NewWebhookEndpoint,
  rotateWebhookSecret,
} from '../../../src/webhooks/webhookEndpoints.js';
import { createGroup, createWorkspace } from '../../../src/workspace/workspaceStore.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';

const T0 = new Date('2026-11-20T10:00:00.000Z');
const at = (date: Date) => () => date;
const plus = (date: Date, ms: number) => new Date(date.getTime() + ms);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('webhook endpoint and delivery administration', () => {
  let db: TestDatabase;
  let accountId: string;
  let defaultGroupId: string;
  let edGroupId: string;
  let foreignGroupId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    const workspace = await createWorkspace(db.pool, { name: 'Northwind Payments' });
    accountId = workspace.account.id;
    defaultGroupId = workspace.defaultGroup.id;
    edGroupId = (await createGroup(db.pool, { accountId, name: 'Enhanced due diligence' })).id;
    foreignGroupId = (await createWorkspace(db.pool, { name: 'Other Ltd' })).defaultGroup.id;
  });
  afterAll(async () => {
    await db.drop();
  });

  const publicOnly = { clock: at(T0), allowPrivateTargets: false };
  const create = (input: Partial<NewWebhookEndpoint> = {}, options = publicOnly) =>
    createWebhookEndpoint(
      db.pool,
      { accountId, url: 'https://8.8.8.8/hooks', eventTypes: 'all', ...input },
      options,
    );

  /** What create refuses, as the error the CLI prints. */
  async function refusal(promise: Promise<unknown>): Promise<WebhookAdminError> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WebhookAdminError);
    return error as WebhookAdminError;
  }

  async function storedSecrets(id: string) {
    const { rows } = await db.pool.query(
      'SELECT secret, previous_secret, previous_secret_expires_at FROM webhook_endpoints WHERE id = $1',
      [id],
    );
    return rows[0] as {
      secret: string;
      previous_secret: string | null;
      previous_secret_expires_at: Date | null;
    };
  }

  /** A delivery row as the fan-out or the worker would leave it. */
  async function insertDelivery(row: {
    endpointId: string;
    status: 'pending' | 'failed' | 'delivered' | 'dead';
    eventId?: string;
    eventType?: string;
    redeliveryOf?: string | null;
    createdAt?: Date;
    updatedAt?: Date;
    attempts?: { httpStatus: number | null; error: string | null; snippet?: string }[];
  }): Promise<string> {
    const id = `whd_${randomBytes(16).toString('hex')}`;
    const eventId = row.eventId ?? `evt_${randomBytes(16).toString('hex')}`;
    const createdAt = row.createdAt ?? T0;
    const updatedAt = row.updatedAt ?? createdAt;
    const due = row.status === 'pending' || row.status === 'failed' ? updatedAt : null;
    const attempts = row.attempts ?? [];
    await db.pool.query(
      `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, body, status, attempts,
                                       next_attempt_at, redelivery_of, created_at, updated_at, delivered_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        id,
        row.endpointId,
        eventId,
        row.eventType ?? 'check.completed',
        JSON.stringify({ id: eventId, type: row.eventType ?? 'check.completed' }),
        row.status,
        attempts.length,
        due,
        row.redeliveryOf ?? null,
        createdAt,
        updatedAt,
        row.status === 'delivered' ? updatedAt : null,
      ],
    );
    for (const [index, attempt] of attempts.entries()) {
      await db.pool.query(
        `INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, http_status, error,
                                       response_snippet)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [
          id,
          index + 1,
          plus(createdAt, index * 60_000),
          40 + index,
          attempt.httpStatus,
          attempt.error,
          attempt.snippet ?? null,
        ],
      );
    }
    return id;
  }

  async function deliveryRow(id: string) {
    const { rows } = await db.pool.query(
      'SELECT *, next_attempt_at <= now() AS due FROM webhook_deliveries WHERE id = $1',
      [id],
    );
    return rows[0];
  }

  describe('endpoints', () => {
    it('creates an enabled endpoint with a whsec_ secret that no other result shows', async () => {
      const { endpoint, secret } = await create({
        eventTypes: ['check.failed', 'case.created', 'check.failed'],
        groupIds: [edGroupId.toUpperCase()],
        mode: 'expanded',
        description: '  Onboarding service  ',
      });
      expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(secret.slice('whsec_'.length), 'base64url')).toHaveLength(32);
      expect(endpoint).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        accountId,
        url: 'https://8.8.8.8/hooks',
        description: 'Onboarding service',
        // Canonical order, no duplicates; the group id lower-cased.
        eventTypes: ['case.created', 'check.failed'],
        groupIds: [edGroupId],
        mode: 'expanded',
        status: 'enabled',
        disabledReason: null,
        disabledAt: null,
        failingSince: null,
        secretRotatingUntil: null,
        createdAt: T0,
        updatedAt: T0,
      });
      expect((await storedSecrets(endpoint.id)).secret).toBe(secret);

      const shown = [
        await getWebhookEndpoint(db.pool, endpoint.id),
        ...(await listWebhookEndpoints(db.pool)),
        ...(await listWebhookEndpoints(db.pool, { accountId })),
      ];
      expect(shown.map((view) => view.id)).toContain(endpoint.id);
      expect(JSON.stringify(shown)).not.toContain(secret);
      expect(JSON.stringify(shown)).not.toContain('whsec_');
      for (const view of shown)
        expect(Object.keys(view).filter((key) => /secret/i.test(key))).toEqual(['secretRotatingUntil']);
    });

    it('stores "all" event types and groups as NULL, the summary mode by default', async () => {
      const { endpoint } = await create();
      expect(endpoint).toMatchObject({
        eventTypes: 'all',
        groupIds: null,
        mode: 'summary',
        description: null,
      });
      const { rows } = await db.pool.query(
        'SELECT event_types, group_ids, mode FROM webhook_endpoints WHERE id = $1',
        [endpoint.id],
      );
      expect(rows[0]).toEqual({ event_types: null, group_ids: null, mode: 'summary' });
      const two = await create({ groupIds: [defaultGroupId, edGroupId] });
      expect(two.endpoint.groupIds).toEqual([defaultGroupId, edGroupId]);
    });

    it('refuses URLs that are not https or not public, saying why', async () => {
      const refused = async (url: string) => (await refusal(create({ url }))).message;
      expect(await refused('http://8.8.8.8/hooks')).toBe(
        'webhook URL refused: the URL must start with https:// (http is allowed only with WEBHOOK_ALLOW_PRIVATE_TARGETS=true)',
      );
      expect(await refused('https://ops:hunter2@8.8.8.8/hooks')).toBe(
        'webhook URL refused: the URL must not carry a user name or password',
      );
      expect(await refused('https://127.0.0.1/hooks')).toBe(
        'webhook URL refused: 127.0.0.1 is not a public address',
      );
      expect(await refused('https://[::1]:8443/hooks')).toBe(
        'webhook URL refused: ::1 is not a public address',
      );
      expect(await refused('https://169.254.169.254/latest/meta-data')).toBe(
        'webhook URL refused: 169.254.169.254 is not a public address',
      );
      expect(await refused('https://10.1.2.3/hooks')).toBe(
        'webhook URL refused: 10.1.2.3 is not a public address',
      );
      expect(await refused('https://localhost/hooks')).toMatch(
        /^webhook URL refused: localhost resolves to (127\.0\.0\.1|::1), not a public address$/,
      );
      expect(await refused('https://hooks.example.invalid/x')).toMatch(
        /^webhook URL refused: hooks\.example\.invalid does not resolve/,
      );
      expect(await refused('hooks.example.com/x')).toBe(
        'webhook URL refused: "hooks.example.com/x" is not a URL',
      );
      expect(await refused('ftp://8.8.8.8/x')).toMatch(/must start with https:\/\//);
      expect(await refused(`https://8.8.8.8/${'a'.repeat(2100)}`)).toBe(
        'the URL must be at most 2048 characters',
      );
      // The refusal never echoes a password.
      expect(await refused('https://ops:hunter2@127.0.0.1/')).not.toContain('hunter2');
      const { rows } = await db.pool.query(
        `SELECT count(*)::int AS n FROM webhook_endpoints WHERE url !~ '^https://8\\.8\\.8\\.8/'`,
      );
      expect(rows[0].n).toBe(0);
    });

    it('allows http and private targets when private targets are allowed', async () => {
      const local = await create(
        { url: 'http://127.0.0.1:4321/hooks' },
        { clock: at(T0), allowPrivateTargets: true },
      );
      expect(local.endpoint.url).toBe('http://127.0.0.1:4321/hooks');
      const named = await create(
        { url: 'http://localhost:4321' },
        { clock: at(T0), allowPrivateTargets: true },
      );
      expect(named.endpoint.url).toBe('http://localhost:4321/');
      await db.pool.query('DELETE FROM webhook_endpoints WHERE id = ANY($1::uuid[])', [
        [local.endpoint.id, named.endpoint.id],
      ]);
    });

    it('refuses unknown event types with the valid ones, groups of other accounts, unknown accounts', async () => {
      const unknownType = await refusal(create({ eventTypes: ['check.completed', 'case.closed'] as never }));
      expect(unknownType).toMatchObject({ kind: 'invalid' });
      expect(unknownType.message).toBe(
        'unknown event type "case.closed"; valid: all, case.created, check.completed, check.failed, match.reviewed, check.decision_updated, case.decision_recorded, monitoring.alert_created',
      );
      expect((await refusal(create({ eventTypes: [] }))).message).toMatch(/^no event types given/);

      const foreign = await refusal(create({ groupIds: [edGroupId, foreignGroupId] }));
      expect(foreign).toMatchObject({ kind: 'invalid' });
      expect(foreign.message).toBe(
        `not a group of account ${accountId}: ${foreignGroupId} (see groups list --account ${accountId})`,
      );
      expect((await refusal(create({ groupIds: ['default'] }))).message).toBe('not a group id: default');
      expect((await refusal(create({ groupIds: [] }))).message).toMatch(/^no groups given/);
      expect((await refusal(create({ mode: 'full' as never }))).message).toBe(
        'mode must be one of summary, expanded',
      );

      const missing = '4b0a3a8e-0e4b-4f43-9d0e-3a2b1c0d9e8f';
      expect(await refusal(create({ accountId: missing }))).toMatchObject({
        kind: 'not_found',
        message: `no account ${missing}`,
      });
      expect(await refusal(create({ accountId: 'northwind' }))).toMatchObject({
        kind: 'not_found',
        message: 'no account northwind',
      });
      expect(await refusal(listWebhookEndpoints(db.pool, { accountId: 'northwind' }))).toMatchObject({
        kind: 'not_found',
      });
    });

    it('reports unknown and malformed endpoint ids as not found, never as a database error', async () => {
      const clock = { clock: at(T0) };
      for (const id of ['nope', '4b0a3a8e-0e4b-4f43-9d0e-3a2b1c0d9e8f', "'; DROP TABLE x; --"]) {
        const refusals = [
          () => getWebhookEndpoint(db.pool, id),
          () => disableWebhookEndpoint(db.pool, id, clock),
          () => enableWebhookEndpoint(db.pool, id, clock),
          () => deleteWebhookEndpoint(db.pool, id),
          () => rotateWebhookSecret(db.pool, id, clock),
          () => listDeliveries(db.pool, { endpointId: id }),
          () => redeliverDead(db.pool, id, at(T0)),
          () => queuePing(db.pool, id, at(T0)),
        ];
        for (const call of refusals) {
          expect(await refusal(call())).toMatchObject({
            kind: 'not_found',
            message: `no webhook endpoint ${id}`,
          });
        }
      }
      expect(await refusal(redeliver(db.pool, 'whd_0123', at(T0)))).toMatchObject({
        kind: 'not_found',
        message: 'no webhook delivery whd_0123',
      });
      expect(await refusal(getDelivery(db.pool, 'delivery-1'))).toMatchObject({ kind: 'not_found' });
    });

    it('rotates the secret, keeping the replaced one until the grace period ends', async () => {
      const { endpoint, secret: first } = await create();
      const t1 = plus(T0, HOUR);
      const rotated = await rotateWebhookSecret(db.pool, endpoint.id, { clock: at(t1) });
      expect(rotated.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
      expect(rotated.secret).not.toBe(first);
      expect(rotated.previousSecretExpiresAt).toEqual(plus(t1, DAY));
      expect(rotated.endpoint).toMatchObject({ secretRotatingUntil: plus(t1, DAY), updatedAt: t1 });
      expect(JSON.stringify(rotated.endpoint)).not.toContain('whsec_');
      expect(await storedSecrets(endpoint.id)).toEqual({
        secret: rotated.secret,
        previous_secret: first,
        previous_secret_expires_at: plus(t1, DAY),
      });

      // A second rotation within the grace: the secret it replaces is now the previous one; the first is gone.
      const t2 = plus(t1, HOUR);
      const again = await rotateWebhookSecret(db.pool, endpoint.id, { clock: at(t2), graceMs: 2 * HOUR });
      expect(await storedSecrets(endpoint.id)).toEqual({
        secret: again.secret,
        previous_secret: rotated.secret,
        previous_secret_expires_at: plus(t2, 2 * HOUR),
      });

      // No grace: only the new secret signs from now on.
      const sharp = await rotateWebhookSecret(db.pool, endpoint.id, { clock: at(t2), graceMs: 0 });
      expect(sharp.previousSecretExpiresAt).toBeNull();
      expect(sharp.endpoint.secretRotatingUntil).toBeNull();
      expect(await storedSecrets(endpoint.id)).toEqual({
        secret: sharp.secret,
        previous_secret: null,
        previous_secret_expires_at: null,
      });

      for (const graceMs of [-1, 8 * DAY, 1.5]) {
        expect(
          (await refusal(rotateWebhookSecret(db.pool, endpoint.id, { clock: at(t2), graceMs }))).message,
        ).toBe('the grace period must be between 0 and 7 days');
      }
      expect((await storedSecrets(endpoint.id)).secret).toBe(sharp.secret);
    });

    it('disables with a reason, keeps the first reason, and enables clearing the failure clock', async () => {
      const { endpoint } = await create();
      const t1 = plus(T0, HOUR);
      const disabled = await disableWebhookEndpoint(db.pool, endpoint.id, { clock: at(t1) });
      expect(disabled).toMatchObject({
        outcome: 'disabled',
        endpoint: { status: 'disabled', disabledReason: 'disabled by an operator', disabledAt: t1 },
      });
      const again = await disableWebhookEndpoint(db.pool, endpoint.id, {
        clock: at(plus(t1, HOUR)),
        reason: 'receiver migration',
      });
      expect(again).toMatchObject({
        outcome: 'already-disabled',
        endpoint: { disabledReason: 'disabled by an operator', disabledAt: t1 },
      });

      // As the worker leaves an endpoint it disabled on its own.
      await db.pool.query(
        `UPDATE webhook_endpoints SET failing_since = $2, disabled_reason = 'every attempt failed for 3d'
          WHERE id = $1`,
        [endpoint.id, T0],
      );
      const enabled = await enableWebhookEndpoint(db.pool, endpoint.id, { clock: at(plus(t1, 2 * HOUR)) });
      expect(enabled).toMatchObject({
        outcome: 'enabled',
        endpoint: { status: 'enabled', disabledReason: null, disabledAt: null, failingSince: null },
      });
      expect(await enableWebhookEndpoint(db.pool, endpoint.id, { clock: at(t1) })).toMatchObject({
        outcome: 'already-enabled',
      });

      const reasoned = await disableWebhookEndpoint(db.pool, endpoint.id, {
        clock: at(t1),
        reason: '  receiver migration ',
      });
      expect(reasoned.endpoint.disabledReason).toBe('receiver migration');
    });

    it('deletes an endpoint with its deliveries and their attempts', async () => {
      const { endpoint } = await create();
      const delivery = await insertDelivery({
        endpointId: endpoint.id,
        status: 'failed',
        attempts: [{ httpStatus: 500, error: 'HTTP 500' }],
      });
      await insertDelivery({ endpointId: endpoint.id, status: 'pending' });
      expect(await deleteWebhookEndpoint(db.pool, endpoint.id)).toEqual({ deletedDeliveries: 2 });
      const { rows } = await db.pool.query(
        `SELECT (SELECT count(*)::int FROM webhook_endpoints WHERE id = $1) AS endpoints,
                (SELECT count(*)::int FROM webhook_deliveries WHERE endpoint_id = $1) AS deliveries,
                (SELECT count(*)::int FROM webhook_attempts WHERE delivery_id = $2) AS attempts`,
        [endpoint.id, delivery],
      );
      expect(rows[0]).toEqual({ endpoints: 0, deliveries: 0, attempts: 0 });
      expect(await refusal(deleteWebhookEndpoint(db.pool, endpoint.id))).toMatchObject({ kind: 'not_found' });
    });
  });

  describe('deliveries', () => {
    it('lists deliveries newest first with their attempts, filtered and limited', async () => {
      const { endpoint } = await create();
      const other = (await create()).endpoint;
      const older = await insertDelivery({
        endpointId: endpoint.id,
        status: 'dead',
        createdAt: T0,
        attempts: [
          { httpStatus: 500, error: 'HTTP 500', snippet: '{"error":"boom"}' },
          { httpStatus: null, error: 'timed out after 10000 ms' },
        ],
      });
      const newer = await insertDelivery({
        endpointId: endpoint.id,
        status: 'delivered',
        eventType: 'case.created',
        createdAt: plus(T0, 60_000),
        attempts: [{ httpStatus: 204, error: null }],
      });
      await insertDelivery({ endpointId: other.id, status: 'pending', createdAt: plus(T0, 120_000) });

      const listed = await listDeliveries(db.pool, { endpointId: endpoint.id });
      expect(listed.map((delivery) => delivery.id)).toEqual([newer, older]);
      expect(listed[1]).toMatchObject({
        id: older,
        endpointId: endpoint.id,
        eventType: 'check.completed',
        status: 'dead',
        attemptCount: 2,
        nextAttemptAt: null,
        redeliveryOf: null,
        attempts: [
          {
            attempt: 1,
            startedAt: T0,
            durationMs: 40,
            httpStatus: 500,
            error: 'HTTP 500',
            responseSnippet: '{"error":"boom"}',
          },
          {
            attempt: 2,
            startedAt: plus(T0, 60_000),
            durationMs: 41,
            httpStatus: null,
            error: 'timed out after 10000 ms',
            responseSnippet: null,
          },
        ],
      });
      expect(JSON.stringify(listed)).not.toContain('"body"');

      expect(
        (await listDeliveries(db.pool, { endpointId: endpoint.id, status: 'dead' })).map((d) => d.id),
      ).toEqual([older]);
      const eventId = listed[0]!.eventId;
      expect((await listDeliveries(db.pool, { eventId })).map((d) => d.id)).toEqual([newer]);
      expect(await listDeliveries(db.pool, { endpointId: endpoint.id, limit: 1 })).toHaveLength(1);
      expect((await listDeliveries(db.pool, { limit: 1000 })).length).toBeGreaterThanOrEqual(3);
      expect(await getDelivery(db.pool, older)).toEqual(listed[1]);

      expect((await refusal(listDeliveries(db.pool, { status: 'lost' as never }))).message).toBe(
        'the status must be one of pending, failed, delivered, dead',
      );
      expect((await refusal(listDeliveries(db.pool, { eventId: 'evt_XYZ' }))).message).toBe(
        '"evt_XYZ" is not an event id (evt_<hex>)',
      );
      expect((await refusal(listDeliveries(db.pool, { limit: 0 }))).message).toBe(
        'the limit must be between 1 and 1000',
      );

      const stats = await deliveryStats(db.pool, endpoint.id, T0);
      expect(stats).toEqual({
        since: T0,
        counts: { pending: 0, failed: 0, delivered: 1, dead: 1 },
        lastDeliveredAt: plus(T0, 60_000),
      });
      expect((await deliveryStats(db.pool, endpoint.id, plus(T0, 30_000))).counts).toEqual({
        pending: 0,
        failed: 0,
        delivered: 1,
        dead: 0,
      });
    });

    it('redelivers as a new delivery of the same event and body, chained to the first delivery', async () => {
      const { endpoint } = await create();
      const original = await insertDelivery({
        endpointId: endpoint.id,
        status: 'dead',
        attempts: [{ httpStatus: 500, error: 'HTTP 500' }],
      });
      const t1 = plus(T0, DAY);
      const queued = await redeliver(db.pool, original, at(t1));
      expect(queued).toEqual({
        deliveryId: expect.stringMatching(/^whd_[a-f0-9]{32}$/),
        eventId: (await deliveryRow(original)).event_id,
        endpointId: endpoint.id,
        endpointStatus: 'enabled',
        redeliveryOf: original,
      });
      expect(queued.deliveryId).not.toBe(original);
      const before = await deliveryRow(original);
      expect(await deliveryRow(queued.deliveryId)).toMatchObject({
        endpoint_id: endpoint.id,
        event_id: before.event_id,
        event_type: before.event_type,
        body: before.body,
        status: 'pending',
        attempts: 0,
        // Due at once by the database's clock, whatever the caller's clock says.
        due: true,
        lease_owner: null,
        last_status: null,
        redelivery_of: original,
        created_at: t1,
        updated_at: t1,
        delivered_at: null,
      });
      // The original keeps its history.
      expect(before).toMatchObject({ status: 'dead', attempts: 1 });

      // Redelivering a redelivery still names the first delivery of the chain.
      const second = await redeliver(db.pool, queued.deliveryId, at(t1));
      expect(second.redeliveryOf).toBe(original);

      await disableWebhookEndpoint(db.pool, endpoint.id, { clock: at(t1) });
      expect((await redeliver(db.pool, original, at(t1))).endpointStatus).toBe('disabled');
    });

    it('redelivers every event whose deliveries are all dead, once', async () => {
      const { endpoint } = await create();
      const other = (await create()).endpoint;
      const e = endpoint.id;
      const deadAlone = await insertDelivery({ endpointId: e, status: 'dead' });
      const deadRedeliveredPending = await insertDelivery({ endpointId: e, status: 'dead' });
      await insertDelivery({ endpointId: e, status: 'pending', redeliveryOf: deadRedeliveredPending });
      const deadRedeliveredDelivered = await insertDelivery({ endpointId: e, status: 'dead' });
      await insertDelivery({ endpointId: e, status: 'delivered', redeliveryOf: deadRedeliveredDelivered });
      const deadRedeliveredDead = await insertDelivery({ endpointId: e, status: 'dead' });
      await insertDelivery({ endpointId: e, status: 'dead', redeliveryOf: deadRedeliveredDead });
      await insertDelivery({ endpointId: e, status: 'delivered' });
      await insertDelivery({ endpointId: e, status: 'failed' });
      await insertDelivery({ endpointId: e, status: 'dead', eventType: 'ping' });
      await insertDelivery({ endpointId: other.id, status: 'dead' });

      const t1 = plus(T0, DAY);
      expect(await redeliverDead(db.pool, e, at(t1))).toBe(2);
      const { rows } = await db.pool.query(
        `SELECT redelivery_of, status, next_attempt_at <= now() AS due FROM webhook_deliveries
          WHERE endpoint_id = $1 AND created_at = $2 ORDER BY redelivery_of`,
        [e, t1],
      );
      expect(rows).toEqual(
        [deadAlone, deadRedeliveredDead]
          .sort()
          .map((id) => ({ redelivery_of: id, status: 'pending', due: true })),
      );
      expect(await redeliverDead(db.pool, e, at(t1))).toBe(0);

      // Two runs at once queue each event once.
      const fresh = (await create()).endpoint;
      for (let n = 0; n < 5; n++) await insertDelivery({ endpointId: fresh.id, status: 'dead' });
      const counts = await Promise.all([
        redeliverDead(db.pool, fresh.id, at(t1)),
        redeliverDead(db.pool, fresh.id, at(t1)),
      ]);
      expect(counts.sort()).toEqual([0, 5]);
    });

    it('queues a ping carrying the payload envelope, due now; not to a disabled endpoint', async () => {
      const { endpoint } = await create();
      const queued = await queuePing(db.pool, endpoint.id, at(T0));
      expect(queued).toEqual({
        deliveryId: expect.stringMatching(/^whd_[a-f0-9]{32}$/),
        eventId: expect.stringMatching(/^evt_[a-f0-9]{32}$/),
        endpointId: endpoint.id,
        endpointStatus: 'enabled',
      });
      const row = await deliveryRow(queued.deliveryId);
      expect(row).toMatchObject({
        endpoint_id: endpoint.id,
        event_id: queued.eventId,
        event_type: 'ping',
        status: 'pending',
        attempts: 0,
        due: true,
        redelivery_of: null,
      });
      // Byte for byte what will be signed and sent: the spec's field order.
      expect(row.body).toBe(
        JSON.stringify({
          id: queued.eventId,
          type: 'ping',
          api_version: '2026-06-09',
          created_at: '2026-11-20T10:00:00.000Z',
          data: {
            account_id: accountId,
            group_id: null,
            object: { id: endpoint.id, type: 'webhook_endpoint' },
          },
        }),
      );
      // Pings are not fan-out rows: several of them live beside each other.
      await queuePing(db.pool, endpoint.id, at(T0));

      await disableWebhookEndpoint(db.pool, endpoint.id, { clock: at(T0), reason: 'receiver migration' });
      expect(await refusal(queuePing(db.pool, endpoint.id, at(T0)))).toMatchObject({
        kind: 'conflict',
        message: `webhook endpoint ${endpoint.id} is disabled (receiver migration); enable it first`,
      });
    });

    it('purges delivered and dead deliveries past the retention, whole chains, never unfinished ones', async () => {
      // Only this test's rows, so that the counts are its own.
      await db.pool.query('DELETE FROM webhook_deliveries');
      const { endpoint } = await create();
      const e = endpoint.id;
      const now = plus(T0, 40 * DAY);
      const old = plus(now, -31 * DAY);
      const recent = plus(now, -29 * DAY);
      const oldDelivered = await insertDelivery({
        endpointId: e,
        status: 'delivered',
        updatedAt: old,
        attempts: [{ httpStatus: 204, error: null }],
      });
      const oldDead = await insertDelivery({ endpointId: e, status: 'dead', updatedAt: old });
      const recentDelivered = await insertDelivery({ endpointId: e, status: 'delivered', updatedAt: recent });
      const oldPending = await insertDelivery({ endpointId: e, status: 'pending', updatedAt: old });
      const oldFailed = await insertDelivery({ endpointId: e, status: 'failed', updatedAt: old });
      // A first delivery stays while a redelivery of it stays...
      const keptRoot = await insertDelivery({ endpointId: e, status: 'dead', updatedAt: old });
      const recentRedelivery = await insertDelivery({
        endpointId: e,
        status: 'delivered',
        updatedAt: recent,
        redeliveryOf: keptRoot,
      });
      // ... and goes with its redeliveries when they are all past the retention.
      const oldRoot = await insertDelivery({ endpointId: e, status: 'dead', updatedAt: old });
      const oldRedeliveries = [
        await insertDelivery({ endpointId: e, status: 'dead', updatedAt: old, redeliveryOf: oldRoot }),
        await insertDelivery({ endpointId: e, status: 'dead', updatedAt: old, redeliveryOf: oldRoot }),
      ];

      expect(await purgeWebhookDeliveries(db.pool, now, 30 * DAY)).toBe(5);
      const { rows } = await db.pool.query<{ id: string }>(
        'SELECT id FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY id',
        [e],
      );
      expect(rows.map((row) => row.id)).toEqual(
        [recentDelivered, oldPending, oldFailed, keptRoot, recentRedelivery].sort(),
      );
      const gone = [oldDelivered, oldDead, oldRoot, ...oldRedeliveries];
      const attempts = await db.pool.query(
        'SELECT 1 FROM webhook_attempts WHERE delivery_id = ANY($1::text[])',
        [gone],
      );
      expect(attempts.rowCount).toBe(0);
      expect(await purgeWebhookDeliveries(db.pool, now, 30 * DAY)).toBe(0);

      // The hourly purge round runs it too, 30 days by default.
      const round = await runPurgeRound(db.pool, { now: plus(now, 2 * DAY) });
      expect(round).toMatchObject({ ran: true, deleted: { webhookDeliveries: 3 } });
      const left = await db.pool.query<{ id: string }>(
        'SELECT id FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY id',
        [e],
      );
      expect(left.rows.map((row) => row.id)).toEqual([oldPending, oldFailed].sort());
    });
  });
});
