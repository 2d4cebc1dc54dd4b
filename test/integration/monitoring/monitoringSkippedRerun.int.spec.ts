import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projections } from '../../../projections/registry.js';
import { installProjections } from '../../../projections/registryStore.js';
import { type RunningProjections, startProjections } from '../../../projections/startProjections.js';
import { SYSTEM_ACTOR } from '../../../src/cases/caseEvents.js';
import { IndexManager } from '../../../src/checks/indexManager.js';
import { monitoringRunId } from '../../../src/monitoring/monitoringReferences.js';
import type { Monitoring } from '../../../src/monitoring/monitoringRunner.js';
import type { MonitoringConfigState } from '../../../src/monitoring/monitoringState.js';
import { monitoringCommandHandler } from '../../../src/monitoring/monitoringStream.js';
import { sourceFormats } from '../../../src/screening/parsers/registry.js';
import { recordSnapshotBecameCurrent } from '../../../src/screening/snapshots/datasetStream.js';
import { loadSnapshot } from '../../../src/screening/snapshots/loadSnapshot.js';
import { silentLogger } from '../../../src/shared/logger.js';
import { createWorkspace } from '../../../src/workspace/workspaceStore.js';
import { eventually } from '../../support/eventually.js';
import {
  enrollNewSubject,
  recordRun,
  runMonitoringCommand,
  startTestMonitoring,
} from '../../support/monitoringBuilders.js';
import { fixturePath } from '../../support/parsedEntities.js';
import { fastRunnerOptions } from '../../support/subscriptionFixtures.js';
import { openTestEventStore, type TestEventStore } from '../../support/testEventStore.js';

/**
 * A configuration whose latest run was skipped (its list too old) runs again when a fresh list
 * version becomes current (docs/monitoring.md, "Delta re-screening": the sweep adds the
 * configurations whose latest run was skipped). The subjects match nothing the new version adds,
 * changes or removes, so the sweep reaches them only through that rule. The monitoring clock is
 * set: the UN fixture v1 (2026-01-05) is stale at it and v2 (2026-02-10) is fresh.
 */

const DAY_MS = 86_400_000;
const NOW = new Date('2026-02-11T00:00:00.000Z');
const STALE_AFTER_MS = 14 * DAY_MS;

describe('the sweep of a fresh list version', () => {
  let es: TestEventStore;
  let running: RunningProjections;
  let monitoring: Monitoring;
  let indexManager: IndexManager;
  let accountId = '';
  let groupId = '';

  beforeAll(async () => {
    es = await openTestEventStore();
    const { pool } = es.db;
    await installProjections(pool, projections);
    const workspace = await createWorkspace(pool, { name: 'Skipped' });
    accountId = workspace.account.id;
    groupId = workspace.defaultGroup.id;
    running = await startProjections({
      pool,
      databaseUrl: es.db.url,
      store: es.store,
      definitions: projections,
      runner: fastRunnerOptions,
      logger: silentLogger,
    });
    indexManager = new IndexManager({ pool });
    // The sweep is the only trigger after the baselines; lists older than 14 days are stale.
    monitoring = startTestMonitoring(es, indexManager, { staleAfterMs: STALE_AFTER_MS, clock: () => NOW });
  }, 240_000);

  afterAll(async () => {
    await monitoring?.stop();
    indexManager?.close();
    await running?.stop();
    await es?.close();
  }, 240_000);

  const load = (file: string) =>
    loadSnapshot(es.db.pool, {
      format: sourceFormats['un-xml']!,
      paths: [fixturePath('un-xml', 'monitoring', file)],
    });

  const enrolled = async (name: string) =>
    (await enrollNewSubject({ pool: es.db.pool, store: es.store }, { accountId, groupId }, { name }))
      .configId;

  const stateOf = async (id: string): Promise<MonitoringConfigState> =>
    (await monitoringCommandHandler.load(es.store, id)).state!;

  async function sweepOf(snapshotId: string) {
    const { rows } = await es.db.pool.query<{ status: string; stats: Record<string, number> | null }>(
      'SELECT status, stats FROM monitoring_sweeps WHERE snapshot_id = $1',
      [snapshotId],
    );
    return rows[0];
  }

  it('runs again every active configuration whose latest run was skipped, and no other', async () => {
    const v1 = await load('v1.xml');
    await recordSnapshotBecameCurrent(es.store, v1.snapshot);
    const skipped = await enrolled('Quentin Zephyrbottom');
    const failed = await enrolled('Ottoline Wraxhall');
    const paused = await enrolled('Perpetua Grimsditch');
    const all = [skipped, failed, paused];

    // Their baselines, against v1 only, are skipped: v1 is 37 days old at the monitoring clock.
    await eventually(async () => {
      for (const id of all) {
        const state = await stateOf(id);
        expect(state.latestResult, id).toBe('skipped');
        expect(state.latestResultSummary).toContain('un_sc_sanctions');
      }
      expect((await sweepOf(v1.snapshot.id))?.status).toBe('done');
    }, 60_000);
    await monitoring.idle();

    // The controls: one whose latest run failed since, and one paused, skipped still.
    const failedRun = monitoringRunId(failed, `operator:${randomUUID()}`);
    const at = NOW.toISOString();
    await recordRun(es.store, failed, [
      {
        type: 'MonitoringRunStarted',
        data: { runId: failedRun, trigger: { kind: 'operator' }, checkTypes: ['sanctions'], occurredAt: at },
      },
      {
        type: 'MonitoringRunFailed',
        data: { runId: failedRun, errorMessage: 'set by the test', occurredAt: at },
      },
    ]);
    await runMonitoringCommand(es.store, paused, {
      type: 'Update',
      changes: { status: 'paused' },
      groupMemberIds: [],
      actor: SYSTEM_ACTOR,
      now: at,
    });

    // v2 becomes current, as `casescreen sources load` records it.
    const v2 = await load('v2.xml');
    await recordSnapshotBecameCurrent(es.store, v2.snapshot, v2.delta ?? null);
    const snapshotRun = (id: string) => monitoringRunId(id, `snapshot:${v2.snapshot.id}`);

    await eventually(async () => {
      const state = await stateOf(skipped);
      expect(state.latestRun).toMatchObject({
        runId: snapshotRun(skipped),
        trigger: { kind: 'snapshot', snapshotIds: [v2.snapshot.id] },
        status: 'completed',
      });
      expect(state.latestResult).toBe('no_change');
      expect((await sweepOf(v2.snapshot.id))?.status).toBe('done');
    }, 60_000);

    // The sweep, done, queued the runs it queues: the skipped configuration only.
    expect((await sweepOf(v2.snapshot.id))?.stats).toMatchObject({
      byReverseIndex: 0,
      byObservation: 0,
      skippedBefore: 1,
      queued: 1,
    });
    const { rows } = await es.db.pool.query<{ run_id: string }>(
      'SELECT run_id FROM monitoring_jobs WHERE run_id = ANY($1::text[])',
      [all.map(snapshotRun)],
    );
    expect(rows.map((row) => row.run_id)).toEqual([snapshotRun(skipped)]);
    expect((await stateOf(failed)).latestRun?.runId).toBe(failedRun);
    expect((await stateOf(paused)).latestResult).toBe('skipped');
  }, 180_000);
});
