import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projections } from '../../../projections/registry.js';
import { installProjections } from '../../../projections/registryStore.js';
import { insertJobs } from '../../../src/checks/checkJobs.js';
import { CHECK_SCHEDULER_SUBSCRIPTION_ID } from '../../../src/checks/checkScheduler.js';
import type { Checkpoint } from '../../../src/eventStore/eventStore.js';
import {
  readSystemStatus,
  STATUS_LIMITS,
  type SystemStatus,
} from '../../../src/observability/systemStatus.js';
import { unXmlFormat } from '../../../src/screening/parsers/unXml.js';
import { loadSnapshot } from '../../../src/screening/snapshots/loadSnapshot.js';
import {
  ensureCheckpoint,
  parkSubscription,
  resumeSubscription,
} from '../../../src/subscriptions/checkpointStore.js';
import { openLockSession, tryLockSubscription } from '../../../src/subscriptions/leadership.js';
import { createWebhookEndpoint } from '../../../src/webhooks/webhookEndpoints.js';
import { createWorkspace } from '../../../src/workspace/workspaceStore.js';
import { runCliCaptured } from '../../support/cli.js';
import { fixturePath } from '../../support/parsedEntities.js';
import { openTestEventStore, type TestEventStore } from '../../support/testEventStore.js';

const DAY_MS = 86_400_000;
const STALE_AFTER_MS = 14 * DAY_MS;

/**
 * The system status (casescreen status, /health/status): each fault an operator must hear about
 * turns its part's verdict, and the whole, to not ok; with every runner alive and fresh lists, ok.
 */
describe('system status', () => {
  let es: TestEventStore;
  let runners: pg.Client;
  const status = () => readSystemStatus(es.db.pool, es.store, { staleAfterMs: STALE_AFTER_MS });
  const subscription = (s: SystemStatus, id: string) =>
    s.subscriptions.find((sub) => sub.subscriptionId === id)!;

  beforeAll(async () => {
    es = await openTestEventStore();
    await installProjections(es.db.pool, projections);
    runners = openLockSession(es.db.url);
    await runners.connect();
  });
  afterAll(async () => {
    await runners?.end();
    await es?.close();
  });

  it('reports a system with no runners and no lists as needing attention', async () => {
    const s = await status();
    expect(s.ok).toBe(false);
    expect(s.subscriptions.map((sub) => sub.subscriptionId)).toEqual(
      expect.arrayContaining([
        'projection:case_views:v1',
        'reactor:check_scheduler',
        'reactor:webhooks',
        'reactor:monitoring_scheduler',
      ]),
    );
    for (const sub of s.subscriptions) {
      expect(sub).toMatchObject({ runnerAlive: false, ok: false });
      expect(sub.verdict).toContain('no runner');
    }
    expect(s.sources).toMatchObject({ ok: false, datasets: [] });
    expect(s.sources.verdict).toContain('no lists loaded');
    expect(s.checks.ok).toBe(true);
    expect(s.webhooks.ok).toBe(true);
  });

  it('is all well with a runner for every subscription and a fresh list; the CLI exits 0, then 1', async () => {
    await loadSnapshot(es.db.pool, {
      format: unXmlFormat,
      paths: [fixturePath('un-xml', 'consolidated.xml')],
      publishedAt: new Date(Date.now() - DAY_MS),
    });
    // This session stands in for the work processes: it holds every subscription's leadership lock.
    for (const sub of (await status()).subscriptions) {
      expect(await tryLockSubscription(runners, sub.subscriptionId)).toBe(true);
    }
    const s = await status();
    expect(s.subscriptions.every((sub) => sub.runnerAlive && sub.ok)).toBe(true);
    // The UN list offers sanctions only: the other check types are named, not a fault.
    expect(s.sources).toMatchObject({ ok: true });
    expect(s.sources.verdict).toContain('not offered: pep');
    expect(s.ok).toBe(true);

    const env = { DATABASE_URL: es.db.url, SOURCE_STALE_AFTER: '14d' };
    const healthy = await runCliCaptured(['status'], env);
    expect(healthy.stderr).toBe('');
    expect(healthy.code).toBe(0);
    expect(healthy.stdout).toContain('System: all well');

    // A stricter staleness limit than the list's age: the same system needs attention.
    const strict = await runCliCaptured(['status', '--json'], { ...env, SOURCE_STALE_AFTER: '1h' });
    expect(strict.code).toBe(1);
    const report = JSON.parse(strict.stdout) as SystemStatus;
    expect(report.sources.ok).toBe(false);
    expect(report.sources.verdict).toContain('stale: un_sc_sanctions');
  });

  it('names a parked subscription and how to resume it', async () => {
    const row = await ensureCheckpoint(es.db.pool, CHECK_SCHEDULER_SUBSCRIPTION_ID);
    const parkedOn = randomUUID();
    expect(
      await parkSubscription(es.db.pool, CHECK_SCHEDULER_SUBSCRIPTION_ID, {
        expected: row.checkpoint,
        eventId: parkedOn,
        position: (row.checkpoint ?? '0') as Checkpoint,
        attempts: 5,
        error: 'TypeError: poison',
      }),
    ).toBe(true);
    const parked = subscription(await status(), CHECK_SCHEDULER_SUBSCRIPTION_ID);
    expect(parked).toMatchObject({ status: 'parked', ok: false });
    expect(parked.verdict).toContain(parkedOn);
    expect(parked.verdict).toContain(`casescreen subscriptions resume ${CHECK_SCHEDULER_SUBSCRIPTION_ID}`);
    expect(await resumeSubscription(es.db.pool, CHECK_SCHEDULER_SUBSCRIPTION_ID)).toBe('resumed');
    expect(subscription(await status(), CHECK_SCHEDULER_SUBSCRIPTION_ID).ok).toBe(true);
  });

  it('reports checks held by dead workers and checks nobody claims', async () => {
    const accountId = (await createWorkspace(es.db.pool, { name: 'Status Co' })).account.id;
    await insertJobs(es.db.pool, [
      { checkReference: 'STA000001-1', caseReference: 'STA000001', accountId, checkType: 'sanctions' },
      { checkReference: 'STA000002-1', caseReference: 'STA000002', accountId, checkType: 'sanctions' },
    ]);
    // One claimed by a worker that died long ago, one waiting longer than any worker takes to claim.
    await es.db.pool.query(
      `UPDATE check_jobs SET status = 'running', attempts = 1, lease_owner = 'dead/0',
              lease_until = now() - make_interval(secs => $1::double precision / 1000 + 1)
        WHERE check_reference = 'STA000001-1'`,
      [STATUS_LIMITS.expiredLeaseMs],
    );
    await es.db.pool.query(
      `UPDATE check_jobs SET next_attempt_at = now() - make_interval(secs => $1::double precision / 1000 + 1)
        WHERE check_reference = 'STA000002-1'`,
      [STATUS_LIMITS.checkWaitMs],
    );
    const s = await status();
    expect(s.checks).toMatchObject({ ok: false, stuck: 1, due: 1, running: 1 });
    expect(s.checks.oldestDueAgeMs).toBeGreaterThan(STATUS_LIMITS.checkWaitMs);
    expect(s.checks.verdict).toContain('no check worker is claiming them');
    expect(s.checks.verdict).toContain('held by workers that died');
    expect(s.ok).toBe(false);
    await es.db.pool.query(`UPDATE check_jobs SET status = 'done', lease_owner = NULL, lease_until = NULL`);
    expect((await status()).checks.ok).toBe(true);
  });

  it('reports webhook deliveries that died in the last day', async () => {
    const accountId = (await createWorkspace(es.db.pool, { name: 'Hooks Co' })).account.id;
    const { endpoint } = await createWebhookEndpoint(
      es.db.pool,
      { accountId, url: 'http://127.0.0.1:9/in', eventTypes: ['case.created'] },
      { clock: () => new Date(), allowPrivateTargets: true },
    );
    await es.db.pool.query(
      `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, body, status, attempts, created_at, updated_at)
       VALUES ('whd_0001', $1, 'evt_0001', 'case.created', '{}', 'dead', 8, now(), now())`,
      [endpoint.id],
    );
    const s = await status();
    expect(s.webhooks).toMatchObject({ ok: false, deadLastDay: 1 });
    expect(s.webhooks.verdict).toContain('casescreen webhooks deliveries');
  });
});
