import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateKey, parseApiKey, recordKeyUse } from '../../../src/workspace/apiKeys.js';
import { WorkspaceError } from '../../../src/workspace/errors.js';
import { SCOPES } from '../../../src/workspace/keyPolicy.js';
import {
  type CreatedApiKey,
  createApiKey,
  expireApiKey,
  type NewApiKey,
  revokeApiKey,
} from '../../../src/workspace/keyStore.js';
import {
  createGroup,
  createWorkspace,
  findGroupForKey,
  listGroupsForKey,
  toGroupResource,
} from '../../../src/workspace/workspaceStore.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';

const T0 = new Date('2030-06-01T12:00:00Z');
const later = (ms: number) => new Date(T0.getTime() + ms);

describe('API keys in the store', () => {
  let db: TestDatabase;
  let accountId: string;
  let defaultGroupId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    const created = await createWorkspace(db.pool, { name: 'Store Co' });
    accountId = created.account.id;
    defaultGroupId = created.defaultGroup.id;
  });
  afterAll(async () => {
    await db.drop();
  });

  const newKey = (more: Partial<NewApiKey> = {}): Promise<CreatedApiKey> =>
    createApiKey(
      db.pool,
      {
        accountId,
        scopes: ['cases:read'],
        actorType: 'api_client',
        finalDecision: false,
        groups: { kind: 'default' },
        expiresAt: null,
        ...more,
      },
      T0,
    );

  describe('authenticateKey', () => {
    it('returns the key record for the raw key', async () => {
      const { key, rawKey } = await newKey({ name: 'reader' });
      const result = await authenticateKey(db.pool, rawKey, T0);
      expect(result).toEqual({ ok: true, key });
      expect(key).toMatchObject({ name: 'reader', groupIds: [defaultGroupId], scopes: ['cases:read'] });
      expect(key).not.toHaveProperty('keyHash');
    });

    it('tells missing, malformed and unknown keys apart', async () => {
      expect(await authenticateKey(db.pool, undefined, T0)).toEqual({ ok: false, reason: 'missing' });
      expect(await authenticateKey(db.pool, '  ', T0)).toEqual({ ok: false, reason: 'missing' });
      expect(await authenticateKey(db.pool, 'csk_live_123', T0)).toEqual({ ok: false, reason: 'malformed' });
      const unknown = `csk_0000000000000000_${'A'.repeat(43)}`;
      expect(await authenticateKey(db.pool, unknown, T0)).toEqual({ ok: false, reason: 'unknown' });
    });

    it('rejects a wrong secret with a real prefix as unknown', async () => {
      const { rawKey } = await newKey();
      const { prefix, secret } = parseApiKey(rawKey)!;
      const wrong = `csk_${prefix}_${secret.startsWith('A') ? 'B' : 'A'}${secret.slice(1)}`;
      expect(await authenticateKey(db.pool, wrong, T0)).toEqual({ ok: false, reason: 'unknown' });
    });

    it('rejects revoked keys, and says so only to the holder of the secret', async () => {
      const { key, rawKey } = await newKey();
      expect((await revokeApiKey(db.pool, key.id, later(1000))).outcome).toBe('revoked');
      expect(await authenticateKey(db.pool, rawKey, later(2000))).toEqual({ ok: false, reason: 'revoked' });
      const { prefix } = parseApiKey(rawKey)!;
      expect(await authenticateKey(db.pool, `csk_${prefix}_${'x'.repeat(43)}`, later(2000))).toEqual({
        ok: false,
        reason: 'unknown',
      });
      const again = await revokeApiKey(db.pool, key.id, later(5000));
      expect(again).toMatchObject({ outcome: 'already-revoked', key: { revokedAt: later(1000) } });
    });

    it('rejects keys from their expiry instant on', async () => {
      const { key, rawKey } = await newKey({ expiresAt: later(60_000) });
      expect(await authenticateKey(db.pool, rawKey, later(59_999))).toMatchObject({ ok: true });
      expect(await authenticateKey(db.pool, rawKey, later(60_000))).toEqual({ ok: false, reason: 'expired' });

      expect(await expireApiKey(db.pool, key.id, later(120_000))).toMatchObject({
        outcome: 'expires-earlier',
      });
      expect(await expireApiKey(db.pool, key.id, later(30_000))).toMatchObject({ outcome: 'expired' });
      expect(await authenticateKey(db.pool, rawKey, later(30_000))).toEqual({ ok: false, reason: 'expired' });
    });
  });

  it('records key use at most once a minute', async () => {
    const { key } = await newKey();
    expect(await recordKeyUse(db.pool, key.id, later(0))).toBe(true);
    expect(await recordKeyUse(db.pool, key.id, later(59_000))).toBe(false);
    expect(await recordKeyUse(db.pool, key.id, later(60_000))).toBe(true);
    const { rows } = await db.pool.query('SELECT last_used_at FROM api_keys WHERE id = $1', [key.id]);
    expect(rows[0].last_used_at).toEqual(later(60_000));
  });

  it('refuses agents with the final-decision permission, in code and in the table', async () => {
    await expect(newKey({ actorType: 'agent', finalDecision: true })).rejects.toThrow(
      new WorkspaceError('invalid', 'agent keys cannot have the final-decision permission'),
    );
    const { key } = await newKey({ actorType: 'agent' });
    await expect(
      db.pool.query('UPDATE api_keys SET final_decision = true WHERE id = $1', [key.id]),
    ).rejects.toMatchObject({
      constraint: 'api_keys_agent_no_final_decision',
    });
  });

  it('holds scopes to the ten of the spec and groups to the key account, in the table too', async () => {
    const { key } = await newKey({ scopes: [...SCOPES] });
    expect(key.scopes).toEqual([...SCOPES]);
    await expect(
      db.pool.query(`UPDATE api_keys SET scopes = array_append(scopes, 'cases:delete') WHERE id = $1`, [
        key.id,
      ]),
    ).rejects.toMatchObject({ code: '23514' });
    await expect(
      db.pool.query(`UPDATE api_keys SET scopes = '{}' WHERE id = $1`, [key.id]),
    ).rejects.toMatchObject({
      code: '23514',
    });

    const other = await createWorkspace(db.pool, { name: 'Elsewhere' });
    await expect(newKey({ groups: { kind: 'ids', ids: [other.defaultGroup.id] } })).rejects.toThrow(
      `not groups of account ${accountId}: ${other.defaultGroup.id}`,
    );
    await expect(
      db.pool.query('UPDATE api_keys SET group_ids = $2 WHERE id = $1', [key.id, [other.defaultGroup.id]]),
    ).rejects.toMatchObject({ code: '23514', constraint: 'api_keys_groups_in_account' });
  });

  it('keeps one default group per account', async () => {
    await expect(
      db.pool.query(
        `INSERT INTO groups (account_id, name, slug, is_default) VALUES ($1, 'Second', 'second', true)`,
        [accountId],
      ),
    ).rejects.toMatchObject({ constraint: 'groups_one_default' });
  });

  it("lists and finds only the groups a key may see, as the spec's Group resource", async () => {
    const vip = await createGroup(db.pool, { accountId, name: 'VIP', description: 'high risk' });
    const hidden = await createGroup(db.pool, { accountId, name: 'Hidden' });
    const { key } = await newKey({ groups: { kind: 'ids', ids: [vip.id] } });

    expect(await listGroupsForKey(db.pool, key)).toEqual([vip]);
    expect(await findGroupForKey(db.pool, key, vip.id)).toEqual(vip);
    expect(await findGroupForKey(db.pool, key, hidden.id)).toBeUndefined();
    const all = (await newKey({ groups: { kind: 'all' } })).key;
    expect((await listGroupsForKey(db.pool, all)).map((g) => g.id)).toEqual([
      defaultGroupId,
      hidden.id,
      vip.id,
    ]);

    expect(toGroupResource(vip)).toEqual({
      id: vip.id,
      account_id: accountId,
      name: 'VIP',
      slug: 'vip',
      is_default: false,
      description: 'high risk',
      created_at: vip.createdAt.toISOString(),
      updated_at: vip.updatedAt.toISOString(),
    });
  });
});
