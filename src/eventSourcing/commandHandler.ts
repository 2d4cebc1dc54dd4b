import {
  AppendOutcomeUnknownError,
  type EventStore,
  type ExpectedRevision,
  type ReadStreamResult,
  type RecordedEvent,
  WrongExpectedVersionError,
} from '../eventStore/eventStore.js';
import type { Decision, Rejection } from './decision.js';

/**
 * One kind of stream (`<category>-<id>`) and the fold its state is built with. The same `evolve`
 * serves the command side, the read models and the audit history.
 */
export interface StreamType<State, Event> {
  category: string;
  /** The state of a stream that does not exist yet. */
  initialState(): State;
  evolve(state: State, event: Event): State;
  /** A recorded event of this stream as a domain event; throws on a type the stream never holds. */
  toEvent(recorded: RecordedEvent): Event;
}

export interface StoredEvent<Event> {
  /** Lower-case, as the store keeps it. */
  id: string;
  revision: number;
  recordedAt: Date;
  event: Event;
}

export interface LoadedStream<State, Event> {
  state: State;
  /** The stream revision read: -1n when the stream does not exist. */
  revision: bigint;
  /** The events read (all of them, or those after `from`). */
  events: StoredEvent<Event>[];
}

export type HandleOutcome<State, Event> =
  | {
      ok: true;
      /** The state as this command left it. */
      state: State;
      /** The events this command appended: none when it changed nothing or was applied before. */
      appended: Event[];
      /** An earlier attempt of the same request already appended its events. */
      alreadyApplied: boolean;
    }
  | { ok: false; rejection: Rejection };

/** Event ids of one request: `eventId(i)` for its i-th event, the same on every attempt. */
export type EventIds = (index: number) => string;

/**
 * Appends a command may lose to another process's writer before it gives up. Writers in one process
 * never race each other (they take turns per stream, below); across processes each retry waits a
 * random moment, so many writers on one stream spread out instead of colliding again.
 */
const MAX_CONCURRENCY_RETRIES = 10;
const RETRY_JITTER_MS = 20;
/**
 * Appends whose outcome was lost a command settles by reading the stream again before it gives up
 * with the error: the read shows the append (its own event ids) or shows it is not there, and then
 * the command is decided again on what the stream holds.
 */
const MAX_UNKNOWN_OUTCOMES = 2;

/**
 * After an append failed: rethrows unless it lost a race on an expected revision that the writer may
 * still outlive (`racesLost` so far, this one included), and otherwise waits a random moment before
 * the writer decides again. The one retry policy of every command, single-stream or not.
 */
export async function outliveRace(error: unknown, racesLost: number): Promise<void> {
  if (!(error instanceof WrongExpectedVersionError) || racesLost > MAX_CONCURRENCY_RETRIES) throw error;
  await new Promise((resolve) => setTimeout(resolve, Math.random() * RETRY_JITTER_MS));
}

/**
 * Commands of this process on one stream, one after another: simultaneous requests on one case
 * (reviews of its matches, say) all succeed without an optimistic-concurrency retry storm.
 */
const streamTurns = new Map<string, Promise<unknown>>();

export async function inStreamTurn<T>(stream: string, work: () => Promise<T>): Promise<T> {
  const previous = streamTurns.get(stream);
  const mine = (previous ?? Promise.resolve()).then(work, work);
  const settled = mine.then(
    () => undefined,
    () => undefined,
  );
  streamTurns.set(stream, settled);
  try {
    return await mine;
  } finally {
    if (streamTurns.get(stream) === settled) streamTurns.delete(stream);
  }
}

export interface CommandHandler<State, Event> {
  streamName(id: string): string;
  /** The stream folded from the start, or from `from` (a state read earlier at its revision) onwards. */
  load(
    store: EventStore,
    id: string,
    from?: { state: State; revision: number },
  ): Promise<LoadedStream<State, Event>>;
  /** A stream read elsewhere (from the start, or from `from` onwards), folded as `load` would. */
  folded(read: ReadStreamResult, from?: { state: State; revision: number }): LoadedStream<State, Event>;
  /**
   * Read, decide, append at the revision read. A concurrent writer makes the append fail on its
   * expected revision; the command is then decided again on the newer state, so two writers never
   * overwrite each other's facts. An append whose outcome is unknown (AppendOutcomeUnknownError) is
   * settled the same way, by reading again: "already applied" below if it landed.
   *
   * Already applied: when the stream holds `eventId(0)`, an earlier attempt of the request got as
   * far as the append (and then died before answering). Nothing is decided again, and the state is
   * the one that attempt left: the stream folded up to the last of its events, so a retry answers
   * what the first attempt would have answered.
   *
   * `read`: the stream as the caller loaded it from the start, to decide on first instead of reading
   * it again (a caller that read it to prepare the command). An append at its revision proves it
   * current; when the append fails on a writer since, or the decision is a rejection or no change
   * (which an older read may get wrong), the stream is read again and the command decided anew.
   */
  handle(
    store: EventStore,
    id: string,
    decide: (state: State) => Decision<Event>,
    eventId: EventIds,
    options?: { read?: LoadedStream<State, Event> },
  ): Promise<HandleOutcome<State, Event>>;
  /**
   * "Already applied": the state an earlier attempt of a request left, when the stream (loaded from
   * the start) holds that attempt's events, `eventId(0)` onwards; undefined otherwise. `handle`
   * answers a retry with it; writers of more than one stream ask it themselves.
   */
  asLeftBy(loaded: LoadedStream<State, Event>, eventId: EventIds): State | undefined;
}

export function commandHandler<State, Event extends { type: string; data: unknown }>(
  type: StreamType<State, Event>,
): CommandHandler<State, Event> {
  const streamName = (id: string) => `${type.category}-${id}`;
  const fold = (events: readonly StoredEvent<Event>[], from: State) =>
    events.reduce((state, stored) => type.evolve(state, stored.event), from);

  async function load(store: EventStore, id: string, from?: { state: State; revision: number }) {
    const read = await store.readStream(streamName(id), {
      fromRevision: from ? BigInt(from.revision + 1) : 0n,
    });
    return folded(read, from);
  }

  function folded(
    read: ReadStreamResult,
    from?: { state: State; revision: number },
  ): LoadedStream<State, Event> {
    const events = read.events.map(
      (recorded): StoredEvent<Event> => ({
        id: recorded.id,
        revision: Number(recorded.revision),
        recordedAt: recorded.recordedAt,
        event: type.toEvent(recorded),
      }),
    );
    return { state: fold(events, from ? from.state : type.initialState()), revision: read.revision, events };
  }

  function handle(
    store: EventStore,
    id: string,
    decide: (state: State) => Decision<Event>,
    eventId: EventIds,
    options: { read?: LoadedStream<State, Event> } = {},
  ): Promise<HandleOutcome<State, Event>> {
    return inStreamTurn(streamName(id), () => handleNow(store, id, decide, eventId, options.read));
  }

  async function handleNow(
    store: EventStore,
    id: string,
    decide: (state: State) => Decision<Event>,
    eventId: EventIds,
    read: LoadedStream<State, Event> | undefined,
  ): Promise<HandleOutcome<State, Event>> {
    for (let racesLost = 0, unknownOutcomes = 0, first = true; ; first = false) {
      const loaded = first && read ? read : await load(store, id);
      const asLeft = asLeftBy(loaded, eventId);
      if (asLeft !== undefined) return { ok: true, state: asLeft, appended: [], alreadyApplied: true };
      const decision = decide(loaded.state);
      // Only an append proves the caller's read current (by its expected revision): a rejection or
      // a decision to change nothing is taken again on the stream as it is now.
      if (first && read && (!decision.ok || decision.events.length === 0)) continue;
      if (!decision.ok) return decision;
      if (decision.events.length === 0) {
        return { ok: true, state: loaded.state, appended: [], alreadyApplied: false };
      }
      const expectedRevision: ExpectedRevision = loaded.revision === -1n ? 'no_stream' : loaded.revision;
      try {
        await store.appendToStream(
          streamName(id),
          decision.events.map((event, index) => ({ id: eventId(index), type: event.type, data: event.data })),
          { expectedRevision },
        );
      } catch (error) {
        if (error instanceof AppendOutcomeUnknownError && ++unknownOutcomes <= MAX_UNKNOWN_OUTCOMES) continue;
        await outliveRace(error, ++racesLost);
        continue;
      }
      const state = decision.events.reduce(type.evolve, loaded.state);
      return { ok: true, state, appended: decision.events, alreadyApplied: false };
    }
  }

  function asLeftBy(loaded: LoadedStream<State, Event>, eventId: EventIds): State | undefined {
    const own = ownEvents(loaded.events, eventId);
    return own === undefined ? undefined : fold(loaded.events.slice(0, own + 1), type.initialState());
  }

  return { streamName, load, folded, handle, asLeftBy };
}

/** The index of the last event an earlier attempt of this request appended, if it appended any. */
function ownEvents<Event>(events: readonly StoredEvent<Event>[], eventId: EventIds): number | undefined {
  const first = events.findIndex((stored) => stored.id === eventId(0).toLowerCase());
  if (first < 0) return undefined;
  let last = first;
  while (events[last + 1]?.id === eventId(last + 1 - first).toLowerCase()) last++;
  return last;
}
