import type pg from 'pg';
import type { Queryable } from '../db/sql.js';
import { purgeExpired as purgeExpiredIdempotencyKeys } from '../idempotency/idempotencyStore.js';
import { DEFAULT_WINDOW_MS, purgeOldWindows } from '../rateLimit/rateLimiter.js';
import { purgeRequestLog, RETENTION_DAYS } from '../requestLog/requestLog.js';
import { type Clock, systemClock } from '../shared/clock.js';
import { type Logger, silentLogger } from '../shared/logger.js';
import { failureLogFields } from '../subscriptions/failurePolicy.js';
import { DEFAULT_WEBHOOK_RETENTION_MS, purgeWebhookDeliveries } from '../webhooks/deliveryAdmin.js';

export const DEFAULT_PURGE_INTERVAL_MS = 3_600_000;

/** One retention rule: deletes what is due at `now` and returns how many rows it deleted. */
export interface PurgeTask {
  name: string;
  run(db: Queryable, now: Date): Promise<number>;
}

export interface PurgeTaskOptions {
  retentionDays?: number;
  windowMs?: number;
  /** How long delivered and dead webhook deliveries are kept (WEBHOOK_RETENTION). */
  webhookRetentionMs?: number;
}

/**
 * Every retention rule of the service, run in this order in one round. A new store with expiring
 * rows adds its purge here, so it shares the scheduler, the lock and `casescreen requests purge`.
 */
export function defaultPurgeTasks(options: PurgeTaskOptions = {}): PurgeTask[] {
  return [
    {
      name: 'requestLog',
      run: (db, now) => purgeRequestLog(db, now, options.retentionDays ?? RETENTION_DAYS),
    },
    {
      name: 'rateLimitWindows',
      run: (db, now) => purgeOldWindows(db, now, options.windowMs ?? DEFAULT_WINDOW_MS),
    },
    { name: 'idempotencyKeys', run: (db, now) => purgeExpiredIdempotencyKeys(db, now) },
    {
      name: 'webhookDeliveries',
      run: (db, now) =>
        purgeWebhookDeliveries(db, now, options.webhookRetentionMs ?? DEFAULT_WEBHOOK_RETENTION_MS),
    },
  ];
}

export type PurgeRoundResult =
  | { ran: true; at: Date; deleted: Record<string, number> }
  /** Another process held the purge lock, so it is doing this round's work. */
  | { ran: false; at: Date };

export interface PurgeRoundOptions {
  now?: Date;
  tasks?: PurgeTask[];
  /** Wait for another process's round to finish instead of skipping (the CLI wants its counts). */
  wait?: boolean;
}

/** Distinct from migrate's lock; hashtextextended keeps it readable and stable across versions. */
const PURGE_LOCK = "hashtextextended('casescreen:purge', 0)";

/**
 * Runs every purge task once, in one transaction holding a transaction-level advisory lock: of
 * several processes starting a round at the same time only one purges, and the lock cannot outlive
 * the round (it ends with the transaction, even if the connection is lost).
 */
export async function runPurgeRound(
  pool: pg.Pool,
  options: PurgeRoundOptions = {},
): Promise<PurgeRoundResult> {
  const at = options.now ?? new Date();
  const tasks = options.tasks ?? defaultPurgeTasks();
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    if (options.wait) {
      await client.query(`SELECT pg_advisory_xact_lock(${PURGE_LOCK})`);
    } else {
      const { rows } = await client.query<{ locked: boolean }>(
        `SELECT pg_try_advisory_xact_lock(${PURGE_LOCK}) AS locked`,
      );
      if (!rows[0]!.locked) {
        await client.query('ROLLBACK');
        return { ran: false, at };
      }
    }
    const deleted: Record<string, number> = {};
    for (const task of tasks) deleted[task.name] = await task.run(client, at);
    await client.query('COMMIT');
    return { ran: true, at, deleted };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

export interface PurgeSchedulerOptions {
  pool: pg.Pool;
  logger?: Logger;
  intervalMs?: number;
  tasks?: PurgeTask[];
  /** For tests: the time each round purges against. */
  clock?: Clock;
}

export interface PurgeScheduler {
  /** Cancels the next round and waits for a running one to finish. */
  stop(): Promise<void>;
}

/**
 * Runs a purge round at once and then every `intervalMs` (after the previous round ended, so rounds
 * never overlap within a process). Safe in every service process: the advisory lock lets one of them
 * purge per round. A failed round is logged and retried at the next interval, never thrown.
 */
export function startPurgeScheduler(options: PurgeSchedulerOptions): PurgeScheduler {
  const logger = options.logger ?? silentLogger;
  const intervalMs = options.intervalMs ?? DEFAULT_PURGE_INTERVAL_MS;
  const clock = options.clock ?? systemClock;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const round = async () => {
    try {
      const result = await runPurgeRound(options.pool, { now: clock(), tasks: options.tasks });
      if (result.ran) logger.info({ deleted: result.deleted }, 'purge round done');
      else logger.debug({}, 'purge round skipped: another process holds the purge lock');
    } catch (error) {
      const { level, fields } = failureLogFields(error);
      logger[level](fields, 'purge round failed; retrying at the next interval');
    }
  };
  const schedule = () => {
    running = round().then(() => {
      if (stopped) return;
      timer = setTimeout(schedule, intervalMs);
      // The scheduler alone must not keep a process alive that is otherwise done.
      timer.unref();
    });
  };

  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
