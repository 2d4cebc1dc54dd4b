import { commandHandler, type StreamType } from '../eventSourcing/commandHandler.js';
import type { RecordedEvent } from '../eventStore/eventStore.js';
import { evolveSubject, SUBJECT_CATEGORY, type SubjectEvent, type SubjectState } from './subjectEvents.js';

const SUBJECT_EVENT_TYPES: readonly string[] = [
  'SubjectCreated',
  'SubjectUpdated',
  'SubjectUsedInGroup',
] satisfies SubjectEvent['type'][];

/** The subject stream `subject-<subject_reference>`: its fold and its command handler. */
export const subjectStream: StreamType<SubjectState | null, SubjectEvent> = {
  category: SUBJECT_CATEGORY,
  initialState: () => null,
  evolve: evolveSubject,
  toEvent: toSubjectEvent,
};

export const subjectCommandHandler = commandHandler(subjectStream);

function toSubjectEvent(recorded: RecordedEvent): SubjectEvent {
  if (!SUBJECT_EVENT_TYPES.includes(recorded.type)) {
    throw new Error(`Unknown event type ${recorded.type} on ${recorded.streamName}`);
  }
  return { type: recorded.type, data: recorded.data } as SubjectEvent;
}
