import type pg from 'pg';
import type { Config } from '../config.js';
import { newNotificationSender, wakeOnNotify } from '../db/notifications.js';
import type { EventStore } from '../eventStore/eventStore.js';
import { type Logger, silentLogger } from '../shared/logger.js';
import {
  createSubscriptionRunner,
  type SubscriptionRunner,
  type SubscriptionRunnerOptions,
} from '../subscriptions/subscriptionRunner.js';
import { DELIVERIES_CHANNEL } from './deliveries.js';
import { type DeliveryWorker, type DeliveryWorkerOptions, startDeliveryWorker } from './deliveryWorker.js';
import { webhookFanOutHandler } from './fanOut.js';

/**
 * Webhooks in a `work` process: the fan-out reactor (one process leads it) and this process's
 * delivery workers. Deliveries the fan-out commits here wake the workers at once; those of another
 * process arrive by NOTIFY, and retries coming due by the workers' poll.
 */
export interface Webhooks {
  readonly fanOut: SubscriptionRunner;
  readonly deliveries: DeliveryWorker;
  stop(): Promise<void>;
}

export type WebhookSettings = Pick<
  Config,
  | 'webhookWorkers'
  | 'webhookTimeoutMs'
  | 'webhookRetryDelaysMs'
  | 'webhookDisableAfterMs'
  | 'webhookAllowPrivateTargets'
>;

export function startWebhooks(deps: {
  pool: pg.Pool;
  databaseUrl: string;
  store: EventStore;
  logger?: Logger;
  config: WebhookSettings;
  /** Overrides for tests: poll, lease, sender, runner timings. */
  worker?: Partial<DeliveryWorkerOptions>;
  fanOutRunner?: Pick<SubscriptionRunnerOptions, 'batchSize' | 'retry' | 'standbyRetryMs' | 'parkedPollMs'>;
}): Webhooks {
  const logger = deps.logger ?? silentLogger;
  const { config } = deps;
  const deliveries = startDeliveryWorker({
    pool: deps.pool,
    logger,
    concurrency: config.webhookWorkers,
    timeoutMs: config.webhookTimeoutMs,
    retryDelaysMs: config.webhookRetryDelaysMs,
    disableAfterMs: config.webhookDisableAfterMs,
    allowPrivate: config.webhookAllowPrivateTargets,
    ...deps.worker,
  });
  // The fan-out below rings these workers itself after each commit: they skip its notifications.
  const sender = newNotificationSender();
  const notifications =
    config.webhookWorkers > 0
      ? wakeOnNotify(deps.databaseUrl, DELIVERIES_CHANNEL, () => deliveries.wake(), sender)
      : undefined;
  const fanOut = createSubscriptionRunner({
    ...deps.fanOutRunner,
    pool: deps.pool,
    databaseUrl: deps.databaseUrl,
    store: deps.store,
    handler: webhookFanOutHandler(deps.store, sender),
    logger,
  });
  fanOut.onCommit(() => deliveries.wake());
  fanOut.start();
  return {
    fanOut,
    deliveries,
    async stop() {
      await fanOut.stop();
      await deliveries.stop();
      await notifications?.close();
    },
  };
}
