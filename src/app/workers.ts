import type pg from 'pg';
import type { MetricObjectWithValues, MetricValue } from 'prom-client';
import { startProjections } from '../../projections/startProjections.js';
import { startCheckRunner } from '../checks/checkRunner.js';
import { IndexManager } from '../checks/indexManager.js';
import type { Config } from '../config.js';
import type { EventStore } from '../eventStore/eventStore.js';
import { defaultPurgeTasks, startPurgeScheduler } from '../maintenance/purgeScheduler.js';
import { startMonitoring } from '../monitoring/monitoringRunner.js';
import type { ServiceMetrics } from '../observability/metrics.js';
import type { Logger } from '../shared/logger.js';
import { startWebhooks } from '../webhooks/webhookRunner.js';

export interface Workers {
  /** The metrics the workers record, when they keep them apart from the caller's (a work thread). */
  readonly readMetrics?: () => Promise<MetricObjectWithValues<MetricValue<string>>[]>;
  stop(): Promise<void>;
}

/**
 * The `work` role: projection runners, the retention purge (request log, rate-limit windows,
 * idempotency keys, webhook deliveries) and the reactors: the check runner (its scheduler
 * subscription and CHECK_WORKERS check workers, docs/check-runner.md), the webhook fan-out and
 * WEBHOOK_WORKERS delivery workers (docs/webhooks.md), and monitoring: its scheduler, sweeps
 * and MONITORING_WORKERS run workers (docs/monitoring.md). Each
 * runner lets its in-flight batch commit before stop() resolves; the check workers finish the check
 * they screen, or give back one still waiting for the index; delivery workers finish and record
 * their attempts.
 */
export async function startWorkers(deps: {
  pool: pg.Pool;
  databaseUrl: string;
  store: EventStore;
  logger: Logger;
  config: Config;
  /** The process's screening index, when the caller reads it too (tests, benchmarks); else a new one. */
  indexManager?: IndexManager;
  /** Where the check workers' durations go. */
  metrics?: ServiceMetrics;
}): Promise<Workers> {
  const projections = await startProjections({
    pool: deps.pool,
    databaseUrl: deps.databaseUrl,
    store: deps.store,
    logger: deps.logger,
  });
  const purge = startPurgeScheduler({
    pool: deps.pool,
    logger: deps.logger.child({ component: 'purge' }),
    tasks: defaultPurgeTasks({ webhookRetentionMs: deps.config.webhookRetentionMs }),
  });
  // One screening index per process: the check workers and the monitoring runs share it.
  const indexManager =
    deps.indexManager ??
    new IndexManager({
      pool: deps.pool,
      logger: deps.logger.child({ component: 'index' }),
    });
  const checks = startCheckRunner({
    indexManager,
    pool: deps.pool,
    databaseUrl: deps.databaseUrl,
    store: deps.store,
    logger: deps.logger.child({ component: 'checks' }),
    workers: deps.config.checkWorkers,
    leaseMs: deps.config.checkLeaseMs,
    retryDelaysMs: deps.config.checkRetryDelaysMs,
    pollIntervalMs: deps.config.checkPollIntervalMs,
    staleAfterMs: deps.config.sourceStaleAfterMs,
  });
  const metrics = deps.metrics;
  if (metrics) {
    checks.onJob((report) =>
      metrics.checkDuration.observe(
        { check_type: report.checkType, outcome: report.outcome },
        report.durationMs / 1000,
      ),
    );
  }
  const webhooks = startWebhooks({
    pool: deps.pool,
    databaseUrl: deps.databaseUrl,
    store: deps.store,
    logger: deps.logger.child({ component: 'webhooks' }),
    config: deps.config,
  });
  const monitoring = startMonitoring({
    pool: deps.pool,
    databaseUrl: deps.databaseUrl,
    store: deps.store,
    indexManager,
    logger: deps.logger.child({ component: 'monitoring' }),
    workers: deps.config.monitoringWorkers,
    intervalMs: deps.config.monitoringIntervalMs,
    staleAfterMs: deps.config.sourceStaleAfterMs,
  });
  return {
    async stop() {
      await monitoring.stop();
      await webhooks.stop();
      await checks.stop();
      await purge.stop();
      await projections.stop();
    },
  };
}
