import { v5 as uuidv5 } from 'uuid';

/**
 * The ids of the events the check runner appends to a case stream. Derived, never random, so that
 * a repeated append is recognised (runCaseCommand finds the first id in the stream and does not
 * decide again) and the event store's idempotent append makes it a no-op:
 *
 * - CheckStarted: per attempt ([check, 'started', attempt, i]); each attempt is a fact of its own.
 * - CheckCompleted, CheckFailed: per check ([check, 'completed' | 'failed', i]), the same whichever
 *   attempt appends them: a second completion (a worker that crashed after the append and before it
 *   marked its job done, or one whose lease was taken over while it screened) adds nothing.
 *
 * The name is a JSON array, so no check reference can make two different tuples collide.
 */

/** Fixed: a changed namespace would let a recovered check append its completion a second time. */
export const CHECK_EVENT_NAMESPACE = '3c0d5f7e-8a2b-4e61-b0c9-5d4f1e2a7b86';

export type EventIdOf = (index: number) => string;

const id = (parts: readonly unknown[]) => uuidv5(JSON.stringify(parts), CHECK_EVENT_NAMESPACE);

export function startedEventIds(checkReference: string, attempt: number): EventIdOf {
  return (index) => id([checkReference, 'started', attempt, index]);
}

export function completedEventIds(checkReference: string): EventIdOf {
  return (index) => id([checkReference, 'completed', index]);
}

export function failedEventIds(checkReference: string): EventIdOf {
  return (index) => id([checkReference, 'failed', index]);
}
