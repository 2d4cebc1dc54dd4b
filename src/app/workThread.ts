import { readlinkSync } from 'node:fs';
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { Config } from '../config.js';
import { instrumentEventStore } from '../observability/instrumentedEventStore.js';
import { ServiceMetrics } from '../observability/metrics.js';
import { createLogger, endLog } from '../shared/logger.js';
import { openPlatform } from './platform.js';
import { startWorkers } from './workers.js';
import type { WorkThreadMessage, WorkThreadRequest } from './workersInThread.js';

/**
 * The entry point of the `all` role's work thread (workersInThread.ts): the `work` role on a pool and
 * event store of its own, against the database the main thread opened. It answers `started` once
 * every worker runs, and `stopped` once they have all stopped and its connections are closed.
 */
/** Niceness of the work thread: below the HTTP thread (0), still well above idle work (19). */
const WORK_THREAD_NICENESS = 10;
const { config } = workerData as { config: Config };
lowerThreadPriority();
const port = parentPort!;
const post = (message: WorkThreadMessage) => port.postMessage(message);
const logger = createLogger(config).child({ thread: 'work' });

try {
  const platform = await openPlatform(config, { applicationName: 'casescreen-all-work', poolSize: 20 });
  // The thread's own metrics, summed into the main thread's at each scrape (process metrics are the main thread's).
  const metrics = new ServiceMetrics();
  const workers = await startWorkers({
    pool: platform.pool,
    databaseUrl: platform.database.url,
    store: instrumentEventStore(platform.store, metrics),
    logger: logger.child({ component: 'work' }),
    config,
    metrics,
  });
  port.on('message', (request: WorkThreadRequest) => {
    if (request.type === 'metrics') {
      void metrics.registry
        .getMetricsAsJSON()
        .then((values) => post({ type: 'metrics', id: request.id, metrics: values }));
      return;
    }
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

/**
 * On Linux a thread has a scheduling priority of its own: this one yields the CPU to the HTTP thread
 * (and to PostgreSQL) when both want it, so requests are answered first and the work catches up
 * after (nice 10). Elsewhere, or where it is not allowed, the thread keeps the process's priority.
 */
function lowerThreadPriority(): void {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').at(-1));
    if (Number.isInteger(threadId) && threadId > 0) os.setPriority(threadId, WORK_THREAD_NICENESS);
  } catch {
    // Not Linux, or no /proc: the same priority as the HTTP thread.
  }
}
