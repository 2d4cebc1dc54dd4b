import { openPlatform } from '../../src/app/platform.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/shared/logger.js';
import { startWebhooks } from '../../src/webhooks/webhookRunner.js';

/**
 * The webhook benchmark's "webhooks alone" process: the work role's webhook part (the fan-out
 * reactor and the delivery workers, started as src/app/workers.ts starts them) and nothing else, no
 * projections and no check runner. Set beside a whole `work` process at the same rate, it shows how
 * much of the latency is the webhook pipeline's and how much the other reactors sharing the
 * machine. Logs like the service (pino JSON on stdout), 'workers started' once running.
 */
const config = loadConfig(process.env);
const logger = createLogger(config);
const platform = await openPlatform(config, { applicationName: 'casescreen-work', poolSize: 20 });
const webhooks = startWebhooks({
  pool: platform.pool,
  databaseUrl: platform.database.url,
  store: platform.store,
  logger: logger.child({ component: 'webhooks' }),
  config,
});
logger.info({ role: 'webhooks' }, 'workers started');
process.once('SIGTERM', () => {
  void webhooks
    .stop()
    .then(() => platform.close())
    .then(() => process.exit(0));
});
