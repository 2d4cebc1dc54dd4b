import { describe, expect, it } from 'vitest';
import { generateApiKey, LAST_USED_RESOLUTION_MS } from './apiKeys.js';
import { keyAuthenticator } from './keyAuthenticator.js';
import { KeyCache, type StoredKey } from './keyCache.js';
import type { ApiKeyRecord } from './keyRecords.js';

const T0 = new Date('2030-01-01T00:00:00Z').getTime();

/** One key in a fake table with its epoch, a cache caught up at that epoch, and a clock the test moves. */
function setup(more: Partial<ApiKeyRecord> = {}) {
  const generated = generateApiKey();
  const table = {
    epoch: 3n,
    key: {
      id: 'key-1',
      accountId: 'account',
      name: 'key',
      keyPrefix: generated.prefix,
      scopes: ['cases:read'],
      actorType: 'api_client',
      finalDecision: false,
      groupIds: ['group'],
      expiresAt: null,
      revokedAt: null,
      createdAt: new Date(T0),
      lastUsedAt: null,
      ...more,
    } as ApiKeyRecord,
  };
  const reads: string[] = [];
  const uses: string[] = [];
  let now = T0;
  const cache = new KeyCache(100);
  cache.resumed(table.epoch);
  const authenticator = keyAuthenticator({
    readKey: async (prefix): Promise<StoredKey | undefined> => {
      reads.push(prefix);
      return prefix === table.key.keyPrefix
        ? { key: { ...table.key }, keyHash: generated.secretHash, epoch: table.epoch }
        : undefined;
    },
    noteUse: (id) => uses.push(id),
    cache,
    clock: () => new Date(now),
  });
  /** A committed change of the key, as the trigger makes it; `heard` delivers its notification. */
  const change = (fields: Partial<ApiKeyRecord>, heard = true) => {
    table.key = { ...table.key, ...fields };
    table.epoch += 1n;
    if (heard) cache.changed({ epoch: table.epoch, prefixes: [table.key.keyPrefix] });
  };
  /** A request: authenticate, then confirm with the epoch its rate-limit statement reads. */
  const request = async (rawKey = generated.rawKey) => {
    const authentication = await authenticator.authenticate(rawKey);
    return authenticator.confirm(authentication, table.epoch);
  };
  return {
    rawKey: generated.rawKey,
    reads,
    uses,
    cache,
    change,
    request,
    authenticator,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('key authentication through the cache', () => {
  it('reads a key once, then answers from the cache, noting its use once a resolution', async () => {
    const t = setup();
    for (let i = 0; i < 3; i++) expect((await t.request()).ok).toBe(true);
    expect(t.reads).toHaveLength(1);
    expect(t.uses).toEqual(['key-1']);
    t.advance(LAST_USED_RESOLUTION_MS);
    expect((await t.request()).ok).toBe(true);
    expect(t.reads).toHaveLength(1);
    expect(t.uses).toEqual(['key-1', 'key-1']);
  });

  it('refuses a key once its cached expiry has passed, without the database', async () => {
    const t = setup({ expiresAt: new Date(T0 + 60_000) });
    expect(await t.request()).toMatchObject({ ok: true });
    t.advance(59_999);
    expect(await t.request()).toMatchObject({ ok: true });
    t.advance(1);
    expect(await t.request()).toEqual({ ok: false, reason: 'expired' });
    expect(t.reads).toHaveLength(1);
  });

  it('refuses a revoked key on the next request once the change is heard', async () => {
    const t = setup();
    expect((await t.request()).ok).toBe(true);
    t.change({ revokedAt: new Date(T0) });
    expect(await t.request()).toEqual({ ok: false, reason: 'revoked' });
  });

  it('refuses a revoked key on the next request even before the notification arrives', async () => {
    const t = setup();
    expect((await t.request()).ok).toBe(true);
    t.change({ revokedAt: new Date(T0) }, false);
    // The cache still holds the key, but the request's statement read a newer epoch: read again.
    expect(await t.request()).toEqual({ ok: false, reason: 'revoked' });
    expect(t.reads).toHaveLength(2);
  });

  it('refuses a key revoked between its authentication and its first statement', async () => {
    const t = setup();
    expect((await t.request()).ok).toBe(true);
    const authentication = await t.authenticator.authenticate(t.rawKey);
    expect(authentication.result.ok).toBe(true);
    t.change({ expiresAt: new Date(T0 - 1) }, false);
    expect(await t.authenticator.confirm(authentication, 4n)).toEqual({ ok: false, reason: 'expired' });
  });

  it('reads again while the listener is disconnected, and caches nothing', async () => {
    const t = setup();
    expect((await t.request()).ok).toBe(true);
    t.cache.disconnected();
    expect((await t.request()).ok).toBe(true);
    expect((await t.request()).ok).toBe(true);
    expect(t.reads).toHaveLength(3);
    expect(t.cache.size).toBe(0);
  });

  it('answers a wrong secret for a cached prefix as unknown, and never caches an unknown key', async () => {
    const t = setup();
    expect((await t.request()).ok).toBe(true);
    const wrong = `${t.rawKey.slice(0, -1)}${t.rawKey.endsWith('A') ? 'B' : 'A'}`;
    expect(await t.request(wrong)).toEqual({ ok: false, reason: 'unknown' });
    expect(t.reads).toHaveLength(1);
    const stranger = generateApiKey().rawKey;
    expect(await t.request(stranger)).toEqual({ ok: false, reason: 'unknown' });
    expect(await t.request(stranger)).toEqual({ ok: false, reason: 'unknown' });
    expect(t.reads).toHaveLength(3);
    expect(t.cache.size).toBe(1);
  });

  it('keeps the missing and malformed answers', async () => {
    const t = setup();
    expect(await t.request('')).toEqual({ ok: false, reason: 'missing' });
    expect(await t.request('csk_nothex_x')).toEqual({ ok: false, reason: 'malformed' });
    expect(t.reads).toHaveLength(0);
  });
});
