import { randomUUID } from 'node:crypto';
import dns from 'node:dns';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CaseCommand } from '../../../src/cases/caseDecide.js';
import { caseStreamName } from '../../../src/cases/caseEvents.js';
import { runCaseCommand } from '../../../src/cases/caseStream.js';
import { matchId } from '../../../src/cases/references.js';
import { silentLogger } from '../../../src/shared/logger.js';
import { redeliver } from '../../../src/webhooks/deliveryAdmin.js';
import { type AttemptReport, startDeliveryWorker } from '../../../src/webhooks/deliveryWorker.js';
import { webhookFanOutHandler } from '../../../src/webhooks/fanOut.js';
import { computeSignature, verifyWebhook, WebhookVerificationError } from '../../../src/webhooks/index.js';
import { RESPONSE_SNIPPET_BYTES } from '../../../src/webhooks/sender.js';
import { createWebhookEndpoint, rotateWebhookSecret } from '../../../src/webhooks/webhookEndpoints.js';
import { WEBHOOK_API_VERSION } from '../../../src/webhooks/webhookEvents.js';
import { startWebhooks, type WebhookSettings, type Webhooks } from '../../../src/webhooks/webhookRunner.js';
import { createGroup, createWorkspace } from '../../../src/workspace/workspaceStore.js';
import {
  complete,
  createCase,
  decideCase,
  decideCheck,
  failCheck,
  found,
  review,
  start,
} from '../../support/caseBuilders.js';
import { eventually } from '../../support/eventually.js';
import { openTestEventStore, type TestEventStore } from '../../support/testEventStore.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhookReceiver.js';
import { startRecordingReceiver } from './recordingReceiver.js';

/**
 * Webhooks end to end in one process: cases written through the domain (as the API and the check
 * runner write them), the fan-out reactor on the real feed, delivery workers POSTing to real HTTP
 * receivers on loopback, and the outbox tables read back.
 */

const SETTINGS: WebhookSettings = {
  webhookWorkers: 4,
  // The receivers run in this process: a busy machine may stall it for seconds, and an answer
  // late past a short deadline would be a failed attempt no test expects. Only the test of the
  // deadline itself sets a short one, for a receiver that never answers.
  webhookTimeoutMs: 60_000,
  webhookRetryDelaysMs: [100, 100, 100],
  webhookDisableAfterMs: 3 * 86_400_000,
  webhookAllowPrivateTargets: true,
};

const clock = () => new Date();
const eventIds = () => {
  const ids = Array.from({ length: 8 }, () => randomUUID());
  return (index: number) => ids[index]!;
};

describe('webhooks', () => {
  let es: TestEventStore;
  let accountId = '';
  let groupId = '';
  let otherGroupId = '';
  let otherAccountId = '';
  const running: { stop(): Promise<void> }[] = [];
  const receivers: { close(): Promise<void> }[] = [];
  let caseCounter = 0;

  beforeAll(async () => {
    es = await openTestEventStore();
    const workspace = await createWorkspace(es.db.pool, { name: 'Webhooks' });
    accountId = workspace.account.id;
    groupId = workspace.defaultGroup.id;
    otherGroupId = (await createGroup(es.db.pool, { accountId, name: 'Other desk' })).id;
    otherAccountId = (await createWorkspace(es.db.pool, { name: 'Someone else' })).account.id;
  });

  afterEach(async () => {
    for (const runner of running.splice(0)) await runner.stop();
    for (const receiver of receivers.splice(0)) await receiver.close();
    await es.db.pool.query('DELETE FROM webhook_endpoints');
  });

  afterAll(async () => {
    await es?.close();
  });

  function startAll(settings: Partial<WebhookSettings> = {}): Webhooks {
    const webhooks = startWebhooks({
      pool: es.db.pool,
      databaseUrl: es.db.url,
      store: es.store,
      logger: silentLogger,
      config: { ...SETTINGS, ...settings },
      worker: { pollIntervalMs: 50 },
      fanOutRunner: { standbyRetryMs: 100 },
    });
    running.push(webhooks);
    return webhooks;
  }

  async function receiver(...args: Parameters<typeof startWebhookReceiver>): Promise<WebhookReceiver> {
    const started = await startWebhookReceiver(...args);
    receivers.push(started);
    return started;
  }

  async function recordingReceiver(...args: Parameters<typeof startRecordingReceiver>) {
    const started = await startRecordingReceiver(...args);
    receivers.push(started);
    return started;
  }

  async function endpoint(
    url: string,
    fields: Partial<Parameters<typeof createWebhookEndpoint>[1]> = {},
  ): Promise<{ id: string; secret: string }> {
    const created = await createWebhookEndpoint(
      es.db.pool,
      { accountId, url, eventTypes: 'all', mode: 'expanded', ...fields },
      { clock, allowPrivateTargets: true },
    );
    return { id: created.endpoint.id, secret: created.secret };
  }

  /** A new case in `group` (the default group unless told), its reference. */
  async function newCase(
    group = groupId,
    account = accountId,
    types: ('sanctions' | 'pep')[] = ['sanctions'],
  ) {
    caseCounter++;
    const caseReference = `WHK${String(caseCounter).padStart(6, '0')}`;
    const command = createCase({ caseReference, accountId: account, groupId: group }, types);
    await act(caseReference, { ...command, now: new Date().toISOString() });
    return { caseReference, checks: command.checks.map((check) => check.checkReference) };
  }

  async function act(caseReference: string, command: CaseCommand): Promise<void> {
    const outcome = await runCaseCommand(es.store, caseReference, command, eventIds());
    if (!outcome.ok) throw new Error(`${command.type} refused: ${outcome.rejection.message}`);
  }

  async function deliveryRows(where = 'true', params: unknown[] = []) {
    const { rows } = await es.db.pool.query<{
      id: string;
      endpoint_id: string;
      event_id: string;
      event_type: string;
      status: string;
      attempts: number;
    }>(
      `SELECT id, endpoint_id, event_id, event_type, status, attempts FROM webhook_deliveries WHERE ${where} ORDER BY created_at, id`,
      params,
    );
    return rows;
  }

  async function attemptsOf(deliveryId: string) {
    const { rows } = await es.db.pool.query<{
      attempt: number;
      http_status: number | null;
      error: string | null;
      response_snippet: string | null;
      duration_ms: number;
    }>('SELECT * FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempt', [deliveryId]);
    return rows;
  }

  /**
   * Until the fan-out has handled the case's events. Waits for the case's own last position: the
   * store's head can lag what was appended while another database's transaction is open (it only
   * reaches as far as the events no open transaction can still precede).
   */
  async function fannedOut(webhooks: Webhooks, caseReference: string): Promise<void> {
    const { events } = await es.store.readStream(caseStreamName(caseReference));
    await webhooks.fanOut.waitForCheckpoint(events.at(-1)!.position);
  }

  it('sends every event type the case workflow produces, signed, in the endpoint mode', async () => {
    const expandedReceiver = await receiver();
    const summaryReceiver = await receiver();
    const expanded = await endpoint(expandedReceiver.url);
    await endpoint(summaryReceiver.url, { mode: 'summary', eventTypes: ['check.completed', 'case.created'] });
    startAll();

    const { caseReference, checks } = await newCase(groupId, accountId, ['sanctions', 'pep']);
    const [sanctions, pep] = checks as [string, string];
    const listed = found(sanctions, 'NK-1');
    await act(caseReference, start(sanctions));
    await act(caseReference, complete(sanctions, [listed]));
    await act(caseReference, failCheck(pep, 'source_unavailable'));
    const match = matchId(sanctions, 'NK-1');
    await act(caseReference, review(match, 'confirmed_match', 'same person'));
    await act(caseReference, decideCheck(sanctions, 'fail', 'listed'));
    // A later review withdraws the check decision: a check.decision_updated back to pending_review.
    await act(caseReference, review(match, 'not_relevant', 'different birth date'));
    await act(caseReference, decideCheck(sanctions, 'pass'));
    await act(caseReference, decideCase('fail', 'screening incomplete'));

    const expectedTypes = [
      'case.created',
      'check.completed',
      'check.failed',
      'match.reviewed',
      'check.decision_updated',
      'match.reviewed',
      'check.decision_updated',
      'check.decision_updated',
      'case.decision_recorded',
    ];
    const received = await eventually(() => {
      expect(expandedReceiver.received).toHaveLength(expectedTypes.length);
      return [...expandedReceiver.received];
    });
    // Deliveries run in parallel: order is not promised, so compare as sets, then look at each.
    expect(received.map((delivery) => delivery.body.type).sort()).toEqual([...expectedTypes].sort());

    const { events } = await es.store.readStream(caseStreamName(caseReference));
    for (const delivery of received) {
      expect(delivery.body.id).toMatch(/^evt_[a-f0-9]+$/);
      expect(delivery.eventId).toBe(delivery.body.id);
      expect(delivery.deliveryId).toMatch(/^whd_[a-f0-9]+$/);
      expect(delivery.body.api_version).toBe(WEBHOOK_API_VERSION);
      expect(delivery.headers['service-api-version']).toBe('2026-06-09');
      expect(delivery.headers['content-type']).toBe('application/json');
      expect(delivery.headers['user-agent']).toMatch(/^casescreen-webhooks\//);
      expect(delivery.body.data.account_id).toBe(accountId);
      expect(delivery.body.data.group_id).toBe(groupId);
      // created_at is when the domain event happened.
      const occurred = events.map((event) => (event.data as { occurredAt: string }).occurredAt);
      expect(occurred).toContain(delivery.body.created_at);
      // The package's own verifier accepts it and returns the event as sent.
      const verified = verifyWebhook({
        rawBody: delivery.rawBody,
        headers: delivery.headers,
        secrets: expanded.secret,
      });
      expect(verified).toEqual(delivery.body);
    }

    // ... and refuses the same delivery tampered with, under another secret, or replayed late.
    const [sample] = received;
    const refusal = (input: Partial<Parameters<typeof verifyWebhook>[0]>) => {
      try {
        verifyWebhook({
          rawBody: sample!.rawBody,
          headers: sample!.headers,
          secrets: expanded.secret,
          ...input,
        });
        return 'accepted';
      } catch (error) {
        return error instanceof WebhookVerificationError ? error.code : String(error);
      }
    };
    expect(refusal({ rawBody: sample!.rawBody.replace(accountId, otherAccountId) })).toBe('bad_signature');
    expect(refusal({ secrets: 'whsec_not-the-secret' })).toBe('bad_signature');
    const signedAt = Number(sample!.headers['service-timestamp']) * 1000;
    expect(refusal({ now: signedAt + 301_000 })).toBe('stale_timestamp');

    const completed = received.find((delivery) => delivery.body.type === 'check.completed')!;
    expect(completed.body.data).toEqual({
      account_id: accountId,
      group_id: groupId,
      object: { id: sanctions, type: 'check' },
      case_reference: caseReference,
      check_reference: sanctions,
      lifecycle_status: 'completed',
      match_count: 1,
      screening_record_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      screening_type: 'sanctions',
      subject_name: expect.any(String),
    });
    const failed = received.find((delivery) => delivery.body.type === 'check.failed')!;
    expect(failed.body.data).toMatchObject({
      object: { id: pep, type: 'check' },
      failure_reason: 'source_unavailable',
    });
    const reviews = received.filter((delivery) => delivery.body.type === 'match.reviewed');
    expect(reviews.map((delivery) => delivery.body.data.review_status).sort()).toEqual([
      'confirmed_match',
      'not_relevant',
    ]);
    expect(reviews[0]!.body.data.object).toEqual({ id: match, type: 'match' });
    const decisions = received.filter((delivery) => delivery.body.type === 'check.decision_updated');
    expect(decisions.map((delivery) => delivery.body.data.decision).sort()).toEqual([
      'fail',
      'pass',
      'pending_review',
    ]);
    const caseDecision = received.find((delivery) => delivery.body.type === 'case.decision_recorded')!;
    expect(caseDecision.body.data).toMatchObject({
      object: { id: caseReference, type: 'case' },
      decision: 'fail',
      previous_decision: 'pending_decision',
      notes: 'screening incomplete',
    });
    expect(new Set(received.map((delivery) => delivery.body.id)).size).toBe(received.length);

    // The summary endpoint: only its two types, and only the three required data fields.
    await eventually(() => expect(summaryReceiver.received).toHaveLength(2));
    for (const delivery of summaryReceiver.received) {
      expect(['case.created', 'check.completed']).toContain(delivery.body.type);
      expect(Object.keys(delivery.body.data).sort()).toEqual(['account_id', 'group_id', 'object']);
    }
    // The same domain event has the same event id at every endpoint.
    const summaryCompleted = summaryReceiver.received.find(
      (delivery) => delivery.body.type === 'check.completed',
    )!;
    expect(summaryCompleted.body.id).toBe(completed.body.id);
  });

  it('sends an endpoint only the events of its account and groups, and none from before it existed', async () => {
    const target = await receiver();
    const webhooks = startAll();
    const before = await newCase();
    await fannedOut(webhooks, before.caseReference);
    const ofGroup = await endpoint(target.url, { groupIds: [otherGroupId] });
    const everything = await endpoint(target.url);

    const inDefault = await newCase(groupId);
    const inOther = await newCase(otherGroupId);
    const foreign = await newCase(
      (await createWorkspace(es.db.pool, { name: 'Elsewhere' })).defaultGroup.id,
      otherAccountId,
    );
    // Appended one after another: the fan-out passed them all when it passed the last.
    await fannedOut(webhooks, foreign.caseReference);

    const rows = await deliveryRows();
    const sentTo = (endpointId: string) =>
      rows.filter((row) => row.endpoint_id === endpointId).map((row) => row.event_type);
    expect(sentTo(ofGroup.id)).toEqual(['case.created']);
    expect(sentTo(everything.id)).toEqual(['case.created', 'case.created']);
    await eventually(() => expect(target.received).toHaveLength(3));
    const cases = target.received.map((delivery) => delivery.body.data.case_reference).sort();
    expect(cases).toEqual([inDefault.caseReference, inOther.caseReference, inOther.caseReference].sort());
    expect(cases).not.toContain(before.caseReference);
  });

  it('fans each event out once, however often its batch is handled', async () => {
    const target = await receiver();
    await endpoint(target.url);
    const { caseReference } = await newCase();
    const { events } = await es.store.readStream(caseStreamName(caseReference));
    const handler = webhookFanOutHandler(es.store);
    for (let round = 0; round < 3; round++) {
      const client = await es.db.pool.connect();
      try {
        await client.query('BEGIN');
        await handler.handle(events, client);
        await client.query('COMMIT');
      } finally {
        client.release();
      }
    }
    expect(await deliveryRows()).toHaveLength(1);
  });

  it('retries a receiver that fails, under the same event and delivery ids, and records each attempt', async () => {
    const target = await receiver((_delivery, index) =>
      index < 2 ? { status: 500, body: 'database busy' } : 200,
    );
    await endpoint(target.url);
    startAll();
    await newCase();

    const [row] = await eventually(async () => {
      const rows = await deliveryRows();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.status).toBe('delivered');
      return rows;
    });
    expect(row!.attempts).toBe(3);
    expect(target.received).toHaveLength(3);
    expect(new Set(target.received.map((delivery) => delivery.eventId)).size).toBe(1);
    expect(new Set(target.received.map((delivery) => delivery.deliveryId))).toEqual(new Set([row!.id]));
    const attempts = await attemptsOf(row!.id);
    expect(attempts.map((attempt) => [attempt.attempt, attempt.http_status, attempt.error])).toEqual([
      [1, 500, 'HTTP 500'],
      [2, 500, 'HTTP 500'],
      [3, 200, null],
    ]);
    expect(attempts[0]!.response_snippet).toBe('database busy');
  });

  it('delivers every event to a receiver that was down once it is back', async () => {
    const target = await receiver();
    await endpoint(target.url);
    await target.goDown();
    startAll({ webhookRetryDelaysMs: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] });
    for (let i = 0; i < 3; i++) await newCase();

    await eventually(async () => {
      const rows = await deliveryRows();
      expect(rows).toHaveLength(3);
      for (const row of rows) expect((await attemptsOf(row.id))[0]?.error).toBe('connection refused');
    });
    await target.comeBack();
    const rows = await eventually(async () => {
      const all = await deliveryRows();
      expect(all.map((row) => row.status)).toEqual(['delivered', 'delivered', 'delivered']);
      return all;
    });
    expect(new Set(target.received.map((delivery) => delivery.eventId))).toEqual(
      new Set(rows.map((row) => row.event_id)),
    );
  });

  it('counts a receiver that does not answer within the timeout as a failed attempt', async () => {
    // It never answers: whatever the machine's speed, the attempt ends at the deadline.
    const silent = await receiver(() => 'hang');
    await endpoint(silent.url);
    startAll({ webhookTimeoutMs: 1_000, webhookRetryDelaysMs: [] });
    await newCase();

    const [row] = await eventually(async () => {
      const rows = await deliveryRows();
      expect(rows[0]?.status).toBe('dead');
      return rows;
    });
    const attempts = await attemptsOf(row!.id);
    expect(attempts.map((attempt) => [attempt.attempt, attempt.http_status, attempt.error])).toEqual([
      [1, null, 'timed out after 1000 ms'],
    ]);
    expect(silent.received).toHaveLength(1);
  });

  it('counts an answer other than 200 or 204 as a failed attempt', async () => {
    // The default (generous) timeout: each of them answers at once, but a stalled test process
    // might not answer within a short deadline.
    const created = await receiver(() => 201);
    const redirecting = await receiver(() => ({ status: 301, body: 'moved' }));
    const accepting = await receiver(() => 204);
    for (const target of [created, redirecting, accepting]) await endpoint(target.url);
    startAll({ webhookRetryDelaysMs: [] });
    await newCase();

    const outcome = await eventually(async () => {
      const { rows } = await es.db.pool.query<{ url: string; status: string; error: string | null }>(
        `SELECT e.url, d.status, a.error FROM webhook_deliveries d
           JOIN webhook_endpoints e ON e.id = d.endpoint_id
           JOIN webhook_attempts a ON a.delivery_id = d.id`,
      );
      expect(rows).toHaveLength(3);
      return new Map(rows.map((row) => [row.url, row]));
    });
    expect(outcome.get(created.url)).toMatchObject({ status: 'dead', error: 'HTTP 201' });
    expect(outcome.get(redirecting.url)).toMatchObject({
      status: 'dead',
      error: 'HTTP 301 (redirects are not followed)',
    });
    expect(outcome.get(accepting.url)).toMatchObject({ status: 'delivered', error: null });
  });

  it('keeps at most 4 KiB of a long answer in the attempt, whole characters only, storable text', async () => {
    // The cut falls inside a three-byte character: 4094 ASCII bytes, then euro signs.
    const long = `${'x'.repeat(RESPONSE_SNIPPET_BYTES - 2)}${'€'.repeat(3_000)}`;
    const longAnswer = await receiver(() => ({ status: 500, body: long }));
    // PostgreSQL text cannot hold NUL: the attempt must still be recorded.
    const withNul = await receiver(() => ({ status: 500, body: 'bad\u0000gateway' }));
    const longEndpoint = await endpoint(longAnswer.url);
    const nulEndpoint = await endpoint(withNul.url);
    startAll({ webhookRetryDelaysMs: [] });
    await newCase();

    const snippets = await eventually(async () => {
      const { rows } = await es.db.pool.query<{
        endpoint_id: string;
        http_status: number;
        response_snippet: string;
        bytes: number;
      }>(
        `SELECT d.endpoint_id, a.http_status, a.response_snippet, octet_length(a.response_snippet) AS bytes
           FROM webhook_deliveries d JOIN webhook_attempts a ON a.delivery_id = d.id
          WHERE d.status = 'dead'`,
      );
      expect(rows).toHaveLength(2);
      return new Map(rows.map((row) => [row.endpoint_id, row]));
    });
    const kept = snippets.get(longEndpoint.id)!;
    expect(kept.http_status).toBe(500);
    expect(kept.bytes).toBeLessThanOrEqual(RESPONSE_SNIPPET_BYTES);
    expect(Buffer.byteLength(kept.response_snippet, 'utf8')).toBe(kept.bytes);
    // The euro sign the limit cut is left out whole, not turned into a replacement character.
    expect(kept.response_snippet).toBe('x'.repeat(RESPONSE_SNIPPET_BYTES - 2));
    expect(long.startsWith(kept.response_snippet)).toBe(true);
    expect(snippets.get(nulEndpoint.id)).toMatchObject({
      http_status: 500,
      response_snippet: 'bad\uFFFDgateway',
    });
  });

  it('refuses at delivery a host that resolves to a loopback address when private targets are not allowed', async () => {
    // The endpoint passed the check when it was created (here: private targets were allowed then,
    // as for a name that resolved to a public address and now resolves to loopback).
    const localhost = await dns.promises.lookup('localhost', { all: true });
    const target = await recordingReceiver(() => 204, {
      hosts: localhost.map(({ address }) => address),
    });
    const url = `https://localhost:${target.port}/hooks`;
    await endpoint(url);
    const guarded = startAll({ webhookAllowPrivateTargets: false, webhookRetryDelaysMs: [] });
    await newCase();

    const [row] = await eventually(async () => {
      const rows = await deliveryRows();
      expect(rows[0]?.status).toBe('dead');
      return rows;
    });
    const [attempt, ...more] = await attemptsOf(row!.id);
    expect(more).toEqual([]);
    expect(attempt).toMatchObject({ attempt: 1, http_status: null, response_snippet: null });
    expect(attempt!.error).toMatch(
      /^target refused: localhost resolves to (127\.\d+\.\d+\.\d+|::1), not a public address$/,
    );
    // The lookup failed the attempt before any connection: the receiver saw none.
    expect(target.connections).toBe(0);

    // The same delivery, sent again with private targets allowed, does reach the receiver's port
    // (an https handshake to a plain http receiver, which fails): what stopped it was the guard.
    await guarded.stop();
    const again = await redeliver(es.db.pool, row!.id, clock);
    startAll({ webhookRetryDelaysMs: [] });
    const [retried] = await eventually(async () => {
      const rows = await deliveryRows('id = $1', [again.deliveryId]);
      expect(rows[0]?.status).toBe('dead');
      return rows;
    });
    const [unguarded] = await attemptsOf(retried!.id);
    expect(unguarded!.error).not.toMatch(/^target refused/);
    expect(target.connections).toBeGreaterThan(0);
  });

  it('disables an endpoint whose every attempt has failed for the configured period, saying why', async () => {
    const target = await receiver(() => 503);
    const failing = await endpoint(target.url);
    // It has been failing for an hour already: the next failure is past the period.
    await es.db.pool.query(
      `UPDATE webhook_endpoints SET failing_since = now() - interval '1 hour' WHERE id = $1`,
      [failing.id],
    );
    startAll({ webhookDisableAfterMs: 3_600_000, webhookRetryDelaysMs: [100] });
    await newCase();

    const endpointRow = await eventually(async () => {
      const { rows } = await es.db.pool.query<{ status: string; disabled_reason: string }>(
        'SELECT status, disabled_reason FROM webhook_endpoints WHERE id = $1',
        [failing.id],
      );
      expect(rows[0]!.status).toBe('disabled');
      return rows[0]!;
    });
    expect(endpointRow.disabled_reason).toMatch(
      /^every delivery attempt failed since .+; the last: HTTP 503$/,
    );
    // A disabled endpoint's deliveries wait: they are not attempted again.
    const [row] = await deliveryRows();
    expect(row!.status).toBe('failed');
    expect(row!.attempts).toBe(1);
  });

  it('gives up after the last attempt and keeps the delivery, dead', async () => {
    const target = await receiver(() => 500);
    await endpoint(target.url);
    startAll({ webhookRetryDelaysMs: [50, 50] });
    await newCase();
    const [row] = await eventually(async () => {
      const rows = await deliveryRows();
      expect(rows[0]?.status).toBe('dead');
      return rows;
    });
    expect(row!.attempts).toBe(3);
    expect(await attemptsOf(row!.id)).toHaveLength(3);
  });

  it('signs with the new and the old secret during a rotation grace period', async () => {
    const target = await receiver();
    const created = await endpoint(target.url);
    const rotated = await rotateWebhookSecret(es.db.pool, created.id, { graceMs: 3_600_000, clock });
    startAll();
    await newCase();
    const [delivery] = await eventually(() => {
      expect(target.received).toHaveLength(1);
      return target.received;
    });
    const timestamp = Number(delivery!.headers['service-timestamp']);
    expect(delivery!.headers['service-signature']).toBe(
      `v1=${computeSignature(rotated.secret, timestamp, delivery!.rawBody)},v1=${computeSignature(created.secret, timestamp, delivery!.rawBody)}`,
    );
    // A receiver that knows only one of the two secrets accepts it.
    for (const secret of [created.secret, rotated.secret]) {
      expect(
        verifyWebhook({ rawBody: delivery!.rawBody, headers: delivery!.headers, secrets: secret }).id,
      ).toBe(delivery!.eventId);
    }
  });

  it('never sends the same attempt from two workers at once', async () => {
    const target = await recordingReceiver(() => 200);
    await endpoint(target.url);
    const webhooks = startAll({ webhookWorkers: 0 });
    let last = '';
    for (let i = 0; i < 40; i++) last = (await newCase()).caseReference;
    await fannedOut(webhooks, last);
    expect(await deliveryRows()).toHaveLength(40);

    // Every answer waits until both workers have all their attempts in flight at once.
    target.hold();
    const reports = new Map<string, AttemptReport[]>();
    for (const name of ['worker-a', 'worker-b']) {
      const worker = startDeliveryWorker({
        pool: es.db.pool,
        name,
        concurrency: 8,
        timeoutMs: 60_000,
        // An attempt may still fail on a busy machine; its retry is a new attempt, not a duplicate.
        retryDelaysMs: [100, 100, 100],
        disableAfterMs: 3_600_000,
        allowPrivate: true,
        pollIntervalMs: 20,
      });
      reports.set(name, []);
      worker.onAttempt((report) => reports.get(name)!.push(report));
      running.push(worker);
    }
    await eventually(() => expect(target.inFlight).toBe(16));
    target.release();
    const rows = await eventually(async () => {
      const all = await deliveryRows();
      expect(all.every((row) => row.status === 'delivered')).toBe(true);
      return all;
    });
    // Stopped, the workers have reported every attempt they made.
    for (const worker of running.splice(1)) await worker.stop();

    expect(target.overlaps).toEqual([]);
    const reported = [...reports.values()].flat();
    expect(reported.filter((report) => !['delivered', 'failed'].includes(report.outcome))).toEqual([]);
    const pairs = reported.map((report) => `${report.deliveryId}#${report.attempt}`);
    expect(new Set(pairs).size).toBe(pairs.length);
    for (const [name, made] of reports) expect(made.length, name).toBeGreaterThanOrEqual(8);
    const { rows: recorded } = await es.db.pool.query<{ delivery_id: string; attempt: number }>(
      'SELECT delivery_id, attempt FROM webhook_attempts ORDER BY delivery_id, attempt',
    );
    expect(recorded.map((row) => `${row.delivery_id}#${row.attempt}`)).toEqual([...pairs].sort());
    for (const row of rows) {
      // Attempts 1..n, each recorded once and sent once.
      expect(recorded.filter((entry) => entry.delivery_id === row.id).map((entry) => entry.attempt)).toEqual(
        Array.from({ length: row.attempts }, (_, index) => index + 1),
      );
      expect(target.arrivals.filter((arrival) => arrival.deliveryId === row.id)).toHaveLength(row.attempts);
    }
  });
});
