import { describe, expect, it } from 'vitest';
import type { Checkpoint, RecordedEvent } from '../eventStore/eventStore.js';
import { BatchRetry, type FailureStep } from './batchRetry.js';

const position = (n: number) => `0:${n}` as Checkpoint;
const compare = (a: Checkpoint, b: Checkpoint) => Math.sign(Number(a.slice(2)) - Number(b.slice(2)));
const feed = (count: number): RecordedEvent[] =>
  Array.from({ length: count }, (_, n) => ({
    id: `e${n}`,
    type: 'Tested',
    data: {},
    metadata: {},
    streamName: `test-${n}`,
    category: 'test',
    revision: 0n,
    position: position(n + 1),
    recordedAt: new Date(0),
  }));

/**
 * An in-memory stand-in for the runner's loop: reads up to the limit BatchRetry allows, "commits" a
 * batch when the handler does not throw, and follows the failure steps until the feed ends or parks.
 */
function drain(events: RecordedEvent[], handle: (batch: RecordedEvent[]) => void, batchSize: number) {
  const retry = new BatchRetry({ maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 1_000 }, compare, () => 0);
  const committed: string[][] = [];
  const steps: FailureStep['kind'][] = [];
  let cursor = 0;
  for (;;) {
    const batch = events.slice(cursor, cursor + retry.batchLimit(batchSize));
    if (batch.length === 0) return { committed, steps, parkedOn: undefined };
    try {
      handle(batch);
    } catch {
      const step = retry.handlerFailed(batch);
      steps.push(step.kind);
      if (step.kind === 'park') return { committed, steps, parkedOn: step.event.id };
      continue;
    }
    committed.push(batch.map((event) => event.id));
    cursor += batch.length;
    retry.committed(batch.at(-1)!.position);
  }
}

describe('BatchRetry', () => {
  it('retries the batch, then isolates the events one by one and parks on the poison event', () => {
    const result = drain(
      feed(10),
      (batch) => {
        if (batch.some((event) => event.id === 'e5')) throw new Error('poison');
      },
      4,
    );
    expect(result.committed).toEqual([['e0', 'e1', 'e2', 'e3'], ['e4']]);
    expect(result.steps).toEqual(['retry', 'retry', 'isolate', 'retry', 'retry', 'park']);
    expect(result.parkedOn).toBe('e5');
  });

  it('goes back to full batches once past the batch that failed', () => {
    // Fails only when e5 shares a batch: a fault of batching, not of any single event.
    const result = drain(
      feed(12),
      (batch) => {
        if (batch.length > 1 && batch.some((event) => event.id === 'e5')) throw new Error('batch bug');
      },
      4,
    );
    expect(result.parkedOn).toBeUndefined();
    expect(result.committed).toEqual([
      ['e0', 'e1', 'e2', 'e3'],
      ['e4'],
      ['e5'],
      ['e6'],
      ['e7'],
      ['e8', 'e9', 'e10', 'e11'],
    ]);
  });

  it('forgets earlier failures once a batch commits', () => {
    let failures = 2;
    const result = drain(
      feed(3),
      () => {
        if (failures-- > 0) throw new Error('flaky');
      },
      10,
    );
    expect(result.steps).toEqual(['retry', 'retry']);
    expect(result.committed).toEqual([['e0', 'e1', 'e2']]);
  });

  it('parks a lone failing event without isolating it again', () => {
    const result = drain(
      feed(1),
      () => {
        throw new Error('poison');
      },
      10,
    );
    expect(result.steps).toEqual(['retry', 'retry', 'park']);
    expect(result.parkedOn).toBe('e0');
  });

  it('backs off longer on each attempt of the same batch', () => {
    const retry = new BatchRetry({ maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 10_000 }, compare, () => 1);
    const delays = [1, 2, 3].map(() => {
      const step = retry.handlerFailed(feed(2));
      return step.kind === 'retry' ? step.delayMs : -1;
    });
    expect(delays).toEqual([100, 200, 400]);
  });
});
