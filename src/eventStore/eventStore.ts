import { validate as isUuid, v4 as uuidv4 } from 'uuid';

/**
 * The event store port. Semantics follow EventStoreDB so that both adapters
 * (PostgreSQL, EventStoreDB) are interchangeable behind it:
 * - revisions are 0-based; -1n means "the stream does not exist";
 * - expectedRevision is 'any' | 'no_stream' | 'stream_exists' | bigint;
 * - re-appending the same event ids at the same explicit expected revision (a bigint, or `no_stream`)
 *   is a no-op success answering the original result, on both stores, for as long as the events are
 *   in the stream: both compare the ids with the stream's events at that place. With `any` or
 *   `stream_exists` only PostgreSQL still looks the ids up in the stream; EventStoreDB consults an
 *   in-memory cache of recent event ids (bounded, emptied by a restart or a leader change), past
 *   which the retry is appended again. Commands therefore append at the revision they read.
 */

/**
 * Where an append must land. Only a bigint or `no_stream` names the exact place, which is what makes
 * a retry of the append deduplicated on every store; `any` and `stream_exists` are for writers whose
 * retries may duplicate (tests, benchmarks), never for commands.
 */
export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | bigint;

/** Opaque, adapter-encoded position on the global feed. Compare with `store.compareCheckpoints`. */
export type Checkpoint = string & { readonly __brand: 'Checkpoint' };

export type EventMetadata = Record<string, unknown>;

export interface NewEvent<T extends string = string, D = unknown> {
  /**
   * UUID. Supply a deterministic one, and an explicit expected revision, to make a retried append a
   * no-op on every store (see the port's comment); generated when absent.
   */
  id?: string;
  type: T;
  data: D;
  metadata?: EventMetadata;
}

export interface RecordedEvent<T extends string = string, D = unknown> {
  id: string;
  type: T;
  data: D;
  metadata: EventMetadata;
  streamName: string;
  category: string;
  revision: bigint;
  position: Checkpoint;
  recordedAt: Date;
}

export interface AppendResult {
  /** Revision of the last event now in the stream. */
  nextExpectedRevision: bigint;
  /** Global position of the last appended event. */
  position: Checkpoint;
}

export interface ReadStreamOptions {
  fromRevision?: bigint;
  maxCount?: number;
  direction?: 'forwards' | 'backwards';
}

export interface ReadStreamResult {
  exists: boolean;
  /** Revision of the last event in the stream, -1n when the stream does not exist. */
  revision: bigint;
  events: RecordedEvent[];
}

export interface CaughtUp {
  kind: 'caughtUp';
  /** Position of the last event delivered so far (null when none). */
  checkpoint: Checkpoint | null;
  /**
   * How far the subscription has looked through the feed, whatever the categories: it has delivered
   * every event of its categories up to here. At or after `checkpoint`, and at or after every
   * `headCheckpoint()` answered before the previous marker (the first marker: before the
   * subscription started), so a caller waiting for a head it read is released by the next marker.
   * A valid `after` for a later subscription: the runner stores it as its checkpoint, so a restart
   * does not look through the same stretch of the feed again. Null only while the feed is empty.
   */
  scannedTo: Checkpoint | null;
}

export type SubscriptionItem = RecordedEvent | CaughtUp;

export interface SubscribeOptions {
  /** Exclusive start: deliver events strictly after this position; null = from the start. */
  after: Checkpoint | null;
  /** Stream categories (the part of the stream name before the first '-'); all when absent. */
  categories?: string[];
  signal: AbortSignal;
  batchSize?: number;
}

export interface ReadFeedOptions {
  after: Checkpoint | null;
  categories?: string[];
  limit: number;
}

export interface CountFeedEventsOptions {
  /** Exclusive start, as for `readFeed`. */
  after: Checkpoint | null;
  categories?: string[];
  /** Stop counting past this many events. */
  maxEvents: number;
}

export interface FeedCount {
  /** Events of the categories after `after` counted: all of them unless `capped`. */
  events: number;
  /**
   * True when counting stopped before the end of the feed, at `maxEvents` or at the store's own
   * bound on what one count may read: there are at least `events`, maybe more.
   */
  capped: boolean;
}

export interface WaitForEventsOptions {
  signal: AbortSignal;
  timeoutMs: number;
  categories?: string[];
  /**
   * The caller's position. When given, the wait returns at once if events are already visible
   * after it, which closes the gap between an empty read and the start of the wait.
   */
  after?: Checkpoint | null;
}

/**
 * Which store a process is connected to: its kind and the instance. Feed positions mean something
 * only on the instance that handed them out, so checkpoints record it (see the subscription runner).
 */
export interface StoreIdentity {
  kind: EventStore['kind'];
  /** Stable for the life of the store's data; another server, or the same one recreated, differs. */
  instance: string;
}

export function sameStore(a: StoreIdentity, b: StoreIdentity): boolean {
  return a.kind === b.kind && a.instance === b.instance;
}

export function describeStore(identity: StoreIdentity): string {
  return `${identity.kind} ${identity.instance}`;
}

export interface StreamAppend {
  streamName: string;
  events: NewEvent[];
  expectedRevision?: ExpectedRevision;
}

export interface EventStore {
  readonly kind: 'postgres' | 'esdb';
  appendToStream(
    streamName: string,
    events: NewEvent[],
    options?: { expectedRevision?: ExpectedRevision },
  ): Promise<AppendResult>;
  /**
   * Appends to several distinct streams, each at its own expected revision; one result per append,
   * in order. On PostgreSQL all of them or none (one transaction). EventStoreDB has no multi-stream
   * transaction: there they are written one after another, and a failure leaves the earlier ones
   * written; a retry with the same event ids completes the rest (an append repeated is a no-op).
   */
  appendToStreams(appends: StreamAppend[]): Promise<AppendResult[]>;
  readStream(streamName: string, options?: ReadStreamOptions): Promise<ReadStreamResult>;
  /**
   * One page of the ordered global feed after `after`. Never skips an event that commits later:
   * what it returns is a prefix of everything that will ever follow `after`.
   */
  readFeed(options: ReadFeedOptions): Promise<RecordedEvent[]>;
  /**
   * The ordered global feed as a live stream: catches up, yields a `caughtUp` marker,
   * then keeps delivering new events, each time it has drained the feed again with another marker,
   * until the signal aborts. The one way to follow the feed (the subscription runner runs on it).
   */
  subscribe(options: SubscribeOptions): AsyncIterable<SubscriptionItem>;
  /**
   * Counts the events of the categories after `after` (a subscription's lag), at a bounded cost:
   * PostgreSQL reads at most `maxEvents` rows through its category index; EventStoreDB reads `$all`
   * in the client for counts, so it also stops after `MAX_RECORDS_PER_COUNT` records examined, and
   * reports the count as capped.
   */
  countFeedEvents(options: CountFeedEventsOptions): Promise<FeedCount>;
  /**
   * Resolves when new events may be on the feed (a wake-up from the store), or after `timeoutMs`,
   * or when the signal aborts. A hint, never a guarantee: callers re-read the feed either way.
   */
  waitForEvents(options: WaitForEventsOptions): Promise<void>;
  /** Position of the last event visible on the feed, or null when the feed is empty. */
  headCheckpoint(): Promise<Checkpoint | null>;
  compareCheckpoints(a: Checkpoint, b: Checkpoint): -1 | 0 | 1;
  /** Which store instance this is: read from the store on every call, so a swapped server shows. */
  identity(): Promise<StoreIdentity>;
  close(): Promise<void>;
}

export class WrongExpectedVersionError extends Error {
  override readonly name = 'WrongExpectedVersionError';
  constructor(
    readonly streamName: string,
    readonly expected: ExpectedRevision,
    /** -1n when the stream does not exist. */
    readonly actual: bigint,
  ) {
    super(
      `Append to ${streamName} expected revision ${String(expected)} but the stream is at ${actual === -1n ? 'no_stream' : actual.toString()}`,
    );
  }
}

/** Some, but not all, of an append's event ids are already in the stream: a retry that changed. */
export class IdempotencyMismatchError extends Error {
  override readonly name = 'IdempotencyMismatchError';
  constructor(readonly streamName: string) {
    super(`Append to ${streamName} repeats only part of an earlier append's event ids`);
  }
}

export class InvalidStreamNameError extends TypeError {
  override readonly name = 'InvalidStreamNameError';
}

/**
 * Event types starting with `$` are EventStoreDB's system events: its `$all` reads leave them out of
 * the feed, so such an event would be stored but never delivered. Refused on every adapter alike.
 */
export class InvalidEventTypeError extends TypeError {
  override readonly name = 'InvalidEventTypeError';
}

/**
 * The largest append the port takes, per stream: EventStoreDB's default maximum append size
 * (`MaxAppendSize`, 1 MiB), so an append PostgreSQL would take is never one EventStoreDB refuses.
 */
export const MAX_APPEND_BYTES = 1024 * 1024;
/**
 * What each event is counted for besides its type, data and metadata: EventStoreDB counts the whole
 * proposed message (id, content type, framing), a few dozen bytes; this rounds it up.
 */
export const EVENT_ENVELOPE_BYTES = 256;

/** An append's size as the port counts it: JSON of data and metadata, the type, an envelope each. */
export function appendSize(events: readonly NewEvent[]): number {
  let bytes = 0;
  for (const event of events) {
    bytes += EVENT_ENVELOPE_BYTES + Buffer.byteLength(event.type);
    bytes += Buffer.byteLength(JSON.stringify(event.data ?? null));
    bytes += Buffer.byteLength(JSON.stringify(event.metadata ?? {}));
  }
  return bytes;
}

/**
 * The stream was deleted for good on the store (an EventStoreDB operator's hard delete, a
 * "tombstone"): it cannot be read or appended to again, under that name, by anyone. Nothing was
 * written. PostgreSQL never deletes a stream, so only the EventStoreDB adapter raises it.
 */
export class StreamDeletedError extends Error {
  override readonly name = 'StreamDeletedError';
  constructor(
    readonly streamName: string,
    options?: ErrorOptions,
  ) {
    super(`Stream ${streamName} was deleted on the event store and cannot be read or written`, options);
  }
}

/** Larger than the store takes in one append (MAX_APPEND_BYTES, or the server's own lower limit). Nothing was written. */
export class AppendTooLargeError extends RangeError {
  override readonly name = 'AppendTooLargeError';
  constructor(
    readonly streamName: string,
    /** The append's size as counted; null when the server refused it and did not say. */
    readonly bytes: number | null,
    readonly limitBytes: number,
  ) {
    super(
      `Append to ${streamName} is ${bytes === null ? 'larger than' : `${bytes} bytes, over`} the event store's limit of ${limitBytes} bytes per append`,
    );
  }
}

/**
 * The store cannot serve right now (down, restarting, not ready yet, not the leader, unreachable
 * after the client's reconnection attempts), and refused before doing anything: an append was not
 * written. Retrying later is safe.
 */
export class EventStoreUnavailableError extends Error {
  override readonly name = 'EventStoreUnavailableError';
}

/**
 * An append was sent and no answer came (the connection dropped, the deadline passed): it may or may
 * not be written. Read the stream to find out: a retry with the same ids at the same explicit
 * expected revision is a no-op if it was (see "When a retried append is a no-op", docs/event-store.md).
 */
export class AppendOutcomeUnknownError extends Error {
  override readonly name = 'AppendOutcomeUnknownError';
  constructor(
    readonly streamName: string,
    options?: { cause?: unknown },
  ) {
    super(
      `The outcome of the append to ${streamName} is unknown: it may or may not have been written`,
      options,
    );
  }
}

/** `<category>-<id>`: the category is a lowerCamel word with no dash (case, monitoringConfig, subject). */
const STREAM_NAME = /^[a-z][A-Za-z0-9]*-\S+$/;

export function streamCategory(streamName: string): string {
  if (!STREAM_NAME.test(streamName)) {
    throw new InvalidStreamNameError(
      `Invalid stream name "${streamName}": expected <category>-<id>, category [a-z][A-Za-z0-9]*`,
    );
  }
  return streamName.slice(0, streamName.indexOf('-'));
}

export function streamName(category: string, id: string): string {
  const name = `${category}-${id}`;
  streamCategory(name);
  return name;
}

export function isCaughtUp(item: SubscriptionItem): item is CaughtUp {
  return (item as CaughtUp).kind === 'caughtUp';
}

/**
 * The ids an append stores: the caller's (validated, lower-cased, since EventStoreDB hands ids back
 * in lower case and retries must compare equal) or fresh ones.
 */
export function assignEventIds(
  streamName: string,
  events: NewEvent[],
  generate: () => string = uuidv4,
): string[] {
  const ids = events.map((event) => {
    if (event.id !== undefined && !isUuid(event.id)) {
      throw new TypeError(`Event id "${event.id}" for ${streamName} is not a UUID`);
    }
    return (event.id ?? generate()).toLowerCase();
  });
  if (new Set(ids).size !== ids.length) throw new TypeError(`Append to ${streamName} repeats an event id`);
  return ids;
}

/** Validates an append's arguments the same way for every adapter. */
export function assertAppendable(streamName: string, events: NewEvent[]): void {
  streamCategory(streamName);
  if (events.length === 0) throw new TypeError(`Append to ${streamName} has no events`);
  for (const event of events) {
    if (typeof event.type !== 'string' || event.type.length === 0 || event.type.startsWith('$')) {
      throw new InvalidEventTypeError(
        `Invalid event type "${String(event.type)}" for ${streamName}: it must be non-empty and must not start with "$" (reserved for EventStoreDB's system events, which the feed leaves out)`,
      );
    }
  }
  const bytes = appendSize(events);
  if (bytes > MAX_APPEND_BYTES) throw new AppendTooLargeError(streamName, bytes, MAX_APPEND_BYTES);
}

/** Each stream once, each with events. */
export function assertAppendableAll(appends: readonly StreamAppend[]): void {
  for (const { streamName, events } of appends) assertAppendable(streamName, events);
  if (new Set(appends.map((append) => append.streamName)).size !== appends.length) {
    throw new TypeError('A multi-stream append names a stream twice');
  }
}
