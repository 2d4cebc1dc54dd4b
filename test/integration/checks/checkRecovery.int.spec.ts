import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCaseCommand } from '../../../src/cases/caseStream.js';
import { caseReferenceOfCheck } from '../../../src/cases/references.js';
import { completedEventIds, startedEventIds } from '../../../src/checks/checkEventIds.js';
import { claimNextJob, findJob } from '../../../src/checks/checkJobs.js';
import type { CheckRunner, CheckRunnerOptions, JobReport } from '../../../src/checks/checkRunner.js';
import { IndexManager } from '../../../src/checks/indexManager.js';
import { type CheckScreener, createCheckScreener } from '../../../src/checks/screenCheck.js';
import type { ReadySnapshot } from '../../../src/screening/snapshots/snapshotStore.js';
import { eventually } from '../../support/eventually.js';
import { openTestEventStore, type TestEventStore } from '../../support/testEventStore.js';
import {
  checkEnded,
  checkEvents,
  createCase,
  expireJobLease,
  loadUnList,
  personSubject,
  STALE_AFTER_MS,
  testRunner,
} from './checkFixtures.js';

/**
 * Crashes and errors. Each test has a database of its own: a test claims jobs by hand, and must
 * find only its own.
 */
describe('check runner recovery', () => {
  let es: TestEventStore;
  let un: ReadySnapshot;
  const runners: CheckRunner[] = [];

  beforeEach(async () => {
    es = await openTestEventStore();
    un = await loadUnList(es.db);
  });
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((runner) => runner.stop()));
    await es.close();
  });

  const start = (overrides: Partial<CheckRunnerOptions> = {}) => {
    const runner = testRunner(es.db, es.store, overrides);
    runners.push(runner);
    return runner;
  };

  /** A case whose one sanctions check is queued in check_jobs (by a scheduler-only runner). */
  async function queuedCheck(name = 'Ivan Testov'): Promise<string> {
    start({ workers: 0 });
    const check = `${await createCase(es.store, personSubject(name), ['sanctions'])}-1`;
    await eventually(async () => expect((await findJob(es.db.pool, check))?.status).toBe('queued'));
    return check;
  }

  /** What a worker does before it dies mid-check: claim the job, append CheckStarted. Its lease holds. */
  async function claimAndDie(check: string) {
    const job = await claimNextJob(es.db.pool, 'dead-worker/0', 600_000);
    expect(job?.checkReference).toBe(check);
    const started = await runCaseCommand(
      es.store,
      caseReferenceOfCheck(check),
      {
        type: 'StartCheck',
        checkReference: check,
        attempt: 1,
        worker: 'dead-worker/0',
        now: new Date().toISOString(),
      },
      startedEventIds(check, 1),
    );
    expect(started.ok).toBe(true);
    return job!;
  }

  it('takes over the check of a worker that died mid-check once its lease expires, and completes it', async () => {
    const check = await queuedCheck();
    await claimAndDie(check);
    expect(await expireJobLease(es.db, check)).toBe(true);
    const reports: JobReport[] = [];
    start().onJob((report) => reports.push(report));

    const ended = await checkEnded(es.store, check);
    expect(ended).toMatchObject({ lifecycleStatus: 'completed', attempts: 2 });
    expect(ended.matches[0]?.matchedEntityId).toBe('un_sc_sanctions:900001');
    const events = await checkEvents(es.store, check);
    expect(events.started.map((started) => [started.attempt, started.worker])).toEqual([
      [1, 'dead-worker/0'],
      [2, expect.stringMatching(/\/\d+$/)],
    ]);
    expect(events.completed.map((completed) => completed.attempt)).toEqual([2]);
    await eventually(() => expect(reports.map((report) => report.outcome)).toEqual(['completed']));
    const job = await findJob(es.db.pool, check);
    expect(job).toMatchObject({ status: 'done', attempts: 2, leaseOwner: null });
    expect(job?.lastError).toBe('attempt 1: the lease of dead-worker/0 expired');
  });

  it('does not take a job over while its lease is held', async () => {
    const check = await queuedCheck();
    await claimAndDie(check);
    // The claim every worker makes finds nothing to take while the lease holds.
    expect(await claimNextJob(es.db.pool, 'live-worker/0', 600_000)).toBeUndefined();
    // A running runner screens a check queued after it, and still leaves the held one alone.
    start();
    // Not through queuedCheck: the running worker may screen it before a poll sees it queued.
    const later = `${await createCase(es.store, personSubject('Ahmad Exampli'), ['sanctions'])}-1`;
    expect(await checkEnded(es.store, later)).toMatchObject({ lifecycleStatus: 'completed', attempts: 1 });
    expect(await findJob(es.db.pool, check)).toMatchObject({ status: 'running', attempts: 1 });
    expect((await checkEvents(es.store, check)).started).toHaveLength(1);
  });

  it('only marks the job done when the check was completed before its worker crashed', async () => {
    const check = await queuedCheck();
    await claimAndDie(check);
    expect(await expireJobLease(es.db, check)).toBe(true);
    const completed = await runCaseCommand(
      es.store,
      caseReferenceOfCheck(check),
      {
        type: 'CompleteCheck',
        checkReference: check,
        attempt: 1,
        screeningProfileId: 'default',
        threshold: 0.63,
        snapshots: [{ id: un.id, dataset: un.dataset, version: un.version }],
        matches: [],
        now: new Date().toISOString(),
      },
      completedEventIds(check),
    );
    expect(completed.ok).toBe(true);
    const reports: JobReport[] = [];
    start().onJob((report) => reports.push(report));

    await eventually(async () => expect((await findJob(es.db.pool, check))?.status).toBe('done'));
    const events = await checkEvents(es.store, check);
    expect(events.completed).toHaveLength(1);
    expect(events.started).toHaveLength(1);
    await eventually(() => expect(reports.map((report) => report.outcome)).toEqual(['already_ended']));
  });

  it('appends a completion that another attempt already appended only once', async () => {
    const check = await queuedCheck();
    const worker = await claimAndDie(check);
    // The dead worker's completion, with the ids every attempt uses; the new attempt finds it.
    const complete = (attempt: number) =>
      runCaseCommand(
        es.store,
        caseReferenceOfCheck(check),
        {
          type: 'CompleteCheck',
          checkReference: check,
          attempt,
          screeningProfileId: 'default',
          threshold: 0.63,
          snapshots: [],
          matches: [],
          now: new Date().toISOString(),
        },
        completedEventIds(check),
      );
    expect(await complete(worker.attempts)).toMatchObject({ ok: true, alreadyApplied: false });
    expect(await complete(worker.attempts + 1)).toMatchObject({ ok: true, alreadyApplied: true });
    expect((await checkEvents(es.store, check)).completed).toHaveLength(1);
  });

  it('retries transient errors with backoff and completes when they pass', async () => {
    const check = await queuedCheck();
    const indexManager = new IndexManager({ pool: es.db.pool, refreshMs: 50 });
    const real = createCheckScreener({ indexManager, staleAfterMs: STALE_AFTER_MS });
    let calls = 0;
    const flaky: CheckScreener = async (request) => {
      calls++;
      if (calls <= 2) throw Object.assign(new Error('connection terminated unexpectedly'), { code: '57P01' });
      return real(request);
    };
    const reports: JobReport[] = [];
    start({ screen: flaky, retryDelaysMs: [50, 50, 50] }).onJob((report) => reports.push(report));

    const ended = await checkEnded(es.store, check);
    expect(ended).toMatchObject({ lifecycleStatus: 'completed', attempts: 3 });
    await eventually(() =>
      expect(reports.map((report) => report.outcome)).toEqual(['retry', 'retry', 'completed']),
    );
    const events = await checkEvents(es.store, check);
    expect(events.started.map((started) => started.attempt)).toEqual([3]);
    expect(await findJob(es.db.pool, check)).toMatchObject({ status: 'done', attempts: 3 });
    indexManager.close();
  });

  it('fails a check after the last attempt when the error persists, with a clear reason', async () => {
    const check = await queuedCheck();
    // Ready to screen, then the search itself throws: every attempt starts, none completes.
    const broken: CheckScreener = async () => ({
      kind: 'ready',
      run() {
        throw new TypeError("Cannot read properties of undefined (reading 'names')");
      },
    });
    const reports: JobReport[] = [];
    start({ screen: broken, retryDelaysMs: [20, 40, 80] }).onJob((report) => reports.push(report));

    const ended = await checkEnded(es.store, check);
    expect(ended).toMatchObject({
      lifecycleStatus: 'failed',
      attempts: 4,
      failureReason:
        'screening_error: 4 attempts failed, the last because of an unexpected error; the check was not screened',
      matches: [],
    });
    const events = await checkEvents(es.store, check);
    expect(events.started.map((started) => started.attempt)).toEqual([1, 2, 3, 4]);
    expect(events.failed).toHaveLength(1);
    expect(events.completed).toHaveLength(0);
    await eventually(() =>
      expect(reports.map((report) => report.outcome)).toEqual(['retry', 'retry', 'retry', 'failed']),
    );
    const job = await findJob(es.db.pool, check);
    expect(job?.status).toBe('done');
    expect(job?.lastError).toBe(ended.failureReason);
  });

  it('fails a check whose last allowed attempt was lost with its worker, instead of trying again', async () => {
    const check = await queuedCheck();
    await claimAndDie(check);
    expect(await expireJobLease(es.db, check)).toBe(true);
    start({ retryDelaysMs: [] });
    const ended = await checkEnded(es.store, check);
    expect(ended.lifecycleStatus).toBe('failed');
    expect(ended.failureReason).toMatch(/^worker_lost: /);
    expect((await checkEvents(es.store, check)).started).toHaveLength(1);
  });

  it('gives a job waiting for the index back when the runner stops', async () => {
    const check = await queuedCheck();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const waiting: CheckScreener = async ({ signal }) => {
      await new Promise<void>((resolve) => {
        if (signal.aborted) resolve();
        signal.addEventListener('abort', () => resolve(), { once: true });
        void gate.then(resolve);
      });
      throw new Error('stopped waiting');
    };
    const runner = start({ screen: waiting });
    await eventually(async () => expect((await findJob(es.db.pool, check))?.status).toBe('running'));
    await runner.stop();
    release();
    expect(await findJob(es.db.pool, check)).toMatchObject({
      status: 'queued',
      attempts: 0,
      leaseOwner: null,
    });
    expect((await checkEvents(es.store, check)).started).toHaveLength(0);
  });

  it('sets a job aside when even the failure of its check cannot be recorded, instead of cycling forever', async () => {
    const check = await queuedCheck();
    // The case stream can be read but never written: nothing the worker does can be recorded.
    const readOnly = {
      ...es.store,
      readStream: es.store.readStream.bind(es.store),
      appendToStream: async () => {
        throw new Error('the event store refuses appends');
      },
    };
    const reports: JobReport[] = [];
    const runner = testRunner(es.db, readOnly, { retryDelaysMs: [], scheduler: false });
    runners.push(runner);
    // An abandoned job keeps its lease until it runs out: run it out at once, for the next attempt.
    const expiring: Promise<boolean>[] = [];
    runner.onJob((report) => {
      reports.push(report);
      if (report.outcome === 'abandoned') expiring.push(expireJobLease(es.db, check));
    });

    await eventually(async () => expect((await findJob(es.db.pool, check))?.status).toBe('done'));
    const job = await findJob(es.db.pool, check);
    expect(job?.attempts).toBe(3);
    expect(job?.lastError).toMatch(/^gave up: the outcome could not be recorded: /);
    await eventually(() =>
      expect(reports.map((report) => report.outcome)).toEqual(['abandoned', 'abandoned', 'abandoned']),
    );
    // The first two leases were run out by the test; the third job was set aside, nothing to run out.
    expect(await Promise.all(expiring)).toEqual([true, true, false]);
    expect(await checkEvents(es.store, check)).toMatchObject({ started: [], completed: [], failed: [] });
  });
});
