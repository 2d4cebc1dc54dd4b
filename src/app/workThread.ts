import { parentPort, workerData } from 'node:worker_threads';
import type { Config } from '../config.js';
import { createLogger, endLog } from '../shared/logger.js';
import { openPlatform } from './platform.js';
import { startWorkers } from './workers.js';
import type { WorkThreadMessage, WorkThreadRequest } from './workersInThread.js';

/**
 * The entry point of the `all` role's work thread (workersInThread.ts): the `work` role on a pool and
 * event store of its own, against the database the main thread opened. It answers `started` once
 * every worker runs, and `stopped` once they have all stopped and its connections are closed.
 */
const { config } = workerData as { config: Config };
const port = parentPort!;
const post = (message: WorkThreadMessage) => port.postMessage(message);
const logger = createLogger(config).child({ thread: 'work' });

try {
  const platform = await openPlatform(config, { applicationName: 'casescreen-all-work', poolSize: 20 });
  const workers = await startWorkers({
    pool: platform.pool,
    databaseUrl: platform.database.url,
    store: platform.store,
    logger: logger.child({ component: 'work' }),
    config,
  });
  port.on('message', (request: WorkThreadRequest) => {
    if (request.type !== 'stop') return;
    void (async () => {
      try {
        await workers.stop();
        await platform.close();
        await endLog(logger);
        post({ type: 'stopped' });
      } catch (error) {
        post({ type: 'failed', message: describe(error) });
      }
    })();
  });
  post({ type: 'started' });
} catch (error) {
  post({ type: 'failed', message: describe(error) });
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
