import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { MetricObjectWithValues, MetricValue } from 'prom-client';
import type { Config } from '../config.js';
import type { Logger } from '../shared/logger.js';
import type { Workers } from './workers.js';

export type WorkThreadRequest = { type: 'stop' } | { type: 'metrics'; id: number };
export type WorkThreadMessage =
  | { type: 'started' }
  | { type: 'stopped' }
  | { type: 'failed'; message: string }
  | { type: 'metrics'; id: number; metrics: MetricObjectWithValues<MetricValue<string>>[] };

type LifecycleMessage = Exclude<WorkThreadMessage, { type: 'metrics' }>;

/** A scrape does not wait longer than this for the thread's metrics (it is busy screening). */
const METRICS_WAIT_MS = 2_000;

/**
 * The thread's young generation: 192 MB, that is semi-spaces of 64 MB where V8 stops at 16 (the same
 * as `node --max-semi-space-size=64`). Screening a query allocates candidates and scores that die
 * young; with the usual size a scavenge ran every 50 ms of queries at two million names and a query
 * that met one took about 3 ms longer. Scavenges four times rarer, each of about the same cost (little
 * survives them), take most of them out of the p99 (docs/screening-matching.md, "Measured").
 */
export const WORK_THREAD_YOUNG_GENERATION_MB = 192;

/**
 * The `all` role's workers (projections, check screening, webhooks, monitoring) on a thread of their
 * own, so that screening, index builds and projection batches never hold up the HTTP server's event
 * loop. The thread opens its own pool and event store on `databaseUrl` (the database this process
 * opened, embedded or not). A thread that dies takes the process down, as a crashed `work` process
 * would be restarted by its supervisor: half a service must not keep answering as if whole.
 */
export async function startWorkersInThread(
  config: Config,
  databaseUrl: string,
  logger: Logger,
  onCrash: (error: Error) => void,
): Promise<Workers> {
  const workerData = { config: { ...config, databaseUrl } };
  const resourceLimits = { maxYoungGenerationSizeMb: WORK_THREAD_YOUNG_GENERATION_MB };
  // Run from the sources (through tsx: the tests, `npm run dev`), the thread loads the sources too,
  // through tsx's loader, which a worker thread does not inherit from `--import tsx`.
  const worker = import.meta.url.endsWith('.ts')
    ? new Worker(
        `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL('./workThread.ts', import.meta.url).href)}); });`,
        { eval: true, workerData, resourceLimits },
      )
    : new Worker(new URL('./workThread.js', import.meta.url), { workerData, resourceLimits });
  let stopping = false;
  const next = () => nextMessage(worker);
  const started = await next();
  if (started.type !== 'started') {
    await worker.terminate();
    throw new Error(
      `The work thread did not start: ${started.type === 'failed' ? started.message : started.type}`,
    );
  }
  worker.on('error', (error) => {
    logger.error({ err: error }, 'the work thread failed');
    if (!stopping) onCrash(error);
  });
  worker.on('exit', (code) => {
    if (!stopping) onCrash(new Error(`the work thread exited with code ${code}`));
  });
  const metricReplies = new Map<number, (metrics: MetricObjectWithValues<MetricValue<string>>[]) => void>();
  let nextMetricsId = 0;
  // A thread too busy to answer in time (an index build) gives its last reply: counters that went
  // missing from a scrape would read as a reset to Prometheus.
  let lastMetrics: MetricObjectWithValues<MetricValue<string>>[] = [];
  worker.on('message', (message: WorkThreadMessage) => {
    if (message.type !== 'metrics') return;
    metricReplies.get(message.id)?.(message.metrics);
    metricReplies.delete(message.id);
  });
  return {
    readMetrics: () =>
      new Promise((resolve) => {
        const id = nextMetricsId++;
        const timer = setTimeout(() => {
          metricReplies.delete(id);
          resolve(lastMetrics);
        }, METRICS_WAIT_MS);
        metricReplies.set(id, (metrics) => {
          clearTimeout(timer);
          lastMetrics = metrics;
          resolve(metrics);
        });
        worker.postMessage({ type: 'metrics', id } satisfies WorkThreadRequest);
      }),
    async stop() {
      stopping = true;
      const stopped = next();
      worker.postMessage({ type: 'stop' } satisfies WorkThreadRequest);
      const outcome = await stopped.catch((error: Error) => ({
        type: 'failed' as const,
        message: error.message,
      }));
      await Promise.race([once(worker, 'exit'), worker.terminate()]);
      if (outcome.type === 'failed')
        throw new Error(`The work thread did not stop cleanly: ${outcome.message}`);
    },
  };
}

/** The thread's next message about its start or stop (metrics replies are not); an error when it exits first. */
function nextMessage(worker: Worker): Promise<LifecycleMessage> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: WorkThreadMessage) => {
      if (message.type === 'metrics') return;
      cleanUp();
      resolve(message);
    };
    const onExit = (code: number) => {
      cleanUp();
      reject(new Error(`the work thread exited with code ${code}`));
    };
    const cleanUp = () => {
      worker.off('message', onMessage);
      worker.off('exit', onExit);
    };
    worker.on('message', onMessage);
    worker.on('exit', onExit);
  });
}
