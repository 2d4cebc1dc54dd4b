import {
  type EventStore,
  type ExpectedRevision,
  type RecordedEvent,
  WrongExpectedVersionError,
} from '../eventStore/eventStore.js';
import { evolveSubject, type SubjectEvent, type SubjectState, subjectStreamName } from './subjectEvents.js';

/**
 * Loading a subject from its stream `subject-<subject_reference>` and appending to it: read,
 * decide, append at the revision read, as the case repository does. Event ids come from the
 * request, so a retried or recovered request finds its own events and appends nothing again.
 */

export interface LoadedSubject {
  state: SubjectState | null;
  /** Stream revision read: -1n when the subject does not exist. */
  revision: bigint;
  events: { id: string; event: SubjectEvent }[];
}

function toSubjectEvent(recorded: RecordedEvent): SubjectEvent {
  if (recorded.type !== 'SubjectCreated' && recorded.type !== 'SubjectUpdated') {
    throw new Error(`Unknown event type ${recorded.type} on ${recorded.streamName}`);
  }
  return { type: recorded.type, data: recorded.data } as SubjectEvent;
}

function fold(events: readonly { event: SubjectEvent }[]): SubjectState | null {
  let state: SubjectState | null = null;
  for (const { event } of events) state = evolveSubject(state, event);
  return state;
}

export async function loadSubject(store: EventStore, subjectReference: string): Promise<LoadedSubject> {
  const read = await store.readStream(subjectStreamName(subjectReference));
  const events = read.events.map((recorded) => ({ id: recorded.id, event: toSubjectEvent(recorded) }));
  return { state: fold(events), revision: read.revision, events };
}

export interface SubjectOutcome {
  /**
   * The subject as this request left it: after its own events (when an earlier attempt appended
   * them, as they made it, not as later requests changed it), or as read when it changed nothing.
   */
  state: SubjectState;
  appended: SubjectEvent[];
  /** An earlier attempt of the same request already appended its events. */
  alreadyApplied: boolean;
}

const MAX_CONCURRENCY_RETRIES = 5;

/**
 * Runs `decide` on the subject and appends what it returns, with ids `eventId(0)`, `eventId(1)`,
 * ... A stream that already holds `eventId(0)` was written by an earlier attempt of the request: its
 * state up to that attempt's events is returned and nothing is decided again. `decide` may throw
 * (a refusal); it must return events that leave a subject (create one when there is none).
 */
export async function runSubjectCommand(
  store: EventStore,
  subjectReference: string,
  decide: (state: SubjectState | null) => SubjectEvent[],
  eventId: (index: number) => string,
): Promise<SubjectOutcome> {
  const stream = subjectStreamName(subjectReference);
  for (let attempt = 0; ; attempt++) {
    const loaded = await loadSubject(store, subjectReference);
    const first = loaded.events.findIndex((event) => event.id === eventId(0).toLowerCase());
    if (first >= 0) {
      let last = first;
      while (loaded.events[last + 1]?.id === eventId(last + 1 - first).toLowerCase()) last++;
      return { state: fold(loaded.events.slice(0, last + 1))!, appended: [], alreadyApplied: true };
    }
    const events = decide(loaded.state);
    const after = events.reduce<SubjectState | null>(evolveSubject, loaded.state);
    if (after === null) throw new Error(`Subject ${subjectReference} decided into no subject`);
    if (events.length === 0) return { state: after, appended: [], alreadyApplied: false };
    const expectedRevision: ExpectedRevision = loaded.revision === -1n ? 'no_stream' : loaded.revision;
    try {
      await store.appendToStream(
        stream,
        events.map((event, index) => ({ id: eventId(index), type: event.type, data: event.data })),
        { expectedRevision },
      );
    } catch (error) {
      if (error instanceof WrongExpectedVersionError && attempt < MAX_CONCURRENCY_RETRIES) continue;
      throw error;
    }
    return { state: after, appended: events, alreadyApplied: false };
  }
}
