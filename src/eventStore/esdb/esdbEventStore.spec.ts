import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONTRACT_POLL_INTERVAL_MS, eventStoreContract } from '../../../test/contract/eventStore.contract.js';
import { FakeEsdb } from '../../../test/support/fakeEsdb.js';
import type { Checkpoint } from '../eventStore.js';
import { esdbEventStoreOver } from './esdbEventStore.js';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

// Live delivery must come from the doorbell: the fallback poll never runs within a test.
eventStoreContract('EventStoreDB adapter over an in-memory fake client', async () => {
  const store = esdbEventStoreOver(new FakeEsdb().client, { pollIntervalMs: CONTRACT_POLL_INTERVAL_MS });
  return { store, cleanup: () => store.close() };
});

describe('EventStoreDB adapter details', () => {
  it('answers maxCount 0 with the stream state only', async () => {
    const store = esdbEventStoreOver(new FakeEsdb().client);
    await store.appendToStream('case-1', [
      { type: 'A', data: {} },
      { type: 'B', data: {} },
    ]);
    expect(await store.readStream('case-1', { maxCount: 0 })).toEqual({
      exists: true,
      revision: 1n,
      events: [],
    });
    expect(await store.readStream('case-2', { maxCount: 0 })).toEqual({
      exists: false,
      revision: -1n,
      events: [],
    });
  });

  it('refuses a negative fromRevision', async () => {
    const store = esdbEventStoreOver(new FakeEsdb().client);
    await expect(store.readStream('case-1', { fromRevision: -1n })).rejects.toBeInstanceOf(TypeError);
  });

  describe('waits, on a clock the test moves', () => {
    // Only the wait's own timer is faked: a wait that settles while the clock stands still did not
    // wait out its timeout, and one that settles when the clock reaches it did, whatever the pace.
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('returns at once when events are already visible after the given position', async () => {
      const fake = new FakeEsdb();
      const store = esdbEventStoreOver(fake.client);
      const { position } = await store.appendToStream('case-1', [{ type: 'A', data: {} }]);
      await store.appendToStream('case-1', [{ type: 'B', data: {} }]);
      await store.waitForEvents({ signal: new AbortController().signal, timeoutMs: 5_000, after: position });
      expect(vi.getTimerCount()).toBe(0);
      expect(fake.openSubscriptions).toBe(0);
    });

    it('waits out the timeout when nothing arrives, and ends early on abort or close', async () => {
      const fake = new FakeEsdb();
      const store = esdbEventStoreOver(fake.client);
      const head = (await store.headCheckpoint()) as Checkpoint | null;
      expect(head).toBeNull();

      let waited = false;
      const waiting = store
        .waitForEvents({ signal: new AbortController().signal, timeoutMs: 50, categories: [] })
        .then(() => {
          waited = true;
        });
      await vi.advanceTimersByTimeAsync(49);
      expect(waited).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await waiting;
      expect(waited).toBe(true);

      const controller = new AbortController();
      const aborted = store.waitForEvents({ signal: controller.signal, timeoutMs: 5_000, after: null });
      await tick();
      controller.abort();
      await aborted;

      const pending = store.waitForEvents({ signal: new AbortController().signal, timeoutMs: 5_000 });
      await tick();
      await store.close();
      await pending;
      expect(vi.getTimerCount()).toBe(0);
      expect(fake.disposed).toBe(true);
      expect(fake.openSubscriptions).toBe(0);
    });
  });
});
