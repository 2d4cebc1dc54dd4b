import type pg from 'pg';
import type { Checkpoint, EventStore, RecordedEvent } from '../eventStore/eventStore.js';
import { type Logger, silentLogger } from '../shared/logger.js';
import { sleep } from '../shared/sleep.js';
import { BatchRetry } from './batchRetry.js';
import {
  advanceCheckpoint,
  type CheckpointRow,
  ensureCheckpoint,
  loadCheckpoint,
  parkSubscription,
  recordFailure,
} from './checkpointStore.js';
import { CheckpointWatch, type WaitForCheckpointOptions } from './checkpointWatch.js';
import {
  DEFAULT_RETRY_POLICY,
  describeError,
  isTransientDatabaseError,
  type RetryPolicy,
} from './failurePolicy.js';
import { type SubscriptionHandler, SubscriptionRetiredError } from './handler.js';
import { acquireLeadership, type Lease } from './leadership.js';

export type RunnerState =
  /** Not started. */
  | 'idle'
  /** Another process (or runner) leads this subscription; this one waits to take over. */
  | 'standby'
  | 'leading'
  /** Stopped on a poison event; waits for `subscriptions resume <id>`. */
  | 'parked'
  /** Its handler said it must not write any more (a replaced projection version). */
  | 'retired'
  | 'stopped';

export interface SubscriptionRunnerOptions {
  pool: pg.Pool;
  /** For the leadership session, a connection of its own outside the pool. */
  databaseUrl: string;
  store: EventStore;
  handler: SubscriptionHandler;
  batchSize?: number;
  /** Longest wait for a wake-up from the store before reading the feed again. */
  idleWaitMs?: number;
  retry?: Partial<RetryPolicy>;
  /** How often a standby tries to take over (and a leader checks its session). */
  standbyRetryMs?: number;
  /** How often a parked subscription looks for an operator's resume. */
  parkedPollMs?: number;
  logger?: Logger;
}

export interface SubscriptionRunner {
  readonly subscriptionId: string;
  readonly state: RunnerState;
  /** Every event of the subscription's categories up to here is handled and committed. */
  readonly checkpoint: Checkpoint | null;
  /** Resolves once the runner has ended: after stop(), or by itself when retired. */
  readonly done: Promise<void>;
  start(): void;
  /** Lets the batch in flight commit (or roll back), then releases leadership and resolves. */
  stop(): Promise<void>;
  waitForCheckpoint(position: Checkpoint, options?: WaitForCheckpointOptions): Promise<void>;
  onCheckpoint(listener: (passed: Checkpoint) => void): () => void;
  onStateChange(listener: (state: RunnerState) => void): () => void;
  /** Called after each committed batch, e.g. for progress reports. */
  onCommit(listener: (events: readonly RecordedEvent[]) => void): () => void;
}

type BatchOutcome =
  | { kind: 'committed' }
  /** The checkpoint moved under us: another runner handled these events. Rolled back. */
  | { kind: 'conflict' }
  | { kind: 'retired' }
  | { kind: 'failed'; error: unknown; transient: boolean };

/**
 * Feeds one subscription from the global feed. Per batch, ONE PostgreSQL transaction holds the
 * handler's writes and the checkpoint's compare-and-swap, so the read side sees each event's effects
 * exactly once whichever adapter delivers the events and however processes race or crash.
 */
export function createSubscriptionRunner(options: SubscriptionRunnerOptions): SubscriptionRunner {
  const { pool, store, handler } = options;
  const subscriptionId = handler.subscriptionId;
  const batchSize = options.batchSize ?? 200;
  const idleWaitMs = options.idleWaitMs ?? 1_000;
  const standbyRetryMs = options.standbyRetryMs ?? 3_000;
  const parkedPollMs = options.parkedPollMs ?? 3_000;
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const logger = options.logger ?? silentLogger;
  const compare = (a: Checkpoint, b: Checkpoint) => store.compareCheckpoints(a, b);

  const watch = new CheckpointWatch(compare);
  const stateListeners = new Set<(state: RunnerState) => void>();
  const commitListeners = new Set<(events: readonly RecordedEvent[]) => void>();
  const stopping = new AbortController();
  let state: RunnerState = 'idle';
  let running: Promise<void> | undefined;
  let resolveDone!: () => void;
  const done = new Promise<void>((resolve) => {
    resolveDone = resolve;
  });

  const setState = (next: RunnerState) => {
    if (state === next) return;
    state = next;
    logger.info({ subscriptionId, state }, 'subscription runner state');
    for (const listener of stateListeners) listener(next);
  };

  const listen = <T>(set: Set<T>, listener: T) => {
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  };

  async function run(): Promise<void> {
    let retired = false;
    while (!stopping.signal.aborted && !retired) {
      const lease = await acquireLeadership({
        databaseUrl: options.databaseUrl,
        subscriptionId,
        signal: stopping.signal,
        retryMs: standbyRetryMs,
        checkIntervalMs: standbyRetryMs,
        logger,
        onStandby: async () => {
          setState('standby');
          // Follow the leader, so waitForCheckpoint also works on a standby.
          watch.advance((await loadCheckpoint(pool, subscriptionId))?.checkpoint ?? null);
        },
      });
      if (!lease) break;
      try {
        retired = await lead(lease);
      } catch (error) {
        logger.error(
          { subscriptionId, error: describeError(error) },
          'subscription runner failed; restarting',
        );
        await sleep(standbyRetryMs, stopping.signal);
      } finally {
        await lease.release();
      }
      if (lease.lost.aborted && !stopping.signal.aborted) {
        // Step back for a while: a standby whose session is healthy should take over first.
        setState('standby');
        await sleep(standbyRetryMs, stopping.signal);
      }
    }
    setState(retired ? 'retired' : 'stopped');
  }

  /** Processes while this runner holds the lease; true when the handler retired the subscription. */
  async function lead(lease: Lease): Promise<boolean> {
    const signal = AbortSignal.any([stopping.signal, lease.lost]);
    let row = await ensureCheckpoint(pool, subscriptionId);
    let checkpoint = row.checkpoint;
    watch.advance(checkpoint);
    const retry = new BatchRetry(policy, compare);

    while (!signal.aborted) {
      if (row.status === 'parked') {
        setState('parked');
        await sleep(parkedPollMs, signal);
        row = (await loadCheckpoint(pool, subscriptionId)) ?? row;
        if (row.status === 'active') {
          logger.info({ subscriptionId }, 'subscription resumed');
          checkpoint = row.checkpoint;
          retry.reset();
        }
        continue;
      }
      setState('leading');

      const limit = retry.readLimit(batchSize);
      let head: Checkpoint | null;
      let events: RecordedEvent[];
      try {
        // The head is taken BEFORE the read: when the read is short, everything up to it is in it.
        head = await store.headCheckpoint();
        events = await store.readFeed({ after: checkpoint, categories: handler.categories, limit });
      } catch (error) {
        logger.warn({ subscriptionId, error: describeError(error) }, 'reading the feed failed; retrying');
        await sleep(retry.transientFailed(), signal);
        continue;
      }

      if (events.length === 0) {
        watch.advance(head);
        await store
          .waitForEvents({ signal, timeoutMs: idleWaitMs, categories: handler.categories, after: checkpoint })
          .catch(async (error: unknown) => {
            logger.warn({ subscriptionId, error: describeError(error) }, 'waiting for events failed');
            await sleep(retry.transientFailed(), signal);
          });
        continue;
      }

      const last = events.at(-1)!.position;
      const outcome = await processBatch(events, checkpoint);
      switch (outcome.kind) {
        case 'committed': {
          checkpoint = last;
          retry.committed(last);
          const passedHead = events.length < limit && head !== null && compare(head, last) > 0;
          watch.advance(passedHead ? head : last);
          for (const listener of commitListeners) listener(events);
          break;
        }
        case 'conflict': {
          logger.warn({ subscriptionId }, 'checkpoint moved under this runner; batch rolled back, reloading');
          row = await ensureCheckpoint(pool, subscriptionId);
          checkpoint = row.checkpoint;
          watch.advance(checkpoint);
          retry.reset();
          break;
        }
        case 'retired':
          logger.info({ subscriptionId }, 'subscription retired by its handler');
          return true;
        case 'failed': {
          const error = describeError(outcome.error);
          if (outcome.transient) {
            logger.warn({ subscriptionId, error }, 'batch failed on the database; retrying');
            await sleep(retry.transientFailed(), signal);
            break;
          }
          row = await handleFailure(retry, events, checkpoint, error, signal);
          break;
        }
      }
    }
    return false;
  }

  async function handleFailure(
    retry: BatchRetry,
    events: RecordedEvent[],
    checkpoint: Checkpoint | null,
    error: string,
    signal: AbortSignal,
  ): Promise<CheckpointRow> {
    const step = retry.handlerFailed(events);
    const fields = { subscriptionId, attempt: step.attempt, events: events.length, error };
    await recordFailure(pool, subscriptionId, step.attempt, error).catch(() => {});
    if (step.kind === 'retry') {
      logger.warn({ ...fields, delayMs: step.delayMs }, 'handler failed; retrying the batch');
      await sleep(step.delayMs, signal);
    } else if (step.kind === 'isolate') {
      logger.warn(fields, 'handler keeps failing; retrying the events one by one');
    } else {
      const parked = await parkSubscription(pool, subscriptionId, {
        expected: checkpoint,
        eventId: step.event.id,
        position: step.event.position,
        attempts: step.attempt,
        error,
      });
      logger.error(
        { ...fields, eventId: step.event.id, position: step.event.position, parked },
        'poison event: subscription parked',
      );
    }
    return (await loadCheckpoint(pool, subscriptionId)) ?? (await ensureCheckpoint(pool, subscriptionId));
  }

  async function processBatch(events: RecordedEvent[], expected: Checkpoint | null): Promise<BatchOutcome> {
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      return { kind: 'failed', error, transient: true };
    }
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      await handler.handle(events, client);
      if (!(await advanceCheckpoint(client, subscriptionId, expected, events.at(-1)!.position))) {
        await client.query('ROLLBACK');
        return { kind: 'conflict' };
      }
      // A COMMIT whose reply is lost may still have committed: the next CAS then sees a moved checkpoint.
      await client.query('COMMIT');
      return { kind: 'committed' };
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: Error) => {
        broken = rollbackError;
      });
      if (error instanceof SubscriptionRetiredError) return { kind: 'retired' };
      const transient = isTransientDatabaseError(error);
      if (transient) broken ??= error as Error;
      return { kind: 'failed', error, transient };
    } finally {
      // A client whose connection failed must not go back to the pool.
      client.release(broken);
    }
  }

  return {
    subscriptionId,
    get state() {
      return state;
    },
    get checkpoint() {
      return watch.current;
    },
    done,
    start() {
      if (running) return;
      running = run().finally(resolveDone);
    },
    async stop() {
      stopping.abort();
      if (!running) {
        setState('stopped');
        resolveDone();
      }
      await done;
    },
    waitForCheckpoint: (position, waitOptions) => watch.waitFor(position, waitOptions),
    onCheckpoint: (listener) => watch.subscribe(listener),
    onStateChange: (listener) => listen(stateListeners, listener),
    onCommit: (listener) => listen(commitListeners, listener),
  };
}
