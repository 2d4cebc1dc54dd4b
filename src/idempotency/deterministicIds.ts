import { validate as isUuid, v5 as uuidv5 } from 'uuid';

/**
 * Fixed namespace for idempotent event ids. Never change it: a request begun before a deploy and
 * recovered after it must derive the same ids, or its retry would append its events a second time.
 */
export const IDEMPOTENT_EVENT_NAMESPACE = 'e2a314be-9972-414f-9806-2ac5b99fd269';

/**
 * The id of the `index`-th event a command appends for (API key, Idempotency-Key, request). A
 * retried or recovered command derives the same ids, so the event store's idempotent append makes its
 * repeat a no-op instead of a second copy. Number the events across every stream the command writes.
 * The request's fingerprint is part of the name: a key reused for another request after its record
 * has expired (48 hours) must not pass for a retry of the first one and find its events "already
 * applied". The name is a JSON array so no choice of key can make two different tuples collide.
 */
export function idempotentEventId(
  apiKeyId: string,
  idempotencyKey: string,
  index: number,
  requestFingerprint = '',
): string {
  if (!isUuid(apiKeyId)) throw new TypeError(`API key id "${apiKeyId}" is not a UUID`);
  if (idempotencyKey === '') throw new TypeError('Idempotency key is empty');
  if (!Number.isSafeInteger(index) || index < 0) {
    throw new RangeError(`Event index ${index} is not a non-negative integer`);
  }
  // Lower-cased because the same UUID may arrive in either case; the event store lower-cases ids too.
  const name = [
    apiKeyId.toLowerCase(),
    idempotencyKey,
    index,
    ...(requestFingerprint ? [requestFingerprint] : []),
  ];
  return uuidv5(JSON.stringify(name), IDEMPOTENT_EVENT_NAMESPACE);
}
