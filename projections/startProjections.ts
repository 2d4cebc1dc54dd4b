import type pg from 'pg';
import type { Checkpoint, EventStore } from '../src/eventStore/eventStore.js';
import { type Logger, silentLogger } from '../src/shared/logger.js';
import type { WaitForCheckpointOptions } from '../src/subscriptions/checkpointWatch.js';
import { failureLogFields } from '../src/subscriptions/failurePolicy.js';
import {
  createSubscriptionRunner,
  type SubscriptionRunner,
  type SubscriptionRunnerOptions,
} from '../src/subscriptions/subscriptionRunner.js';
import type { ProjectionDefinition } from './projection.js';
import { projections as registeredProjections } from './registry.js';
import { installProjections, listRegistryEntries, type RegistryEntry } from './registryStore.js';
import { dropRetiredVersion } from './versionCleanup.js';
import { projectionHandler } from './versionGuard.js';

export interface StartProjectionsOptions {
  pool: pg.Pool;
  /** For the runners' leadership sessions, which must not come from the pool. */
  databaseUrl: string;
  store: EventStore;
  /** The registry's list when absent. */
  definitions?: readonly ProjectionDefinition[];
  logger?: Logger;
  /** How often the registry is read to follow rebuild swaps. */
  registryPollMs?: number;
  runner?: Pick<SubscriptionRunnerOptions, 'batchSize' | 'retry' | 'standbyRetryMs' | 'parkedPollMs'>;
}

export interface RunningProjections {
  /** The runner of each projection's serving version in this process (standby or leading). */
  runners(): ReadonlyMap<string, SubscriptionRunner>;
  /** Resolves once the named projection, as run by this process, has passed `position`. */
  waitForCheckpoint(name: string, position: Checkpoint, options?: WaitForCheckpointOptions): Promise<void>;
  /** Lets each runner's batch in flight commit, then stops them all. */
  stop(): Promise<void>;
}

interface Running {
  version: number;
  runner: SubscriptionRunner;
}

/**
 * Runs every projection's serving version. Any number of processes may call this: one runner per
 * subscription leads, the others stand by. The registry is polled so that after a rebuild's swap the
 * old version's runner stops, the new one starts, and the old tables are dropped once no process
 * runs them. A projection whose code version differs from its stored tables' is not run (its reads
 * would mix shapes) until an operator rebuilds it.
 */
export async function startProjections(options: StartProjectionsOptions): Promise<RunningProjections> {
  const { pool, store } = options;
  const definitions = options.definitions ?? registeredProjections;
  const logger = options.logger ?? silentLogger;
  const registryPollMs = options.registryPollMs ?? 2_000;
  const running = new Map<string, Running>();
  const warnedStale = new Set<string>();
  const stopping = new AbortController();
  let wake: () => void = () => {};

  await installProjections(pool, definitions);

  const startRunner = (definition: ProjectionDefinition, version: number) => {
    const runner = createSubscriptionRunner({
      ...options.runner,
      pool,
      databaseUrl: options.databaseUrl,
      store,
      handler: projectionHandler(definition, version),
      logger,
    });
    running.set(definition.name, { version, runner });
    // A runner retires itself when a swap replaced its version: look at the registry right away.
    void runner.done.then(() => wake());
    runner.start();
  };

  async function reconcile(): Promise<void> {
    const entries = await listRegistryEntries(pool);
    for (const definition of definitions) {
      const entry = entries.get(definition.name);
      const wanted = servingVersion(definition, entry);
      const current = running.get(definition.name);
      if (current && (current.version !== wanted || current.runner.state === 'retired')) {
        logger.info(
          { projection: definition.name, from: current.version, to: wanted ?? null },
          'projection version changed; switching runner',
        );
        await current.runner.stop();
        running.delete(definition.name);
      }
      if (wanted !== undefined && !running.has(definition.name)) startRunner(definition, wanted);
      if (entry && wanted === undefined && !warnedStale.has(definition.name)) {
        warnedStale.add(definition.name);
        logger.warn(
          {
            projection: definition.name,
            codeVersion: definition.version,
            tablesBuiltBy: entry.activeCodeVersion,
          },
          `projection tables were built by another code version; not running it until \`casescreen projections rebuild ${definition.name}\``,
        );
      }
      if (entry?.retiredVersion != null) {
        const cleanup = await dropRetiredVersion({ pool, databaseUrl: options.databaseUrl, definition });
        if (cleanup.kind === 'dropped') {
          logger.info({ projection: definition.name, version: cleanup.version }, 'dropped replaced tables');
        }
      }
    }
  }

  // The first pass runs before returning, so the runners exist and start-up errors surface here.
  try {
    await reconcile();
  } catch (error) {
    await Promise.all([...running.values()].map(({ runner }) => runner.stop()));
    throw error;
  }
  const supervising = (async () => {
    while (!stopping.signal.aborted) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, registryPollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
        if (stopping.signal.aborted) wake();
      });
      if (stopping.signal.aborted) break;
      try {
        await reconcile();
      } catch (error) {
        const { level, fields } = failureLogFields(error);
        logger[level](fields, 'projection supervisor failed; retrying');
      }
    }
  })();

  return {
    runners: () => new Map([...running].map(([name, { runner }]) => [name, runner])),
    waitForCheckpoint(name, position, waitOptions) {
      const current = running.get(name);
      if (!current) return Promise.reject(new Error(`Projection ${name} is not running in this process`));
      return current.runner.waitForCheckpoint(position, waitOptions);
    },
    async stop() {
      stopping.abort();
      wake();
      await supervising;
      await Promise.all([...running.values()].map(({ runner }) => runner.stop()));
      running.clear();
    },
  };
}

function servingVersion(
  definition: ProjectionDefinition,
  entry: RegistryEntry | undefined,
): number | undefined {
  return entry && entry.activeCodeVersion === definition.version ? entry.activeVersion : undefined;
}
