import type { ApiKeyRecord } from './keyRecords.js';

/**
 * A key as read from the database, with the key epoch (migration 0012) its statement saw: the row
 * reflects every key change up to that epoch.
 */
export interface StoredKey {
  key: ApiKeyRecord;
  keyHash: Buffer;
  epoch: bigint;
}

export interface CachedKey extends StoredKey {
  /** When this process last noted the key's use (ms since the epoch), to note it once a resolution. */
  useNotedAt: number | undefined;
}

/** A committed key change as announced on `api_key_changes`: `all` when too many keys changed to list. */
export interface KeyChange {
  epoch: bigint;
  prefixes: readonly string[] | 'all';
}

/** Changes heard while the epoch is being read after a (re)connection; beyond this the cache waits for a gap. */
const MAX_PENDING_CHANGES = 1000;

/** How long statements may see epochs the listener has not brought before the cache starts afresh. */
export const DEFAULT_LAG_TOLERANCE_MS = 1000;

/**
 * The in-process cache of verified API keys, by key prefix (the lookup handle of the raw key), and
 * the bookkeeping that keeps it from ever answering with a stale key. No I/O: the listener feeds it
 * (keyChangeListener.ts), authentication reads and fills it (keyAuthenticator.ts).
 *
 * `heard` is the key epoch up to which every change has been applied (entries evicted). Epochs are
 * gapless and notifications arrive in commit order, so a change of epoch `heard + 1` is the next one;
 * anything else means notifications were lost and the whole cache goes. While the listener is not
 * connected `heard` is undefined: nothing is filled and nothing is confirmed (the cache is bypassed).
 *
 * The guarantees, each of which a test in keyCache.spec.ts breaks on purpose:
 * - a fill read at epoch `e` is refused once a change after `e` may have been applied (`e < heard`):
 *   a revocation committed between a cache miss and its fill cannot leave a stale entry;
 * - an entry answers a request only when the request's own statement read an epoch `<= heard`
 *   (`confirms`): every change committed before that statement has been applied to the cache;
 * - only keys whose secret verified are stored (never the absence of a key), at most `maxEntries`
 *   of them, least recently used first out: unknown keys cannot fill memory.
 * A notification lost without the connection dropping (none is expected, but nothing relies on it)
 * would leave `heard` behind for good and every request reading its key: once requests have seen a
 * newer epoch for `lagToleranceMs` (`observed`), the cache drops everything and resumes at it.
 */
export class KeyCache {
  readonly #entries = new Map<string, CachedKey>();
  #heard: bigint | undefined;
  #pending: KeyChange[] | undefined = [];
  /** Since when (ms) statements have read an epoch newer than `heard`. */
  #behindSince: number | undefined;

  constructor(
    readonly maxEntries: number,
    readonly lagToleranceMs: number = DEFAULT_LAG_TOLERANCE_MS,
  ) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1)
      throw new RangeError('maxEntries must be at least 1');
  }

  /** The epoch up to which every key change has been applied; undefined while bypassed. */
  get heardEpoch(): bigint | undefined {
    return this.#heard;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The listener lost its connection (or has none yet): drop everything and bypass the cache. */
  disconnected(): void {
    this.#entries.clear();
    this.#heard = undefined;
    this.#pending = [];
  }

  /**
   * LISTEN is in place again and `epoch` was read after it: every later change will be heard. The
   * changes heard meanwhile that are newer than `epoch` are applied in order.
   */
  resumed(epoch: bigint): void {
    const pending = this.#pending ?? [];
    this.#entries.clear();
    this.#heard = epoch;
    this.#pending = undefined;
    this.#behindSince = undefined;
    for (const change of pending) if (change.epoch > epoch) this.changed(change);
  }

  changed(change: KeyChange): void {
    if (this.#heard === undefined) {
      if (this.#pending && this.#pending.length < MAX_PENDING_CHANGES) this.#pending.push(change);
      return;
    }
    if (change.epoch <= this.#heard) {
      // Already covered (a change heard while the epoch was read): evicting again costs a refill at most.
      this.#evict(change.prefixes);
      return;
    }
    if (change.epoch !== this.#heard + 1n) this.#entries.clear();
    else this.#evict(change.prefixes);
    this.#heard = change.epoch;
  }

  /** The entry for a key prefix, now the most recently used. */
  get(prefix: string): CachedKey | undefined {
    const entry = this.#entries.get(prefix);
    if (entry) {
      this.#entries.delete(prefix);
      this.#entries.set(prefix, entry);
    }
    return entry;
  }

  /** Stores a key read at `stored.epoch`, unless a change after that epoch may already have been applied. */
  fill(stored: StoredKey, useNotedAt?: number): boolean {
    if (this.#heard === undefined || stored.epoch < this.#heard) return false;
    const prefix = stored.key.keyPrefix;
    this.#entries.delete(prefix);
    this.#entries.set(prefix, { ...stored, useNotedAt });
    while (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
    return true;
  }

  /**
   * Whether `entry` may answer a request whose statement read key epoch `epoch`: every change up to
   * it has been applied and the entry is still the cached one.
   */
  confirms(entry: CachedKey, epoch: bigint): boolean {
    return (
      this.#heard !== undefined && epoch <= this.#heard && this.#entries.get(entry.key.keyPrefix) === entry
    );
  }

  /**
   * A statement read key epoch `epoch` at `nowMs`. Dropping every entry and resuming at an epoch a
   * statement read is always safe; it is done when the notifications have stayed behind too long.
   */
  observed(epoch: bigint, nowMs: number): void {
    if (this.#heard === undefined || epoch <= this.#heard) {
      this.#behindSince = undefined;
      return;
    }
    this.#behindSince ??= nowMs;
    if (nowMs - this.#behindSince >= this.lagToleranceMs) this.resumed(epoch);
  }

  #evict(prefixes: readonly string[] | 'all'): void {
    if (prefixes === 'all') this.#entries.clear();
    else for (const prefix of prefixes) this.#entries.delete(prefix);
  }
}
