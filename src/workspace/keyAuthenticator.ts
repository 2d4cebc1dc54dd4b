import type { Queryable } from '../db/sql.js';
import { type Clock, systemClock } from '../shared/clock.js';
import {
  type AuthResult,
  LAST_USED_RESOLUTION_MS,
  parseBearerKey,
  recordKeyUse,
  verifyStoredKey,
} from './apiKeys.js';
import { type CachedKey, KeyCache, type StoredKey } from './keyCache.js';
import { listenForKeyChanges } from './keyChangeListener.js';
import { findKeyByPrefix, readKeyEpoch } from './keyRecords.js';

/**
 * What authentication answered. `cached` is set when the cache answered with an active key: the
 * request may rely on it only after `confirm` (the cache cannot know on its own that no change
 * committed in the last moments; the request's first statement can tell it).
 */
export interface KeyAuthentication {
  result: AuthResult;
  cached?: { entry: CachedKey; secret: string };
}

export interface KeyAuthenticator {
  authenticate(rawKey: string | null | undefined): Promise<KeyAuthentication>;
  /**
   * The final verdict for `authentication`, given the key epoch a statement of the request read
   * after it arrived (undefined: none was read). A cached key is confirmed without the database
   * when the cache has applied every key change up to that epoch; otherwise the key is read again.
   */
  confirm(authentication: KeyAuthentication, epoch: bigint | undefined): Promise<AuthResult>;
}

export interface KeyAuthenticatorOptions {
  /** The key of a prefix with the epoch it was read at (findKeyByPrefix). */
  readKey(prefix: string): Promise<StoredKey | undefined>;
  /** Notes a key's use; fire and forget, errors are the callee's to report. */
  noteUse(keyId: string): void;
  /** No cache: every request reads its key. */
  cache?: KeyCache;
  clock?: Clock;
}

/**
 * Authentication through the key cache. Revocation and expiry stay exact:
 * - expiry by time is checked against the cached `expires_at` on every request;
 * - a refusal from the cache (wrong secret, revoked, expired) stands: revocation is final and an
 *   expiry only ever moves earlier, so a stale entry could only refuse a moment longer, never admit;
 * - an admission from the cache holds once `confirm` saw an epoch the cache has caught up with.
 * The key's use is noted as before, at most once a LAST_USED_RESOLUTION_MS per key and process
 * (the database throttles across processes).
 */
export function keyAuthenticator(options: KeyAuthenticatorOptions): KeyAuthenticator {
  const { cache, readKey, noteUse } = options;
  const clock = options.clock ?? systemClock;

  async function fromDatabase(prefix: string, secret: string): Promise<AuthResult> {
    const stored = await readKey(prefix);
    const now = clock();
    if (stored) cache?.observed(stored.epoch, now.getTime());
    const result = verifyStoredKey(stored, secret, now);
    // Only keys whose secret verified are kept: an unknown key or a wrong guess leaves no trace.
    if (stored && result.ok) noteUse(stored.key.id);
    if (stored && (result.ok || result.reason !== 'unknown'))
      cache?.fill(stored, result.ok ? now.getTime() : undefined);
    return result;
  }

  return {
    async authenticate(rawKey) {
      const parsed = parseBearerKey(rawKey);
      if (!('prefix' in parsed)) return { result: parsed };
      const cached = cache?.get(parsed.prefix);
      if (!cached) return { result: await fromDatabase(parsed.prefix, parsed.secret) };
      const result = verifyStoredKey(cached, parsed.secret, clock());
      return result.ok ? { result, cached: { entry: cached, secret: parsed.secret } } : { result };
    },

    async confirm(authentication, epoch) {
      const { cached, result } = authentication;
      if (!cached || !result.ok) return result;
      const { entry, secret } = cached;
      if (epoch !== undefined) cache?.observed(epoch, clock().getTime());
      if (epoch !== undefined && cache?.confirms(entry, epoch)) {
        const now = clock().getTime();
        if (entry.useNotedAt === undefined || now - entry.useNotedAt >= LAST_USED_RESOLUTION_MS) {
          entry.useNotedAt = now;
          noteUse(entry.key.id);
        }
        return result;
      }
      return fromDatabase(entry.key.keyPrefix, secret);
    },
  };
}

/** Keys kept per process: each entry is about a kilobyte, and only keys whose secret verified get in. */
export const KEY_CACHE_ENTRIES = 10_000;

export interface CachedKeyAuthentication extends KeyAuthenticator {
  /** Stops listening for key changes (the cache is bypassed from then on). */
  close(): Promise<void>;
}

/**
 * The service's authentication: keys read through `pool`, cached while a LISTEN session on
 * `connectionString` hears every key change. Without a connection string every request reads its key.
 */
export function startKeyAuthentication(
  pool: Queryable,
  connectionString: string | undefined,
  options: { onUseError(error: unknown): void; clock?: Clock; maxEntries?: number },
): CachedKeyAuthentication {
  const cache = connectionString ? new KeyCache(options.maxEntries ?? KEY_CACHE_ENTRIES) : undefined;
  const listener =
    cache && connectionString
      ? listenForKeyChanges(connectionString, cache, () => readKeyEpoch(pool))
      : undefined;
  const authenticator = keyAuthenticator({
    readKey: (prefix) => findKeyByPrefix(pool, prefix),
    noteUse: (keyId) => {
      recordKeyUse(pool, keyId).catch(options.onUseError);
    },
    cache,
    clock: options.clock,
  });
  return { ...authenticator, close: async () => listener?.close() };
}
