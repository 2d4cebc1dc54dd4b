import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projections } from '../../../projections/registry.js';
import { type RunningProjections, startProjections } from '../../../projections/startProjections.js';
import type { Actor } from '../../../src/cases/caseEvents.js';
import { IndexManager } from '../../../src/checks/indexManager.js';
import { claimNext, markDone, retryLater } from '../../../src/db/leasedQueue.js';
import type { MonitoringEvent, MonitoringStatus } from '../../../src/monitoring/monitoringEvents.js';
import { monitoringConfigId, monitoringRunId } from '../../../src/monitoring/monitoringReferences.js';
import { type Monitoring, RUN_QUEUE, startMonitoring } from '../../../src/monitoring/monitoringRunner.js';
import { insertRuns, queuedRun } from '../../../src/monitoring/monitoringScheduler.js';
import { unXmlFormat } from '../../../src/screening/parsers/unXml.js';
import { recordSnapshotBecameCurrent } from '../../../src/screening/snapshots/datasetStream.js';
import { loadSnapshot } from '../../../src/screening/snapshots/loadSnapshot.js';
import { createCaseNow, createCaseWorkspace, createMember, DAY_MS, runCase } from '../../support/caseApi.js';
import { runCliCaptured } from '../../support/cli.js';
import { eventually } from '../../support/eventually.js';
import { changedRun, recordRun, runMonitoringCommand } from '../../support/monitoringBuilders.js';
import { fixturePath } from '../../support/parsedEntities.js';
import { fastRunnerOptions } from '../../support/subscriptionFixtures.js';
import { openTestEventStore, type TestEventStore } from '../../support/testEventStore.js';

/**
 * `casescreen monitoring ...` against a real database (docs/monitoring.md, "Operations"): the
 * configurations, runs, alerts and queued work recorded through the monitoring domain, read back by
 * the CLI; and an operator rerun that the real monitoring runner then makes, skipped on stale lists
 * and completed on fresh ones, on the committed UN fixture list.
 */

// biome-ignore lint/suspicious/noExplicitAny: JSON output read field by field in the assertions
type Json = Record<string, any>;

const OPERATOR: Actor = { type: 'human', id: randomUUID(), displayName: 'Ops' };

interface Subject {
  name: string;
  reference: string;
}

/** Enrolls the subject through the monitoring rules, as the API does: the configuration id. */
async function enroll(
  es: TestEventStore,
  scope: { accountId: string; groupId: string; ownerUserId?: string; members?: string[] },
  subject: Subject,
  status: MonitoringStatus = 'active',
): Promise<string> {
  const id = monitoringConfigId(scope.accountId, subject.reference, scope.groupId);
  await runMonitoringCommand(es.store, id, {
    type: 'Enroll',
    monitoringConfigId: id,
    accountId: scope.accountId,
    groupId: scope.groupId,
    subject: {
      subjectReference: subject.reference,
      type: 'person',
      displayName: subject.name,
      countries: [],
      birthDate: null,
      externalReference: null,
      metadata: {},
    },
    checkTypes: ['sanctions'],
    ownerUserId: scope.ownerUserId ?? null,
    collaboratorUserIds: [],
    status,
    metadata: undefined,
    screeningProfileId: 'default',
    enrolledFrom: { kind: 'api' },
    groupMemberIds: scope.members ?? [],
    actor: OPERATOR,
    now: new Date().toISOString(),
  });
  return id;
}

const subject = (name: string): Subject => ({
  name,
  reference: `sub_${randomUUID().replaceAll('-', '').slice(0, 24)}`,
});

function cliOn(es: TestEventStore) {
  const cli = (...argv: string[]) => runCliCaptured(argv, { DATABASE_URL: es.db.url });
  const json = async (...argv: string[]): Promise<Json> => {
    const result = await cli(...argv, '--json');
    expect(result, result.stderr).toMatchObject({ code: 0, stderr: '' });
    return JSON.parse(result.stdout) as Json;
  };
  return { cli, json };
}

describe('casescreen monitoring: the operator view of recorded monitoring', () => {
  let es: TestEventStore;
  let running: RunningProjections;
  let cli: ReturnType<typeof cliOn>['cli'];
  let json: ReturnType<typeof cliOn>['json'];
  let accountId = '';
  let defaultGroupId = '';
  let deskA = '';
  /** Changed matches, a follow-up case still open. */
  let changed = '';
  let changedRunId = '';
  let changedAlert = '';
  let delistedAlert = '';
  let followUpCase = '';
  /** Its latest run skipped for a stale list; a run waiting for a retry, one not made (paused). */
  let skipped = '';
  let skippedRunId = '';
  let retryingRunId = '';
  let notRunId = '';
  /** Another account's, paused, never run. */
  let paused = '';
  const ri = subject('Ri Won Ho');

  beforeAll(async () => {
    es = await openTestEventStore();
    ({ cli, json } = cliOn(es));
    const { pool } = es.db;
    const workspace = await createCaseWorkspace(pool, {
      account: 'Northwind Payments',
      groups: ['Desk A'],
      foreign: 'Other Ltd',
    });
    ({ accountId, defaultGroupId } = workspace);
    deskA = workspace.groupIds[0]!;
    running = await startProjections({
      pool,
      databaseUrl: es.db.url,
      store: es.store,
      definitions: projections,
      runner: fastRunnerOptions,
    });

    changed = await enroll(es, { accountId, groupId: defaultGroupId }, ri);
    const run = changedRun(changed, ri.reference, 'snapshot:2', new Date());
    ({ runId: changedRunId, changedAlert, delistedAlert } = run);
    await recordRun(es.store, changed, run.events);
    followUpCase = 'MON000001';
    await runCase(
      es.store,
      followUpCase,
      createCaseNow({ caseReference: followUpCase, accountId, groupId: defaultGroupId, actor: OPERATOR }, {}),
    );
    await runMonitoringCommand(es.store, changed, {
      type: 'RecordFollowUpCase',
      runId: changedRunId,
      caseReference: followUpCase,
      now: run.at(200),
    });

    skipped = await enroll(es, { accountId, groupId: deskA }, subject('Kim Other'));
    skippedRunId = monitoringRunId(skipped, 'snapshot:3');
    const at = new Date().toISOString();
    const skippedEvents: MonitoringEvent[] = [
      {
        type: 'MonitoringRunStarted',
        data: {
          runId: skippedRunId,
          trigger: { kind: 'snapshot', snapshotIds: ['snap_00000000000000000000000000000003'] },
          checkTypes: ['sanctions'],
          occurredAt: at,
        },
      },
      {
        type: 'MonitoringRunSkipped',
        data: {
          runId: skippedRunId,
          reason:
            'source_unavailable: sanctions sources older than 14d: un_sc_sanctions (version 3, published 2026-01-02)',
          staleDatasets: ['un_sc_sanctions'],
          occurredAt: at,
        },
      },
    ];
    await recordRun(es.store, skipped, skippedEvents);
    // The queue as the run workers leave it: a run that failed once and waits, and one not made.
    const retrying = queuedRun(skipped, { kind: 'schedule' }, 'schedule:1');
    retryingRunId = retrying.runId;
    await insertRuns(pool, [retrying]);
    const first = (await claimNext(pool, RUN_QUEUE, 'test-worker', 60_000))!;
    await retryLater(pool, RUN_QUEUE, first, 3_600_000, 'connection reset by peer');
    const notRun = queuedRun(skipped, { kind: 'resume' }, 'resume:1');
    notRunId = notRun.runId;
    await insertRuns(pool, [notRun]);
    const second = (await claimNext(pool, RUN_QUEUE, 'test-worker', 60_000))!;
    expect(second.key).toBe(notRunId);
    await markDone(pool, RUN_QUEUE, second, 'the configuration is paused');

    paused = await enroll(
      es,
      { accountId: workspace.foreignAccountId, groupId: workspace.foreignGroupId },
      subject('Boris Quietov'),
      'paused',
    );

    // Everything projected: the list and the runs and alerts read the read models.
    await eventually(async () => {
      const { rows } = await pool.query(
        `SELECT (SELECT count(*) FROM monitoring_configs)::int AS configs,
                (SELECT revision FROM monitoring_activity_streams WHERE monitoring_config_id = $1)::int AS changed,
                (SELECT count(*) FROM case_views WHERE case_reference = $2)::int AS cases`,
        [changed, followUpCase],
      );
      expect(rows[0]).toEqual({ configs: 3, changed: 7, cases: 1 });
    });
  }, 60_000);

  afterAll(async () => {
    await running?.stop();
    await es?.close();
  });

  it('lists configurations newest first, across accounts, with each filter', async () => {
    const all = await json('monitoring', 'list');
    expect(all.monitoringConfigs.map((c: Json) => c.monitoringConfigId)).toEqual([paused, skipped, changed]);
    const first = all.monitoringConfigs[2];
    expect(first).toMatchObject({
      subjectReference: ri.reference,
      subjectName: 'Ri Won Ho',
      groupId: defaultGroupId,
      status: 'active',
      latestResult: 'changed_matches',
      latestRunId: changedRunId,
      openFollowUpCaseReferences: [followUpCase],
    });
    expect(first.lastCheckedAt).not.toBeNull();

    const ids = async (...filters: string[]) =>
      (await json('monitoring', 'list', ...filters)).monitoringConfigs.map((c: Json) => c.monitoringConfigId);
    expect(await ids('--account', accountId)).toEqual([skipped, changed]);
    expect(await ids('--status', 'paused')).toEqual([paused]);
    expect(await ids('--result', 'skipped')).toEqual([skipped]);
    expect(await ids('--result', 'not_checked')).toEqual([paused]);
    expect(await ids('--subject', ri.reference)).toEqual([changed]);
    expect(await ids('--limit', '1')).toEqual([paused]);

    const text = await cli('monitoring', 'list', '--account', accountId);
    expect(text.code).toBe(0);
    const lines = text.stdout.trim().split('\n');
    expect(lines[0]).toMatch(
      /^ID\s+SUBJECT\s+NAME\s+GROUP\s+STATUS\s+LATEST RESULT\s+LAST CHECKED\s+OPEN FOLLOW-UPS$/,
    );
    expect(lines[1]).toMatch(
      new RegExp(`^${skipped}\\s+sub_\\w+\\s+Kim Other\\s+Desk A\\s+active\\s+skipped\\s+-\\s+0$`),
    );
    expect(lines[2]).toMatch(
      new RegExp(`^${changed}\\s+${ri.reference}\\s+Ri Won Ho\\s+\\S.*changed_matches\\s+\\S+\\s+1$`),
    );

    const bad = await cli('monitoring', 'list', '--status', 'sleeping');
    expect(bad).toMatchObject({ code: 2, stdout: '' });
    expect(bad.stderr).toBe('error: --status: must be one of active, paused\n');
  });

  it('shows a configuration with its latest run: the lists it used, its alerts and follow-up case', async () => {
    const shown = await json('monitoring', 'show', changed);
    expect(shown.config).toMatchObject({
      monitoringConfigId: changed,
      accountId,
      latestResult: 'changed_matches',
      followUpCaseReferences: [followUpCase],
      openFollowUpCaseReferences: [followUpCase],
      openAlertIds: [],
      runCount: 1,
    });
    expect(shown.latestRun).toMatchObject({
      runId: changedRunId,
      status: 'completed',
      result: 'changed_matches',
      trigger: { kind: 'schedule' },
      snapshots: [
        { id: 'snap_00000000000000000000000000000002', dataset: 'un_sc_sanctions', version: 2 },
        { id: 'snap_00000000000000000000000000000003', dataset: 'us_ofac_sdn', version: 7 },
      ],
      counts: { matchCount: 1, newMatchCount: 0, changedMatchCount: 2, unchangedMatchCount: 0 },
      alertIds: [changedAlert, delistedAlert],
      followUpCaseReference: followUpCase,
    });
    expect(shown.pendingJobs).toEqual([]);

    const text = (await cli('monitoring', 'show', changed)).stdout;
    expect(text).toContain(`Latest run ${changedRunId}:`);
    expect(text).toContain('Trigger:                  safety-net schedule');
    expect(text).toMatch(/Lists:\s+un_sc_sanctions@2 \(snap_0+2\), us_ofac_sdn@7 \(snap_0+3\)/);
    expect(text).toMatch(/Matches:\s+1 \(0 new, 2 changed, 0 unchanged\)/);
    expect(text).toMatch(new RegExp(`Follow-up cases:\\s+${followUpCase} \\(1 open\\)`));
    expect(text).toMatch(/Pending work: none/);
  });

  it('shows why the latest run was skipped, the stale datasets, and the work queued and not made', async () => {
    const shown = await json('monitoring', 'show', skipped);
    expect(shown.latestRun).toMatchObject({
      runId: skippedRunId,
      status: 'skipped',
      staleDatasets: ['un_sc_sanctions'],
      snapshots: [],
    });
    expect(shown.latestRun.resultSummary).toContain('un_sc_sanctions (version 3');
    expect(shown.pendingJobs).toMatchObject([
      { runId: retryingRunId, status: 'queued', attempts: 1, lastError: 'connection reset by peer' },
    ]);
    expect(shown.jobsNotRun).toMatchObject([
      {
        runId: notRunId,
        status: 'done',
        lastError: 'the configuration is paused',
        trigger: { kind: 'resume' },
      },
    ]);

    const text = (await cli('monitoring', 'show', skipped)).stdout;
    expect(text).toMatch(
      /Why skipped:\s+source_unavailable: sanctions sources older than 14d: un_sc_sanctions/,
    );
    expect(text).toMatch(/Stale datasets:\s+un_sc_sanctions/);
    expect(text).toMatch(
      new RegExp(
        `Pending work:\\n\\s+${retryingRunId}  queued  safety-net schedule  attempts 1  next attempt \\S+  last error: connection reset by peer`,
      ),
    );
    expect(text).toMatch(
      new RegExp(
        `Finished without a run:\\n\\s+${notRunId}  done  resumed  attempts 1  last error: the configuration is paused`,
      ),
    );
  });

  it('lists runs and alerts from the read model, alerts by resolution', async () => {
    const runs = await json('monitoring', 'runs', changed);
    expect(
      runs.runs.map((run: Json) => [run.monitoring_run_id, run.result, run.source_snapshot_version]),
    ).toEqual([[changedRunId, 'changed_matches', 'un_sc_sanctions@2,us_ofac_sdn@7']]);
    expect(runs.activityLag).toEqual({ streamRevision: 7, appliedRevision: 7 });
    const runsText = (await cli('monitoring', 'runs', changed)).stdout;
    expect(runsText).toMatch(
      new RegExp(
        `^${changedRunId}\\s+\\S+\\s+completed\\s+changed_matches\\s+un_sc_sanctions@2,us_ofac_sdn@7\\s+1 0/2/0\\s+${followUpCase}\\s+2 changed matches$`,
        'm',
      ),
    );
    expect(runsText).not.toContain('note:');

    const alerts = await json('monitoring', 'alerts', changed);
    expect(
      alerts.alerts.map((a: Json) => [a.alert_id, a.resolution_status, a.created_case_reference]).sort(),
    ).toEqual(
      [
        [changedAlert, 'follow_up_case_created', followUpCase],
        [delistedAlert, 'no_action_required', null],
      ].sort(),
    );
    const resolved = await json('monitoring', 'alerts', changed, '--status', 'no_action_required');
    expect(resolved.alerts.map((a: Json) => a.alert_id)).toEqual([delistedAlert]);
    const alertsText = (await cli('monitoring', 'alerts', changed)).stdout;
    expect(alertsText).toMatch(
      new RegExp(
        `^${delistedAlert}\\s+${changedRunId}\\s+\\S+\\s+changed_match \\(no review\\)\\s+KIM OTHER \\[un_sc_sanctions:6908999\\]\\s+no_action_required\\s+-\\s+KIM OTHER was removed from the list\\.$`,
        'm',
      ),
    );

    expect((await json('monitoring', 'runs', paused)).runs).toEqual([]);
    expect((await cli('monitoring', 'runs', paused)).stdout).toBe('No runs\n');
  });

  it('prints the history of the config stream for auditors: runs, list versions, alerts, resolutions, follow-up case', async () => {
    const history = await json('monitoring', 'history', changed);
    expect(history.eventCount).toBe(8);
    expect(history.events.map((e: Json) => e.type)).toEqual([
      'MonitoringConfigCreated',
      'MonitoringRunStarted',
      'MonitoringRunCompleted',
      'MonitoringAlertRaised',
      'MonitoringAlertRaised',
      'MonitoringAlertResolved',
      'FollowUpCaseRequested',
      'FollowUpCaseCreated',
    ]);
    const summaries = history.events.map((e: Json) => e.summary as string);
    expect(summaries[0]).toBe(
      `Enrolled Ri Won Ho (${ri.reference}) in group ${defaultGroupId}: sanctions, active, owner none; through the API, by human:${OPERATOR.id} (Ops)`,
    );
    expect(summaries[1]).toBe(`Run ${changedRunId} started (safety-net schedule) for sanctions`);
    expect(summaries[2]).toBe(
      `Run ${changedRunId} completed: changed_matches (2 changed matches); lists un_sc_sanctions@2 (snap_00000000000000000000000000000002), us_ofac_sdn@7 (snap_00000000000000000000000000000003); 1 match(es): 0 new, 2 changed, 0 unchanged`,
    );
    expect(summaries[3]).toContain(
      `Alert ${changedAlert} in run ${changedRunId} (changed match, needs review): RI WON HO [un_sc_sanctions:6908555`,
    );
    expect(summaries[5]).toBe(
      `Alert ${delistedAlert} resolved: no action required (Delisting of a match reviewed not relevant.)`,
    );
    expect(summaries[6]).toBe(`Run ${changedRunId} requested a follow-up case for alert(s) ${changedAlert}`);
    expect(summaries.at(-1)).toBe(
      `Follow-up case ${followUpCase} opened for run ${changedRunId}: alert(s) ${changedAlert}`,
    );
    expect(history.events.map((e: Json) => e.revision)).toEqual(
      history.events.map((_: Json, i: number) => i),
    );

    const text = (await cli('monitoring', 'history', changed)).stdout;
    expect(text.split('\n')[0]).toBe(
      `History of monitoring configuration ${changed}: ${history.eventCount} event(s)`,
    );
    expect(text).toMatch(/^REV\s+RECORDED AT\s+TYPE\s+SUMMARY$/m);
  });

  it('answers a missing configuration with exit 1 on every command that takes one, and refuses a malformed id with exit 2', async () => {
    const missing = 'mon_ffffffffffffffffffffffff';
    for (const command of ['show', 'runs', 'alerts', 'history', 'rerun']) {
      expect(await cli('monitoring', command, missing), command).toEqual({
        code: 1,
        stdout: '',
        stderr: `error: Monitoring configuration ${missing} was not found.\n`,
      });
    }
    expect(await cli('monitoring', 'show', 'ABC123456')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: <mon_id>: must be a monitoring configuration id (mon_<hex>)\n',
    });
  });

  it('queues an operator run with a fresh run id per invocation; a paused configuration only with --even-if-paused', async () => {
    const { pool } = es.db;
    const operatorJobs = async (id: string) =>
      (
        await pool.query(
          `SELECT run_id, trigger, status FROM monitoring_jobs
            WHERE monitoring_config_id = $1 AND trigger->>'kind' = 'operator' ORDER BY created_at`,
          [id],
        )
      ).rows;

    const refused = await cli('monitoring', 'rerun', paused, '--reason', 'check');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(
      `error: monitoring configuration ${paused} is paused; nothing was queued. Pass --even-if-paused to run it once (it stays paused), or resume it (PATCH status active).\n`,
    );
    expect(await operatorJobs(paused)).toEqual([]);

    const queued = await cli(
      'monitoring',
      'rerun',
      paused,
      '--even-if-paused',
      '--reason',
      'Customer asked for a fresh check',
    );
    expect(queued.code, queued.stderr).toBe(0);
    const runId = /^Queued run (run_[0-9a-f]+) of /.exec(queued.stdout)?.[1];
    expect(runId).toBeDefined();
    expect(queued.stdout).toContain('The configuration is paused: this run is made once; it stays paused.');
    const again = await json('monitoring', 'rerun', paused, '--even-if-paused');
    expect(again).toMatchObject({ monitoringConfigId: paused, status: 'paused', queued: true });
    expect(again.runId).not.toBe(runId);

    const jobs = await operatorJobs(paused);
    expect(jobs.map((job) => job.run_id)).toEqual([runId, again.runId]);
    expect(jobs[0]).toMatchObject({
      status: 'queued',
      trigger: { kind: 'operator', reason: 'Customer asked for a fresh check' },
    });
    expect(jobs[1].trigger).toMatchObject({ kind: 'operator', reason: null });
    const shown = await json('monitoring', 'show', paused);
    expect(shown.pendingJobs.map((job: Json) => job.runId)).toEqual([runId, again.runId]);
    expect(shown.latestRun).toBeNull();
  });
});

describe('casescreen monitoring rerun, made by the monitoring runner', () => {
  let es: TestEventStore;
  let running: RunningProjections;
  let monitoring: Monitoring;
  let cli: ReturnType<typeof cliOn>['cli'];
  let json: ReturnType<typeof cliOn>['json'];
  let configId = '';
  let snapshotId = '';
  /** The runner's clock: moved forward to make the list stale. */
  let now = () => new Date();

  beforeAll(async () => {
    es = await openTestEventStore();
    ({ cli, json } = cliOn(es));
    const { pool } = es.db;
    const workspace = await createCaseWorkspace(pool, {
      account: 'Monitoring',
      groups: [],
      foreign: 'Other',
    });
    const owner = await createMember(pool, { accountId: workspace.accountId, email: 'owner@example.test' }, [
      workspace.defaultGroupId,
    ]);
    running = await startProjections({
      pool,
      databaseUrl: es.db.url,
      store: es.store,
      definitions: projections,
      runner: fastRunnerOptions,
    });
    const loaded = await loadSnapshot(pool, {
      format: unXmlFormat,
      paths: [fixturePath('un-xml', 'monitoring', 'v1.xml')],
      publishedAt: new Date(Date.now() - DAY_MS),
    });
    snapshotId = loaded.snapshot.id;
    // What `casescreen sources load` does once the version is current.
    await recordSnapshotBecameCurrent(es.store, loaded.snapshot, loaded.delta ?? null);
    configId = await enroll(
      es,
      {
        accountId: workspace.accountId,
        groupId: workspace.defaultGroupId,
        ownerUserId: owner,
        members: [owner],
      },
      subject('Ivan Testov'),
      'paused',
    );
    monitoring = startMonitoring({
      pool,
      databaseUrl: es.db.url,
      store: es.store,
      indexManager: new IndexManager({ pool }),
      workers: 1,
      intervalMs: 30 * DAY_MS,
      staleAfterMs: 30 * DAY_MS,
      pollMs: 50,
      tickMs: 3_600_000,
      clock: () => now(),
    });
  }, 60_000);

  afterAll(async () => {
    await monitoring?.stop();
    await running?.stop();
    await es?.close();
  });

  it('sweeps the list version that became current and shows its stats', async () => {
    const sweeps = await eventually(async () => {
      const out = await json('monitoring', 'sweeps');
      expect(out.sweeps).toHaveLength(1);
      expect(out.sweeps[0].status).toBe('done');
      return out.sweeps;
    });
    expect(sweeps[0]).toMatchObject({
      snapshotId,
      dataset: 'un_sc_sanctions',
      version: 1,
      previousSnapshotId: null,
      attempts: 1,
      lastError: null,
      // The only configuration is paused: nothing to queue.
      stats: { removed: 0, changed: 0, activeConfigs: 0, queued: 0 },
    });
    expect(sweeps[0].stats.added).toBeGreaterThan(0);
    const text = (await cli('monitoring', 'sweeps')).stdout;
    expect(text).toMatch(
      new RegExp(
        `^${snapshotId}\\s+un_sc_sanctions@1\\s+-\\s+done\\s+${sweeps[0].stats.added}/0/0\\s+0\\s+\\d+\\s+1\\s+-$`,
        'm',
      ),
    );
  });

  it('runs a paused configuration on request: skipped on a stale list, naming it; then completed on a fresh one', async () => {
    expect((await cli('monitoring', 'rerun', configId)).code).toBe(1);

    // Sixty days on, the list (published a day ago) is stale for the runner.
    const later = Date.now() + 60 * DAY_MS;
    now = () => new Date(later);
    const stale = await json(
      'monitoring',
      'rerun',
      configId,
      '--even-if-paused',
      '--reason',
      'list reloaded',
    );
    await monitoring.idle();
    const skippedShow = await json('monitoring', 'show', configId);
    expect(skippedShow.config.status).toBe('paused');
    expect(skippedShow.latestRun).toMatchObject({
      runId: stale.runId,
      status: 'skipped',
      staleDatasets: ['un_sc_sanctions'],
      trigger: { kind: 'operator', reason: 'list reloaded' },
    });
    expect(skippedShow.latestRun.resultSummary).toMatch(
      /^source_unavailable: sanctions sources older than 30d: un_sc_sanctions \(version 1, published /,
    );
    expect(skippedShow.pendingJobs).toEqual([]);
    const skippedText = (await cli('monitoring', 'show', configId)).stdout;
    expect(skippedText).toMatch(/Trigger:\s+operator rerun at \S+: "list reloaded"/);
    expect(skippedText).toMatch(
      /Why skipped:\s+source_unavailable: sanctions sources older than 30d: un_sc_sanctions/,
    );

    now = () => new Date();
    const fresh = await json('monitoring', 'rerun', configId, '--even-if-paused');
    expect(fresh.runId).not.toBe(stale.runId);
    await monitoring.idle();
    const shown = await json('monitoring', 'show', configId);
    expect(shown.latestRun).toMatchObject({
      runId: fresh.runId,
      status: 'completed',
      result: 'new_matches',
      snapshots: [{ id: snapshotId, dataset: 'un_sc_sanctions', version: 1 }],
    });
    expect(shown.latestRun.alertIds).toHaveLength(1);
    expect(shown.latestRun.followUpCaseReference).toMatch(/^[A-Z]{3}\d{6}$/);
    expect(shown.config).toMatchObject({ status: 'paused', latestResult: 'new_matches', runCount: 2 });

    const runs = await eventually(async () => {
      const out = await json('monitoring', 'runs', configId);
      expect(out.activityLag.appliedRevision).toBe(out.activityLag.streamRevision);
      return out.runs;
    });
    // Newest first by start time, the runner's clock: the skipped run was made sixty days on.
    expect(runs.map((run: Json) => [run.monitoring_run_id, run.result, run.source_snapshot_version])).toEqual(
      [
        [stale.runId, 'skipped', null],
        [fresh.runId, 'new_matches', 'un_sc_sanctions@1'],
      ],
    );
    const alerts = await json('monitoring', 'alerts', configId);
    expect(alerts.alerts).toMatchObject([
      {
        monitoring_run_id: fresh.runId,
        kind: 'new_match',
        created_case_reference: shown.latestRun.followUpCaseReference,
      },
    ]);

    const history = await json('monitoring', 'history', configId);
    const lines = history.events.map((e: Json) => `${e.type}: ${e.summary}`);
    expect(lines[1]).toMatch(
      new RegExp(
        `^MonitoringRunStarted: Run ${stale.runId} started \\(operator rerun at \\S+: "list reloaded"\\) for sanctions$`,
      ),
    );
    expect(lines[2]).toMatch(
      new RegExp(
        `^MonitoringRunSkipped: Run ${stale.runId} skipped: source_unavailable: .*\\(stale: un_sc_sanctions\\)$`,
      ),
    );
    expect(lines[3]).toMatch(
      new RegExp(
        `^MonitoringRunStarted: Run ${fresh.runId} started \\(operator rerun at \\S+\\) for sanctions$`,
      ),
    );
    expect(lines[4]).toContain(`completed: new_matches`);
    expect(lines[4]).toContain(`lists un_sc_sanctions@1 (${snapshotId})`);
    expect(lines.at(-1)).toContain(
      `Follow-up case ${shown.latestRun.followUpCaseReference} opened for run ${fresh.runId}`,
    );
  }, 120_000);
});
