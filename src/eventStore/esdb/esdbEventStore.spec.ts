import {
  convertToCommandError,
  type EventStoreDBClient,
  jsonEvent,
  type ReadStreamOptions,
} from '@eventstore/db-client';
import { Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONTRACT_POLL_INTERVAL_MS, eventStoreContract } from '../../../test/contract/eventStore.contract.js';
import { FakeEsdb } from '../../../test/support/fakeEsdb.js';
import {
  AppendOutcomeUnknownError,
  type Checkpoint,
  EventStoreUnavailableError,
  type ReadStreamResult,
} from '../eventStore.js';
import { esdbEventStoreOver } from './esdbEventStore.js';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The fake's client, appending one more event to `streamName` right after the next read of it ends. */
function appendingAfterNextRead(fake: FakeEsdb, streamName: string): EventStoreDBClient {
  let armed = true;
  return new Proxy(fake.client, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (property !== 'readStream') return typeof value === 'function' ? value.bind(target) : value;
      return (name: string, options?: ReadStreamOptions) => {
        const read = target.readStream(name, options);
        if (name !== streamName || !armed) return read;
        armed = false;
        return (async function* () {
          try {
            yield* read;
          } finally {
            await target.appendToStream(streamName, [jsonEvent({ type: 'Late', data: {} })]);
          }
        })();
      };
    },
  });
}

/** The revisions a read of this shape returns from a stream whose last revision is `result.revision`. */
function expectedRevisions(
  result: ReadStreamResult,
  shape: { direction: 'forwards' | 'backwards'; fromRevision: bigint; maxCount: number },
): bigint[] {
  const revisions: bigint[] = [];
  if (shape.direction === 'forwards') {
    for (let r = shape.fromRevision; r <= result.revision && revisions.length < shape.maxCount; r++) {
      revisions.push(r);
    }
  } else {
    const start = shape.fromRevision < result.revision ? shape.fromRevision : result.revision;
    for (let r = start; r >= 0n && revisions.length < shape.maxCount; r--) revisions.push(r);
  }
  return revisions;
}

// Live delivery must come from the doorbell: the fallback poll never runs within a test.
eventStoreContract('EventStoreDB adapter over an in-memory fake client', async () => {
  const store = esdbEventStoreOver(new FakeEsdb().client, { pollIntervalMs: CONTRACT_POLL_INTERVAL_MS });
  return {
    store,
    cleanup: () => store.close(),
    streamDeletion: {
      unsupported: 'the in-memory client fake models no deletion (the protocol-level fake does)',
    },
    anotherStore: {
      async open() {
        const other = esdbEventStoreOver(new FakeEsdb().client, {
          pollIntervalMs: CONTRACT_POLL_INTERVAL_MS,
        });
        return { store: other, close: () => other.close() };
      },
    },
  };
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

  describe('reads whose events and revision describe the stream at one moment, while appends land', () => {
    const shapes = [
      { direction: 'forwards', fromRevision: 3n, maxCount: 10 },
      { direction: 'forwards', fromRevision: 1n, maxCount: 10 },
      { direction: 'forwards', fromRevision: 0n, maxCount: 2 },
      { direction: 'backwards', fromRevision: 5n, maxCount: 2 },
      { direction: 'backwards', fromRevision: 1n, maxCount: 5 },
    ] as const;
    for (const shape of shapes) {
      it(`${shape.direction} from ${shape.fromRevision}, at most ${shape.maxCount}`, async () => {
        const fake = new FakeEsdb();
        const writer = esdbEventStoreOver(fake.client);
        await writer.appendToStream(
          'case-1',
          [0, 1, 2].map((n) => ({ type: 'A', data: { n } })),
        );
        const store = esdbEventStoreOver(appendingAfterNextRead(fake, 'case-1'));
        const result = await store.readStream('case-1', shape);
        // Every event the read covers up to the revision it reports, and none after it.
        expect(result.events.map((event) => event.revision)).toEqual(expectedRevisions(result, shape));
        expect((await writer.readStream('case-1')).revision).toBe(3n);
      });
    }
  });

  it('keeps a retry at an explicit revision a no-op after the server forgot recent ids; with any it appends again', async () => {
    const fake = new FakeEsdb();
    const store = esdbEventStoreOver(fake.client);
    const first = [{ id: crypto.randomUUID(), type: 'A', data: {} }];
    const second = [{ id: crypto.randomUUID(), type: 'B', data: {} }];
    await store.appendToStream('case-1', first, { expectedRevision: 'no_stream' });
    await store.appendToStream('case-1', second, { expectedRevision: 0n });
    fake.restart();
    expect(await store.appendToStream('case-1', first, { expectedRevision: 'no_stream' })).toMatchObject({
      nextExpectedRevision: 0n,
    });
    expect(await store.appendToStream('case-1', second, { expectedRevision: 0n })).toMatchObject({
      nextExpectedRevision: 1n,
    });
    expect((await store.readStream('case-1')).revision).toBe(1n);
    // What docs/event-store.md warns of: past the cache, a retry with `any` is a new append.
    await store.appendToStream('case-1', second);
    expect((await store.readStream('case-1')).events.map((event) => event.id)).toEqual([
      first[0]!.id,
      second[0]!.id,
      second[0]!.id,
    ]);
  });

  describe('the client as the adapter uses it', () => {
    /** The fake's client with `method` replaced; every call to it is recorded. */
    function replacing(fake: FakeEsdb, method: string, replacement: (...args: unknown[]) => unknown) {
      const calls: unknown[][] = [];
      const client = new Proxy(fake.client, {
        get(target, property) {
          const value = Reflect.get(target, property, target);
          if (property !== method) return typeof value === 'function' ? value.bind(target) : value;
          return (...args: unknown[]) => {
            calls.push(args);
            return replacement(...args);
          };
        },
      });
      return { client, calls };
    }

    it('sends call credentials with every append, keeping the client off its batch-append path', async () => {
      const fake = new FakeEsdb();
      const credentials = { username: 'ops', password: 'secret' };
      const { client, calls } = replacing(fake, 'appendToStream', (...args) =>
        (fake.appendToStream as (...a: unknown[]) => unknown).apply(fake, args),
      );
      const store = esdbEventStoreOver(client, { appendCredentials: credentials });
      await store.appendToStream('case-1', [{ type: 'A', data: {} }], { expectedRevision: 'no_stream' });
      await store.appendToStreams([{ streamName: 'case-2', events: [{ type: 'B', data: {} }] }]);
      expect(calls.map((args) => (args[2] as { credentials?: unknown }).credentials)).toEqual([
        credentials,
        credentials,
      ]);
    });

    it("turns the client's errors into the port's: outcome unknown for an append, unavailable for reads", async () => {
      const dropped = convertToCommandError(
        Object.assign(new Error('14 UNAVAILABLE: Connection dropped'), {
          code: status.UNAVAILABLE,
          details: 'Connection dropped',
          metadata: new Metadata(),
        }) as ServiceError,
      );
      const fake = new FakeEsdb();
      const failingAppend = replacing(fake, 'appendToStream', async () => {
        throw dropped;
      });
      await expect(
        esdbEventStoreOver(failingAppend.client, { unavailableRetryDelaysMs: [] }).appendToStream(
          'case-1',
          [{ type: 'A', data: {} }],
          {
            expectedRevision: 'no_stream',
          },
        ),
      ).rejects.toBeInstanceOf(AppendOutcomeUnknownError);

      const failingRead = async function* () {
        yield* [];
        throw dropped;
      };
      const readStream = replacing(fake, 'readStream', failingRead);
      await expect(
        esdbEventStoreOver(readStream.client, { unavailableRetryDelaysMs: [] }).readStream('case-1'),
      ).rejects.toBeInstanceOf(EventStoreUnavailableError);
      const readAll = replacing(fake, 'readAll', failingRead);
      const overAll = esdbEventStoreOver(readAll.client, { unavailableRetryDelaysMs: [] });
      await expect(overAll.headCheckpoint()).rejects.toBeInstanceOf(EventStoreUnavailableError);
      await expect(overAll.readFeed({ after: null, limit: 10 })).rejects.toBeInstanceOf(
        EventStoreUnavailableError,
      );
      // Both reads ask for the leader.
      expect(readStream.calls.every((args) => (args[1] as { requiresLeader?: boolean }).requiresLeader)).toBe(
        true,
      );
      expect(readAll.calls.every((args) => (args[0] as { requiresLeader?: boolean }).requiresLeader)).toBe(
        true,
      );
    });
  });

  describe('store identity', () => {
    it('is written into the store once: every adapter on it reads the same, another store differs', async () => {
      const fake = new FakeEsdb();
      const [a, b] = await Promise.all([
        esdbEventStoreOver(fake.client).identity(),
        esdbEventStoreOver(fake.client).identity(),
      ]);
      expect(a).toEqual(b);
      expect(a.instance).toMatch(/^store id [0-9a-f-]{36}$/);
      expect(await esdbEventStoreOver(fake.client).identity()).toEqual(a);
      expect(await esdbEventStoreOver(new FakeEsdb().client).identity()).not.toEqual(a);
    });

    it('stays off the feed', async () => {
      const store = esdbEventStoreOver(new FakeEsdb().client);
      await store.identity();
      expect(await store.readFeed({ after: null, limit: 10 })).toEqual([]);
      expect(await store.headCheckpoint()).toBeNull();
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
