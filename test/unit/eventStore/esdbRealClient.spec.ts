import { randomUUID } from 'node:crypto';
import { EventStoreDBClient } from '@eventstore/db-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEsdbEventStore, esdbEventStoreOver } from '../../../src/eventStore/esdb/esdbEventStore.js';
import { MAX_RECORDS_PER_COUNT } from '../../../src/eventStore/esdb/feed.js';
import {
  AppendOutcomeUnknownError,
  AppendTooLargeError,
  type Checkpoint,
  type EventStore,
  EventStoreUnavailableError,
  isCaughtUp,
} from '../../../src/eventStore/eventStore.js';
import { countEventsAfter } from '../../../src/subscriptions/feedLag.js';
import { CONTRACT_POLL_INTERVAL_MS, eventStoreContract } from '../../contract/eventStore.contract.js';
import { EsdbProtocolFake } from '../../support/esdbProtocolFake.js';
import { eventually } from '../../support/eventually.js';

/**
 * The adapter over the real @eventstore/db-client, against a gRPC server that speaks the protocol
 * (test/support/esdbProtocolFake.ts): what the client itself does with our calls, which the
 * in-memory client fake cannot show.
 */
eventStoreContract('EventStoreDB adapter over the real client and a protocol-level fake server', async () => {
  const server = await EsdbProtocolFake.start();
  const store = createEsdbEventStore({
    connectionString: server.connectionString,
    pollIntervalMs: CONTRACT_POLL_INTERVAL_MS,
  });
  return {
    store,
    async cleanup() {
      await store.close();
      await server.stop();
    },
    streamDeletion: { tombstone: async (streamName) => server.tombstone(streamName) },
    anotherStore: {
      // A new server: what a recreated or wiped one looks like to the service.
      async open() {
        const otherServer = await EsdbProtocolFake.start();
        const other = createEsdbEventStore({
          connectionString: otherServer.connectionString,
          pollIntervalMs: CONTRACT_POLL_INTERVAL_MS,
        });
        return {
          store: other,
          async close() {
            await other.close();
            await otherServer.stop();
          },
        };
      },
    },
  };
});

describe('the real client against the protocol-level fake', () => {
  let server: EsdbProtocolFake;
  let store: EventStore;
  beforeAll(async () => {
    server = await EsdbProtocolFake.start();
    // One quick retry of a call the server refused before doing anything.
    store = createEsdbEventStore({
      connectionString: server.connectionString,
      unavailableRetryDelaysMs: [10],
    });
  });
  afterAll(async () => {
    await store?.close();
    await server?.stop();
  });

  const stream = () => `case-${randomUUID()}`;
  const event = (n: number) => ({ id: randomUUID(), type: 'Tested', data: { n } });

  /** An event of a new category, `thousands` × 1,000 events of another, then a second of the first. */
  async function rareBehind(thousands: number) {
    const rare = `rare${randomUUID().replaceAll('-', '')}`;
    const first = await store.appendToStream(`${rare}-1`, [event(0)]);
    const other = `other${randomUUID().replaceAll('-', '')}-1`;
    for (let batch = 0; batch < thousands; batch++) {
      await store.appendToStream(
        other,
        Array.from({ length: 1_000 }, (_, n) => event(n)),
      );
    }
    await store.appendToStream(`${rare}-2`, [event(1)]);
    return { rare, first, other };
  }

  it('appends with one Append call each, never over the batch-append stream the server offers', async () => {
    const before = { ...server.calls };
    await store.appendToStream(stream(), [event(0)], { expectedRevision: 'no_stream' });
    await store.appendToStreams([
      { streamName: stream(), events: [event(1)], expectedRevision: 'no_stream' },
      { streamName: stream(), events: [event(2)], expectedRevision: 'no_stream' },
    ]);
    expect(server.calls.append - before.append).toBe(3);
    expect(server.calls.batchAppend).toBe(before.batchAppend);
  });

  it('is needed: without call credentials the client takes the batch-append stream', async () => {
    const client = EventStoreDBClient.connectionString(server.connectionString);
    const bare = esdbEventStoreOver(client, { appendCredentials: undefined });
    try {
      const before = server.calls.batchAppend;
      await bare.appendToStream(stream(), [event(0)]).catch(() => undefined);
      expect(server.calls.batchAppend).toBeGreaterThan(before);
    } finally {
      await bare.close();
    }
  });

  it('keeps a retry at an explicit revision a no-op past the recent-id cache; with any it duplicates', async () => {
    const name = stream();
    const first = [event(0)];
    const second = [event(1)];
    await store.appendToStream(name, first, { expectedRevision: 'no_stream' });
    const original = await store.appendToStream(name, second, { expectedRevision: 0n });
    server.forgetRecentIds();
    const retried = await store.appendToStream(name, second, { expectedRevision: 0n });
    expect(retried).toEqual(original);
    await store.appendToStream(name, second);
    expect((await store.readStream(name)).events.map((recorded) => recorded.id)).toEqual([
      first[0]!.id,
      second[0]!.id,
      second[0]!.id,
    ]);
  });

  it("maps the server's own lower append limit to AppendTooLargeError with that limit", async () => {
    server.maxAppendSize = 64 * 1024;
    try {
      const name = stream();
      const refused = store.appendToStream(name, [{ type: 'Tested', data: 'x'.repeat(100 * 1024) }]);
      await expect(refused).rejects.toBeInstanceOf(AppendTooLargeError);
      await expect(refused).rejects.toMatchObject({ limitBytes: 64 * 1024, bytes: null });
      expect((await store.readStream(name)).exists).toBe(false);
    } finally {
      server.maxAppendSize = 1024 * 1024;
    }
  });

  it('retries a call refused by a node that is not the leader or not ready, and answers "not written" when refused again', async () => {
    const name = stream();
    const appendsBefore = server.calls.append;
    server.failNext('append', 'notLeader');
    await store.appendToStream(name, [event(0)], { expectedRevision: 'no_stream' });
    expect(server.calls.append - appendsBefore).toBe(2);
    server.failNext('read', 'notReady');
    expect((await store.readStream(name)).revision).toBe(0n);

    server.failNext('append', 'notLeader');
    server.failNext('append', 'notReady');
    await expect(store.appendToStream(name, [event(1)], { expectedRevision: 0n })).rejects.toBeInstanceOf(
      EventStoreUnavailableError,
    );
    server.failNext('read', 'notReady');
    server.failNext('read', 'notReady');
    await expect(store.readStream(name)).rejects.toBeInstanceOf(EventStoreUnavailableError);
    expect((await store.readStream(name)).revision).toBe(0n);
  });

  it('answers "outcome unknown" for an append whose answer was lost, and its retry finds it written', async () => {
    const name = stream();
    const events = [event(0)];
    server.failNext('append', 'answerLost');
    await expect(
      store.appendToStream(name, events, { expectedRevision: 'no_stream' }),
    ).rejects.toBeInstanceOf(AppendOutcomeUnknownError);
    // The process goes on (no uncaught error from the client), and the retry is a no-op.
    const retried = await store.appendToStream(name, events, { expectedRevision: 'no_stream' });
    expect(retried.nextExpectedRevision).toBe(0n);
    expect((await store.readStream(name)).events.map((recorded) => recorded.id)).toEqual([events[0]!.id]);
  });

  it('answers "outcome unknown" for an append answered after the client deadline', async () => {
    const hurried = createEsdbEventStore({
      connectionString: `${server.connectionString}&defaultDeadline=200`,
    });
    try {
      const name = stream();
      const events = [event(0)];
      server.failNext('append', 'slow');
      await expect(
        hurried.appendToStream(name, events, { expectedRevision: 'no_stream' }),
      ).rejects.toBeInstanceOf(AppendOutcomeUnknownError);
      expect(
        (await hurried.appendToStream(name, events, { expectedRevision: 'no_stream' })).nextExpectedRevision,
      ).toBe(0n);
      expect((await hurried.readStream(name)).events).toHaveLength(1);
    } finally {
      await hurried.close();
    }
  });

  it('counts lag at a bounded cost: a rare category behind many records of others reads at most MAX_RECORDS_PER_COUNT of them, and says capped', async () => {
    // 12,000 records of another category after it, then one more of the rare one.
    const { rare, first, other } = await rareBehind(12);

    const before = server.allReads.records;
    expect(await countEventsAfter(store, first.position, [rare])).toEqual({ events: 0, capped: true });
    const read = server.allReads.records - before;
    expect(read).toBeGreaterThanOrEqual(MAX_RECORDS_PER_COUNT);
    // Pages of 500, each repeating the record it starts from.
    expect(read).toBeLessThanOrEqual(MAX_RECORDS_PER_COUNT + 500);
    // Within the bound the count is exact.
    const lastOther = await store.appendToStream(other, [event(2)]);
    expect(await countEventsAfter(store, lastOther.position, [rare])).toEqual({ events: 0, capped: false });
  });

  it('reads a sparse category at the cost of what it delivers: the server filters $all and sends the events and a checkpoint per 500 records passed over', async () => {
    const { rare, other } = await rareBehind(10);
    await store.appendToStream(other, [event(2)]);
    const records = server.recordCount;

    const reads = { ...server.allReads };
    const sent = { ...server.subscriptionReads };
    const controller = new AbortController();
    const delivered: string[] = [];
    let scannedTo: Checkpoint | null = null;
    for await (const item of store.subscribe({
      after: null,
      categories: [rare],
      signal: controller.signal,
    })) {
      if (!isCaughtUp(item)) delivered.push(item.streamName);
      else if (delivered.length === 2) {
        scannedTo = item.scannedTo;
        controller.abort();
      }
    }
    expect(delivered).toEqual([`${rare}-1`, `${rare}-2`]);
    expect(server.subscriptionReads.events - sent.events).toBe(2);
    expect(server.subscriptionReads.checkpoints - sent.checkpoints).toBeLessThanOrEqual(
      Math.ceil(records / 500),
    );
    // Besides the subscription, one look at the end of $all (one record) per step.
    expect(server.allReads.records - reads.records).toBeLessThanOrEqual(server.allReads.calls - reads.calls);
    expect(server.allReads.calls - reads.calls).toBeLessThanOrEqual(3);
    // Caught up: it has passed the last record of $all, one of another category.
    expect(scannedTo).toBe((await store.headCheckpoint())!);

    // A reader starting from the position it reached reads nothing of the 10,000 again.
    const again = { ...server.subscriptionReads };
    expect(await store.readFeed({ after: scannedTo, categories: [rare], limit: 10 })).toEqual([]);
    expect(server.subscriptionReads.events + server.subscriptionReads.checkpoints).toBe(
      again.events + again.checkpoints,
    );
  });

  it('survives a server restart during concurrent appends: each fails with a port error or lands, and a retry completes it once', async () => {
    const batchAppendsBefore = server.calls.batchAppend;
    const appends = Array.from({ length: 20 }, () => ({ name: stream(), events: [event(0)] }));
    const attempt = ({ name, events }: (typeof appends)[number]) =>
      store.appendToStream(name, events, { expectedRevision: 'no_stream' });
    const outcomes = await Promise.allSettled([
      ...appends.map(attempt),
      server.restart(),
      ...appends.map(attempt),
    ]);
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') {
        expect(
          outcome.reason instanceof AppendOutcomeUnknownError ||
            outcome.reason instanceof EventStoreUnavailableError,
          String(outcome.reason),
        ).toBe(true);
      }
    }
    for (const append of appends) await eventually(() => attempt(append));
    for (const { name, events } of appends) {
      expect((await store.readStream(name)).events.map((recorded) => recorded.id)).toEqual([events[0]!.id]);
    }
    expect(server.calls.batchAppend).toBe(batchAppendsBefore);
  });
});
