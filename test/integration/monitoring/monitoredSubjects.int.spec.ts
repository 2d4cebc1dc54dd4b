import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projections } from '../../../projections/registry.js';
import { installProjections } from '../../../projections/registryStore.js';
import { type RunningProjections, startProjections } from '../../../projections/startProjections.js';
import { SYSTEM_ACTOR } from '../../../src/cases/caseEvents.js';
import { MonitoredSubjects } from '../../../src/monitoring/delta/monitoredSubjects.js';
import { monitoringRunId } from '../../../src/monitoring/monitoringReferences.js';
import { defaultProfile } from '../../../src/screening/scoring/profiles.js';
import { silentLogger } from '../../../src/shared/logger.js';
import { createWorkspace } from '../../../src/workspace/workspaceStore.js';
import { eventually } from '../../support/eventually.js';
import { listedParty } from '../../support/listedEntities.js';
import { enrollNewSubject, recordRun, runMonitoringCommand } from '../../support/monitoringBuilders.js';
import { fastRunnerOptions } from '../../support/subscriptionFixtures.js';
import { openTestEventStore, type TestEventStore } from '../../support/testEventStore.js';

/**
 * The warm reverse index (docs/monitoring.md, "The reverse index"): brought up to date from
 * `monitoring_configs`, it holds exactly the active configurations' subjects, and a run (which
 * moves a configuration's revision but not its subject) is not indexed again.
 */

const bout = listedParty('test:bout', ['Viktor BOUT']);

describe('MonitoredSubjects', () => {
  let es: TestEventStore;
  let running: RunningProjections;
  let where = { accountId: '', groupId: '' };

  beforeAll(async () => {
    es = await openTestEventStore();
    await installProjections(es.db.pool, projections);
    const workspace = await createWorkspace(es.db.pool, { name: 'Warm index' });
    where = { accountId: workspace.account.id, groupId: workspace.defaultGroup.id };
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

  const projected = (configId: string, status: string) =>
    eventually(async () => {
      const { rows } = await es.db.pool.query(
        'SELECT status FROM monitoring_configs WHERE monitoring_config_id = $1',
        [configId],
      );
      expect(rows[0]?.status).toBe(status);
    });
  const revisionOf = async (configId: string) =>
    Number(
      (
        await es.db.pool.query('SELECT revision FROM monitoring_configs WHERE monitoring_config_id = $1', [
          configId,
        ])
      ).rows[0]!.revision,
    );

  it('follows enrollments and pauses, and leaves a configuration that only ran as it was indexed', async () => {
    const deps = { pool: es.db.pool, store: es.store };
    const exact = await enrollNewSubject(deps, where, { name: 'Viktor Bout' });
    const other = await enrollNewSubject(deps, where, { name: 'Maria Gonzalez' });
    await projected(exact.configId, 'active');
    await projected(other.configId, 'active');

    const subjects = new MonitoredSubjects(es.db.pool);
    const first = await subjects.current();
    expect(first.size).toBe(2);
    expect(first.candidatesFor(bout, defaultProfile())).toEqual([exact.configId]);
    expect(await subjects.refresh()).toBe(0);

    // Enrolled after the index was built: found by the next refresh.
    const typo = await enrollNewSubject(deps, where, { name: 'Viktor Butt' });
    await projected(typo.configId, 'active');
    expect(await subjects.refresh()).toBe(1);
    expect((await subjects.current()).candidatesFor(bout, defaultProfile()).sort()).toEqual(
      [exact.configId, typo.configId].sort(),
    );

    // A run moves the revision, not the subject: read again, not indexed again.
    const before = await revisionOf(other.configId);
    const runId = monitoringRunId(other.configId, 'operator:warm-index');
    const at = new Date().toISOString();
    await recordRun(es.store, other.configId, [
      {
        type: 'MonitoringRunStarted',
        data: { runId, trigger: { kind: 'operator' }, checkTypes: ['sanctions'], occurredAt: at },
      },
      { type: 'MonitoringRunFailed', data: { runId, errorMessage: 'set by the test', occurredAt: at } },
    ]);
    await eventually(async () => expect(await revisionOf(other.configId)).toBeGreaterThan(before));
    expect(await subjects.refresh()).toBe(0);

    // Paused: out of the index; resumed: back in.
    const setStatus = (status: 'paused' | 'active') =>
      runMonitoringCommand(es.store, exact.configId, {
        type: 'Update',
        changes: { status },
        groupMemberIds: [],
        actor: SYSTEM_ACTOR,
        now: new Date().toISOString(),
      });
    await setStatus('paused');
    await projected(exact.configId, 'paused');
    const paused = await subjects.current();
    expect(paused.size).toBe(2);
    expect(paused.candidatesFor(bout, defaultProfile())).toEqual([typo.configId]);
    await setStatus('active');
    await projected(exact.configId, 'active');
    expect((await subjects.current()).candidatesFor(bout, defaultProfile()).sort()).toEqual(
      [exact.configId, typo.configId].sort(),
    );
  });

  it('changes nothing under a search in progress: a refresh asked meanwhile waits for it', async () => {
    const deps = { pool: es.db.pool, store: es.store };
    // Counts the scans that start a refresh.
    let scans = 0;
    const counting = Object.create(es.db.pool) as pg.Pool;
    counting.query = ((...args: Parameters<pg.Pool['query']>) => {
      if (String(args[0]).includes('revision FROM monitoring_configs')) scans++;
      return (es.db.pool.query as (...a: unknown[]) => unknown)(...args);
    }) as pg.Pool['query'];
    const subjects = new MonitoredSubjects(counting);
    await subjects.current();
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const sizes: number[] = [];
    const search = subjects.withCurrent(async (index) => {
      sizes.push(index.size);
      await held;
      sizes.push(index.size);
      return index.size;
    });
    await eventually(async () => expect(sizes).toHaveLength(1));
    const later = await enrollNewSubject(deps, where, { name: 'Viktor But' });
    await projected(later.configId, 'active');
    const scansBefore = scans;
    const refresh = subjects.refresh();
    // Unblocked, the refresh would have sent its scan by now (it starts within the same turn).
    await new Promise((resolve) => setImmediate(resolve));
    expect(scans).toBe(scansBefore);
    release();
    expect(await search).toBe(sizes[0]);
    expect(sizes[1]).toBe(sizes[0]);
    expect(await refresh).toBe(1);
    expect(scans).toBe(scansBefore + 1);
    expect((await subjects.current()).size).toBe(sizes[0]! + 1);
  });
});
