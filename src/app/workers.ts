import type pg from 'pg';
import { startProjections } from '../../projections/startProjections.js';
import type { Config } from '../config.js';
import type { EventStore } from '../eventStore/eventStore.js';
import type { Logger } from '../log.js';
import { startPurgeScheduler } from '../maintenance/purgeScheduler.js';

export interface Workers {
  stop(): Promise<void>;
}

/**
 * The `work` role: projection runners and the retention purge (request log, rate-limit windows,
 * idempotency keys); reactors (check runner, webhook fan-out, monitoring) join here as they land.
 * Each runner lets its in-flight batch commit before stop() resolves.
 */
export async function startWorkers(deps: {
  pool: pg.Pool;
  databaseUrl: string;
  store: EventStore;
  logger: Logger;
  config: Config;
}): Promise<Workers> {
  const projections = await startProjections({
    pool: deps.pool,
    databaseUrl: deps.databaseUrl,
    store: deps.store,
    logger: deps.logger,
    runner: { idleWaitMs: deps.config.feedPollIntervalMs },
  });
  const purge = startPurgeScheduler({ pool: deps.pool, logger: deps.logger.child({ component: 'purge' }) });
  return {
    async stop() {
      await purge.stop();
      await projections.stop();
    },
  };
}
