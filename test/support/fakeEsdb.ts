import { EventEmitter } from 'node:events';
import {
  type AllStreamRecordedEvent,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  type AppendResult,
  WrongExpectedVersionError as EsdbWrongExpectedVersionError,
  type EventData,
  type EventStoreDBClient,
  type Filter,
  type ReadAllOptions,
  type ReadStreamOptions,
  StreamNotFoundError,
  type SubscribeToAllOptions,
} from '@eventstore/db-client';
import { comparePositions } from '../../src/eventStore/esdb/mapping.js';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

class FakeSubscription extends EventEmitter {
  /** Like the client's stream: nothing is held back, every event is emitted as it is offered. */
  readonly readableLength = 0;
  private passed = 0;

  constructor(
    private readonly filter: Filter | undefined,
    readonly unsubscribe: () => Promise<void>,
  ) {
    super();
  }

  /** Emits a record that passes the filter; a checkpoint every max search window × interval passed over. */
  offer(record: AllStreamRecordedEvent): void {
    const filter = this.filter;
    const matches =
      !filter ||
      ('prefixes' in filter && filter.filterOn === 'streamName'
        ? filter.prefixes.some((prefix) => record.streamId.startsWith(prefix))
        : 'regex' in filter && new RegExp(filter.regex).test(record.type));
    if (matches) {
      this.passed = 0;
      this.emit('data', { event: record });
      return;
    }
    if (!filter?.checkpointReached) return;
    this.passed += 1;
    if (this.passed >= (filter.maxSearchWindow ?? 32) * filter.checkpointInterval) {
      this.passed = 0;
      void filter.checkpointReached(this as never, record.position);
    }
  }
}

/**
 * EventStoreDB as this adapter relies on it behaving, in memory: one position per event with commit
 * equal to prepare, forwards reads that include their start position and backwards reads that exclude
 * it, `$>` links in `$ce-` streams, StreamNotFoundError raised while iterating, retried appends
 * acknowledged without a position, a conflict for a retry that repeats only some ids, and retries
 * with `any`/`stream_exists` recognised only while the ids are in the server's recent-id cache. It shows the
 * adapter's logic is sound given those server facts; only a real server shows the facts hold
 * (test/contract/esdb.contract.int.spec.ts).
 */
export class FakeEsdb {
  private readonly log: AllStreamRecordedEvent[] = [];
  private readonly streams = new Map<string, AllStreamRecordedEvent[]>();
  private readonly subscriptions = new Set<FakeSubscription>();
  private nextPosition = 1_000n;
  disposed = false;
  /** `$all` records handed out by readAll so far: what the adapter's feed reads cost. */
  allRecordsRead = 0;
  /**
   * The server's in-memory cache of recent event ids: all it consults for a retry with `any` or
   * `stream_exists`. Bounded on the server and empty after a restart or a leader change (`restart()`).
   */
  private readonly recentEventIds = new Set<string>();

  constructor() {
    this.record('$stats-127.0.0.1:2113', 'StatsCollected', {});
  }

  get client(): EventStoreDBClient {
    return this as unknown as EventStoreDBClient;
  }

  get openSubscriptions(): number {
    return this.subscriptions.size;
  }

  async appendToStream(
    streamName: string,
    events: EventData[],
    { expectedRevision = 'any' }: { expectedRevision?: AppendExpectedRevision } = {},
  ): Promise<AppendResult> {
    await tick();
    const stream = this.streams.get(streamName) ?? [];
    const current = stream.length - 1;
    const conflict = () =>
      new EsdbWrongExpectedVersionError(undefined, {
        streamName,
        expected: expectedRevision,
        current: current < 0 ? 'no_stream' : BigInt(current),
      });
    const ids = events.map((event) => event.id);
    if (expectedRevision === 'any' || expectedRevision === 'stream_exists') {
      if (expectedRevision === 'stream_exists' && current < 0) throw conflict();
      const found = ids.map((id) =>
        this.recentEventIds.has(id) ? stream.find((event) => event.id === id) : undefined,
      );
      if (found[0]) {
        if (found.every(Boolean)) return { success: true, nextExpectedRevision: found.at(-1)!.revision };
        throw conflict();
      }
    } else {
      const expected = expectedRevision === 'no_stream' ? -1 : Number(expectedRevision);
      if (expected < current) {
        if (ids.every((id, i) => stream[expected + 1 + i]?.id === id)) {
          return { success: true, nextExpectedRevision: BigInt(expected + ids.length) };
        }
        throw conflict();
      }
      if (expected > current) throw conflict();
    }
    for (const event of events) {
      this.recentEventIds.add(event.id);
      const record = this.record(streamName, event.type, event.data, event.metadata, event.id);
      stream.push(record);
      this.record(`$ce-${streamName.split('-')[0]}`, '$>', `${record.revision}@${streamName}`);
    }
    this.streams.set(streamName, stream);
    return {
      success: true,
      nextExpectedRevision: stream.at(-1)!.revision,
      position: stream.at(-1)!.position,
    };
  }

  readStream(streamName: string, options: ReadStreamOptions = {}): AsyncIterable<AllStreamResolvedEvent> {
    const { fromRevision = 'start', direction = 'forwards', maxCount = Number.MAX_SAFE_INTEGER } = options;
    const streams = this.streams;
    return (async function* () {
      await tick();
      const stream = streams.get(streamName);
      if (!stream) throw new StreamNotFoundError(undefined, streamName);
      const selected =
        direction === 'forwards'
          ? stream.filter(
              (e) => fromRevision === 'start' || (fromRevision !== 'end' && e.revision >= fromRevision),
            )
          : stream
              .filter(
                (e) => fromRevision === 'end' || (fromRevision !== 'start' && e.revision <= fromRevision),
              )
              .reverse();
      for (const event of selected.slice(0, Number(maxCount))) yield { event };
    })();
  }

  readAll(options: ReadAllOptions = {}): AsyncIterable<AllStreamResolvedEvent> {
    const { fromPosition = 'start', direction = 'forwards', maxCount = Number.MAX_SAFE_INTEGER } = options;
    const log = this.log;
    const fake = this;
    return (async function* () {
      await tick();
      const ordered = direction === 'forwards' ? [...log] : [...log].reverse();
      const selected = ordered.filter((record) => {
        if (fromPosition === 'start' || fromPosition === 'end') return true;
        const order = comparePositions(record.position, fromPosition);
        return direction === 'forwards' ? order >= 0 : order < 0;
      });
      for (const event of selected.slice(0, Number(maxCount))) {
        fake.allRecordsRead += 1;
        yield { event };
      }
    })();
  }

  /**
   * Live from the end, or catching up from a position (exclusive) or the start: the records already
   * there, then "caught up", then live.
   */
  subscribeToAll(options: SubscribeToAllOptions = {}): FakeSubscription {
    const { fromPosition = 'start' } = options;
    let open = true;
    const subscription = new FakeSubscription(options.filter, async () => {
      open = false;
      this.subscriptions.delete(subscription);
    });
    if (fromPosition === 'end') {
      this.subscriptions.add(subscription);
      setImmediate(() => subscription.emit('confirmation'));
      return subscription;
    }
    setImmediate(() => {
      subscription.emit('confirmation');
      for (const record of [...this.log]) {
        if (!open) return;
        if (fromPosition === 'start' || comparePositions(record.position, fromPosition) > 0) {
          this.allRecordsRead += 1;
          subscription.offer(record);
        }
      }
      if (!open) return;
      // Live before "caught up" is told: a listener that unsubscribes on it must find it there.
      this.subscriptions.add(subscription);
      subscription.emit('caughtUp');
    });
    return subscription;
  }

  /** A server restart or leader change, as far as appends can tell: the recent event ids are gone. */
  restart(): void {
    this.recentEventIds.clear();
  }

  async dispose(): Promise<void> {
    this.disposed = true;
  }

  private record(
    streamId: string,
    type: string,
    data: unknown,
    metadata?: unknown,
    id: string = crypto.randomUUID(),
  ): AllStreamRecordedEvent {
    const position = { commit: this.nextPosition, prepare: this.nextPosition };
    this.nextPosition += 137n;
    const record = {
      streamId,
      id,
      isJson: true,
      revision: BigInt(this.log.filter((r) => r.streamId === streamId).length),
      type,
      created: new Date(),
      data: structuredClone(data),
      metadata: metadata === undefined ? undefined : structuredClone(metadata),
      position,
    } as AllStreamRecordedEvent;
    this.log.push(record);
    for (const subscription of this.subscriptions) subscription.offer(record);
    return record;
  }
}
