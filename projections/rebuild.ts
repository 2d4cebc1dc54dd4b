import type pg from 'pg';
import type { Checkpoint, EventStore } from '../src/eventStore/eventStore.js';
import type { Logger } from '../src/shared/logger.js';
import { sleep } from '../src/shared/sleep.js';
import { advanceCheckpoint, ensureCheckpoint, loadCheckpoint } from '../src/subscriptions/checkpointStore.js';
import { CheckpointTimeoutError } from '../src/subscriptions/checkpointWatch.js';
import { countEventsAfter, type FeedLag } from '../src/subscriptions/feedLag.js';
import {
  createSubscriptionRunner,
  type RunnerState,
  type SubscriptionRunnerOptions,
} from '../src/subscriptions/subscriptionRunner.js';
import {
  type ProjectionDefinition,
  projectionSubscriptionId,
  type VersionTables,
  versionTables,
} from './projection.js';
import { installProjections, loadRegistryEntry, pointViews } from './registryStore.js';
import { discardVersion, dropRetiredVersion } from './versionCleanup.js';
import { projectionHandler } from './versionGuard.js';

export type RebuildEvent =
  | { kind: 'started'; fromVersion: number; toVersion: number; resumed: boolean }
  | { kind: 'progress'; version: number; processed: number; eventsPerSecond: number; lag: FeedLag }
  | { kind: 'swapped'; fromVersion: number; toVersion: number; tailEvents: number }
  | { kind: 'old-version-dropped'; version: number }
  /** A worker still runs the old version; it drops the tables itself once it has switched. */
  | { kind: 'old-version-in-use'; version: number };

export interface RebuildOptions {
  pool: pg.Pool;
  databaseUrl: string;
  store: EventStore;
  definition: ProjectionDefinition;
  report?: (event: RebuildEvent) => void;
  progressIntervalMs?: number;
  /** How long to wait for workers to let go of the replaced version before leaving its drop to them. */
  releaseWaitMs?: number;
  /** Stops the catch-up; the build stays registered and a later rebuild resumes it. */
  signal?: AbortSignal;
  runner?: Pick<SubscriptionRunnerOptions, 'batchSize' | 'retry' | 'parkedPollMs' | 'standbyRetryMs'>;
  logger?: Logger;
}

export interface RebuildResult {
  fromVersion: number;
  toVersion: number;
  /** Events handled into the new version, the swap's tail included. */
  processed: number;
  oldVersionDropped: boolean;
}

export class RebuildError extends Error {
  override readonly name = 'RebuildError';
}

/**
 * Blue/green rebuild: fills `<table>_v<n+1>` from the start of the feed while v<n> keeps serving,
 * then in ONE transaction handles the remaining tail and points the views and the registry at
 * v<n+1>. Workers notice the swap, stop v<n> and drop its tables once none can write them.
 */
export async function rebuildProjection(options: RebuildOptions): Promise<RebuildResult> {
  const { pool, definition } = options;
  const report = options.report ?? (() => {});
  await installProjections(pool, [definition]);
  const pending = await dropRetiredVersion(options);
  if (pending.kind === 'in-use') {
    throw new RebuildError(
      `${definition.name} v${pending.version} was replaced but a worker still runs it; retry once workers have switched`,
    );
  }

  const plan = await planBuild(options);
  report({ kind: 'started', ...plan });
  const processedBeforeSwap = await catchUp(options, plan.toVersion, report);
  const tailEvents = await swap(options, plan.toVersion);
  report({ kind: 'swapped', fromVersion: plan.fromVersion, toVersion: plan.toVersion, tailEvents });

  const oldVersionDropped = await releaseOldVersion(options, plan.fromVersion, report);
  return {
    fromVersion: plan.fromVersion,
    toVersion: plan.toVersion,
    processed: processedBeforeSwap + tailEvents,
    oldVersionDropped,
  };
}

interface BuildPlan {
  fromVersion: number;
  toVersion: number;
  resumed: boolean;
}

/** Registers (or resumes) the build of the next version and creates its tables. */
async function planBuild(options: RebuildOptions): Promise<BuildPlan> {
  const { definition } = options;
  const entry = await loadRegistryEntry(options.pool, definition.name);
  if (entry?.buildingVersion != null && entry.buildingCodeVersion !== definition.version) {
    // Left unfinished by other code: its tables may have another shape, start over.
    if (!(await discardVersion(options, entry.buildingVersion))) {
      throw new RebuildError(
        `${definition.name} v${entry.buildingVersion} is being rebuilt by another process`,
      );
    }
  }
  const client = await options.pool.connect();
  try {
    await client.query('BEGIN');
    const current = await loadRegistryEntry(client, definition.name, 'FOR UPDATE');
    if (!current) throw new RebuildError(`${definition.name} is not installed`);
    if (current.buildingVersion !== null) {
      await client.query('COMMIT');
      return { fromVersion: current.activeVersion, toVersion: current.buildingVersion, resumed: true };
    }
    const toVersion = Math.max(current.activeVersion, current.retiredVersion ?? 0) + 1;
    await client.query(definition.ddl(versionTables(definition, toVersion)));
    await client.query(
      `UPDATE projection_registry SET building_version = $2, building_code_version = $3, updated_at = now()
        WHERE name = $1`,
      [definition.name, toVersion, definition.version],
    );
    await client.query('COMMIT');
    return { fromVersion: current.activeVersion, toVersion, resumed: false };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** Runs the new version's subscription until it has passed the head of the feed. */
async function catchUp(
  options: RebuildOptions,
  version: number,
  report: (event: RebuildEvent) => void,
): Promise<number> {
  const { store, definition } = options;
  const progressIntervalMs = options.progressIntervalMs ?? 1_000;
  const runner = createSubscriptionRunner({
    ...options.runner,
    pool: options.pool,
    databaseUrl: options.databaseUrl,
    store,
    handler: projectionHandler(definition, version),
    logger: options.logger,
  });
  let processed = 0;
  runner.onCommit((events) => {
    processed += events.length;
  });
  let blocked: RunnerState | undefined;
  runner.onStateChange((state) => {
    if (state === 'standby' || state === 'parked' || state === 'retired' || state === 'wrongStore') {
      blocked ??= state;
    }
  });

  const startedAt = Date.now();
  runner.start();
  try {
    for (;;) {
      if (options.signal?.aborted) throw new RebuildError('Rebuild interrupted; run it again to resume');
      if (blocked) throw await blockedError(options, version, blocked);
      const head = await store.headCheckpoint();
      if (head === null) break;
      try {
        await runner.waitForCheckpoint(head, { timeoutMs: progressIntervalMs, signal: options.signal });
        break;
      } catch (error) {
        if (options.signal?.aborted) continue;
        if (!(error instanceof CheckpointTimeoutError)) throw error;
      }
      const seconds = (Date.now() - startedAt) / 1000;
      report({
        kind: 'progress',
        version,
        processed,
        eventsPerSecond: seconds > 0 ? Math.round(processed / seconds) : 0,
        lag: await countEventsAfter(store, runner.checkpoint, definition.categories),
      });
    }
  } finally {
    await runner.stop();
  }
  return processed;
}

async function blockedError(
  options: RebuildOptions,
  version: number,
  state: RunnerState,
): Promise<RebuildError> {
  const subscriptionId = projectionSubscriptionId(options.definition.name, version);
  if (state === 'standby') return new RebuildError(`${subscriptionId} is being rebuilt by another process`);
  if (state === 'retired')
    return new RebuildError(`${subscriptionId} was discarded while it was being built`);
  const row = await loadCheckpoint(options.pool, subscriptionId);
  // The runner's own operator message: which store the build's checkpoint is on, and what to do.
  if (state === 'wrongStore')
    return new RebuildError(row?.lastError ?? `${subscriptionId} is on another store`);
  return new RebuildError(
    `${subscriptionId} is parked on event ${row?.parkedEventId} at ${row?.parkedPosition}: ${row?.lastError}. ` +
      `Fix the projection, then run \`casescreen subscriptions resume ${subscriptionId}\` and rebuild again`,
  );
}

/**
 * The swap transaction. Locking the registry row for update waits for the old version's batch in
 * flight (each batch holds a share lock on it). The tail handled here ends at the feed's head as read
 * once the lock is held: what lands after it is left to the new version's runner, which goes on from
 * the checkpoint stored here, so every event is handled once. Reading "until empty" would end only on
 * PostgreSQL, where this transaction's xid holds later appends back; on EventStoreDB appends keep
 * landing, and under steady writes the swap (and the row lock stalling the serving version) would
 * never end.
 */
async function swap(options: RebuildOptions, version: number): Promise<number> {
  const { pool, definition } = options;
  const subscriptionId = projectionSubscriptionId(definition.name, version);
  const tables = versionTables(definition, version);
  const batchSize = options.runner?.batchSize ?? 200;
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const entry = await loadRegistryEntry(client, definition.name, 'FOR UPDATE');
    if (entry?.buildingVersion !== version) {
      throw new RebuildError(`${definition.name} v${version} is no longer being built`);
    }
    const expected = (await ensureCheckpoint(client, subscriptionId)).checkpoint;
    const tail = await handleTailUpToHead(options, client, expected, batchSize, tables);
    if (tail.checkpoint !== expected) {
      if (!(await advanceCheckpoint(client, subscriptionId, expected, tail.checkpoint!))) {
        throw new RebuildError(`${subscriptionId} moved during the swap; run the rebuild again`);
      }
    }
    await pointViews(client, definition, version);
    await client.query(
      `UPDATE projection_registry
          SET active_version = building_version, active_code_version = building_code_version,
              building_version = NULL, building_code_version = NULL, retired_version = active_version,
              swapped_at = now(), updated_at = now()
        WHERE name = $1`,
      [definition.name],
    );
    await client.query('COMMIT');
    return tail.events;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

interface SwapTail {
  /** Events handled in the swap transaction. */
  events: number;
  /** What the new version's checkpoint becomes: the head read at the start (or `expected`). */
  checkpoint: Checkpoint | null;
}

/**
 * Pages through the feed after `expected` and handles the new version's events up to the head read
 * first. Events after the head are not handled, even when a page brings them: the new version's
 * runner delivers them after the swap, from the returned checkpoint. The head, not the last event
 * handled, becomes the checkpoint: every event of the projection's categories up to it is handled
 * (the runner stores scan positions the same way), so the runner does not look through that stretch
 * again.
 */
async function handleTailUpToHead(
  options: RebuildOptions,
  client: pg.PoolClient,
  expected: Checkpoint | null,
  batchSize: number,
  tables: VersionTables,
): Promise<SwapTail> {
  const { store, definition } = options;
  const head = await store.headCheckpoint();
  const atOrBeforeHead = (position: Checkpoint) =>
    head !== null && store.compareCheckpoints(position, head) <= 0;
  if (head === null || (expected !== null && !atOrBeforeHead(expected))) {
    return { events: 0, checkpoint: expected };
  }
  let cursor = expected;
  let events = 0;
  for (;;) {
    const page = await store.readFeed({ after: cursor, categories: definition.categories, limit: batchSize });
    const tail = page.filter((event) => atOrBeforeHead(event.position));
    if (tail.length > 0) {
      await definition.handle(tail, client, tables);
      events += tail.length;
      cursor = tail.at(-1)!.position;
    }
    if (tail.length < batchSize) return { events, checkpoint: head };
  }
}

async function releaseOldVersion(
  options: RebuildOptions,
  version: number,
  report: (event: RebuildEvent) => void,
): Promise<boolean> {
  const deadline = Date.now() + (options.releaseWaitMs ?? 30_000);
  for (;;) {
    const outcome = await dropRetiredVersion(options);
    if (outcome.kind !== 'in-use') {
      report({ kind: 'old-version-dropped', version });
      return true;
    }
    if (Date.now() >= deadline || options.signal?.aborted) {
      report({ kind: 'old-version-in-use', version });
      return false;
    }
    await sleep(500, options.signal);
  }
}
