/**
 * What to do after an attempt fails (a check on a transient error, a webhook delivery the receiver
 * did not accept): try again after the next delay of the schedule, or, once every delay is used,
 * give up. `delaysMs` of [5 s, 30 s, 2 min] gives four attempts in all. An attempt lost with its
 * worker (the lease expired) counts like any other, so work that kills its worker every time ends
 * instead of taking down worker after worker.
 */
export type RetryStep = { kind: 'retry'; delayMs: number } | { kind: 'give_up' };

/** Attempts in all: the first and one per delay. */
export function maxAttempts(delaysMs: readonly number[]): number {
  return delaysMs.length + 1;
}

/**
 * After attempt `attempt` (1-based) failed. The delay is jittered by up to +20% (`random` in
 * [0, 1)), so that work failing together on one outage does not all come back at the same instant.
 */
export function nextRetry(
  attempt: number,
  delaysMs: readonly number[],
  random: () => number = Math.random,
): RetryStep {
  const delay = delaysMs[attempt - 1];
  if (delay === undefined) return { kind: 'give_up' };
  return { kind: 'retry', delayMs: Math.round(delay * (1 + 0.2 * random())) };
}
