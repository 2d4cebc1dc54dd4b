import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AppendTooLargeError,
  type CaughtUp,
  type Checkpoint,
  EVENT_ENVELOPE_BYTES,
  type EventStore,
  IdempotencyMismatchError,
  InvalidEventTypeError,
  InvalidStreamNameError,
  isCaughtUp,
  MAX_APPEND_BYTES,
  type RecordedEvent,
  StreamDeletedError,
  sameStore,
  WrongExpectedVersionError,
} from '../../src/eventStore/eventStore.js';
import { EVENTUALLY_TIMEOUT_MS, eventually } from '../support/eventually.js';

/**
 * The store under test. Its fallback poll must be longer than any test runs (an hour, say): every
 * delivery a live subscription sees then comes from the adapter's wake-up on append, which is what
 * the contract promises, and no test has to time a delivery to tell the two apart.
 */
export interface ContractSubject {
  store: EventStore;
  cleanup(): Promise<void>;
  /**
   * An operator deleting a stream for good on the store (EventStoreDB's tombstone), or why the
   * subject cannot: the deleted-streams test is then skipped and prints the reason.
   */
  streamDeletion: { tombstone(streamName: string): Promise<void> } | { unsupported: string };
  /**
   * A separate store of the same kind (a new server, another database), or why the subject cannot
   * open one: the checkpoint-from-another-store test is then skipped and prints the reason.
   */
  anotherStore: { open(): Promise<{ store: EventStore; close(): Promise<void> }> } | { unsupported: string };
}

/** The fallback poll interval of every contract subject: see ContractSubject. */
export const CONTRACT_POLL_INTERVAL_MS = 3_600_000;

const uniqueCategory = () => `t${randomBytes(5).toString('hex')}`;
const stream = (category = 'case') => `${category}-${randomUUID()}`;
const event = (n: number, extra: Record<string, unknown> = {}) => ({ type: 'Tested', data: { n, ...extra } });

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

/** Reads the feed for `categories` until `count` events arrived (or the deadline passes). */
async function collect(
  store: EventStore,
  categories: string[],
  count: number,
  after: Checkpoint | null = null,
  timeoutMs = EVENTUALLY_TIMEOUT_MS,
): Promise<RecordedEvent[]> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const seen: RecordedEvent[] = [];
  try {
    for await (const item of store.subscribe({
      after,
      categories,
      signal: controller.signal,
      batchSize: 50,
    })) {
      if (isCaughtUp(item)) continue;
      seen.push(item);
      if (seen.length >= count) break;
    }
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return seen;
}

/** One behavioural contract for every adapter of the EventStore port. */
export function eventStoreContract(name: string, factory: () => Promise<ContractSubject>) {
  describe(`EventStore contract: ${name}`, () => {
    let subject: ContractSubject;
    let store: EventStore;
    beforeAll(async () => {
      subject = await factory();
      store = subject.store;
    });
    afterAll(async () => {
      await subject?.cleanup();
    });

    describe('append and read', () => {
      it('appends to a new stream and reads back ids, types, data and metadata in revision order', async () => {
        const s = stream();
        const id = randomUUID();
        const result = await store.appendToStream(
          s,
          [
            {
              id,
              type: 'Opened',
              data: { name: 'Zoë Ångström — 李小龍', nested: { list: [1, 'two', null] } },
              metadata: { actor: 'a' },
            },
            { type: 'Noted', data: {} },
            { type: 'Noted', data: { long: 'x'.repeat(100_000) } },
          ],
          { expectedRevision: 'no_stream' },
        );
        expect(result.nextExpectedRevision).toBe(2n);
        const read = await store.readStream(s);
        expect(read.exists).toBe(true);
        expect(read.revision).toBe(2n);
        expect(read.events.map((e) => e.revision)).toEqual([0n, 1n, 2n]);
        expect(read.events[0]).toMatchObject({
          id,
          type: 'Opened',
          streamName: s,
          category: 'case',
          data: { name: 'Zoë Ångström — 李小龍', nested: { list: [1, 'two', null] } },
          metadata: { actor: 'a' },
        });
        expect(read.events[0]!.recordedAt).toBeInstanceOf(Date);
        expect(read.events[2]!.data).toEqual({ long: 'x'.repeat(100_000) });
        expect(read.events[2]!.position).toBe(result.position);
      });

      it('appends at the expected revision and reports the actual revision on a mismatch', async () => {
        const s = stream();
        await store.appendToStream(s, [event(0), event(1)], { expectedRevision: 'no_stream' });
        await store.appendToStream(s, [event(2)], { expectedRevision: 1n });
        const error = await rejection(store.appendToStream(s, [event(3)], { expectedRevision: 1n }));
        expect(error).toBeInstanceOf(WrongExpectedVersionError);
        expect(error).toMatchObject({ streamName: s, expected: 1n, actual: 2n });
      });

      it('refuses no_stream on an existing stream', async () => {
        const s = stream();
        await store.appendToStream(s, [event(0)]);
        const error = await rejection(store.appendToStream(s, [event(1)], { expectedRevision: 'no_stream' }));
        expect(error).toBeInstanceOf(WrongExpectedVersionError);
        expect((error as WrongExpectedVersionError).actual).toBe(0n);
      });

      it('refuses stream_exists on a missing stream and accepts it on an existing one', async () => {
        const s = stream();
        const error = await rejection(
          store.appendToStream(s, [event(0)], { expectedRevision: 'stream_exists' }),
        );
        expect(error).toBeInstanceOf(WrongExpectedVersionError);
        expect((error as WrongExpectedVersionError).actual).toBe(-1n);
        await store.appendToStream(s, [event(0)], { expectedRevision: 'no_stream' });
        const ok = await store.appendToStream(s, [event(1)], { expectedRevision: 'stream_exists' });
        expect(ok.nextExpectedRevision).toBe(1n);
      });

      it('reads a missing stream as empty, without an error', async () => {
        expect(await store.readStream(stream())).toEqual({ exists: false, revision: -1n, events: [] });
      });

      it('reads from a revision, with a maximum count, and backwards', async () => {
        const s = stream();
        await store.appendToStream(
          s,
          [0, 1, 2, 3, 4].map((n) => event(n)),
        );
        const from = await store.readStream(s, { fromRevision: 2n, maxCount: 2 });
        expect(from.events.map((e) => e.revision)).toEqual([2n, 3n]);
        expect(from.revision).toBe(4n);
        const back = await store.readStream(s, { direction: 'backwards', maxCount: 2 });
        expect(back.events.map((e) => e.revision)).toEqual([4n, 3n]);
        const backFrom = await store.readStream(s, { direction: 'backwards', fromRevision: 1n });
        expect(backFrom.events.map((e) => e.revision)).toEqual([1n, 0n]);
        const past = await store.readStream(s, { fromRevision: 9n });
        expect(past).toMatchObject({ exists: true, revision: 4n, events: [] });
      });

      it('lets exactly one of many concurrent appends at the same expected revision win', async () => {
        const s = stream();
        await store.appendToStream(s, [event(0)]);
        const results = await Promise.allSettled(
          Array.from({ length: 10 }, (_, i) =>
            store.appendToStream(s, [event(i + 1)], { expectedRevision: 0n }),
          ),
        );
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
        expect(failures).toHaveLength(9);
        for (const failure of failures) expect(failure.reason).toBeInstanceOf(WrongExpectedVersionError);
        expect((await store.readStream(s)).events.map((e) => e.revision)).toEqual([0n, 1n]);
      });

      it('keeps revisions contiguous under concurrent appends with any', async () => {
        const s = stream();
        await Promise.all(
          Array.from({ length: 10 }, (_, w) =>
            (async () => {
              for (let i = 0; i < 5; i++) await store.appendToStream(s, [event(w * 10 + i)]);
            })(),
          ),
        );
        const read = await store.readStream(s);
        expect(read.events.map((e) => e.revision)).toEqual(Array.from({ length: 50 }, (_, i) => BigInt(i)));
        expect(new Set(read.events.map((e) => (e.data as { n: number }).n)).size).toBe(50);
      });

      it('treats a retried append of the same event ids as a no-op success', async () => {
        const s = stream();
        const first = [
          { ...event(0), id: randomUUID() },
          { ...event(1), id: randomUUID() },
        ];
        const original = await store.appendToStream(s, first, { expectedRevision: 'no_stream' });
        const retried = await store.appendToStream(s, first, { expectedRevision: 'no_stream' });
        expect(retried.nextExpectedRevision).toBe(original.nextExpectedRevision);
        expect(retried.position).toBe(original.position);
        const second = [{ ...event(2), id: randomUUID() }];
        await store.appendToStream(s, second, { expectedRevision: 1n });
        const retriedAtRevision = await store.appendToStream(s, second, { expectedRevision: 1n });
        expect(retriedAtRevision.nextExpectedRevision).toBe(2n);
        // Straight after the first attempt; on EventStoreDB `any` dedups only from a recent-id cache.
        const retriedWithAny = await store.appendToStream(s, second);
        expect(retriedWithAny.nextExpectedRevision).toBe(2n);
        expect((await store.readStream(s)).events).toHaveLength(3);
      });

      it('refuses the same event ids at another place, and a retry that repeats only some ids', async () => {
        const s = stream();
        const id = randomUUID();
        await store.appendToStream(s, [{ ...event(0), id }, event(1)]);
        const moved = await rejection(
          store.appendToStream(s, [{ ...event(0), id }], { expectedRevision: 0n }),
        );
        expect(moved).toBeInstanceOf(WrongExpectedVersionError);
        const partial = await rejection(store.appendToStream(s, [{ ...event(0), id }, event(5)]));
        expect(partial).toBeInstanceOf(IdempotencyMismatchError);
        expect((await store.readStream(s)).events).toHaveLength(2);
      });

      it('appends to several streams at their own expected revisions, one result per stream in order', async () => {
        const [a, b] = [stream('subject'), stream()];
        await store.appendToStream(a, [event(0)]);
        const results = await store.appendToStreams([
          { streamName: a, events: [event(1), event(2)], expectedRevision: 0n },
          { streamName: b, events: [event(3)], expectedRevision: 'no_stream' },
        ]);
        expect(results.map((r) => r.nextExpectedRevision)).toEqual([2n, 0n]);
        expect(store.compareCheckpoints(results[0]!.position, results[1]!.position)).toBe(-1);
        expect((await store.readStream(a)).events.map((e) => (e.data as { n: number }).n)).toEqual([0, 1, 2]);
        expect((await store.readStream(b)).events.map((e) => (e.data as { n: number }).n)).toEqual([3]);
      });

      it('names the stream whose expected revision failed in a multi-stream append, and repeats as a no-op', async () => {
        const [a, b] = [stream('subject'), stream()];
        await store.appendToStream(b, [event(0)]);
        const writes = [
          {
            streamName: a,
            events: [{ ...event(1), id: randomUUID() }],
            expectedRevision: 'no_stream' as const,
          },
          {
            streamName: b,
            events: [{ ...event(2), id: randomUUID() }],
            expectedRevision: 'no_stream' as const,
          },
        ];
        const refused = await rejection(store.appendToStreams(writes));
        expect(refused).toBeInstanceOf(WrongExpectedVersionError);
        expect(refused).toMatchObject({ streamName: b, actual: 0n });
        const fixed = [writes[0]!, { ...writes[1]!, expectedRevision: 0n }];
        const first = await store.appendToStreams(fixed);
        const repeated = await store.appendToStreams(fixed);
        expect(repeated.map((r) => r.position)).toEqual(first.map((r) => r.position));
        expect((await store.readStream(b)).events).toHaveLength(2);
        await expect(store.appendToStreams([writes[0]!, writes[0]!])).rejects.toBeInstanceOf(TypeError);
      });

      it('rejects an empty append, invalid stream names and non-UUID event ids', async () => {
        await expect(store.appendToStream(stream(), [])).rejects.toBeInstanceOf(TypeError);
        for (const bad of ['', 'nocategory', '-x', 'Case-1', 'case-', 'case-a b']) {
          await expect(store.appendToStream(bad, [event(0)])).rejects.toBeInstanceOf(InvalidStreamNameError);
        }
        await expect(
          store.appendToStream(stream(), [{ ...event(0), id: 'not-a-uuid' }]),
        ).rejects.toBeInstanceOf(TypeError);
      });

      it('refuses an event type beginning with "$" before anything is written, in one stream or several', async () => {
        const name = stream();
        const other = stream();
        const system = { type: '$Tested', data: {} };
        const refused = await rejection(store.appendToStream(name, [event(0), system]));
        expect(refused).toBeInstanceOf(InvalidEventTypeError);
        expect((refused as Error).message).toContain('"$Tested"');
        await expect(
          store.appendToStreams([
            { streamName: other, events: [event(0)] },
            { streamName: name, events: [system] },
          ]),
        ).rejects.toBeInstanceOf(InvalidEventTypeError);
        expect((await store.readStream(name)).exists).toBe(false);
        expect((await store.readStream(other)).exists).toBe(false);
      });

      it('refuses an append over 1 MiB before anything is written, and takes one just under it', async () => {
        const name = stream();
        // The data's JSON is the string plus its two quotes.
        const justUnder = {
          type: 'Tested',
          data: 'x'.repeat(MAX_APPEND_BYTES - EVENT_ENVELOPE_BYTES - 1024),
        };
        const over = { type: 'Tested', data: 'x'.repeat(MAX_APPEND_BYTES) };
        const refused = await rejection(
          store.appendToStream(name, [over], { expectedRevision: 'no_stream' }),
        );
        expect(refused).toBeInstanceOf(AppendTooLargeError);
        expect(refused).toMatchObject({ streamName: name, limitBytes: MAX_APPEND_BYTES });
        // Many small events count together.
        const many = Array.from({ length: 9 }, () => ({ type: 'Tested', data: 'x'.repeat(128 * 1024) }));
        await expect(store.appendToStream(name, many)).rejects.toBeInstanceOf(AppendTooLargeError);
        await expect(
          store.appendToStreams([
            { streamName: stream(), events: [event(0)], expectedRevision: 'no_stream' },
            { streamName: name, events: [over], expectedRevision: 'no_stream' },
          ]),
        ).rejects.toBeInstanceOf(AppendTooLargeError);
        expect((await store.readStream(name)).exists).toBe(false);

        await store.appendToStream(name, [justUnder], { expectedRevision: 'no_stream' });
        expect((await store.readStream(name)).events[0]?.data).toBe(justUnder.data);
      });
    });

    describe('deleted streams', () => {
      it('answers StreamDeletedError to reads and appends of a stream deleted for good, and the feed goes on past it', async (context) => {
        const deletion = subject.streamDeletion;
        if ('unsupported' in deletion) {
          console.log(`[contract] ${name}: deleted streams skipped: ${deletion.unsupported}`);
          context.skip();
          return;
        }
        const category = uniqueCategory();
        const deleted = stream(category);
        const written = await store.appendToStream(deleted, [event(0), event(1)]);
        await deletion.tombstone(deleted);

        for (const read of [
          store.readStream(deleted),
          store.readStream(deleted, { direction: 'backwards', maxCount: 1 }),
          store.readStream(deleted, { fromRevision: 1n, maxCount: 1 }),
        ]) {
          const error = await rejection(read);
          expect(error).toBeInstanceOf(StreamDeletedError);
          expect((error as StreamDeletedError).streamName).toBe(deleted);
        }
        for (const expectedRevision of ['any', 'no_stream', 1n] as const) {
          const error = await rejection(store.appendToStream(deleted, [event(2)], { expectedRevision }));
          expect(error).toBeInstanceOf(StreamDeletedError);
        }

        // The deletion's own record is no event of the port's feed: the next one is the next append.
        const later = await store.appendToStream(stream(category), [event(3)]);
        const [next] = await collect(store, [category], 1, written.position);
        expect(next?.position).toBe(later.position);
      });
    });

    describe('store identity', () => {
      it('names its kind and the same instance on every call', async () => {
        const first = await store.identity();
        expect(first.kind).toBe(store.kind);
        expect(first.instance).not.toBe('');
        expect(await store.identity()).toEqual(first);
      });

      it('tells a checkpoint from another store of its kind apart by the identity it was recorded with', async (context) => {
        const another = subject.anotherStore;
        if ('unsupported' in another) {
          console.log(`[contract] ${name}: checkpoint from another store skipped: ${another.unsupported}`);
          context.skip();
          return;
        }
        const category = uniqueCategory();
        const here = await store.appendToStream(stream(category), [event(0)]);
        const recordedWith = await store.identity();
        const other = await another.open();
        try {
          // The other store's feed has a position that looks just like this one's.
          const there = await other.store.appendToStream(stream(category), [event(1)]);
          expect(typeof there.position).toBe(typeof here.position);
          const connected = await other.store.identity();
          expect(connected.kind).toBe(recordedWith.kind);
          expect(sameStore(recordedWith, connected)).toBe(false);
          expect(sameStore(recordedWith, await store.identity())).toBe(true);
        } finally {
          await other.close();
        }
      });
    });

    describe('global feed', () => {
      it('resumes mid-append: after an event inside a multi-event append, the rest of that append and what follows, once each', async () => {
        const category = uniqueCategory();
        const s = stream(category);
        await store.appendToStream(s, [event(0), event(1), event(2), event(3), event(4)]);
        await store.appendToStream(stream(category), [event(5)]);
        const all = await collect(store, [category], 6);
        expect(all.map((e) => (e.data as { n: number }).n)).toEqual([0, 1, 2, 3, 4, 5]);

        // A subscriber whose last committed batch ended on the second event of the append.
        const resumed = await collect(store, [category], 4, all[1]!.position);
        expect(resumed.map((e) => e.id)).toEqual(all.slice(2).map((e) => e.id));
        const page = await store.readFeed({ after: all[3]!.position, categories: [category], limit: 10 });
        expect(page.map((e) => e.id)).toEqual(all.slice(4).map((e) => e.id));
      });

      it('delivers every event of a category in per-stream revision order with increasing positions', async () => {
        const category = uniqueCategory();
        const streams = [stream(category), stream(category), stream(category)];
        for (let round = 0; round < 3; round++) {
          for (const s of streams) await store.appendToStream(s, [event(round), event(round + 10)]);
        }
        const seen = await collect(store, [category], 18);
        expect(seen).toHaveLength(18);
        for (let i = 1; i < seen.length; i++) {
          expect(store.compareCheckpoints(seen[i - 1]!.position, seen[i]!.position)).toBe(-1);
        }
        for (const s of streams) {
          expect(seen.filter((e) => e.streamName === s).map((e) => e.revision)).toEqual(
            Array.from({ length: 6 }, (_, i) => BigInt(i)),
          );
        }
      });

      it('filters by category', async () => {
        const a = uniqueCategory();
        const b = uniqueCategory();
        await store.appendToStream(stream(b), [event(0)]);
        await store.appendToStream(stream(a), [event(1)]);
        await store.appendToStream(stream(b), [event(2)]);
        // Read through a subscription: another test's open transaction on the shared server may hold
        // the appends back from the feed for a moment (the feed never skips, so it waits).
        const onlyA = await collect(store, [a], 1);
        expect(onlyA.map((e) => e.category)).toEqual([a]);
        const both = await collect(store, [a, b], 3);
        expect(both.map((e) => (e.data as { n: number }).n)).toEqual([0, 1, 2]);
        const afterA = await store.readFeed({ after: onlyA[0]!.position, categories: [a], limit: 100 });
        expect(afterA).toEqual([]);
      });

      it('resumes after a checkpoint with nothing lost and nothing repeated', async () => {
        const category = uniqueCategory();
        const s = stream(category);
        await store.appendToStream(
          s,
          [0, 1, 2, 3, 4, 5].map((n) => event(n)),
        );
        const firstPart = await collect(store, [category], 2);
        const rest = await collect(store, [category], 4, firstPart[1]!.position);
        expect([...firstPart, ...rest].map((e) => e.revision)).toEqual([0n, 1n, 2n, 3n, 4n, 5n]);
        const page = await store.readFeed({ after: rest[3]!.position, categories: [category], limit: 10 });
        expect(page).toEqual([]);
      });

      it('marks catching up, then delivers events appended later', async () => {
        const category = uniqueCategory();
        await store.appendToStream(stream(category), [event(0)]);
        const controller = new AbortController();
        const received: RecordedEvent[] = [];
        let caughtUp!: () => void;
        const caughtUpOnce = new Promise<void>((resolve) => {
          caughtUp = resolve;
        });
        const reader = (async () => {
          for await (const item of store.subscribe({
            after: null,
            categories: [category],
            signal: controller.signal,
          })) {
            if (isCaughtUp(item)) caughtUp();
            else received.push(item);
            if (received.length === 2) controller.abort();
          }
        })();
        await caughtUpOnce;
        expect(received).toHaveLength(1);
        await new Promise((resolve) => setTimeout(resolve, 100));
        await store.appendToStream(stream(category), [event(1)]);
        // Delivered long before the hour's poll: the append woke the subscription.
        await eventually(() => expect(received).toHaveLength(2));
        await reader;
        expect(received.map((r) => (r.data as { n: number }).n)).toEqual([0, 1]);
      });

      it('marks caught up past a head of other categories read before it started', async () => {
        const own = uniqueCategory();
        const appended = await store.appendToStream(stream(own), [event(0)]);
        const other = await store.appendToStream(stream(uniqueCategory()), [event(1)]);
        // A head the caller read after both appends (once another client's open transaction, on a
        // shared server, no longer holds them back): the marker must have passed it.
        const head = await eventually(async () => {
          const visible = await store.headCheckpoint();
          expect(visible).not.toBeNull();
          expect(store.compareCheckpoints(visible!, other.position)).toBeGreaterThanOrEqual(0);
          return visible!;
        });
        const controller = new AbortController();
        let marker: CaughtUp | undefined;
        for await (const item of store.subscribe({
          after: null,
          categories: [own],
          signal: controller.signal,
        })) {
          if (!isCaughtUp(item)) continue;
          marker = item;
          controller.abort();
        }
        expect(marker?.checkpoint).toBe(appended.position);
        expect(marker?.scannedTo).not.toBeNull();
        expect(store.compareCheckpoints(marker!.scannedTo!, head)).toBeGreaterThanOrEqual(0);
      });

      it('delivers a sparse category behind thousands of other events, and marks caught up past them', async () => {
        const own = uniqueCategory();
        const first = await store.appendToStream(stream(own), [event(0)]);
        const others = stream(uniqueCategory());
        let last = first;
        for (let batch = 0; batch < 6; batch++) {
          last = await store.appendToStream(
            others,
            Array.from({ length: 500 }, (_, n) => event(n)),
          );
        }
        const second = await store.appendToStream(stream(own), [event(1)]);
        const controller = new AbortController();
        const delivered: RecordedEvent[] = [];
        let marker: CaughtUp | undefined;
        for await (const item of store.subscribe({
          after: null,
          categories: [own],
          signal: controller.signal,
        })) {
          if (!isCaughtUp(item)) delivered.push(item);
          else if (delivered.length === 2) {
            marker = item;
            controller.abort();
          }
        }
        expect(delivered.map((recorded) => recorded.position)).toEqual([first.position, second.position]);
        expect(store.compareCheckpoints(marker!.scannedTo!, second.position)).toBeGreaterThanOrEqual(0);
        expect(store.compareCheckpoints(marker!.scannedTo!, last.position)).toBeGreaterThan(0);
        // From the first event, a bounded read finds the second past the 3,000 others.
        expect(
          (await store.readFeed({ after: first.position, categories: [own], limit: 10 })).map(
            (recorded) => recorded.position,
          ),
        ).toEqual([second.position]);
      });

      it('delivers every event exactly once, in per-stream order, under many concurrent writers', async () => {
        const category = uniqueCategory();
        const writers = 8;
        const appendsPerWriter = 50;
        const total = writers * appendsPerWriter;
        const reading = collect(store, [category], total, null, 60_000);
        await Promise.all(
          Array.from({ length: writers }, (_, w) =>
            (async () => {
              const own = stream(category);
              for (let i = 0; i < appendsPerWriter; i++) {
                // Half the writers share one stream each other, to contend on per-stream order too.
                const target = w % 2 === 0 ? own : `${category}-shared`;
                await store.appendToStream(target, [event(i, { w })]);
                if (Math.random() < 0.2)
                  await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
              }
            })(),
          ),
        );
        const seen = await reading;
        expect(seen).toHaveLength(total);
        expect(new Set(seen.map((e) => e.id)).size).toBe(total);
        const byStream = new Map<string, bigint[]>();
        for (const e of seen) byStream.set(e.streamName, [...(byStream.get(e.streamName) ?? []), e.revision]);
        for (const revisions of byStream.values()) {
          expect(revisions).toEqual(revisions.map((_, i) => BigInt(i)));
        }
        expect(byStream.get(`${category}-shared`)).toHaveLength((writers / 2) * appendsPerWriter);
      });

      it("counts a category's events after a checkpoint, and says when it stopped at the maximum", async () => {
        const category = uniqueCategory();
        const streamName = stream(category);
        const first = await store.appendToStream(streamName, [event(0)]);
        await store.appendToStream(stream(uniqueCategory()), [event(1)]);
        const last = await store.appendToStream(streamName, [event(2), event(3), event(4)]);
        await collect(store, [category], 4);

        const count = (after: Checkpoint | null, maxEvents = 100) =>
          store.countFeedEvents({ after, categories: [category], maxEvents });
        expect(await count(null)).toEqual({ events: 4, capped: false });
        expect(await count(first.position)).toEqual({ events: 3, capped: false });
        expect(await count(last.position)).toEqual({ events: 0, capped: false });
        expect(await count(null, 4)).toEqual({ events: 4, capped: false });
        expect(await count(null, 2)).toEqual({ events: 2, capped: true });
      });

      it('reports the last appended position as the head once the feed is quiet', async () => {
        const result = await store.appendToStream(stream(uniqueCategory()), [event(0)]);
        // The head is the last *visible* event: another client's open transaction (tests run in
        // parallel on one server) may hold the feed back for a moment, never for good.
        await eventually(async () => {
          const head = await store.headCheckpoint();
          expect(head).not.toBeNull();
          expect(store.compareCheckpoints(head!, result.position)).toBeGreaterThanOrEqual(0);
        });
      });
    });
  });
}
