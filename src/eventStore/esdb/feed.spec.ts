import type {
  AllStreamRecordedEvent,
  AllStreamResolvedEvent,
  EventStoreDBClient,
  Position,
  ReadAllOptions,
} from '@eventstore/db-client';
import { describe, expect, it } from 'vitest';
import { type Checkpoint, isCaughtUp, type RecordedEvent, type SubscriptionItem } from '../eventStore.js';
import { headPosition, type ScanOptions, scanFeed } from './feed.js';
import { comparePositions, encodePosition } from './mapping.js';
import { subscribeToFeed } from './subscription.js';

/**
 * `$all` in memory. `inclusiveStart` chooses whether a read from a position returns the record at
 * that position, so the scan is shown to be correct either way.
 */
class FakeAll {
  readonly records: AllStreamRecordedEvent[] = [];
  readonly reads: ReadAllOptions[] = [];
  private next = 1n;

  constructor(private readonly inclusiveStart = true) {}

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
    return { readAll: (options: ReadAllOptions) => this.readAll(options) } as unknown as EventStoreDBClient;
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
  for (const inclusiveStart of [true, false]) {
    describe(inclusiveStart ? 'when reads include their start' : 'when reads exclude their start', () => {
      it('keeps feed events of the categories asked for, strictly after the start', async () => {
        const all = new FakeAll(inclusiveStart);
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
        expect(afterFirst.cursor).toEqual(all.records.at(-1)!.position);
      });

      it('returns exactly limit events and continues from its cursor with nothing lost or repeated', async () => {
        const all = new FakeAll(inclusiveStart);
        for (let i = 0; i < 10; i++) all.append(`case-${i % 3}`);
        const first = await scanFeed(all.client, { after: null, limit: 4 });
        expect(numbers(first.events)).toEqual([0, 1, 2, 3]);
        expect(first.reachedEnd).toBe(false);
        expect(first.cursor).toEqual(all.records[3]!.position);
        const rest = await scanFeed(all.client, { after: first.cursor, limit: 100 });
        expect(numbers(rest.events)).toEqual([4, 5, 6, 7, 8, 9]);
      });

      it('keeps reading pages until it has limit events, when filtering leaves pages short', async () => {
        const all = new FakeAll(inclusiveStart);
        // 1,300 records, one in 300 of the wanted category: at least three pages of 500 to fill the limit.
        for (let i = 0; i < 1300; i++) all.append(i % 300 === 299 ? 'subject-1' : `case-${i}`);
        const scan = await scanFeed(all.client, { after: null, categories: ['subject'], limit: 4 });
        expect(numbers(scan.events)).toEqual([299, 599, 899, 1199]);
        expect(all.reads.length).toBeGreaterThanOrEqual(3);
        const more = await scanFeed(all.client, { after: scan.cursor, categories: ['subject'], limit: 4 });
        expect(more.events).toEqual([]);
        expect(more.reachedEnd).toBe(true);
      });

      it('stops after maxPages reads without claiming the end', async () => {
        const all = new FakeAll(inclusiveStart);
        for (let i = 0; i < 1200; i++) all.append(`case-${i}`);
        const scan = await scanFeed(all.client, {
          after: null,
          categories: ['subject'],
          limit: 10,
          maxPages: 1,
        });
        expect(scan).toMatchObject({ events: [], reachedEnd: false, cursor: all.records[499]!.position });
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
  });
});

describe('headPosition', () => {
  for (const inclusiveStart of [true, false]) {
    it(`skips system events at the end of $all across pages (inclusive start: ${inclusiveStart})`, async () => {
      const all = new FakeAll(inclusiveStart);
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
