import {
  BACKWARDS,
  type Credentials,
  type Direction,
  END,
  EventStoreDBClient,
  FORWARDS,
  type Position,
  type ReadRevision,
  START,
} from '@eventstore/db-client';
import { v4 } from 'uuid';
import {
  AppendOutcomeUnknownError,
  type AppendResult,
  assertAppendable,
  assertAppendableAll,
  assignEventIds,
  type Checkpoint,
  type EventStore,
  type ReadFeedOptions,
  type ReadStreamOptions,
  type ReadStreamResult,
  type RecordedEvent,
  type StoreIdentity,
  streamCategory,
  type WaitForEventsOptions,
} from '../eventStore.js';
import { appendCredentialsFor } from './appendCredentials.js';
import { mapAppendError, mapReadError } from './clientErrors.js';
import { toClientConnectionString } from './connectionString.js';
import { type Doorbell, ringOnNextEvent } from './doorbell.js';
import { countFeed, headPosition, type ScanOptions, scanFeed } from './feed.js';
import {
  compareCheckpoints,
  decodePosition,
  encodePosition,
  isStreamNotFound,
  lastRevisionFromRead,
  readShowsEnd,
  toEsdbExpectedRevision,
  toEventData,
  toRecordedEvent,
} from './mapping.js';
import { readOrAssignStoreId } from './storeIdentity.js';
import { subscribeToFeed } from './subscription.js';
import { DEFAULT_UNAVAILABLE_RETRY_DELAYS_MS, retryWhileUnavailable } from './unavailableRetries.js';

export interface EsdbEventStoreOptions {
  /** e.g. `esdb://localhost:2113?tls=false`; `kurrentdb://` and `kdb://` are accepted too (see connectionString.ts). */
  connectionString: string;
  /** Upper bound on a subscriber's wait when the live doorbell misses an append. */
  pollIntervalMs?: number;
  /**
   * Sent with every append, which makes the 6.2.1 client use one call per append instead of its
   * batch-append stream: that stream keeps one process-wide table of pending appends, and after a
   * reconnect reports a committed append as failed, then throws an uncaught error on the server's
   * late reply (the process exits). Ignored by the client on an insecure connection.
   */
  appendCredentials?: Credentials | undefined;
  /** Waits between attempts of a call the server refused before doing anything (see unavailableRetries.ts). */
  unavailableRetryDelaysMs?: readonly number[];
}

const notFound = (): ReadStreamResult => ({ exists: false, revision: -1n, events: [] });

export function createEsdbEventStore(options: EsdbEventStoreOptions): EventStore {
  const connectionString = toClientConnectionString(options.connectionString);
  const client = EventStoreDBClient.connectionString(connectionString);
  return esdbEventStoreOver(client, {
    ...options,
    appendCredentials: options.appendCredentials ?? appendCredentialsFor(connectionString),
  });
}

/** The adapter over a given client (tests pass a fake one). `close()` disposes the client. */
export function esdbEventStoreOver(
  client: EventStoreDBClient,
  options: Pick<
    EsdbEventStoreOptions,
    'pollIntervalMs' | 'appendCredentials' | 'unavailableRetryDelaysMs'
  > = {},
): EventStore {
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const retryDelaysMs = options.unavailableRetryDelaysMs ?? DEFAULT_UNAVAILABLE_RETRY_DELAYS_MS;
  const retrying = <T>(operation: () => Promise<T>) => retryWhileUnavailable(operation, retryDelaysMs);
  const scan = (scanOptions: ScanOptions) => retrying(() => scanFeed(client, scanOptions));
  const doorbells = new Set<Doorbell>();

  /** Reads a whole (bounded) stream read; a missing stream gives null. */
  function read(
    streamName: string,
    readOptions: { fromRevision: ReadRevision; direction: Direction; maxCount?: number | undefined },
  ): Promise<RecordedEvent[] | null> {
    return retrying(() => readOnce(streamName, readOptions));
  }

  async function readOnce(
    streamName: string,
    readOptions: { fromRevision: ReadRevision; direction: Direction; maxCount?: number | undefined },
  ): Promise<RecordedEvent[] | null> {
    const events: RecordedEvent[] = [];
    try {
      // From the leader: a follower may not have the latest appends yet, and the port reads are
      // immediately consistent.
      for await (const resolved of client.readStream(streamName, {
        ...readOptions,
        resolveLinkTos: false,
        requiresLeader: true,
      })) {
        if (resolved.event) events.push(toRecordedEvent(resolved.event));
      }
    } catch (error) {
      if (isStreamNotFound(error)) return null;
      throw mapReadError(error);
    }
    return events;
  }

  async function lastRevision(streamName: string): Promise<bigint> {
    const last = await read(streamName, { fromRevision: END, direction: BACKWARDS, maxCount: 1 });
    return last?.[0]?.revision ?? -1n;
  }

  /** The server reports no position when it recognised a retried append; the original's is in the stream. */
  async function positionAt(streamName: string, revision: bigint): Promise<Position> {
    const [event] =
      (await read(streamName, { fromRevision: revision, direction: FORWARDS, maxCount: 1 })) ?? [];
    if (!event)
      throw new Error(`EventStoreDB reported ${streamName}@${revision} as written but it is not there`);
    return decodePosition(event.position);
  }

  async function waitForEvents({
    signal,
    timeoutMs,
    categories,
    after,
  }: WaitForEventsOptions): Promise<void> {
    if (signal.aborted) return;
    const deadline = startDeadline(timeoutMs, signal);
    // An empty category list matches nothing, and the server refuses an empty prefix filter.
    const doorbell = categories?.length === 0 ? null : ringOnNextEvent(client, categories);
    if (doorbell) doorbells.add(doorbell);
    try {
      if (doorbell && after !== undefined) {
        // Look only once the subscription is live, so an append between the look and the wait still rings.
        await Promise.race([doorbell.ready, deadline.done]);
        if (deadline.expired()) return;
        const visible = await scan({
          after: after ? decodePosition(after) : null,
          categories,
          limit: 1,
        });
        if (visible.events.length > 0) return;
      }
      await Promise.race(doorbell ? [doorbell.rung, deadline.done] : [deadline.done]);
    } finally {
      deadline.cancel();
      if (doorbell) {
        doorbells.delete(doorbell);
        await doorbell.close();
      }
    }
  }

  const store: EventStore = {
    kind: 'esdb',

    async appendToStream(streamName, events, appendOptions = {}): Promise<AppendResult> {
      assertAppendable(streamName, events);
      const expected = appendOptions.expectedRevision ?? 'any';
      const ids = assignEventIds(streamName, events, v4);
      const data = events.map((event, i) => toEventData(event, ids[i]!));
      const result = await retrying(async () => {
        try {
          return await client.appendToStream(streamName, data, {
            expectedRevision: toEsdbExpectedRevision(expected),
            ...(options.appendCredentials && { credentials: options.appendCredentials }),
          });
        } catch (error) {
          throw mapAppendError(error, streamName, expected);
        }
      });
      let position = result.position;
      if (!position) {
        try {
          position = await positionAt(streamName, result.nextExpectedRevision);
        } catch (error) {
          // Written (a recognised retry), but where is unknown: a retry, or a read, settles it.
          throw new AppendOutcomeUnknownError(streamName, { cause: error });
        }
      }
      return { nextExpectedRevision: result.nextExpectedRevision, position: encodePosition(position) };
    },

    async appendToStreams(appends): Promise<AppendResult[]> {
      assertAppendableAll(appends);
      // No multi-stream transaction: in order, each with its own expected revision (see the port).
      const results: AppendResult[] = [];
      for (const append of appends) {
        results.push(
          await store.appendToStream(append.streamName, append.events, {
            expectedRevision: append.expectedRevision,
          }),
        );
      }
      return results;
    },

    async readStream(streamName, readOptions: ReadStreamOptions = {}): Promise<ReadStreamResult> {
      streamCategory(streamName);
      const direction = readOptions.direction ?? 'forwards';
      const { fromRevision, maxCount } = readOptions;
      if (fromRevision !== undefined && fromRevision < 0n) {
        throw new TypeError(`fromRevision must be >= 0, got ${fromRevision}`);
      }
      const shape = { direction, fromRevision, maxCount };
      if (readShowsEnd(shape)) {
        const found = await read(streamName, {
          fromRevision: fromRevision ?? (direction === 'backwards' ? END : START),
          direction: direction === 'backwards' ? BACKWARDS : FORWARDS,
          maxCount,
        });
        if (found === null) return notFound();
        const revision = lastRevisionFromRead(
          shape,
          found.map((event) => event.revision),
        );
        if (revision !== null) return { exists: true, revision, events: found };
        // A forwards read from past the end: where the end is now comes from the read below.
      }
      // This read alone cannot show where the stream ends. Asking for the end after the events could
      // answer a revision whose events the read missed (a backwards read from past the end, a forwards
      // one from the end, while an append lands): so the end first, then the events no further than
      // it. Streams only grow, so both describe the stream as it was when the end was read.
      const head = await lastRevision(streamName);
      if (head === -1n) return notFound();
      const start = direction === 'backwards' ? min(fromRevision ?? head, head) : (fromRevision ?? 0n);
      if (maxCount === 0 || (direction === 'forwards' && start > head)) {
        return { exists: true, revision: head, events: [] };
      }
      const found =
        (await read(streamName, {
          fromRevision: start,
          direction: direction === 'backwards' ? BACKWARDS : FORWARDS,
          maxCount,
        })) ?? [];
      return { exists: true, revision: head, events: found.filter((event) => event.revision <= head) };
    },

    async readFeed({ after, categories, limit }: ReadFeedOptions): Promise<RecordedEvent[]> {
      const page = await scan({ after: after ? decodePosition(after) : null, categories, limit });
      return page.events;
    },

    countFeedEvents({ after, categories, maxEvents }) {
      return retrying(() =>
        countFeed(client, { after: after ? decodePosition(after) : null, categories, maxEvents }),
      );
    },

    subscribe(subscribeOptions) {
      const feed = {
        scan,
        waitForEvents,
      };
      return subscribeToFeed(feed, subscribeOptions, pollIntervalMs);
    },

    waitForEvents,

    async headCheckpoint(): Promise<Checkpoint | null> {
      const head = await retrying(() => headPosition(client));
      return head ? encodePosition(head) : null;
    },

    compareCheckpoints,

    async identity(): Promise<StoreIdentity> {
      return {
        kind: 'esdb',
        instance: `store id ${await retrying(() => readOrAssignStoreId(client, options.appendCredentials))}`,
      };
    },

    async close() {
      await Promise.all([...doorbells].map((doorbell) => doorbell.close()));
      await client.dispose();
    },
  };
  return store;
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);

interface Deadline {
  done: Promise<void>;
  expired(): boolean;
  cancel(): void;
}

/** Settles after `timeoutMs` or on abort, whichever comes first. */
function startDeadline(timeoutMs: number, signal: AbortSignal): Deadline {
  let expired = false;
  let finish!: () => void;
  const done = new Promise<void>((resolve) => {
    finish = () => {
      expired = true;
      resolve();
    };
  });
  const timer = setTimeout(finish, timeoutMs);
  signal.addEventListener('abort', finish, { once: true });
  return {
    done,
    expired: () => expired,
    cancel() {
      clearTimeout(timer);
      signal.removeEventListener('abort', finish);
    },
  };
}
