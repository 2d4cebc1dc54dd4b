import { EventEmitter } from 'node:events';
import type {
  AllStreamRecordedEvent,
  AllStreamResolvedEvent,
  EventStoreDBClient,
  Position,
  ReadAllOptions,
  SubscribeToAllOptions,
} from '@eventstore/db-client';
import { describe, expect, it } from 'vitest';
import { eventually } from '../../../test/support/eventually.js';
import { type Checkpoint, isCaughtUp, type RecordedEvent, type SubscriptionItem } from '../eventStore.js';
import { CHECKPOINT_EVERY_RECORDS, headPosition, type ScanOptions, scanFeed } from './feed.js';
import { comparePositions, encodePosition } from './mapping.js';
import { subscribeToFeed } from './subscription.js';

interface FakeAllOptions {
  /** Whether a read or subscription from a position returns the record at that position. */
  inclusiveStart?: boolean;
  /**
   * Whether the subscription's events wait in the client's buffer while the control messages after
   * them (checkpoints, "caught up") are already handled, as the client's stream may do.
   */
  buffered?: boolean;
  /** Never sends "caught up" (a server that has not caught up yet, or stalls). */
  stalls?: boolean;
}

/**
 * `$all` in memory, read with readAll or through a filtered catch-up subscription with checkpoints
 * every max search window × interval records passed over. The options choose the server's start
 * semantics and the client's buffering, so the scan is shown to be correct either way.
 */
class FakeAll {
  readonly records: AllStreamRecordedEvent[] = [];
  readonly reads: ReadAllOptions[] = [];
  readonly subscriptions: SubscribeToAllOptions[] = [];
  /** Events the subscriptions sent to the client. */
  eventsSent = 0;
  private next = 1n;
  private readonly inclusiveStart: boolean;

  constructor(private readonly options: FakeAllOptions = {}) {
    this.inclusiveStart = options.inclusiveStart ?? true;
  }

  append(streamId: string, type = 'Tested'): Position {
    // Like the server: events of one append share the commit position; use one per record here.
    const position = { commit: this.next * 10n, prepare: this.next * 10n - 1n };
    this.next += 1n;
    this.records.push({
      streamId,
      id: crypto.randomUUID(),
      isJson: true,
      revision: 0n,
      type,
      created: new Date(),
      data: { n: this.records.length },
      metadata: undefined,
      position,
    } as AllStreamRecordedEvent);
    return position;
  }

  get client(): EventStoreDBClient {
    return {
      readAll: (options: ReadAllOptions) => this.readAll(options),
      subscribeToAll: (options: SubscribeToAllOptions) => this.subscribeToAll(options),
    } as unknown as EventStoreDBClient;
  }

  private subscribeToAll(options: SubscribeToAllOptions) {
    this.subscriptions.push(options);
    const buffer: AllStreamRecordedEvent[] = [];
    let open = true;
    const subscription = Object.assign(new EventEmitter(), {
      unsubscribe: async () => {
        open = false;
      },
    });
    Object.defineProperty(subscription, 'readableLength', { get: () => buffer.length });
    const filter = options.filter!;
    const passes = (record: AllStreamRecordedEvent) =>
      'prefixes' in filter
        ? filter.prefixes.some((prefix) => record.streamId.startsWith(prefix))
        : new RegExp(filter.regex).test(record.type);
    const send = (record: AllStreamRecordedEvent) => {
      this.eventsSent += 1;
      if (this.options.buffered) buffer.push(record);
      else subscription.emit('data', { event: record });
    };
    setImmediate(async () => {
      const from = options.fromPosition ?? 'start';
      let passed = 0;
      for (const record of this.records) {
        if (!open) return;
        if (from !== 'start' && from !== 'end') {
          const order = comparePositions(record.position, from);
          if (order < 0 || (order === 0 && !this.inclusiveStart)) continue;
        }
        if (passes(record)) {
          passed = 0;
          send(record);
        } else if (++passed >= (filter.maxSearchWindow ?? 32) * filter.checkpointInterval) {
          passed = 0;
          await filter.checkpointReached?.(subscription as never, record.position);
        }
      }
      if (!this.options.stalls) subscription.emit('caughtUp');
      // The buffered events reach the client's listener only now.
      setImmediate(() => {
        while (open && buffer.length > 0) subscription.emit('data', { event: buffer.shift() });
      });
    });
    return subscription;
  }

  private async *readAll(options: ReadAllOptions): AsyncGenerator<AllStreamResolvedEvent> {
    this.reads.push(options);
    const { fromPosition = 'start', direction = 'forwards', maxCount = Number.MAX_SAFE_INTEGER } = options;
    const ordered = direction === 'forwards' ? [...this.records] : [...this.records].reverse();
    const selected = ordered.filter((record) => {
      if (fromPosition === 'start' || fromPosition === 'end') return true;
      const order = comparePositions(record.position, fromPosition);
      if (order === 0) return this.inclusiveStart;
      return direction === 'forwards' ? order > 0 : order < 0;
    });
    for (const event of selected.slice(0, Number(maxCount))) yield { event };
  }
}

const numbers = (events: RecordedEvent[]) => events.map((event) => (event.data as { n: number }).n);

describe('scanFeed', () => {
  const modes: FakeAllOptions[] = [
    { inclusiveStart: true },
    { inclusiveStart: false },
    { inclusiveStart: true, buffered: true },
  ];
  for (const mode of modes) {
    describe(`over a server ${JSON.stringify(mode)}`, () => {
      it('keeps feed events of the categories asked for, strictly after the start', async () => {
        const all = new FakeAll(mode);
        all.append('$stats-node', 'StatsCollected');
        const first = all.append('case-1');
        all.append('subject-9');
        all.append('$ce-case', '$>');
        all.append('case-2');
        all.append('legacy_stream');
        all.append('case-1', '$metadata');
        all.append('monitoringConfig-3');

        const everything = await scanFeed(all.client, { after: null, limit: 100 });
        expect(everything.events.map((event) => event.streamName)).toEqual([
          'case-1',
          'subject-9',
          'case-2',
          'monitoringConfig-3',
        ]);
        expect(everything.reachedEnd).toBe(true);

        const cases = await scanFeed(all.client, { after: null, categories: ['case'], limit: 100 });
        expect(numbers(cases.events)).toEqual([1, 4]);

        const afterFirst = await scanFeed(all.client, { after: first, categories: ['case'], limit: 100 });
        expect(numbers(afterFirst.events)).toEqual([4]);
        // Caught up: every record up to the end was passed over, the last one of another category.
        expect(afterFirst.cursor).toEqual(all.records.at(-1)!.position);
      });

      it('returns exactly limit events and continues from its cursor with nothing lost or repeated', async () => {
        const all = new FakeAll(mode);
        for (let i = 0; i < 10; i++) all.append(`case-${i % 3}`);
        const first = await scanFeed(all.client, { after: null, limit: 4 });
        expect(numbers(first.events)).toEqual([0, 1, 2, 3]);
        expect(first.reachedEnd).toBe(false);
        expect(first.cursor).toEqual(all.records[3]!.position);
        const rest = await scanFeed(all.client, { after: first.cursor, limit: 100 });
        expect(numbers(rest.events)).toEqual([4, 5, 6, 7, 8, 9]);
      });

      it('has the server filter: only the events asked for travel, the cursor follows its checkpoints', async () => {
        const all = new FakeAll(mode);
        // 1,300 records, one in 300 of the wanted category.
        for (let i = 0; i < 1300; i++) all.append(i % 300 === 299 ? 'subject-1' : `case-${i}`);
        const scan = await scanFeed(all.client, { after: null, categories: ['subject'], limit: 3 });
        expect(numbers(scan.events)).toEqual([299, 599, 899]);
        // Never past the last event taken, though checkpoints beyond it may have come first.
        expect(scan.cursor).toEqual(all.records[899]!.position);
        const more = await scanFeed(all.client, { after: scan.cursor, categories: ['subject'], limit: 3 });
        expect(numbers(more.events)).toEqual([1199]);
        expect(more).toMatchObject({ reachedEnd: true, cursor: all.records.at(-1)!.position });
        expect(all.subscriptions.map((options) => options.filter)).toEqual([
          expect.objectContaining({ prefixes: ['subject-'], maxSearchWindow: CHECKPOINT_EVERY_RECORDS }),
          expect.objectContaining({ prefixes: ['subject-'] }),
        ]);
        expect(all.eventsSent).toBeLessThanOrEqual(6);
        // Nothing after the end: one look at the end of $all, no subscription.
        const idle = await scanFeed(all.client, { after: more.cursor, categories: ['subject'], limit: 3 });
        expect(idle).toEqual({ events: [], cursor: more.cursor, reachedEnd: true });
        expect(all.subscriptions).toHaveLength(2);
      });

      it('ends on abort with what it has, not claiming the end, the cursor at its last checkpoint', async () => {
        const all = new FakeAll({ ...mode, stalls: true });
        for (let i = 0; i < 1200; i++) all.append(`case-${i}`);
        const controller = new AbortController();
        const scanning = scanFeed(all.client, {
          after: null,
          categories: ['subject'],
          limit: 10,
          signal: controller.signal,
        });
        await eventually(() => expect(all.subscriptions).toHaveLength(1));
        await new Promise((resolve) => setImmediate(resolve));
        controller.abort();
        const scan = await scanning;
        expect(scan.events).toEqual([]);
        expect(scan.reachedEnd).toBe(false);
        expect([null, all.records[499]!.position, all.records[999]!.position]).toContainEqual(scan.cursor);
      });
    });
  }

  it('reads nothing for an empty category list', async () => {
    const all = new FakeAll();
    all.append('case-1');
    expect(await scanFeed(all.client, { after: null, categories: [], limit: 10 })).toEqual({
      events: [],
      cursor: null,
      reachedEnd: true,
    });
    expect(all.reads).toEqual([]);
    expect(all.subscriptions).toEqual([]);
  });
});

describe('headPosition', () => {
  for (const inclusiveStart of [true, false]) {
    it(`skips system events at the end of $all across pages (inclusive start: ${inclusiveStart})`, async () => {
      const all = new FakeAll({ inclusiveStart });
      all.append('case-1');
      const last = all.append('subject-1');
      for (let i = 0; i < 100; i++) all.append('$stats-node', 'StatsCollected');
      expect(await headPosition(all.client)).toEqual(last);
    });
  }

  it('is null for an empty feed or one with only system events', async () => {
    const all = new FakeAll();
    expect(await headPosition(all.client)).toBeNull();
    for (let i = 0; i < 70; i++) all.append('$stats-node', 'StatsCollected');
    expect(await headPosition(all.client)).toBeNull();
  });
});

describe('subscribeToFeed', () => {
  function feedOver(all: FakeAll, onWait: (after: Checkpoint | null | undefined) => void) {
    const scans: ScanOptions[] = [];
    return {
      scans,
      reader: {
        scan: (options: ScanOptions) => {
          scans.push(options);
          return scanFeed(all.client, options);
        },
        async waitForEvents({ after }: { after?: Checkpoint | null }) {
          onWait(after);
        },
      },
    };
  }

  it('delivers, marks caught up, then continues from the last record looked at', async () => {
    const all = new FakeAll();
    all.append('case-1');
    all.append('subject-1');
    all.append('subject-2');
    const controller = new AbortController();
    const waits: (Checkpoint | null | undefined)[] = [];
    const { reader, scans } = feedOver(all, (after) => {
      waits.push(after);
      if (waits.length === 1) all.append('case-2');
      else controller.abort();
    });
    const items: SubscriptionItem[] = [];
    for await (const item of subscribeToFeed(
      reader,
      { after: null, categories: ['case'], signal: controller.signal },
      10,
    )) {
      items.push(item);
    }
    const positions = all.records.map((record) => encodePosition(record.position));
    expect(
      items.map((item) =>
        isCaughtUp(item) ? `caughtUp@${item.checkpoint}/${item.scannedTo}` : item.streamName,
      ),
    ).toEqual([
      'case-1',
      // Delivered up to case-1, and passed subject-2: the last record looked at.
      `caughtUp@${positions[0]}/${positions[2]}`,
      'case-2',
      `caughtUp@${positions[3]}/${positions[3]}`,
    ]);
    // The second scan starts after subject-2 (the last record seen), not after case-1 (the last delivered).
    expect(scans[1]!.after).toEqual(all.records[2]!.position);
    expect(waits[0]).toBe(positions[2]);
  });

  it('reports the start as the checkpoint until something is delivered', async () => {
    const all = new FakeAll();
    const start = encodePosition(all.append('case-1'));
    const controller = new AbortController();
    const { reader } = feedOver(all, () => controller.abort());
    const items: SubscriptionItem[] = [];
    for await (const item of subscribeToFeed(reader, { after: start, signal: controller.signal }, 10)) {
      items.push(item);
    }
    expect(items).toEqual([{ kind: 'caughtUp', checkpoint: start, scannedTo: start }]);
  });

  it('yields nothing more once the consumer stops on the last event', async () => {
    const all = new FakeAll();
    all.append('case-1');
    const controller = new AbortController();
    const { reader } = feedOver(all, () => undefined);
    const items: SubscriptionItem[] = [];
    for await (const item of subscribeToFeed(reader, { after: null, signal: controller.signal }, 10)) {
      items.push(item);
      controller.abort();
    }
    expect(items.map((item) => (isCaughtUp(item) ? 'caughtUp' : item.streamName))).toEqual(['case-1']);
  });

  it('does not start when the signal is already aborted', async () => {
    const all = new FakeAll();
    all.append('case-1');
    const { reader, scans } = feedOver(all, () => undefined);
    const items: SubscriptionItem[] = [];
    for await (const item of subscribeToFeed(reader, { after: null, signal: AbortSignal.abort() }, 10)) {
      items.push(item);
    }
    expect(items).toEqual([]);
    expect(scans).toEqual([]);
  });
});
