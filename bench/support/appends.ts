import type { EventStore } from '../../src/eventStore/eventStore.js';
import { benchStream, sampleEvent } from './events.js';
import { type Distribution, distribution, now } from './stats.js';

export interface AppendThroughput {
  writers: number;
  appends: number;
  seconds: number;
  perSecond: number;
  /** Time of one append call, from call to resolve. */
  latency: Distribution;
  /** CPU time (user + system) of this Node process per append, all its threads. */
  nodeCpuMsPerAppend: number;
}

/**
 * Each writer appends one event at a time to a stream of its own, with the expected revision it
 * last saw (as a command handler does), until the time is up.
 */
export async function measureAppends(
  store: EventStore,
  run: string,
  writers: number,
  durationMs: number,
): Promise<AppendThroughput> {
  const deadline = now() + durationMs;
  const started = now();
  const cpuBefore = process.cpuUsage();
  const perWriter = await Promise.all(
    Array.from({ length: writers }, (_, writer) =>
      appendUntil(store, benchStream('benchAppend', run, `${writers}w${writer}`), deadline),
    ),
  );
  const seconds = (now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const latencies = perWriter.flat();
  return {
    writers,
    appends: latencies.length,
    seconds,
    perSecond: latencies.length / seconds,
    latency: distribution(latencies),
    nodeCpuMsPerAppend: (cpu.user + cpu.system) / 1000 / latencies.length,
  };
}

async function appendUntil(store: EventStore, stream: string, deadline: number): Promise<number[]> {
  const latencies: number[] = [];
  let expectedRevision: 'no_stream' | bigint = 'no_stream';
  while (now() < deadline) {
    const start = now();
    const result = await store.appendToStream(
      stream,
      [sampleEvent('BenchAppended', { seq: latencies.length })],
      { expectedRevision },
    );
    latencies.push(now() - start);
    expectedRevision = result.nextExpectedRevision;
  }
  return latencies;
}
