import {
  type EventStore,
  type ExpectedRevision,
  type RecordedEvent,
  WrongExpectedVersionError,
} from '../eventStore/eventStore.js';
import { type CaseCommand, decide, type Rejection } from './caseDecide.js';
import { type CaseEvent, caseStreamName, isCaseEvent } from './caseEvents.js';
import type { StoredCaseEvent } from './caseEventView.js';
import { type CaseState, foldCase, type MaybeCase } from './caseState.js';

/**
 * Loading a case from its stream and running a command on it: read, decide, append at the revision
 * read. A concurrent writer makes the append fail on its expected revision; the command is then
 * decided again on the newer state, so two reviewers never overwrite each other's facts.
 */

export interface LoadedCase {
  state: MaybeCase;
  /** Stream revision read: -1n when the case does not exist. */
  revision: bigint;
  events: StoredCaseEvent[];
}

export function toStoredCaseEvent(recorded: RecordedEvent): StoredCaseEvent {
  if (!isCaseEvent(recorded))
    throw new Error(`Unknown event type ${recorded.type} on ${recorded.streamName}`);
  return {
    id: recorded.id,
    revision: Number(recorded.revision),
    recordedAt: recorded.recordedAt,
    event: { type: recorded.type, data: recorded.data } as CaseEvent,
  };
}

/** The whole case, folded from its stream (or from `from`, a state read earlier, plus what followed). */
export async function loadCase(
  store: EventStore,
  caseReference: string,
  from: CaseState | null = null,
): Promise<LoadedCase> {
  const fromRevision = from ? BigInt(from.revision + 1) : 0n;
  const read = await store.readStream(caseStreamName(caseReference), { fromRevision });
  const events = read.events.map(toStoredCaseEvent);
  return {
    state: foldCase(
      events.map((e) => e.event),
      from,
    ),
    revision: read.revision,
    events,
  };
}

export type CommandOutcome =
  | {
      ok: true;
      state: CaseState;
      /** The events this command appended (none when it changed nothing or was applied before). */
      appended: CaseEvent[];
      /** An earlier attempt of the same request already appended its events. */
      alreadyApplied: boolean;
    }
  | { ok: false; rejection: Rejection };

const MAX_CONCURRENCY_RETRIES = 5;

/**
 * Runs a command on a case. `eventId(i)` gives the id of its i-th event, the same on every attempt
 * of one request: when the stream already holds the first of them, an earlier attempt got as far
 * as the append (and then died before answering), so the command is not decided again.
 */
export async function runCaseCommand(
  store: EventStore,
  caseReference: string,
  command: CaseCommand,
  eventId: (index: number) => string,
): Promise<CommandOutcome> {
  const stream = caseStreamName(caseReference);
  const firstId = eventId(0).toLowerCase();
  for (let attempt = 0; ; attempt++) {
    const loaded = await loadCase(store, caseReference);
    if (loaded.events.some((event) => event.id === firstId) && loaded.state) {
      return { ok: true, state: loaded.state, appended: [], alreadyApplied: true };
    }
    const decision = decide(command, loaded.state);
    if (!decision.ok) return decision;
    if (decision.events.length === 0) {
      return { ok: true, state: loaded.state!, appended: [], alreadyApplied: false };
    }
    const expectedRevision: ExpectedRevision = loaded.revision === -1n ? 'no_stream' : loaded.revision;
    try {
      await store.appendToStream(
        stream,
        decision.events.map((event, index) => ({ id: eventId(index), type: event.type, data: event.data })),
        { expectedRevision },
      );
    } catch (error) {
      if (error instanceof WrongExpectedVersionError && attempt < MAX_CONCURRENCY_RETRIES) continue;
      throw error;
    }
    return {
      ok: true,
      state: foldCase(decision.events, loaded.state)!,
      appended: decision.events,
      alreadyApplied: false,
    };
  }
}
