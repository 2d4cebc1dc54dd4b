import type pg from 'pg';
import { monitoringConfigsProjection } from '../../projections/monitoring/monitoringConfigProjection.js';
import { projectionSubscriptionId } from '../../projections/projection.js';
import { loadRegistryEntry } from '../../projections/registryStore.js';
import { defaultWorkerName } from '../checks/checkRunner.js';
import type { IndexManager } from '../checks/indexManager.js';
import {
  claimNext,
  type LeasedQueue,
  markDone,
  type QueueClaim,
  release,
  renewLease,
  retryLater,
} from '../db/leasedQueue.js';
import type { Checkpoint, EventStore } from '../eventStore/eventStore.js';
import { reconcileCurrentSnapshots } from '../screening/snapshots/datasetStream.js';
import { type Clock, systemClock } from '../shared/clock.js';
import { IdleWorkerWakeups } from '../shared/idleWorkerWakeups.js';
import { keepLease } from '../shared/leaseKeeper.js';
import { type Logger, silentLogger } from '../shared/logger.js';
import { loadCheckpoint } from '../subscriptions/checkpointStore.js';
import { describeError } from '../subscriptions/failurePolicy.js';
import { createSubscriptionRunner, type SubscriptionRunner } from '../subscriptions/subscriptionRunner.js';
import { MonitoredSubjects } from './delta/monitoredSubjects.js';
import { MONITORING_CATEGORY, type RunTrigger } from './monitoringEvents.js';
import { insertRuns, monitoringSchedulerHandler, queuedRun } from './monitoringScheduler.js';
import { recordFailedRun, runMonitoringJob } from './runJob.js';
import { sweepSnapshot } from './sweep.js';

/**
 * Monitoring in a `work` process (docs/monitoring.md, "Operations"): the scheduler reactor (one
 * process leads it), MONITORING_WORKERS workers that work off sweeps first and then runs, and a
 * tick that records list versions a crashed load left unrecorded and queues the safety-net runs.
 */
export interface Monitoring {
  readonly scheduler: SubscriptionRunner;
  /** Resolves when no sweep or run is due and the reverse index holds every projected configuration (tests, benchmarks). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export const RUN_QUEUE: LeasedQueue = { table: 'monitoring_jobs', key: 'run_id' };
export const SWEEP_QUEUE: LeasedQueue = { table: 'monitoring_sweeps', key: 'snapshot_id' };

/**
 * Sweeps and runs hold their claims under a short lease renewed while they work: a dead worker's
 * sweep or run is taken over within one lease (plus a poll).
 */
const LEASE_MS = 15_000;
const LATER_MS = 2_000;
const RETRY_MS = 30_000;
const WAIT_FOR_READ_MODEL_MS = 200;
/** Attempts of a run that throws before it is recorded failed. */
export const RUN_ATTEMPTS = 3;

export interface MonitoringOptions {
  pool: pg.Pool;
  databaseUrl: string;
  store: EventStore;
  indexManager: IndexManager;
  logger?: Logger;
  workers: number;
  intervalMs: number;
  staleAfterMs: number;
  pollMs?: number;
  tickMs?: number;
  /** The wait before a run or sweep that threw is tried again (30 s). */
  retryMs?: number;
  clock?: Clock;
}

export function startMonitoring(options: MonitoringOptions): Monitoring {
  const { pool, store } = options;
  const logger = options.logger ?? silentLogger;
  const clock = options.clock ?? systemClock;
  const pollMs = options.pollMs ?? 1_000;
  const retryMs = options.retryMs ?? RETRY_MS;
  const stopping = new AbortController();
  const wakeups = new IdleWorkerWakeups();
  const idleWaiters = new Set<() => void>();
  let busy = 0;
  // Warm from the start (the first tick, at once, builds it): a sweep then only brings it up to
  // date (docs/monitoring.md).
  const subjects = new MonitoredSubjects(pool);

  function refreshSubjects(): Promise<void> {
    return subjects.refresh().then(
      () => {},
      (error) => {
        if (!stopping.signal.aborted)
          logger.warn({ error: describeError(error) }, 'monitored subjects index refresh failed');
      },
    );
  }

  /** Whether the scheduler's batch being committed queued runs or sweeps. */
  let queuedInBatch = false;
  const scheduler = createSubscriptionRunner({
    pool,
    databaseUrl: options.databaseUrl,
    store,
    handler: monitoringSchedulerHandler({
      pool,
      store,
      clock,
      onQueued: () => {
        queuedInBatch = true;
      },
    }),
    logger,
  });
  scheduler.onCommit(() => {
    if (!queuedInBatch) return;
    queuedInBatch = false;
    wakeups.ring();
  });
  scheduler.start();

  async function workOnce(worker: string): Promise<boolean> {
    const sweep = await claimNext(pool, SWEEP_QUEUE, worker, LEASE_MS);
    if (sweep) {
      await whileLeased(SWEEP_QUEUE, sweep, () => processSweep(sweep));
      return true;
    }
    const job = await claimNext(pool, RUN_QUEUE, worker, LEASE_MS);
    if (job) {
      await whileLeased(RUN_QUEUE, job, () => processRun(job));
      return true;
    }
    return false;
  }

  /** A claim lost meanwhile needs no action: every later update of the row names the claim and does nothing. */
  async function whileLeased(
    queue: LeasedQueue,
    claim: QueueClaim,
    work: () => Promise<void>,
  ): Promise<void> {
    const lease = keepLease({
      leaseMs: LEASE_MS,
      renew: () => renewLease(pool, queue, claim, LEASE_MS),
      onRenewalError: (error) =>
        logger.warn(
          { queue: queue.table, key: claim.key, error: describeError(error) },
          'lease renewal failed',
        ),
    });
    try {
      await work();
    } finally {
      lease.stop();
    }
  }

  async function processSweep(claim: QueueClaim): Promise<void> {
    try {
      const position = (claim.row.position as Checkpoint | null) ?? null;
      if (position && !(await configsReadModelReached(pool, store, position))) {
        // The configurations' observations as of the list version: a run recorded just before it
        // and not yet projected would otherwise be missed.
        await retryLater(
          pool,
          SWEEP_QUEUE,
          claim,
          WAIT_FOR_READ_MODEL_MS,
          'waiting for monitoring_configs to reach the list version',
        );
        return;
      }
      const stats = await sweepSnapshot(
        pool,
        {
          snapshotId: claim.key,
          previousSnapshotId: (claim.row.previous_snapshot_id as string | null) ?? null,
        },
        subjects,
      );
      await pool.query('UPDATE monitoring_sweeps SET stats = $2 WHERE snapshot_id = $1', [claim.key, stats]);
      await markDone(pool, SWEEP_QUEUE, claim);
      logger.info({ snapshotId: claim.key, ...stats }, 'monitoring sweep done');
      wakeups.ring();
    } catch (error) {
      logger.warn(
        { snapshotId: claim.key, error: describeError(error) },
        'monitoring sweep failed; retrying',
      );
      await retryLater(pool, SWEEP_QUEUE, claim, retryMs, describeError(error)).catch(() => {});
    }
  }

  async function processRun(claim: QueueClaim): Promise<void> {
    const job = {
      runId: claim.key,
      monitoringConfigId: claim.row.monitoring_config_id as string,
      trigger: claim.row.trigger as RunTrigger,
    };
    try {
      const outcome = await runMonitoringJob(
        { pool, store, indexManager: options.indexManager, staleAfterMs: options.staleAfterMs, clock },
        job,
        stopping.signal,
      );
      if (outcome.kind === 'later') {
        await retryLater(pool, RUN_QUEUE, claim, LATER_MS, outcome.why);
        return;
      }
      await markDone(pool, RUN_QUEUE, claim, outcome.kind === 'not_run' ? outcome.why : null);
      logger.info({ ...job, ...outcome }, 'monitoring run');
    } catch (error) {
      if (stopping.signal.aborted) {
        await release(pool, RUN_QUEUE, claim).catch(() => {});
        return;
      }
      const message = describeError(error);
      if (claim.attempts >= RUN_ATTEMPTS) {
        // The last attempt: the run is recorded as failed, with its message, rather than retried forever.
        logger.error({ ...job, error: message }, 'monitoring run failed');
        await recordFailedRun({ store, clock }, job, message)
          .then((recorded) =>
            recorded
              ? markDone(pool, RUN_QUEUE, claim, message)
              : retryLater(pool, RUN_QUEUE, claim, retryMs, message),
          )
          .catch(() => retryLater(pool, RUN_QUEUE, claim, retryMs, message))
          .catch(() => {});
        return;
      }
      logger.warn({ ...job, error: message }, 'monitoring run failed; retrying');
      await retryLater(pool, RUN_QUEUE, claim, retryMs, message).catch(() => {});
    }
  }

  async function workerLoop(index: number): Promise<void> {
    const worker = `${defaultWorkerName()}:monitoring:${index}`;
    while (!stopping.signal.aborted) {
      const seen = wakeups.rung;
      busy++;
      let worked = false;
      try {
        worked = await workOnce(worker);
      } catch (error) {
        if (!stopping.signal.aborted)
          logger.warn({ error: describeError(error) }, 'monitoring worker: claim failed');
      } finally {
        busy--;
      }
      if (!worked) {
        if (busy === 0) for (const resolve of idleWaiters) resolve();
        await wakeups.wait(seen, pollMs, stopping.signal);
      }
    }
  }

  async function tick(): Promise<void> {
    try {
      await reconcileCurrentSnapshots(pool, store, clock);
      await queueScheduledRuns(pool, options.intervalMs, clock());
      await refreshSubjects();
    } catch (error) {
      if (!stopping.signal.aborted) logger.warn({ error: describeError(error) }, 'monitoring tick failed');
    }
  }

  const loops = Array.from({ length: options.workers }, (_, i) => workerLoop(i));
  const ticking = setInterval(() => void tick(), options.tickMs ?? 60_000);
  ticking.unref();
  void tick();

  return {
    scheduler,
    async idle() {
      // Idle includes the reverse index: every configuration projected so far is in it.
      await refreshSubjects();
      for (;;) {
        const due = await pool.query<{ n: number }>(
          `SELECT (SELECT count(*) FROM monitoring_sweeps WHERE status <> 'done')
                + (SELECT count(*) FROM monitoring_jobs WHERE status <> 'done') AS n`,
        );
        if (Number(due.rows[0]!.n) === 0) return;
        await new Promise<void>((resolve) => {
          idleWaiters.add(resolve);
          setTimeout(resolve, 200).unref();
        }).finally(() => idleWaiters.clear());
      }
    },
    async stop() {
      stopping.abort();
      clearInterval(ticking);
      await scheduler.stop();
      await Promise.allSettled(loops);
    },
  };
}

/** Whether the active `monitoring_configs` read model has folded every configuration event before `position`. */
async function configsReadModelReached(
  pool: pg.Pool,
  store: EventStore,
  position: Checkpoint,
): Promise<boolean> {
  const entry = await loadRegistryEntry(pool, monitoringConfigsProjection.name);
  // Not installed (a database only migrated): there is nothing to wait for.
  if (!entry) return true;
  const row = await loadCheckpoint(
    pool,
    projectionSubscriptionId(monitoringConfigsProjection.name, entry.activeVersion),
  );
  // Its checkpoint only moves on the events it handles, so it may rightly stay behind `position`:
  // what matters is that no configuration event is left between it and `position`.
  const [pending] = await store.readFeed({
    after: row?.checkpoint ?? null,
    categories: [MONITORING_CATEGORY],
    limit: 1,
  });
  return pending === undefined || store.compareCheckpoints(pending.position, position) > 0;
}

/**
 * The safety-net schedule: every active configuration whose last run started more than the interval
 * before `now` (±10%, spread by the config id so a book enrolled at once does not run at once). A
 * configuration that never ran counts from its enrollment (`last_run_at` is the creation time until a
 * run starts), so one whose baseline ended without a run is not left unmonitored. The run id derives
 * from the last run's time, so a tick seen twice queues one run.
 */
export async function queueScheduledRuns(pool: pg.Pool, intervalMs: number, now: Date): Promise<number> {
  const { rows } = await pool.query<{ id: string; last_run_at: Date }>(
    `SELECT monitoring_config_id AS id, last_run_at FROM monitoring_configs
      WHERE status = 'active'
        AND last_run_at + make_interval(secs => $1::double precision / 1000
              * (0.9 + 0.2 * (('x' || substr(md5(monitoring_config_id), 1, 8))::bit(32)::bigint / 4294967295.0)))
            <= $2::timestamptz
        -- One already queued is left to run: the next 5000 due are the others, oldest first.
        AND NOT EXISTS (SELECT 1 FROM monitoring_jobs j
                         WHERE j.monitoring_config_id = monitoring_configs.monitoring_config_id
                           AND j.status <> 'done')
      ORDER BY last_run_at
      LIMIT 5000`,
    [intervalMs, now],
  );
  const runs = rows.map((row) =>
    queuedRun(row.id, { kind: 'schedule' }, `schedule:${row.last_run_at.toISOString()}`),
  );
  return insertRuns(pool, runs);
}
