import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { type EventStore, isCaughtUp, type RecordedEvent } from '../../src/eventStore/eventStore.js';
import { createSubscriptionRunner } from '../../src/subscriptions/subscriptionRunner.js';
import { benchStream, sampleEvent } from './events.js';
import { type Distribution, distribution, now, waitUntil } from './stats.js';

const STREAMS = 16;

/** A way of getting feed events to a handler: the adapter's subscribe(), or a subscription runner. */
export interface DeliveryPath {
  name: string;
  /** Stream category of this path's events, so that no path sees another's. */
  category: string;
  /** Starts delivering events of `category` appended from now on; resolves once caught up. */
  start(handler: (event: RecordedEvent) => void): Promise<{ stop(): Promise<void> }>;
}

export interface DeliveryLatency {
  path: string;
  targetRate: number;
  achievedRate: number;
  sent: number;
  delivered: number;
  /** Handler time minus the time the append call resolved. */
  latency: Distribution;
  /** Deliveries that reached the handler before the appender saw its append resolve. */
  beforeResolve: number;
}

/** The adapter's own live subscription, from the current head. */
export function adapterSubscribePath(store: EventStore): DeliveryPath {
  const category = 'benchDeliverySubscribe';
  return {
    name: 'EventStore.subscribe()',
    category,
    async start(handler) {
      const controller = new AbortController();
      const after = await store.headCheckpoint();
      let caughtUp!: () => void;
      const ready = new Promise<void>((resolve) => {
        caughtUp = resolve;
      });
      const loop = (async () => {
        const feed = store.subscribe({ after, categories: [category], signal: controller.signal });
        for await (const item of feed) {
          if (isCaughtUp(item)) caughtUp();
          else handler(item);
        }
      })();
      await Promise.race([ready, loop]);
      return {
        stop: async () => {
          controller.abort();
          await loop;
        },
      };
    },
  };
}

/**
 * The subscription runner, the path projections and reactors get their events by: the handler runs
 * inside the batch's transaction, before the checkpoint moves and commits.
 */
export function subscriptionRunnerPath(store: EventStore, pool: pg.Pool, databaseUrl: string): DeliveryPath {
  const category = 'benchDeliveryRunner';
  return {
    name: 'subscription runner',
    category,
    async start(handler) {
      const runner = createSubscriptionRunner({
        pool,
        databaseUrl,
        store,
        handler: {
          subscriptionId: `bench:${category}`,
          categories: [category],
          handle: async (events) => {
            for (const event of events) handler(event);
          },
        },
      });
      runner.start();
      const head = await store.headCheckpoint();
      if (head) await runner.waitForCheckpoint(head, { timeoutMs: 30_000 });
      return { stop: () => runner.stop() };
    },
  };
}

/** Appends at a steady rate for `durationMs` and times each event from its append's resolve to its handler. */
export async function measureDelivery(
  store: EventStore,
  path: DeliveryPath,
  run: string,
  rate: number,
  durationMs: number,
): Promise<DeliveryLatency> {
  const committedAt = new Map<number, number>();
  const receivedAt = new Map<number, number>();
  const subscription = await path.start((event) => {
    receivedAt.set((event.data as { seq: number }).seq, now());
  });
  const total = Math.max(1, Math.round((rate * durationMs) / 1000));
  const started = now();
  const streams = (seq: number) => benchStream(path.category, run, seq % STREAMS);
  await appendAtRate(store, streams, rate, total, (seq) => committedAt.set(seq, now()));
  const achievedRate = total / ((now() - started) / 1000);
  await waitUntil(() => receivedAt.size >= total, 10_000);
  await subscription.stop();
  return summarize(path.name, rate, achievedRate, total, committedAt, receivedAt);
}

async function appendAtRate(
  store: EventStore,
  streamOf: (seq: number) => string,
  rate: number,
  total: number,
  onCommitted: (seq: number) => void,
): Promise<void> {
  const intervalMs = 1000 / rate;
  const start = now();
  const inFlight: Promise<void>[] = [];
  for (let seq = 0; seq < total; seq += 1) {
    const wait = start + seq * intervalMs - now();
    if (wait > 0) await sleep(wait);
    const append = store.appendToStream(streamOf(seq), [sampleEvent('BenchDelivered', { seq })]);
    inFlight.push(append.then(() => onCommitted(seq)));
  }
  await Promise.all(inFlight);
}

function summarize(
  path: string,
  targetRate: number,
  achievedRate: number,
  sent: number,
  committedAt: Map<number, number>,
  receivedAt: Map<number, number>,
): DeliveryLatency {
  const latencies: number[] = [];
  for (const [seq, received] of receivedAt) {
    const committed = committedAt.get(seq);
    if (committed !== undefined) latencies.push(received - committed);
  }
  return {
    path,
    targetRate,
    achievedRate,
    sent,
    delivered: receivedAt.size,
    latency: distribution(latencies),
    beforeResolve: latencies.filter((value) => value < 0).length,
  };
}
