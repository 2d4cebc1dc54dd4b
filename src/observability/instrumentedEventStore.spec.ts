import { describe, expect, it } from 'vitest';
import { type EventStore, WrongExpectedVersionError } from '../eventStore/eventStore.js';
import { instrumentEventStore } from './instrumentedEventStore.js';
import { ServiceMetrics } from './metrics.js';

describe('instrumentEventStore', () => {
  it('times appends by operation and outcome, and passes everything else through', async () => {
    const metrics = new ServiceMetrics();
    let calls = 0;
    const inner = {
      kind: 'postgres',
      async appendToStream() {
        calls++;
        if (calls === 2) throw new WrongExpectedVersionError('case-1', 0n as never, 1n as never);
        if (calls === 3) throw new Error('connection terminated');
        return { nextExpectedRevision: 0n, position: '1' };
      },
      async headCheckpoint() {
        return 'head';
      },
    } as unknown as EventStore;
    const store = instrumentEventStore(inner, metrics);
    await store.appendToStream('case-1', []);
    await expect(store.appendToStream('case-1', [])).rejects.toBeInstanceOf(WrongExpectedVersionError);
    await expect(store.appendToStream('case-1', [])).rejects.toThrow('connection terminated');
    expect(await store.headCheckpoint()).toBe('head');
    expect(store.kind).toBe('postgres');

    const text = await metrics.registry.metrics();
    for (const outcome of ['ok', 'conflict', 'error']) {
      expect(text).toContain(
        `casescreen_event_store_append_duration_seconds_count{operation="appendToStream",outcome="${outcome}"} 1`,
      );
    }
  });
});
