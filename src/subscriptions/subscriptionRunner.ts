import type pg from 'pg';
import {
  type Checkpoint,
  describeStore,
  type EventStore,
  type RecordedEvent,
  type StoreIdentity,
  sameStore,
} from '../eventStore/eventStore.js';
import { type Logger, silentLogger } from '../shared/logger.js';
import { sleep } from '../shared/sleep.js';
import { BatchRetry, type FailureStep } from './batchRetry.js';
import {
  advanceCheckpoint,
  type CheckpointRow,
  claimCheckpointStore,
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
import { type FeedBatch, feedBatches } from './feedBatches.js';
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
  /** Its checkpoint is a position on another event store than the one it is connected to: ended. */
  | 'wrongStore'
  | 'stopped';

export interface SubscriptionRunnerOptions {
  pool: pg.Pool;
  /** For the leadership session, a connection of its own outside the pool. */
  databaseUrl: string;
  store: EventStore;
  handler: SubscriptionHandler;
  batchSize?: number;
  retry?: Partial<RetryPolicy>;
  /** How often a standby tries to take over (and a leader checks its session). */
  standbyRetryMs?: number;
  /** How often a parked subscription looks for an operator's resume. */
  parkedPollMs?: number;
  /**
   * At most how often the runner stores how far it has looked through the feed when no event of its
   * own moved the checkpoint there (default 5 s; 0: at every `caughtUp` marker).
   */
  scanPositionSaveIntervalMs?: number;
  logger?: Logger;
}

export interface SubscriptionRunner {
  readonly subscriptionId: string;
  readonly state: RunnerState;
  /** Every event of the subscription's categories up to here is handled and committed. */
  readonly checkpoint: Checkpoint | null;
  /** Resolves once the runner has ended: after stop(), or by itself when retired or on the wrong store. */
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

type LeadOutcome = 'stopped' | 'retired' | 'wrongStore';

/** What an operator reads when a checkpoint belongs to another store than the one connected. */
export function wrongStoreMessage(
  row: CheckpointRow,
  recorded: StoreIdentity,
  connected: StoreIdentity,
): string {
  return (
    `Subscription ${row.subscriptionId} stopped: its checkpoint (${row.checkpoint ?? 'start of the feed'}) ` +
    `is a position on the event store ${describeStore(recorded)}, but this process is connected to ` +
    `${describeStore(connected)}. Feed positions do not carry over between stores. Point EVENT_STORE ` +
    `and its connection at the store that wrote the checkpoint, or, if this store replaces it for good, ` +
    'follow "Checkpoints name their store" in docs/event-store.md.'
  );
}

type BatchOutcome =
  | { kind: 'committed' }
  /** The checkpoint moved under us: another runner handled these events. Rolled back. */
  | { kind: 'conflict' }
  | { kind: 'retired' }
  | { kind: 'failed'; error: unknown; transient: boolean };

/**
 * Feeds one subscription from the global feed, read only through `store.subscribe` (ADR 0004): a
 * batch is what the subscription delivered up to `batchSize` or up to its `caughtUp` marker. Per
 * batch, ONE PostgreSQL transaction holds the handler's writes and the checkpoint's compare-and-swap,
 * so the read side sees each event's effects exactly once whichever adapter delivers the events and
 * however processes race or crash.
 */
export function createSubscriptionRunner(options: SubscriptionRunnerOptions): SubscriptionRunner {
  const { pool, store, handler } = options;
  const subscriptionId = handler.subscriptionId;
  const batchSize = options.batchSize ?? 200;
  const standbyRetryMs = options.standbyRetryMs ?? 3_000;
  const parkedPollMs = options.parkedPollMs ?? 3_000;
  const scanPositionSaveIntervalMs = options.scanPositionSaveIntervalMs ?? 5_000;
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
    let ended: LeadOutcome = 'stopped';
    while (!stopping.signal.aborted && ended === 'stopped') {
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
        ended = await lead(lease);
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
    setState(ended);
  }

  /**
   * Whether the stored checkpoint is a position on the store this runner reads. Records the store on
   * a row that names none; on another store, says so where an operator looks (log and `subscriptions
   * status`) and the runner ends: going on would skip events or wait on a position that never comes.
   */
  async function onTheRightStore(): Promise<boolean> {
    const connected = await store.identity();
    const row = await claimCheckpointStore(pool, subscriptionId, connected);
    if (!row.store || sameStore(row.store, connected)) return true;
    const message = wrongStoreMessage(row, row.store, connected);
    logger.error({ subscriptionId, recorded: row.store, connected }, message);
    await recordFailure(pool, subscriptionId, 0, message).catch(() => {});
    return false;
  }

  /** Processes while this runner holds the lease; how the runner ended when it is not to go on. */
  async function lead(lease: Lease): Promise<LeadOutcome> {
    const signal = AbortSignal.any([stopping.signal, lease.lost]);
    let row = await ensureCheckpoint(pool, subscriptionId);
    if (!(await onTheRightStore())) return 'wrongStore';
    let checkpoint = row.checkpoint;
    watch.advance(checkpoint);
    const retry = new BatchRetry(policy, compare);

    /** Takes the stored row as it is now: another runner moved it, or this one parked it. */
    const reload = async () => {
      row = await ensureCheckpoint(pool, subscriptionId);
      checkpoint = row.checkpoint;
      watch.advance(checkpoint);
      retry.reset();
    };

    /**
     * Handles a batch held in memory, one transaction at a time: retries and the one-by-one
     * isolation of a failing batch re-run these same events, without reading them again.
     * 'restart' when the subscription must start again from the checkpoint (or the runner stops).
     */
    const handleEvents = async (events: RecordedEvent[]): Promise<'handled' | 'restart' | 'retired'> => {
      let pending = events;
      while (pending.length > 0) {
        if (signal.aborted) return 'restart';
        const batch = pending.slice(0, retry.batchLimit(pending.length));
        const outcome = await processBatch(batch, checkpoint);
        switch (outcome.kind) {
          case 'committed': {
            const last = batch.at(-1)!.position;
            checkpoint = last;
            retry.committed(last);
            watch.advance(last);
            for (const listener of commitListeners) listener(batch);
            pending = pending.slice(batch.length);
            break;
          }
          case 'conflict':
            logger.warn(
              { subscriptionId },
              'checkpoint moved under this runner; batch rolled back, reloading',
            );
            await reload();
            return 'restart';
          case 'retired':
            logger.info({ subscriptionId }, 'subscription retired by its handler');
            return 'retired';
          case 'failed': {
            const error = describeError(outcome.error);
            if (outcome.transient) {
              logger.warn({ subscriptionId, error }, 'batch failed on the database; retrying');
              await sleep(retry.transientFailed(), signal);
              break;
            }
            if ((await handleFailure(retry, batch, checkpoint, error, signal)) === 'park') {
              // Parked, or the row moved meanwhile (then it was not parked): either way, as stored.
              await reload();
              return 'restart';
            }
            break;
          }
        }
      }
      return 'handled';
    };

    let scanPositionSavedAt = Number.NEGATIVE_INFINITY;
    /**
     * Stores, as the checkpoint, how far the subscription has looked through the feed when that is
     * past the last event it handled: every event of its categories up to there is handled (the
     * marker says so, and its batch committed first). Without it a subscription whose categories are
     * rare starts again, after every restart, from its last event, and on EventStoreDB scans every
     * other category's record since then again. An optimisation, so a failure only logs; throttled,
     * since an idle feed hands out markers every poll. 'restart' when the row moved under it.
     */
    const saveScanPosition = async (
      scannedTo: Checkpoint | null,
    ): Promise<'saved' | 'skipped' | 'restart'> => {
      if (scannedTo === null || (checkpoint !== null && compare(scannedTo, checkpoint) <= 0))
        return 'skipped';
      if (Date.now() - scanPositionSavedAt < scanPositionSaveIntervalMs) return 'skipped';
      let moved: boolean;
      try {
        moved = await advanceCheckpoint(pool, subscriptionId, checkpoint, scannedTo);
      } catch (error) {
        logger.warn({ subscriptionId, error: describeError(error) }, 'storing the scan position failed');
        return 'skipped';
      }
      if (!moved) {
        await reload();
        return 'restart';
      }
      scanPositionSavedAt = Date.now();
      checkpoint = scannedTo;
      return 'saved';
    };

    /**
     * Follows the feed from the checkpoint through `store.subscribe`, batch by batch, until the
     * runner stops or must start again from its checkpoint. Each pass has an abort of its own, so
     * leaving it ends the subscription whatever it was doing.
     */
    const follow = async (): Promise<'restart' | 'retired'> => {
      const pass = new AbortController();
      const subscription = store.subscribe({
        after: checkpoint,
        categories: handler.categories,
        signal: AbortSignal.any([signal, pass.signal]),
        batchSize,
      });
      const batches = feedBatches(subscription, batchSize);
      try {
        for (;;) {
          let next: IteratorResult<FeedBatch>;
          try {
            next = await batches.next();
          } catch (error) {
            logger.warn({ subscriptionId, error: describeError(error) }, 'reading the feed failed; retrying');
            await sleep(retry.transientFailed(), signal);
            return 'restart';
          }
          if (next.done) return 'restart';
          const { events, caughtUp } = next.value;
          if (events.length > 0) {
            const handled = await handleEvents(events);
            if (handled !== 'handled') return handled;
          }
          // Everything the subscription delivered is committed: the runner has passed where it looked.
          if (caughtUp) {
            if ((await saveScanPosition(caughtUp.scannedTo)) === 'restart') return 'restart';
            watch.advance(caughtUp.scannedTo);
          }
        }
      } finally {
        pass.abort();
        await batches.return(undefined);
      }
    };

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
      if ((await follow()) === 'retired') return 'retired';
    }
    return 'stopped';
  }

  /** Records a handler failure and carries out the retry policy's step: wait, isolate, or park. */
  async function handleFailure(
    retry: BatchRetry,
    events: RecordedEvent[],
    checkpoint: Checkpoint | null,
    error: string,
    signal: AbortSignal,
  ): Promise<FailureStep['kind']> {
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
    return step.kind;
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
