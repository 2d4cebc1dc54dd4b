/** Limits of the spec (Common rules, Limits): an Idempotency-Key is 8 to 160 characters. */
export const IDEMPOTENCY_KEY_MIN_LENGTH = 8;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 160;

export type IdempotencyKeyProblem = 'missing' | 'too_short' | 'too_long';

export type IdempotencyKeyCheck =
  | { ok: true; key: string }
  | { ok: false; reason: IdempotencyKeyProblem; message: string };

/**
 * Checks an Idempotency-Key header value; every failure is a 400 `invalid_request`.
 * - An empty value counts as missing: a blank header is no key at all.
 * - Length counts Unicode code points, as PostgreSQL's char_length does in the table's check, so
 *   the two can never disagree about a key made of characters outside the BMP.
 * - The value is used exactly as given (no trimming or case folding): clients compare keys byte for
 *   byte, and so do we.
 */
export function validateIdempotencyKey(value: string | undefined): IdempotencyKeyCheck {
  if (value === undefined || value === '') {
    return { ok: false, reason: 'missing', message: 'Idempotency-Key header is required' };
  }
  const length = [...value].length;
  if (length < IDEMPOTENCY_KEY_MIN_LENGTH) {
    return {
      ok: false,
      reason: 'too_short',
      message: `Idempotency-Key must be at least ${IDEMPOTENCY_KEY_MIN_LENGTH} characters`,
    };
  }
  if (length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    return {
      ok: false,
      reason: 'too_long',
      message: `Idempotency-Key must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`,
    };
  }
  return { ok: true, key: value };
}
