import { expect } from 'vitest';
import type { Decision, Rejection, RejectionCode } from '../../src/eventSourcing/decision.js';

/**
 * Decider tests that read as given/when/then, in the spirit of Emmett's DeciderSpecification:
 *
 *   const given = deciderSpecification({ decide, evolve, initialState });
 *   given([created]).when(command).then([updated]);
 *   given([]).when(command).thenRejects('not_found', /not found/);
 *
 * `given` folds its events with the stream's own `evolve` into the state the command is decided on.
 */
export function deciderSpecification<Command, Event, State>(decider: {
  decide(command: Command, state: State): Decision<Event>;
  evolve(state: State, event: Event): State;
  initialState(): State;
}) {
  return (given: readonly Event[] = []) => ({
    when(command: Command) {
      const decide = () => decider.decide(command, given.reduce(decider.evolve, decider.initialState()));
      const accepted = (): Event[] => {
        const decision = decide();
        if (!decision.ok) {
          throw new Error(`expected events, but the command was rejected: ${describe(decision.rejection)}`);
        }
        return decision.events;
      };
      return {
        /** The events the command appends, or a check of them. */
        // biome-ignore lint/suspicious/noThenProperty: given/when/then is the point; the object is never awaited.
        then(expected: readonly Event[] | ((events: Event[]) => void)): void {
          const events = accepted();
          if (typeof expected === 'function') expected(events);
          else expect(events).toEqual(expected);
        },
        /** Accepted, appending nothing: the command changes nothing. */
        thenNothingHappens(): void {
          expect(accepted()).toEqual([]);
        },
        /** Refused with this code; the message matching `message`, the details containing `details`. */
        thenRejects(
          code: RejectionCode,
          message?: string | RegExp,
          details?: Record<string, unknown>,
        ): Rejection {
          const decision = decide();
          if (decision.ok)
            throw new Error(
              `expected a rejection ${code}, but the command appended ${JSON.stringify(decision.events)}`,
            );
          expect(decision.rejection.code, describe(decision.rejection)).toBe(code);
          if (message !== undefined) expect(decision.rejection.message).toMatch(message);
          if (details !== undefined) expect(decision.rejection.details).toMatchObject(details);
          return decision.rejection;
        },
      };
    },
  });
}

function describe(rejection: Rejection): string {
  return `${rejection.code}: ${rejection.message}`;
}
