import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../db/sql.js';
import { keyStatus } from './keyPolicy.js';
import { type ApiKeyRecord, findKeyByPrefix } from './keyRecords.js';

export type { ApiKeyRecord } from './keyRecords.js';

/**
 * Raw key format: `csk_<prefix>_<secret>`.
 * - prefix: 8 random bytes as 16 hex digits. Stored in clear and unique: it finds the row in one
 *   index lookup and lets operators recognise a key in listings. It grants nothing on its own.
 * - secret: 32 random bytes (256 bits) as 43 base64url characters. Only its SHA-256 is stored.
 *
 * Why a fast hash and not bcrypt/scrypt/argon2: those slow down guessing of low-entropy passwords.
 * A 256-bit random secret cannot be guessed however fast the hash is, and a slow hash would cost
 * every API request tens of milliseconds of CPU for no gain. A leaked table yields no usable key.
 */
export const KEY_TAG = 'csk';
const PREFIX_BYTES = 8;
const SECRET_BYTES = 32;
const RAW_KEY = /^csk_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

export interface GeneratedKey {
  /** Shown to the operator once; never stored. */
  rawKey: string;
  prefix: string;
  secretHash: Buffer;
}

export function generateApiKey(random: (size: number) => Buffer = randomBytes): GeneratedKey {
  const prefix = random(PREFIX_BYTES).toString('hex');
  const secret = random(SECRET_BYTES).toString('base64url');
  return { rawKey: `${KEY_TAG}_${prefix}_${secret}`, prefix, secretHash: hashSecret(secret) };
}

/** Splits a raw key into its parts; undefined unless it has exactly the generated shape. */
export function parseApiKey(rawKey: string): { prefix: string; secret: string } | undefined {
  const match = RAW_KEY.exec(rawKey);
  return match ? { prefix: match[1]!, secret: match[2]! } : undefined;
}

export function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/**
 * Constant-time comparison of the presented secret's hash with the stored one, so response timing
 * reveals nothing about how much of a guess was right. Both sides are 32-byte digests, which
 * timingSafeEqual requires (equal lengths); a malformed stored hash simply fails.
 */
export function verifySecret(secret: string, storedHash: Buffer): boolean {
  const presented = hashSecret(secret);
  return storedHash.length === presented.length && timingSafeEqual(presented, storedHash);
}

export type AuthFailureReason = 'missing' | 'malformed' | 'unknown' | 'revoked' | 'expired';
export type AuthResult = { ok: true; key: ApiKeyRecord } | { ok: false; reason: AuthFailureReason };

/**
 * The API key behind a bearer token, or why there is none. Every failure is the spec's 401
 * `unauthorized`; the reason is for logs. A wrong secret reads as `unknown`, and revocation and
 * expiry are only reported after the secret verified, so that knowing a prefix (which appears in
 * listings) reveals nothing about the key. An unknown prefix returns without hashing: the prefix is
 * not secret, so the timing difference gives nothing away.
 */
export async function authenticateKey(
  db: Queryable,
  rawKey: string | null | undefined,
  now: Date = new Date(),
): Promise<AuthResult> {
  const parsed = parseBearerKey(rawKey);
  if (!('prefix' in parsed)) return parsed;
  return verifyStoredKey(await findKeyByPrefix(db, parsed.prefix), parsed.secret, now);
}

/** The parts of a presented key, or why it cannot be one. */
export function parseBearerKey(
  rawKey: string | null | undefined,
): { prefix: string; secret: string } | { ok: false; reason: 'missing' | 'malformed' } {
  if (rawKey === undefined || rawKey === null || rawKey.trim() === '')
    return { ok: false, reason: 'missing' };
  return parseApiKey(rawKey) ?? { ok: false, reason: 'malformed' };
}

/** The verdict on a presented secret against the stored key of its prefix (wherever that was read). */
export function verifyStoredKey(
  stored: { key: ApiKeyRecord; keyHash: Buffer } | undefined,
  secret: string,
  now: Date,
): AuthResult {
  if (!stored || !verifySecret(secret, stored.keyHash)) return { ok: false, reason: 'unknown' };
  const status = keyStatus(stored.key, now);
  if (status !== 'active') return { ok: false, reason: status };
  return { ok: true, key: stored.key };
}

/** At most one write per key per this interval, however many requests it makes. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Records that a key was used. Throttled in SQL so that a busy key does not turn every request into
 * a row update; returns whether the row was written.
 */
export async function recordKeyUse(db: Queryable, keyId: string, now: Date = new Date()): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE api_keys SET last_used_at = $2
      WHERE id = $1 AND (last_used_at IS NULL OR last_used_at <= $2::timestamptz - make_interval(secs => $3))`,
    [keyId, now, LAST_USED_RESOLUTION_MS / 1000],
  );
  return rowCount === 1;
}
