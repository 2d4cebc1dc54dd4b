import {
  commandHandler,
  type EventIds,
  type HandleOutcome,
  type LoadedStream,
  type StreamType,
} from '../eventSourcing/commandHandler.js';
import type { EventStore, RecordedEvent } from '../eventStore/eventStore.js';
import { type CaseCommand, decide } from './caseDecide.js';
import { CASE_CATEGORY, type CaseEvent, isCaseEvent } from './caseEvents.js';
import { type CaseState, evolve, type MaybeCase } from './caseState.js';

/**
 * The case stream `case-<case_reference>`: its fold (the domain's `evolve`) and its command handler.
 * docs/adding-a-feature.md walks through this wiring as the example for a new stream type.
 */
export const caseStream: StreamType<MaybeCase, CaseEvent> = {
  category: CASE_CATEGORY,
  initialState: () => null,
  evolve,
  toEvent: toCaseEvent,
};

export const caseCommandHandler = commandHandler(caseStream);

export type LoadedCase = LoadedStream<MaybeCase, CaseEvent>;
/** A command that succeeds leaves a case: creating it, or acting on one that exists. */
export type CaseCommandOutcome =
  | (Extract<HandleOutcome<MaybeCase, CaseEvent>, { ok: true }> & { state: CaseState })
  | Extract<HandleOutcome<MaybeCase, CaseEvent>, { ok: false }>;

function toCaseEvent(recorded: RecordedEvent): CaseEvent {
  if (!isCaseEvent(recorded))
    throw new Error(`Unknown event type ${recorded.type} on ${recorded.streamName}`);
  return { type: recorded.type, data: recorded.data } as CaseEvent;
}

/** The whole case, folded from its stream (or from `from`, a state read earlier, plus what followed). */
export function loadCase(
  store: EventStore,
  caseReference: string,
  from: CaseState | null = null,
): Promise<LoadedCase> {
  return caseCommandHandler.load(
    store,
    caseReference,
    from ? { state: from, revision: from.revision } : undefined,
  );
}

/** Runs a command of the case's rules on its stream (see CommandHandler.handle). */
export async function runCaseCommand(
  store: EventStore,
  caseReference: string,
  command: CaseCommand,
  eventId: EventIds,
): Promise<CaseCommandOutcome> {
  const outcome = await caseCommandHandler.handle(
    store,
    caseReference,
    (state) => decide(command, state),
    eventId,
  );
  if (outcome.ok && outcome.state === null)
    throw new Error(`${command.type} on ${caseReference} left no case`);
  return outcome as CaseCommandOutcome;
}
