import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { buildApiServer } from '../api/apiServer.js';
import type { Config } from '../config.js';
import { describeDatabase } from '../db/database.js';
import type { EventStore } from '../eventStore/eventStore.js';
import { instrumentEventStore } from '../observability/instrumentedEventStore.js';
import { exposeSystemStatus, ServiceMetrics } from '../observability/metrics.js';
import { readSystemStatus } from '../observability/systemStatus.js';
import { systemClock } from '../shared/clock.js';
import { endLog, type Logger } from '../shared/logger.js';
import { openPlatform } from './platform.js';
import { startWorkers } from './workers.js';
import { startWorkersInThread } from './workersInThread.js';

export interface Runtime {
  /** Base URL of the HTTP server, when this process serves. */
  url: string | undefined;
  /** Drains HTTP, lets in-flight batches commit, then closes connections and the embedded server. */
  stop(): Promise<void>;
}

interface Stoppable {
  name: string;
  stop(): Promise<void>;
}

/**
 * The composition root. `serve` answers HTTP, `work` runs projections and reactors, `all` does
 * both. Any number of processes of each role may run against one database.
 */
export async function startRuntime(config: Config, logger: Logger): Promise<Runtime> {
  const started: Stoppable[] = [];
  const stopAll = async () => {
    for (const part of started.reverse()) {
      try {
        await part.stop();
      } catch (error) {
        logger.error({ err: error, component: part.name }, 'error while stopping');
      }
    }
  };
  try {
    const platform = await openPlatform(config, {
      applicationName: `casescreen-${config.role}`,
      poolSize: 20,
      // Only where no worker shares the pool (see Config.databasePoolWaitTimeoutMs): `all` runs its
      // workers on a thread with a pool of their own.
      poolWaitTimeoutMs: config.role === 'work' ? 0 : config.databasePoolWaitTimeoutMs,
      log: (line) => logger.debug({ component: 'postgres' }, line),
    });
    const { database, pool } = platform;
    const metrics = new ServiceMetrics({ processMetrics: true });
    const store = instrumentEventStore(platform.store, metrics);
    started.push({
      name: 'platform',
      stop: async () => {
        await platform.close();
        if (database.embedded?.owned)
          logger.info({ dataDir: database.embedded.dataDir }, 'embedded PostgreSQL stopped');
      },
    });
    logger.info(
      {
        port: database.embedded?.port,
        dataDir: database.embedded?.dataDir,
        started: database.embedded?.owned,
      },
      `database: ${describeDatabase(database)}`,
    );
    if (platform.migration.applied.length > 0) {
      logger.info({ applied: platform.migration.applied.map((m) => m.name) }, 'migrated');
    }

    if (config.role !== 'serve') {
      const workers =
        config.role === 'all'
          ? await startWorkersInThread(config, database.url, logger, (error) => {
              logger.fatal({ err: error }, 'the work thread died; exiting');
              void endLog(logger).then(() => process.exit(1));
            })
          : await startWorkers({
              pool,
              databaseUrl: database.url,
              store,
              logger: logger.child({ component: 'work' }),
              config,
              metrics,
            });
      if (workers.readMetrics) metrics.addPeer(workers.readMetrics);
      started.push({ name: 'workers', stop: () => workers.stop() });
      logger.info({ role: config.role }, 'workers started');
    }
    let url: string | undefined;
    if (config.role !== 'work') {
      const readStatus = () => readSystemStatus(pool, store, { staleAfterMs: config.sourceStaleAfterMs });
      exposeSystemStatus(metrics, readStatus);
      const server = buildApiServer({
        logger,
        readiness: readinessChecks(pool, store),
        pool,
        store,
        sourceStaleAfterMs: config.sourceStaleAfterMs,
        clock: systemClock,
        maxInFlightRequests: config.maxInFlightRequests,
        idempotencyLeaseMs: config.idempotencyLeaseMs,
        timeouts: config.httpTimeouts,
        observability: { metrics, readStatus, metricsToken: config.metricsToken },
      });
      await server.listen({ port: config.port, host: config.host });
      url = serverUrl(server);
      started.push({ name: 'http', stop: () => server.close() });
      logger.info({ url, role: config.role }, 'serving');
    }
    return { url, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

function readinessChecks(pool: pg.Pool, store: EventStore) {
  return [
    {
      name: 'postgres',
      check: async () => {
        await pool.query('SELECT 1 FROM schema_migrations LIMIT 1');
      },
    },
    {
      name: 'event_store',
      check: async () => {
        await store.headCheckpoint();
      },
    },
  ];
}

function serverUrl(server: FastifyInstance): string {
  const address = server.server.address();
  if (address && typeof address === 'object') {
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${address.port}`;
  }
  return String(address);
}
