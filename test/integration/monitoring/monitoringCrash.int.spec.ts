import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCase } from '../../../src/cases/caseStream.js';
import { candidateCaseReference } from '../../../src/cases/references.js';
import { IndexManager } from '../../../src/checks/indexManager.js';
import type { EventStore, NewEvent } from '../../../src/eventStore/eventStore.js';
import { followUpEventId } from '../../../src/monitoring/followUpCase.js';
import { RUN_ATTEMPTS, startMonitoring } from '../../../src/monitoring/monitoringRunner.js';
import { monitoringCommandHandler } from '../../../src/monitoring/monitoringStream.js';
import { runMonitoringJob } from '../../../src/monitoring/runJob.js';
import { silentLogger } from '../../../src/shared/logger.js';
import { eventually } from '../../support/eventually.js';
import { enrollNewSubject, openRunJobBed } from '../../support/monitoringBuilders.js';
import type { TestEventStore } from '../../support/testEventStore.js';

/**
 * A run's steps one by one, with the process "dying" between them (an append that throws, as a
 * kill would leave it), then the job taken over: every alert is kept and one run opens one
 * follow-up case, also when two workers take the same job at once.
 */

const _ACTOR = { type: 'api_client' as const, id: 'key', displayName: 'test key' };

/** The real store, except that the appends `failWhen` picks throw after (or instead of) landing. */
function dyingStore(
  store: EventStore,
  failWhen: (stream: string, events: NewEvent[]) => 'before' | 'after' | null,
) {
  return {
    ...store,
    kind: store.kind,
    readStream: store.readStream.bind(store),
    async appendToStream(
      stream: string,
      events: NewEvent[],
      options?: Parameters<EventStore['appendToStream']>[2],
    ) {
      const when = failWhen(stream, events);
      if (when === 'before') throw new Error(`died before appending to ${stream}`);
      const result = await store.appendToStream(stream, events, options);
      if (when === 'after') throw new Error(`died after appending to ${stream}`);
      return result;
    },
  } as EventStore;
}

describe('a monitoring run interrupted at each step', () => {
  let bed: Awaited<ReturnType<typeof openRunJobBed>>;
  let es: TestEventStore;
  beforeAll(async () => {
    bed = await openRunJobBed('Crashes');
    es = bed.es;
  });
  afterAll(async () => {
    await bed?.close();
  });
  const deps = (store: EventStore) => bed.deps(store);

  /** A subject named `name` enrolled in the default group (its baseline will alert: no case saw it). */
  async function enrolled(name: string) {
    const { configId: id } = await enrollNewSubject({ pool: es.db.pool, store: es.store }, bed.where, {
      name,
    });
    return {
      id,
      job: { runId: `run_${id.slice(4)}`, monitoringConfigId: id, trigger: { kind: 'enrollment' as const } },
    };
  }

  async function history(id: string) {
    return (await monitoringCommandHandler.load(es.store, id)).events.map((stored) => stored.event);
  }

  /** The follow-up cases opened for the run: its candidate references holding its events. */
  async function followUpCases(runId: string) {
    const found: string[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      const reference = candidateCaseReference('monitoring', runId, attempt);
      const { events } = await loadCase(es.store, reference);
      if (events.some((event) => event.id === followUpEventId(runId, 'case', 0))) found.push(reference);
    }
    return found;
  }

  it('dies after recording the run, before its follow-up case: the retry opens the one case and records it', async () => {
    const { id, job } = await enrolled('Ivan Testov');
    const dying = dyingStore(es.store, (stream) => (stream.startsWith('case-') ? 'before' : null));
    await expect(runMonitoringJob(deps(dying), job)).rejects.toThrow(/died before appending to case-/);
    const afterCrash = await history(id);
    expect(afterCrash.map((event) => event.type)).toEqual([
      'MonitoringConfigCreated',
      'MonitoringRunStarted',
      'MonitoringRunCompleted',
      'MonitoringAlertRaised',
      'FollowUpCaseRequested',
    ]);

    const retried = await runMonitoringJob(deps(es.store), job);
    expect(retried).toMatchObject({ kind: 'already_recorded', result: 'new_matches' });
    const events = await history(id);
    expect(events.filter((event) => event.type === 'MonitoringAlertRaised')).toHaveLength(1);
    expect(events.filter((event) => event.type === 'FollowUpCaseCreated')).toHaveLength(1);
    if (retried.kind !== 'already_recorded')
      throw new Error(`the retry did not find the run: ${retried.kind}`);
    expect(await followUpCases(job.runId)).toEqual([retried.followUpCaseReference]);
  });

  it('dies after opening the case, before recording it: the retry finds that case instead of opening another', async () => {
    const { id, job } = await enrolled('Ivan Testov');
    const dying = dyingStore(es.store, (stream, events) =>
      stream === `monitoringConfig-${id}` && events.length === 1 && events[0]!.type === 'FollowUpCaseCreated'
        ? 'before'
        : null,
    );
    await expect(runMonitoringJob(deps(dying), job)).rejects.toThrow(
      /died before appending to monitoringConfig-/,
    );
    const opened = await followUpCases(job.runId);
    expect(opened).toHaveLength(1);

    const retried = await runMonitoringJob(deps(es.store), job);
    expect(retried).toMatchObject({ kind: 'already_recorded', followUpCaseReference: opened[0] });
    expect(await followUpCases(job.runId)).toEqual(opened);
    expect((await history(id)).filter((event) => event.type === 'FollowUpCaseCreated')).toHaveLength(1);
  });

  it('keeps retrying a recorded run whose follow-up case keeps failing, never marking it failed or done', async () => {
    let failing = true;
    const store = dyingStore(es.store, (stream) => (failing && stream.startsWith('case-') ? 'before' : null));
    const indexManager = new IndexManager({ pool: es.db.pool });
    const monitoring = startMonitoring({
      pool: es.db.pool,
      databaseUrl: es.db.url,
      store,
      indexManager,
      logger: silentLogger,
      workers: 1,
      intervalMs: 86_400_000,
      staleAfterMs: 3650 * 86_400_000,
      pollMs: 50,
      retryMs: 10,
    });
    try {
      const { id } = await enrolled('Ivan Testov');
      const job = async () =>
        (
          await es.db.pool.query<{ status: string; attempts: number }>(
            'SELECT status, attempts FROM monitoring_jobs WHERE monitoring_config_id = $1',
            [id],
          )
        ).rows[0];
      await eventually(async () => expect((await job())?.attempts).toBeGreaterThan(RUN_ATTEMPTS), 30_000);
      expect((await job())?.status).not.toBe('done');
      const { state } = await monitoringCommandHandler.load(es.store, id);
      expect(state?.latestResult).toBe('new_matches');
      expect(Object.keys(state!.followUpsInProgress)).toHaveLength(1);

      failing = false;
      await eventually(async () => {
        const { state: after } = await monitoringCommandHandler.load(es.store, id);
        expect(after?.followUpCaseReferences).toHaveLength(1);
        expect((await job())?.status).toBe('done');
      }, 30_000);
    } finally {
      await monitoring.stop();
      indexManager.close();
    }
  });

  it('records a run that keeps throwing as failed, with its message, after the last attempt', async () => {
    const broken = new IndexManager({
      pool: es.db.pool,
      load: () => Promise.reject(new Error('the index cannot be built: disk full')),
    });
    const monitoring = startMonitoring({
      pool: es.db.pool,
      databaseUrl: es.db.url,
      store: es.store,
      indexManager: broken,
      logger: silentLogger,
      workers: 1,
      intervalMs: 86_400_000,
      staleAfterMs: 3650 * 86_400_000,
      pollMs: 50,
      retryMs: 10,
    });
    try {
      const { id } = await enrolled('Ivan Testov');
      await eventually(async () => {
        const { state } = await monitoringCommandHandler.load(es.store, id);
        expect(state?.latestResult).toBe('failed');
        expect(state?.latestResultSummary).toMatch(/disk full/);
      }, 30_000);
      // The job is closed right after the failed run is recorded: wait for that too.
      await eventually(async () => {
        const { rows } = await es.db.pool.query(
          'SELECT status, attempts FROM monitoring_jobs WHERE monitoring_config_id = $1',
          [id],
        );
        expect(rows).toEqual([{ status: 'done', attempts: RUN_ATTEMPTS }]);
      });
    } finally {
      await monitoring.stop();
      broken.close();
    }
  });

  it('dies after the run landed but before it answered: the retry and a concurrent worker record nothing twice', async () => {
    const { id, job } = await enrolled('Ivan Testov');
    const dying = dyingStore(es.store, (stream, events) =>
      stream === `monitoringConfig-${id}` && events[0]?.type === 'MonitoringRunStarted' ? 'after' : null,
    );
    await expect(runMonitoringJob(deps(dying), job)).rejects.toThrow(/died after appending/);

    const both = await Promise.all([
      runMonitoringJob(deps(es.store), job),
      runMonitoringJob(deps(es.store), job),
    ]);
    for (const outcome of both) expect(outcome.kind).toBe('already_recorded');
    const events = await history(id);
    expect(events.filter((event) => event.type === 'MonitoringRunStarted')).toHaveLength(1);
    expect(events.filter((event) => event.type === 'MonitoringAlertRaised')).toHaveLength(1);
    expect(events.filter((event) => event.type === 'FollowUpCaseCreated')).toHaveLength(1);
    expect(await followUpCases(job.runId)).toHaveLength(1);
  });
});
