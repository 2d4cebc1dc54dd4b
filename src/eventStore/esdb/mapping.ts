/**
 * Every translation between the port's values and @eventstore/db-client's, as small pure functions.
 * The client is frozen at 6.2.1; its successor @kurrent/kurrentdb-client renames `expectedRevision` to
 * `streamState`, which lands here (plus the import lines of the modules that call the client).
 */
import {
  ANY,
  type AppendExpectedRevision,
  type CurrentRevision,
  type RecordedEvent as EsdbRecordedEvent,
  type EventData,
  type JSONType,
  jsonEvent,
  NO_STREAM,
  type Position,
  STREAM_EXISTS,
  StreamNotFoundError,
} from '@eventstore/db-client';
import {
  type Checkpoint,
  type EventMetadata,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
  streamCategory,
} from '../eventStore.js';

export function toEsdbExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'any':
      return ANY;
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      // The client would send a negative number as a huge unsigned one.
      if (expected < 0n) throw new TypeError(`Expected revision must be >= 0, got ${expected}`);
      return expected;
  }
}

export function fromCurrentRevision(current: CurrentRevision): bigint {
  return current === NO_STREAM ? -1n : current;
}

// Positions are "<commit>:<prepare>" in decimal. They are compared as bigints, never as strings.
const CHECKPOINT = /^(\d+):(\d+)$/;

export function encodePosition(position: Position): Checkpoint {
  return `${position.commit}:${position.prepare}` as Checkpoint;
}

export function decodePosition(checkpoint: Checkpoint): Position {
  const match = CHECKPOINT.exec(checkpoint);
  if (!match) throw new TypeError(`Not an EventStoreDB feed checkpoint: "${checkpoint}"`);
  return { commit: BigInt(match[1]!), prepare: BigInt(match[2]!) };
}

/** Events of one append share the commit position and differ by prepare position. */
export function comparePositions(a: Position, b: Position): -1 | 0 | 1 {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

export function compareCheckpoints(a: Checkpoint, b: Checkpoint): -1 | 0 | 1 {
  return comparePositions(decodePosition(a), decodePosition(b));
}

/** Supplied ids must be UUIDs (the server's event id type); missing ones are generated. */
export function toEventData(event: NewEvent, id: string): EventData {
  return jsonEvent({
    id,
    type: event.type,
    // JSON.stringify(undefined) is not JSON; store null as the PostgreSQL adapter does.
    data: (event.data ?? null) as JSONType,
    metadata: event.metadata ?? {},
  });
}

/** Thrown while iterating a read (not when the read is started) for a stream that does not exist. */
export function isStreamNotFound(error: unknown): boolean {
  return error instanceof StreamNotFoundError;
}

export interface ReadShape {
  direction: 'forwards' | 'backwards';
  fromRevision: bigint | undefined;
  maxCount: number | undefined;
}

/**
 * Whether a read of this shape can show the stream's last revision by itself: a backwards read from
 * the end starts there, a forwards read without a limit runs into it.
 */
export function readShowsEnd(shape: ReadShape): boolean {
  if (shape.maxCount === 0) return false;
  return shape.direction === 'backwards' ? shape.fromRevision === undefined : shape.maxCount === undefined;
}

/**
 * The stream's last revision when a read already shows it: a backwards read from the end starts
 * there, and a forwards read that returned fewer events than asked for ran into it. Otherwise null,
 * and the caller has to ask the server separately.
 */
export function lastRevisionFromRead(shape: ReadShape, revisions: bigint[]): bigint | null {
  if (revisions.length === 0) return null;
  if (shape.direction === 'backwards') return shape.fromRevision === undefined ? revisions[0]! : null;
  if (shape.maxCount !== undefined && revisions.length >= shape.maxCount) return null;
  return revisions[revisions.length - 1]!;
}

/**
 * The category of an event on the port's global feed, or null for what the feed leaves out: system
 * events and streams (`$…`), and streams not named `<category>-<id>` (written by something else).
 */
export function feedCategory(streamName: string, eventType: string): string | null {
  if (streamName.startsWith('$') || eventType.startsWith('$')) return null;
  try {
    return streamCategory(streamName);
  } catch {
    return null;
  }
}

export function isOnFeed(streamName: string, eventType: string, categories?: readonly string[]): boolean {
  const category = feedCategory(streamName, eventType);
  return category !== null && (categories === undefined || categories.includes(category));
}

export function toRecordedEvent(event: EsdbRecordedEvent): RecordedEvent {
  // Servers before 22.6 leave stream reads without positions; the port cannot work without them.
  if (!event.position) {
    throw new Error(`EventStoreDB returned ${event.streamId}@${event.revision} without a position`);
  }
  return {
    id: event.id,
    type: event.type,
    data: event.data,
    metadata: toMetadata(event.metadata),
    streamName: event.streamId,
    category: streamCategory(event.streamId),
    revision: event.revision,
    position: encodePosition(event.position),
    recordedAt: event.created,
  };
}

function toMetadata(metadata: unknown): EventMetadata {
  const isRecord =
    typeof metadata === 'object' &&
    metadata !== null &&
    !Array.isArray(metadata) &&
    !(metadata instanceof Uint8Array);
  return isRecord ? (metadata as EventMetadata) : {};
}
