import { createHash } from 'node:crypto';
import { v5 as uuidv5 } from 'uuid';

/**
 * The identifiers of cases and what they hold (docs/cases.md, "References"). Each is derived, not
 * drawn at random: from the request's (API key, Idempotency-Key), or from what it names, so that a
 * retried or recovered request arrives at the same identifiers and its appends are no-ops.
 */

export const CASE_REFERENCE = /^[A-Z]{3}[0-9]{6}$/;
export const CHECK_REFERENCE = /^[A-Z]{3}[0-9]{6}-[0-9]+$/;

/** Fixed: a changed namespace would give a recovered request other ids than its first attempt. */
const CHECK_ID_NAMESPACE = '6a1f0c5e-3b1d-4c0e-9a57-2f4b8d0e7c31';

function digest(parts: readonly unknown[]): Buffer {
  return createHash('sha256').update(JSON.stringify(parts)).digest();
}

/**
 * The `attempt`-th candidate reference for the case a request creates: three letters and six
 * digits from a hash of (API key, Idempotency-Key, attempt). The case's stream decides: a
 * candidate whose stream holds another case is taken, and the next attempt tries again, so
 * references are unique across all accounts (a stream name is global), hence within each.
 */
export function candidateCaseReference(apiKeyId: string, idempotencyKey: string, attempt: number): string {
  const bytes = digest(['case', apiKeyId.toLowerCase(), idempotencyKey, attempt]);
  const letters = [0, 1, 2].map((i) => String.fromCharCode(65 + (bytes[i]! % 26))).join('');
  const digits = String(bytes.readUInt32BE(3) % 1_000_000).padStart(6, '0');
  return `${letters}${digits}`;
}

/** `<case_reference>-<n>`, n from 1 in the order the check types were requested. */
export function checkReference(caseReference: string, ordinal: number): string {
  return `${caseReference}-${ordinal}`;
}

export function caseReferenceOfCheck(checkReference: string): string {
  return checkReference.slice(0, checkReference.lastIndexOf('-'));
}

/** The check's `id`: a UUID derived from its reference. */
export function checkId(checkReference: string): string {
  return uuidv5(checkReference, CHECK_ID_NAMESPACE);
}

/**
 * A match of a check with a listed party: `<check_reference>.<12 hex>` (`ABC123456-1.3f9a2c1b7d0e`),
 * the same for the same pair. The check, hence the case, is read from the id itself: a match can be
 * found (and reviewed) the moment its check completes, with no lookup table to lag behind.
 */
export function matchId(checkReference: string, entityId: string): string {
  return `${checkReference}.${digest(['match', checkReference, entityId]).toString('hex').slice(0, 12)}`;
}

export const MATCH_ID = /^([A-Z]{3}[0-9]{6})-[0-9]+\.[0-9a-f]{12}$/;

/** The case reference of a match id, or undefined for a string that is no match id. */
export function caseReferenceOfMatch(matchId: string): string | undefined {
  return MATCH_ID.exec(matchId)?.[1];
}

/** A material, from the id of the event that adds it. */
export function materialId(eventId: string): string {
  return `material_${digest(['material', eventId.toLowerCase()]).toString('hex').slice(0, 24)}`;
}

export function attachmentId(materialId: string, index: number): string {
  return `attachment_${digest(['attachment', materialId, index]).toString('hex').slice(0, 24)}`;
}
