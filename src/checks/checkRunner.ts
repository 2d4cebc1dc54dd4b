import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type pg from 'pg';
import { type CaseCommand, decide } from '../cases/caseDecide.js';
import type { MaybeCase } from '../cases/caseState.js';
import { findCheck } from '../cases/caseState.js';
import {
  type CaseCommandOutcome,
  caseCommandHandler,
  caseStream,
  type LoadedCase,
  loadCase,
  runCaseCommand,
} from '../cases/caseStream.js';
import { newNotificationSender, wakeOnNotify } from '../db/notifications.js';
import { type EventStore, WrongExpectedVersionError } from '../eventStore/eventStore.js';
import type { CheckType } from '../screening/checkTypes.js';
import { type Clock, systemClock } from '../shared/clock.js';
import { IdleWorkerWakeups } from '../shared/idleWorkerWakeups.js';
import { keepLease } from '../shared/leaseKeeper.js';
import { type Logger, silentLogger } from '../shared/logger.js';
import { maxAttempts, nextRetry } from '../shared/retrySchedule.js';
import { sleep } from '../shared/sleep.js';
import { describeError } from '../subscriptions/failurePolicy.js';
import {
  createSubscriptionRunner,
  type SubscriptionRunner,
  type SubscriptionRunnerOptions,
} from '../subscriptions/subscriptionRunner.js';
import { completedEventIds, type EventIdOf, failedEventIds, startedEventIds } from './checkEventIds.js';
import {
  type Claim,
  type ClaimedJob,
  claimNextJob,
  markJobDone,
  releaseJob,
  renewLease,
  retryJobLater,
} from './checkJobs.js';
import { CHECK_JOBS_CHANNEL, checkSchedulerHandler } from './checkScheduler.js';
import { screeningErrorReason, workerLostReason } from './failureReasons.js';
import { IndexManager, WaitAbortedError } from './indexManager.js';
import { type CheckScreener, createCheckScreener } from './screenCheck.js';

/**
 * The check runner (docs/check-runner.md): the scheduler reactor that queues a job per check, and
 * `workers` loops that claim due jobs, screen, and append the outcome to the case stream.
 *
 * One job, one claim:
 * 1. claim (attempts + 1, a lease), renewed every third of the lease while the worker holds it;
 * 2. read the case: a check already completed or failed (a crash after its append) only marks the
 *    job done; after the last attempt was lost with its worker, the check fails (`worker_lost`);
 * 3. prepare the screening (profile, sources, index): a refusal (`source_unavailable`) fails the
 *    check at once;
 * 4. append CheckStarted (ids of this attempt), search, append CheckCompleted (ids of the check,
 *    the same for every attempt: a second completion is a no-op), mark the job done;
 * 5. an error anywhere: queue the job again after the next delay, or after the last attempt fail
 *    the check (`screening_error`).
 *
 * A worker that dies leaves its job `running`; when the lease runs out another worker takes it
 * over as the next attempt. No step holds a transaction open while it screens.
 */
export interface CheckRunnerOptions {
  pool: pg.Pool;
  /** For the scheduler's leadership session. */
  databaseUrl: string;
  store: EventStore;
  logger?: Logger;
  /** Checks screened at once in this process (CHECK_WORKERS); 0 runs the scheduler only. */
  workers: number;
  /** How long a claim holds a job without renewal (CHECK_LEASE). */
  leaseMs: number;
  /** Delays before attempts 2, 3, ... after transient errors (CHECK_RETRY_DELAYS). */
  retryDelaysMs: readonly number[];
  /** How often an idle worker looks for due jobs (CHECK_POLL_INTERVAL_MS). */
  pollIntervalMs: number;
  /** SOURCE_STALE_AFTER: older sources refuse their check types. */
  staleAfterMs: number;
  /** Run the scheduler reactor in this process (default true; one process leads it). */
  scheduler?: boolean;
  /** The time of the events a worker records. */
  clock?: Clock;
  schedulerRunner?: Pick<
    SubscriptionRunnerOptions,
    'batchSize' | 'retry' | 'standbyRetryMs' | 'parkedPollMs'
  >;
  /** How long one reading of the current snapshot ids is shared by jobs (default 1.5 s). */
  indexRefreshMs?: number;
  /** One index per process, shared with monitoring (workers.ts); made here when not given. */
  indexManager?: IndexManager;
  /** Build the index at start-up rather than for the first job (default true when workers > 0). */
  warmUp?: boolean;
  /** Replaces the screening step (tests use a double to inject errors). */
  screen?: CheckScreener;
  /** Prefix of the lease owner names (default host:pid:random). */
  name?: string;
}

export type JobOutcome =
  /** CheckCompleted appended (or found appended by an earlier attempt). */
  | 'completed'
  /** CheckFailed appended. */
  | 'failed'
  /** The case stream already showed the check ended: the job was only marked done. */
  | 'already_ended'
  /** A transient error: the job is queued again for a later attempt. */
  | 'retry'
  /** The worker stopped before writing anything: the job was given back. */
  | 'released'
  /** Another worker took the job over; this one left it. */
  | 'lease_lost'
  /** The job's bookkeeping failed; its lease will run out and another worker takes it. */
  | 'abandoned';

export interface JobReport {
  checkReference: string;
  checkType: CheckType;
  attempt: number;
  worker: string;
  outcome: JobOutcome;
  /** From the claim to the outcome. */
  durationMs: number;
  /** Waiting for the screening index (a build), within durationMs. */
  prepareMs?: number;
  matchCount?: number;
  failureReason?: string;
  error?: string;
}

export interface CheckRunner {
  readonly indexManager: IndexManager;
  /** The scheduler reactor's runner, when this process runs it. */
  readonly scheduler: SubscriptionRunner | undefined;
  /** Workers look for due jobs now instead of at their next poll. */
  wake(): void;
  onJob(listener: (report: JobReport) => void): () => void;
  /**
   * Stops claiming. A check being screened finishes; a job still waiting for the index is given
   * back at once; the scheduler's batch in flight commits or rolls back.
   */
  stop(): Promise<void>;
}

/**
 * Attempts after the last allowed one that only try to record the check's failure; then the job is
 * set aside (done, with `last_error` saying so) instead of cycling through leases forever.
 */
const EXTRA_ATTEMPTS_TO_RECORD_FAILURE = 2;

export function defaultWorkerName(): string {
  return `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

export function startCheckRunner(options: CheckRunnerOptions): CheckRunner {
  const { pool, store, leaseMs, retryDelaysMs, pollIntervalMs } = options;
  const logger = options.logger ?? silentLogger;
  const name = options.name ?? defaultWorkerName();
  const attemptsAllowed = maxAttempts(retryDelaysMs);
  const indexManager =
    options.indexManager ??
    new IndexManager({
      pool,
      logger,
      ...(options.indexRefreshMs !== undefined && { refreshMs: options.indexRefreshMs }),
    });
  const screen = options.screen ?? createCheckScreener({ indexManager, staleAfterMs: options.staleAfterMs });
  const stopping = new AbortController();
  const idleWorkers = new IdleWorkerWakeups();
  const listeners = new Set<(report: JobReport) => void>();

  /** Whether the scheduler's batch being committed queued jobs. */
  let queuedInBatch = false;
  const sender = newNotificationSender();
  const scheduler =
    options.scheduler === false
      ? undefined
      : createSubscriptionRunner({
          ...options.schedulerRunner,
          pool,
          databaseUrl: options.databaseUrl,
          store,
          handler: checkSchedulerHandler({
            sender,
            onQueued: () => {
              queuedInBatch = true;
            },
          }),
          logger,
        });
  // Jobs queued by this process's scheduler are claimed at once; other processes' through the notification.
  scheduler?.onCommit(() => {
    if (!queuedInBatch) return;
    queuedInBatch = false;
    idleWorkers.ring();
  });
  scheduler?.start();
  const notifications =
    options.workers > 0
      ? wakeOnNotify(options.databaseUrl, CHECK_JOBS_CHANNEL, () => idleWorkers.ring(), sender)
      : undefined;

  if (options.workers > 0 && options.warmUp !== false && !options.screen) indexManager.warmUp();

  const report = (entry: JobReport) => {
    const fields = { ...entry, durationMs: Math.round(entry.durationMs) };
    if (entry.outcome === 'retry' || entry.outcome === 'abandoned' || entry.outcome === 'lease_lost') {
      logger.warn(fields, `check ${entry.outcome}`);
    } else {
      logger.info(fields, `check ${entry.outcome}`);
    }
    for (const listener of listeners) listener(entry);
  };

  const clock = options.clock ?? systemClock;
  const nowIso = () => clock().toISOString();

  /** Runs a command of the check runner on the check's case. */
  async function append(job: ClaimedJob, command: CaseCommand, ids: EventIdOf) {
    return runCaseCommand(store, job.caseReference, command, ids);
  }

  async function failCheck(job: ClaimedJob, claim: Claim, failureReason: string): Promise<JobOutcome> {
    const outcome = await append(
      job,
      {
        type: 'FailCheck',
        checkReference: job.checkReference,
        attempt: job.attempts,
        failureReason,
        now: nowIso(),
      },
      failedEventIds(job.checkReference),
    );
    await markJobDone(pool, claim, outcome.ok ? failureReason : outcome.rejection.message);
    return outcome.ok ? 'failed' : 'already_ended';
  }

  /**
   * CheckStarted and CheckCompleted in one append, at the revision the worker read: the screen itself
   * is synchronous, so no reader could have seen the check `running` between two appends, and one
   * append wakes every subscriber once instead of twice. When the case moved meanwhile, the two
   * commands run one after the other on its newer state (`ended`: the check ended meanwhile).
   */
  async function appendStartAndCompletion(
    job: ClaimedJob,
    loaded: LoadedCase,
    start: CaseCommand,
    complete: CaseCommand,
    onStartAppended: () => void,
  ): Promise<CaseCommandOutcome | 'ended'> {
    const started = decide(start, loaded.state);
    const afterStart = started.ok ? started.events.reduce<MaybeCase>(caseStream.evolve, loaded.state) : null;
    const completion = afterStart ? decide(complete, afterStart) : undefined;
    if (started.ok && completion?.ok) {
      const startedIds = startedEventIds(job.checkReference, job.attempts);
      const completedIds = completedEventIds(job.checkReference);
      try {
        await store.appendToStream(
          caseCommandHandler.streamName(job.caseReference),
          [
            ...started.events.map((event, i) => ({ id: startedIds(i), type: event.type, data: event.data })),
            ...completion.events.map((event, i) => ({
              id: completedIds(i),
              type: event.type,
              data: event.data,
            })),
          ],
          { expectedRevision: loaded.revision },
        );
        onStartAppended();
        const state = completion.events.reduce<MaybeCase>(caseStream.evolve, afterStart);
        return { ok: true, state: state!, appended: completion.events, alreadyApplied: false };
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError)) throw error;
      }
    }
    const startOutcome = await append(job, start, startedEventIds(job.checkReference, job.attempts));
    onStartAppended();
    if (!startOutcome.ok) return 'ended';
    return append(job, complete, completedEventIds(job.checkReference));
  }

  async function processJob(job: ClaimedJob, worker: string): Promise<void> {
    const began = performance.now();
    const claim: Claim = { checkReference: job.checkReference, leaseOwner: worker, attempts: job.attempts };
    const lease = keepLease({
      leaseMs,
      renew: () => renewLease(pool, claim, leaseMs),
      onRenewalError: (error) =>
        logger.warn(
          { checkReference: claim.checkReference, error: describeError(error) },
          'lease renewal failed',
        ),
    });
    // Aborted when the runner stops or the lease is lost. A controller of its own, held by the
    // listeners on both sources, rather than AbortSignal.any: a dependent signal is only weakly
    // held by its sources, and a wait that nothing else references could lose its abort.
    const aborting = new AbortController();
    const abort = () => aborting.abort();
    stopping.signal.addEventListener('abort', abort, { once: true });
    lease.lost.addEventListener('abort', abort, { once: true });
    if (stopping.signal.aborted || lease.lost.aborted) abort();
    const signal = aborting.signal;
    const base = {
      checkReference: job.checkReference,
      checkType: job.checkType,
      attempt: job.attempts,
      worker,
    };
    let startAppended = false;
    let prepareMs: number | undefined;
    try {
      const loaded = await loadCase(store, job.caseReference);
      const check = loaded.state ? findCheck(loaded.state, job.checkReference) : undefined;
      if (!loaded.state || !check) {
        await markJobDone(pool, claim, 'no such check on the case stream');
        report({
          ...base,
          outcome: 'already_ended',
          durationMs: performance.now() - began,
          error: 'no such check',
        });
        return;
      }
      if (check.lifecycleStatus === 'completed' || check.lifecycleStatus === 'failed') {
        await markJobDone(pool, claim);
        report({ ...base, outcome: 'already_ended', durationMs: performance.now() - began });
        return;
      }
      if (job.attempts > attemptsAllowed) {
        // The last allowed attempt ended with its worker (the lease expired): do not try again.
        const failureReason = workerLostReason(attemptsAllowed);
        const outcome = await failCheck(job, claim, failureReason);
        report({ ...base, outcome, durationMs: performance.now() - began, failureReason });
        return;
      }

      if (signal.aborted) throw new WaitAbortedError('aborted');
      const preparing = performance.now();
      const preparation = await screen({ state: loaded.state, check, signal });
      prepareMs = performance.now() - preparing;
      if (preparation.kind === 'refused') {
        const { failureReason } = preparation;
        const outcome = await failCheck(job, claim, failureReason);
        report({ ...base, outcome, durationMs: performance.now() - began, prepareMs, failureReason });
        return;
      }
      if (signal.aborted) throw new WaitAbortedError('aborted');

      const start: CaseCommand = {
        type: 'StartCheck',
        checkReference: job.checkReference,
        attempt: job.attempts,
        worker,
        now: nowIso(),
      };
      if (!decide(start, loaded.state).ok) {
        // Ended meanwhile (another worker, after this one's lease was taken over).
        await markJobDone(pool, claim);
        report({ ...base, outcome: 'already_ended', durationMs: performance.now() - began });
        return;
      }
      let result: ReturnType<typeof preparation.run>;
      try {
        result = preparation.run();
      } catch (error) {
        // The attempt started, as the case's history must show, and failed: recorded, then retried.
        await append(job, start, startedEventIds(job.checkReference, job.attempts));
        startAppended = true;
        throw error;
      }
      const complete: CaseCommand = {
        type: 'CompleteCheck',
        checkReference: job.checkReference,
        attempt: job.attempts,
        ...result,
        now: nowIso(),
      };
      const completed = await appendStartAndCompletion(job, loaded, start, complete, () => {
        startAppended = true;
      });
      if (completed === 'ended') {
        await markJobDone(pool, claim);
        report({ ...base, outcome: 'already_ended', durationMs: performance.now() - began });
        return;
      }
      await markJobDone(pool, claim, completed.ok ? null : completed.rejection.message);
      report({
        ...base,
        outcome: completed.ok && !completed.alreadyApplied ? 'completed' : 'already_ended',
        durationMs: performance.now() - began,
        prepareMs,
        matchCount: result.matches.length,
      });
    } catch (error) {
      await handleError(job, claim, error, { base, began, prepareMs, startAppended, signal });
    } finally {
      lease.stop();
      stopping.signal.removeEventListener('abort', abort);
    }
  }

  async function handleError(
    job: ClaimedJob,
    claim: Claim,
    error: unknown,
    context: {
      base: Pick<JobReport, 'checkReference' | 'checkType' | 'attempt' | 'worker'>;
      began: number;
      prepareMs: number | undefined;
      startAppended: boolean;
      signal: AbortSignal;
    },
  ): Promise<void> {
    const { base, began } = context;
    const durationMs = () => performance.now() - began;
    const text = describeError(error);
    try {
      if (error instanceof WaitAbortedError || context.signal.aborted) {
        if (!stopping.signal.aborted) {
          report({ ...base, outcome: 'lease_lost', durationMs: durationMs(), error: text });
          return;
        }
        // Stopping while it waited for the index: nothing was written for this attempt.
        if (!context.startAppended && (await releaseJob(pool, claim))) {
          report({ ...base, outcome: 'released', durationMs: durationMs() });
          return;
        }
      }
      const step = nextRetry(job.attempts, retryDelaysMs);
      if (step.kind === 'retry') {
        await retryJobLater(pool, claim, step.delayMs, `attempt ${job.attempts}: ${text}`);
        report({ ...base, outcome: 'retry', durationMs: durationMs(), error: text });
        return;
      }
      const failureReason = screeningErrorReason(error, job.attempts);
      const outcome = await failCheck(job, claim, failureReason);
      logger.error({ ...base, error: text }, 'check failed after its last attempt');
      report({ ...base, outcome, durationMs: durationMs(), failureReason, error: text });
    } catch (bookkeeping) {
      // The database is likely down: the lease runs out and another attempt takes over. A check
      // whose outcome could not be appended even after the extra attempts (its case stream cannot
      // be read or written, the database answering otherwise) is set aside for an operator.
      const detail = `${text}; then: ${describeError(bookkeeping)}`;
      if (job.attempts >= attemptsAllowed + EXTRA_ATTEMPTS_TO_RECORD_FAILURE) {
        await markJobDone(pool, claim, `gave up: the outcome could not be recorded: ${detail}`).catch(
          () => {},
        );
        logger.error({ ...base, error: detail }, 'check set aside: its outcome could not be recorded');
      }
      report({ ...base, outcome: 'abandoned', durationMs: durationMs(), error: detail });
    }
  }

  async function workerLoop(slot: number): Promise<void> {
    const worker = `${name}/${slot}`;
    if (!options.screen) await indexManager.firstIndex(stopping.signal);
    while (!stopping.signal.aborted) {
      const seen = idleWorkers.rung;
      let job: ClaimedJob | undefined;
      try {
        job = await claimNextJob(pool, worker, leaseMs);
      } catch (error) {
        logger.warn({ worker, error: describeError(error) }, 'claiming a check job failed');
        await sleep(pollIntervalMs, stopping.signal);
        continue;
      }
      if (!job) {
        await idleWorkers.wait(seen, pollIntervalMs, stopping.signal);
        continue;
      }
      if (job.tookOver) {
        logger.warn(
          { checkReference: job.checkReference, attempt: job.attempts, worker },
          'took over an expired lease',
        );
      }
      await processJob(job, worker);
    }
  }

  const loops = Array.from({ length: options.workers }, (_, slot) => workerLoop(slot));

  return {
    indexManager,
    scheduler,
    wake: () => idleWorkers.ring(),
    onJob(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    async stop() {
      stopping.abort();
      await Promise.all(loops);
      await notifications?.close();
      await scheduler?.stop();
      indexManager.close();
    },
  };
}
