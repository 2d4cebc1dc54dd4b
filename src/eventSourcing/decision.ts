/**
 * What a decider answers: the events a command appends, or why it is refused. Deciders are pure;
 * only the HTTP edge turns a rejection into a status code (src/api/rejections.ts), and the CLI into
 * an error line.
 */

export type RejectionCode =
  /** The object does not exist, or the one asking may not see it: the same answer for both. */
  | 'not_found'
  /** The object's state does not allow it now (a running check, a taken reference). */
  | 'conflict'
  /** The request is well-formed but breaks a rule (a non-member owner, missing notes). */
  | 'unprocessable'
  /** The one asking may not do this at all. */
  | 'forbidden'
  /** A source the command depends on is missing or stale. */
  | 'source_unavailable';

export interface Rejection {
  code: RejectionCode;
  message: string;
  details?: Record<string, unknown>;
}

export type Decision<Event> = { ok: true; events: Event[] } | { ok: false; rejection: Rejection };

/** An application service's answer: a value, or the rejection that stopped it. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; rejection: Rejection };

export function accept<Event>(...events: Event[]): Decision<Event> {
  return { ok: true, events };
}

export function reject(
  code: RejectionCode,
  message: string,
  details?: Record<string, unknown>,
): { ok: false; rejection: Rejection } {
  return { ok: false, rejection: { code, message, ...(details && { details }) } };
}
