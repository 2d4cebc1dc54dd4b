export interface RetryPolicy {
  /** Handler attempts on one batch (then on one isolated event) before moving on. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 5, baseDelayMs: 500, maxDelayMs: 30_000 };

/**
 * Exponential backoff with "equal jitter": half of the delay is fixed so that retries never bunch up
 * near zero, the other half is random so that processes failing together spread out.
 */
export function backoffDelay(
  attempt: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

// SQLSTATE classes and codes that say "the database or the network", not "this event": connection
// exceptions, insufficient resources, operator intervention, serialization failures and deadlocks.
const TRANSIENT_SQLSTATE_PREFIXES = ['08', '53', '57P'];
const TRANSIENT_SQLSTATES = new Set(['40001', '40P01']);
const TRANSIENT_NODE_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN']);
// node-postgres reports a lost connection with plain Errors that carry no code.
const LOST_CONNECTION_MESSAGES = [
  'Connection terminated',
  'not queryable',
  'timeout exceeded when trying to connect',
];

/**
 * Errors that would hit any event alike. They are retried with backoff for as long as they last and
 * never count towards parking a subscription: an outage must not park every subscriber.
 */
export function isTransientDatabaseError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (TRANSIENT_SQLSTATES.has(code) || TRANSIENT_NODE_CODES.has(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code))
      return TRANSIENT_SQLSTATE_PREFIXES.some((prefix) => code.startsWith(prefix));
  }
  return LOST_CONNECTION_MESSAGES.some((text) => error.message.includes(text));
}

/**
 * How a background failure is logged: the database away for a moment (a restart, an outage) is
 * expected and retried, so one warn line with its description; anything else is an error with its
 * stack, for someone to look at.
 */
export function failureLogFields(error: unknown): {
  level: 'warn' | 'error';
  fields: Record<string, unknown>;
} {
  return isTransientDatabaseError(error)
    ? { level: 'warn', fields: { error: describeError(error) } }
    : { level: 'error', fields: { err: error } };
}

export function describeError(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
}
