import { describe, expect, it } from 'vitest';
import { hashSecret } from './apiKeys.js';
import { KeyCache, type StoredKey } from './keyCache.js';
import type { ApiKeyRecord } from './keyRecords.js';

function stored(prefix: string, epoch: bigint, more: Partial<ApiKeyRecord> = {}): StoredKey {
  return {
    key: {
      id: `id-${prefix}`,
      accountId: 'account',
      name: 'key',
      keyPrefix: prefix,
      scopes: ['cases:read'],
      actorType: 'api_client',
      finalDecision: false,
      groupIds: ['group'],
      expiresAt: null,
      revokedAt: null,
      createdAt: new Date('2030-01-01T00:00:00Z'),
      lastUsedAt: null,
      ...more,
    },
    keyHash: hashSecret(`secret-${prefix}`),
    epoch,
  };
}

/** A cache listening, caught up at `epoch`. */
function listening(epoch = 5n, maxEntries = 100): KeyCache {
  const cache = new KeyCache(maxEntries);
  cache.resumed(epoch);
  return cache;
}

describe('KeyCache', () => {
  it('fills nothing and confirms nothing before the listener has resumed', () => {
    const cache = new KeyCache(10);
    expect(cache.fill(stored('a', 0n))).toBe(false);
    expect(cache.get('a')).toBeUndefined();
    cache.resumed(0n);
    expect(cache.fill(stored('a', 0n))).toBe(true);
    expect(cache.confirms(cache.get('a')!, 0n)).toBe(true);
  });

  it('confirms an entry only for an epoch every change up to which has been applied', () => {
    const cache = listening(5n);
    cache.fill(stored('a', 5n));
    const entry = cache.get('a')!;
    expect(cache.confirms(entry, 5n)).toBe(true);
    // A change (epoch 6) committed before the request's statement, its notification not yet here.
    expect(cache.confirms(entry, 6n)).toBe(false);
    cache.changed({ epoch: 6n, prefixes: ['other'] });
    expect(cache.confirms(entry, 6n)).toBe(true);
  });

  it('evicts the changed key: its entry no longer confirms', () => {
    const cache = listening(5n);
    cache.fill(stored('a', 5n));
    const entry = cache.get('a')!;
    cache.changed({ epoch: 6n, prefixes: ['a'] });
    expect(cache.get('a')).toBeUndefined();
    expect(cache.confirms(entry, 6n)).toBe(false);
    expect(cache.confirms(entry, 5n)).toBe(false);
  });

  it('refuses a fill read before a change it has already applied (revoked between miss and fill)', () => {
    const cache = listening(5n);
    // The request read the key at epoch 5; the revocation (epoch 6) is heard before the fill.
    const read = stored('a', 5n);
    cache.changed({ epoch: 6n, prefixes: ['a'] });
    expect(cache.fill(read)).toBe(false);
    expect(cache.get('a')).toBeUndefined();
    // A read after the change may fill.
    expect(cache.fill(stored('a', 6n, { revokedAt: new Date() }))).toBe(true);
  });

  it('accepts a fill read ahead of the notifications, and confirms it only once they caught up', () => {
    const cache = listening(5n);
    expect(cache.fill(stored('a', 7n))).toBe(true);
    const entry = cache.get('a')!;
    expect(cache.confirms(entry, 7n)).toBe(false);
    cache.changed({ epoch: 6n, prefixes: ['b'] });
    cache.changed({ epoch: 7n, prefixes: ['c'] });
    expect(cache.confirms(entry, 7n)).toBe(true);
  });

  it('drops everything on a gap in the epochs (a lost notification) and on "all"', () => {
    const cache = listening(5n);
    cache.fill(stored('a', 5n));
    cache.changed({ epoch: 8n, prefixes: ['b'] });
    expect(cache.size).toBe(0);
    expect(cache.heardEpoch).toBe(8n);
    cache.fill(stored('a', 8n));
    cache.changed({ epoch: 9n, prefixes: 'all' });
    expect(cache.size).toBe(0);
  });

  it('drops everything and bypasses itself while disconnected, resuming at the epoch read after LISTEN', () => {
    const cache = listening(5n);
    cache.fill(stored('a', 5n));
    const entry = cache.get('a')!;
    cache.disconnected();
    expect(cache.size).toBe(0);
    expect(cache.heardEpoch).toBeUndefined();
    expect(cache.confirms(entry, 5n)).toBe(false);
    expect(cache.fill(stored('a', 9n))).toBe(false);
    // Heard after LISTEN, before the epoch read answered: applied once resumed, if newer.
    cache.changed({ epoch: 9n, prefixes: ['x'] });
    cache.changed({ epoch: 10n, prefixes: ['a'] });
    cache.resumed(9n);
    expect(cache.heardEpoch).toBe(10n);
    expect(cache.fill(stored('a', 9n))).toBe(false);
    expect(cache.fill(stored('a', 10n))).toBe(true);
  });

  it('evicts again on a change it already covered, keeping its epoch', () => {
    const cache = listening(5n);
    cache.fill(stored('a', 5n));
    cache.changed({ epoch: 4n, prefixes: ['a'] });
    expect(cache.get('a')).toBeUndefined();
    expect(cache.heardEpoch).toBe(5n);
  });

  it('holds at most maxEntries keys, evicting the least recently used', () => {
    const cache = listening(1n, 2);
    cache.fill(stored('a', 1n));
    cache.fill(stored('b', 1n));
    cache.get('a');
    cache.fill(stored('c', 1n));
    expect(cache.size).toBe(2);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
  });

  it('starts afresh at a newer epoch statements have seen for the lag tolerance (a lost notification)', () => {
    const cache = new KeyCache(10, 1000);
    cache.resumed(5n);
    cache.fill(stored('a', 5n));
    cache.observed(6n, 10_000);
    cache.observed(6n, 10_999);
    expect(cache.heardEpoch).toBe(5n);
    expect(cache.size).toBe(1);
    cache.observed(7n, 11_000);
    expect(cache.heardEpoch).toBe(7n);
    expect(cache.size).toBe(0);
    // Caught up: the clock starts again from the next lag.
    cache.observed(7n, 20_000);
    cache.observed(8n, 20_500);
    expect(cache.heardEpoch).toBe(7n);
  });
});
