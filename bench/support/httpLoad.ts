import { type Distribution, distribution, now } from './stats.js';

/**
 * Closed-loop HTTP load: `clients` concurrent loops, each sending its next request as soon as the
 * last one answered, until the time is up. Every non-2xx answer is counted, never hidden.
 */
export interface LoadResult {
  requests: number;
  failures: number;
  /** Status codes of the failures, with counts. */
  failureStatuses: Record<number, number>;
  seconds: number;
  perSecond: number;
  latency: Distribution;
}

export type RequestFactory = (client: number, sequence: number) => { url: string; init: RequestInit };

export async function closedLoop(
  clients: number,
  durationMs: number,
  next: RequestFactory,
): Promise<LoadResult> {
  const deadline = now() + durationMs;
  const started = now();
  const latencies: number[] = [];
  const failureStatuses: Record<number, number> = {};
  let failures = 0;
  let sequence = 0;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      while (now() < deadline) {
        const { url, init } = next(client, sequence++);
        const start = now();
        const response = await fetch(url, init);
        await response.arrayBuffer();
        latencies.push(now() - start);
        if (response.status >= 300) {
          failures++;
          failureStatuses[response.status] = (failureStatuses[response.status] ?? 0) + 1;
        }
      }
    }),
  );
  const seconds = (now() - started) / 1000;
  return {
    requests: latencies.length,
    failures,
    failureStatuses,
    seconds,
    perSecond: latencies.length / seconds,
    latency: distribution(latencies),
  };
}
