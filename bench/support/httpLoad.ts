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
  /** Mean size of a response body, in bytes. */
  bodyBytes: number;
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
  let bodyBytes = 0;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      while (now() < deadline) {
        const { url, init } = next(client, sequence++);
        const start = now();
        const response = await fetch(url, init);
        bodyBytes += (await response.arrayBuffer()).byteLength;
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
    bodyBytes: bodyBytes / Math.max(1, latencies.length),
  };
}

export interface OpenLoopResult {
  sent: number;
  perSecond: number;
  /** Answers by status code, with counts. */
  statuses: Record<number, number>;
  /** Latency of the 2xx answers: what an admitted request waited. */
  accepted: Distribution;
  /** Latency of the 503 answers: how quickly a refused one learned it. */
  refused: Distribution;
}

/**
 * Open-loop HTTP load: requests sent at a steady `perSecond` for the duration whatever the answers,
 * as independent clients arrive; past capacity they pile up in flight (unlike a closed loop, which
 * slows down with the server), which is what shows whether the server bounds its queue.
 */
export async function openLoop(
  perSecond: number,
  durationMs: number,
  next: (sequence: number) => { url: string; init: RequestInit },
): Promise<OpenLoopResult> {
  const total = Math.max(1, Math.round((perSecond * durationMs) / 1000));
  const interval = 1000 / perSecond;
  const statuses: Record<number, number> = {};
  const accepted: number[] = [];
  const refused: number[] = [];
  const begin = now();
  const sent: Promise<void>[] = [];
  for (let n = 0; n < total; n++) {
    const wait = begin + n * interval - now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const { url, init } = next(n);
    sent.push(
      (async () => {
        const start = now();
        const response = await fetch(url, init);
        await response.arrayBuffer();
        const latency = now() - start;
        statuses[response.status] = (statuses[response.status] ?? 0) + 1;
        if (response.status < 300) accepted.push(latency);
        else if (response.status === 503) refused.push(latency);
      })(),
    );
  }
  await Promise.all(sent);
  return {
    sent: total,
    perSecond: total / ((now() - begin) / 1000),
    statuses,
    accepted: distribution(accepted),
    refused: distribution(refused),
  };
}
