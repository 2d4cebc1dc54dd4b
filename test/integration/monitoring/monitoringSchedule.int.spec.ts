import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projections } from '../../../projections/registry.js';
import { installProjections } from '../../../projections/registryStore.js';
import { type RunningProjections, startProjections } from '../../../projections/startProjections.js';
import { SYSTEM_ACTOR } from '../../../src/cases/caseEvents.js';
import { IndexManager } from '../../../src/checks/indexManager.js';
import type { MonitoringStatus } from '../../../src/monitoring/monitoringEvents.js';
import { monitoringRunId } from '../../../src/monitoring/monitoringReferences.js';
import { queueScheduledRuns } from '../../../src/monitoring/monitoringRunner.js';
import { insertRuns, queuedRun } from '../../../src/monitoring/monitoringScheduler.js';
import { enrollSubject } from '../../../src/monitoring/monitoringService.js';
import { silentLogger } from '../../../src/shared/logger.js';
import { decideSubject } from '../../../src/subjects/subjectDecide.js';
import { subjectCommandHandler } from '../../../src/subjects/subjectStream.js';
import { createWorkspace } from '../../../src/workspace/workspaceStore.js';
import { eventually } from '../../support/eventually.js';
import { recordRun, startTestMonitoring } from '../../support/monitoringBuilders.js';
import { fastRunnerOptions } from '../../support/subscriptionFixtures.js';
import { openTestEventStore, type TestEventStore } from '../../support/testEventStore.js';

/**
 * The safety-net schedule (docs/monitoring.md, "Run triggers": `schedule:<last run time>`), driven
 * by the time the caller gives: configurations enrolled and run at set times (the events carry
 * them), the `monitoring_configs` read model caught up, then `queueScheduledRuns` at a set `now`,
 * far from the machine's clock so that a schedule reading the database's clock instead would fail.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const INTERVAL_MS = DAY_MS;
const NOW = new Date('2026-06-01T12:00:00.000Z');
const ago = (ms: number, from = NOW) => new Date(from.getTime() - ms);

/** The spread of the schedule (±10% of the interval), as a fraction of it: 0.9 to 1.1 by the config id. */
function spreadOf(id: string): number {
  const hash = createHash('md5').update(id).digest('hex');
  return 0.9 + (0.2 * Number.parseInt(hash.slice(0, 8), 16)) / 4294967295;
}

describe('the safety-net schedule of monitoring runs', () => {
  let es: TestEventStore;
  let running: RunningProjections;
  let accountId = '';
  let groupId = '';

  beforeAll(async () => {
    es = await openTestEventStore();
    await installProjections(es.db.pool, projections);
    const workspace = await createWorkspace(es.db.pool, { name: 'Schedule' });
    accountId = workspace.account.id;
    groupId = workspace.defaultGroup.id.toLowerCase();
    running = await startProjections({
      pool: es.db.pool,
      databaseUrl: es.db.url,
      store: es.store,
      definitions: projections,
      runner: fastRunnerOptions,
      logger: silentLogger,
    });
  }, 240_000);

  afterAll(async () => {
    await running?.stop();
    await es?.close();
  }, 240_000);

  /** A new subject enrolled at `at`, through the enrollment use case with its clock set to `at`. */
  async function enrolledAt(name: string, at: Date, status: MonitoringStatus = 'active'): Promise<string> {
    const subjectReference = `sub_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
    const subject = await subjectCommandHandler.handle(
      es.store,
      subjectReference,
      (state) =>
        decideSubject(
          {
            type: 'UseSubject',
            subjectReference,
            accountId,
            named: false,
            groupId,
            visibleGroupIds: [groupId],
            sent: { name, type: 'person' },
            now: at.toISOString(),
          },
          state,
        ),
      () => randomUUID(),
    );
    if (!subject.ok) throw new Error(subject.rejection.message);
    const enrolled = await enrollSubject(
      { pool: es.db.pool, store: es.store, clock: () => at },
      { accountId, actor: SYSTEM_ACTOR, visibleGroupIds: [groupId] },
      {
        subjectReference,
        groupId,
        checkTypes: ['sanctions'],
        ownerUserId: undefined,
        collaboratorUserIds: undefined,
        status,
        metadata: undefined,
        enrolledFrom: { kind: 'api' },
      },
      () => randomUUID(),
    );
    if (!enrolled.ok) throw new Error(enrolled.rejection.message);
    return enrolled.value.state.monitoringConfigId;
  }

  /** A run of the configuration that started at `at` (recorded as the worker records a failed one). */
  async function ranAt(id: string, at: Date): Promise<void> {
    const runId = monitoringRunId(id, `operator:${randomUUID()}`);
    const occurredAt = at.toISOString();
    await recordRun(es.store, id, [
      {
        type: 'MonitoringRunStarted',
        data: { runId, trigger: { kind: 'operator' }, checkTypes: ['sanctions'], occurredAt },
      },
      { type: 'MonitoringRunFailed', data: { runId, errorMessage: 'set up by the test', occurredAt } },
    ]);
  }

  /** Waits until the read model holds each configuration with the status and last run time given. */
  async function projected(expected: Record<string, { status: MonitoringStatus; lastRunAt: Date }>) {
    await eventually(async () => {
      const { rows } = await es.db.pool.query<{ id: string; status: string; last_run_at: Date }>(
        `SELECT monitoring_config_id AS id, status, last_run_at FROM monitoring_configs
          WHERE monitoring_config_id = ANY($1::text[])`,
        [Object.keys(expected)],
      );
      expect(
        Object.fromEntries(rows.map((row) => [row.id, { status: row.status, lastRunAt: row.last_run_at }])),
      ).toEqual(expected);
    });
  }

  /** The schedule runs queued for the configurations: run id by configuration. */
  async function scheduledRuns(ids: readonly string[]): Promise<Record<string, string>> {
    const { rows } = await es.db.pool.query<{ id: string; run_id: string }>(
      `SELECT monitoring_config_id AS id, run_id FROM monitoring_jobs
        WHERE monitoring_config_id = ANY($1::text[]) AND trigger->>'kind' = 'schedule'`,
      [ids],
    );
    return Object.fromEntries(rows.map((row) => [row.id, row.run_id]));
  }

  it('queues a run for active configurations whose last run is older than the interval, counting from enrollment for one that never ran', async () => {
    const enrolled = ago(10 * DAY_MS);
    // Past the interval even at its longest spread (+10%), and short of it even at its shortest (-10%).
    const lastRunOfDue = ago(1.1 * INTERVAL_MS + 60_000);
    const lastRunOfRecent = ago(0.9 * INTERVAL_MS - 60_000);
    const due = await enrolledAt('Due Person', enrolled);
    await ranAt(due, lastRunOfDue);
    const recent = await enrolledAt('Recent Person', enrolled);
    await ranAt(recent, lastRunOfRecent);
    const paused = await enrolledAt('Paused Person', enrolled, 'paused');
    await ranAt(paused, ago(5 * INTERVAL_MS));
    // Enrolled long ago, and its baseline ended without a run (no worker made it, or it was dropped):
    // the schedule counts from the enrollment rather than leave it unmonitored.
    const neverRun = await enrolledAt('Never Run Person', ago(2 * INTERVAL_MS));
    // Overdue, but a run of it is queued already: that one is left to run.
    const pending = await enrolledAt('Pending Person', enrolled);
    await ranAt(pending, ago(5 * INTERVAL_MS));
    const operatorRun = queuedRun(pending, { kind: 'operator' }, `operator:${randomUUID()}`);
    await insertRuns(es.db.pool, [operatorRun]);

    await projected({
      [due]: { status: 'active', lastRunAt: lastRunOfDue },
      [recent]: { status: 'active', lastRunAt: lastRunOfRecent },
      [paused]: { status: 'paused', lastRunAt: ago(5 * INTERVAL_MS) },
      [neverRun]: { status: 'active', lastRunAt: ago(2 * INTERVAL_MS) },
      [pending]: { status: 'active', lastRunAt: ago(5 * INTERVAL_MS) },
    });
    const all = [due, recent, paused, neverRun, pending];

    await queueScheduledRuns(es.db.pool, INTERVAL_MS, NOW);
    const expected = {
      [due]: monitoringRunId(due, `schedule:${lastRunOfDue.toISOString()}`),
      [neverRun]: monitoringRunId(neverRun, `schedule:${ago(2 * INTERVAL_MS).toISOString()}`),
    };
    expect(await scheduledRuns(all)).toEqual(expected);
    const { rows } = await es.db.pool.query(
      'SELECT trigger, status FROM monitoring_jobs WHERE run_id = ANY($1::text[])',
      [Object.values(expected)],
    );
    expect(rows).toEqual([
      { trigger: { kind: 'schedule' }, status: 'queued' },
      { trigger: { kind: 'schedule' }, status: 'queued' },
    ]);

    // A tick seen again queues nothing more: the runs are queued already.
    await queueScheduledRuns(es.db.pool, INTERVAL_MS, NOW);
    expect(await scheduledRuns(all)).toEqual(expected);
    // Once the queued run of `pending` is done, it is due too.
    await es.db.pool.query(`UPDATE monitoring_jobs SET status = 'done' WHERE run_id = $1`, [
      operatorRun.runId,
    ]);
    await queueScheduledRuns(es.db.pool, INTERVAL_MS, NOW);
    expect(Object.keys(await scheduledRuns(all)).sort()).toEqual([due, neverRun, pending].sort());
  });

  it('spreads the interval by the configuration id, within ±10%', async () => {
    // Last runs days apart, oldest first: a tick at the time one falls due finds the older ones
    // (already checked) due as well, and none of the newer ones.
    const configs: { id: string; lastRun: Date }[] = [];
    for (const [i, name] of ['Spread One', 'Spread Two', 'Spread Three', 'Spread Four'].entries()) {
      const lastRun = ago((50 - 5 * i) * DAY_MS);
      const id = await enrolledAt(name, ago(60 * DAY_MS));
      await ranAt(id, lastRun);
      configs.push({ id, lastRun });
    }
    await projected(
      Object.fromEntries(configs.map(({ id, lastRun }) => [id, { status: 'active', lastRunAt: lastRun }])),
    );
    for (const { id, lastRun } of configs) {
      const spread = spreadOf(id);
      expect(spread).toBeGreaterThanOrEqual(0.9);
      expect(spread).toBeLessThanOrEqual(1.1);
      const dueAt = new Date(lastRun.getTime() + spread * INTERVAL_MS);
      await queueScheduledRuns(es.db.pool, INTERVAL_MS, new Date(dueAt.getTime() - 1000));
      expect(await scheduledRuns([id]), `a second before ${dueAt.toISOString()}`).toEqual({});
      await queueScheduledRuns(es.db.pool, INTERVAL_MS, new Date(dueAt.getTime() + 1000));
      expect(Object.keys(await scheduledRuns([id])), `a second after ${dueAt.toISOString()}`).toEqual([id]);
    }
  });

  it("queues the schedule at the monitoring runner's clock", async () => {
    // A run in the machine's future: only the runner's clock, not the database's, finds it due.
    const lastRun = new Date(Date.now() + 30 * DAY_MS);
    const id = await enrolledAt('Runner Clock', ago(DAY_MS, lastRun));
    await ranAt(id, lastRun);
    await projected({ [id]: { status: 'active', lastRunAt: lastRun } });
    // Its baseline is over: the scheduler, reading the feed, queues no job of it that would hold the schedule back.
    const baseline = queuedRun(id, { kind: 'enrollment' }, 'enrollment');
    await insertRuns(es.db.pool, [baseline]);
    await es.db.pool.query(`UPDATE monitoring_jobs SET status = 'done' WHERE run_id = $1`, [baseline.runId]);

    const indexManager = new IndexManager({ pool: es.db.pool });
    const clockNow = new Date(lastRun.getTime() + 2 * INTERVAL_MS);
    // No workers: the queued run stays queued, to be read. The runner ticks once as it starts.
    const monitoring = startTestMonitoring(es, indexManager, {
      workers: 0,
      intervalMs: INTERVAL_MS,
      staleAfterMs: 14 * DAY_MS,
      clock: () => clockNow,
    });
    try {
      await eventually(async () =>
        expect(await scheduledRuns([id])).toEqual({
          [id]: monitoringRunId(id, `schedule:${lastRun.toISOString()}`),
        }),
      );
    } finally {
      await monitoring.stop();
      indexManager.close();
    }
  });
});
