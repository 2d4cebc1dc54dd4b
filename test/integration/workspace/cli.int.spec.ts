import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateKey, parseApiKey } from '../../../src/workspace/apiKeys.js';
import { SCOPES } from '../../../src/workspace/keyPolicy.js';
import { runCliCaptured } from '../../support/cli.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';

describe('casescreen workspace, groups, users, memberships and keys', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  const cli = (...argv: string[]) => runCliCaptured(argv, { DATABASE_URL: db.url });

  /** Runs a --json command that must succeed and returns its one JSON object. */
  async function cliJson(...argv: string[]): Promise<Record<string, unknown>> {
    const result = await cli(...argv, '--json');
    expect(result, result.stderr).toMatchObject({ code: 0, stderr: '' });
    return JSON.parse(result.stdout);
  }

  async function workspace(name: string) {
    const out = await cliJson('workspace', 'create', '--name', name);
    return { accountId: out.accountId as string, defaultGroupId: out.defaultGroupId as string };
  }

  async function keyCount(): Promise<number> {
    const { rows } = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM api_keys');
    return rows[0]!.n;
  }

  it('creates a workspace and prints its account id and default group id', async () => {
    const out = await cliJson('workspace', 'create', '--name', 'Acme Compliance');
    expect(out).toEqual({
      accountId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Acme Compliance',
      defaultGroupId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      createdAt: expect.any(String),
    });
    const { rows } = await db.pool.query(
      'SELECT id, account_id, slug, is_default FROM groups WHERE account_id = $1',
      [out.accountId],
    );
    expect(rows).toEqual([
      { id: out.defaultGroupId, account_id: out.accountId, slug: 'default', is_default: true },
    ]);

    const text = await cli('workspace', 'create', '--name', 'Plain');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /^Created account [0-9a-f-]{36} "Plain"\nDefault group [0-9a-f-]{36} \(default\)\n$/,
    );
  });

  it('creates groups with unique slugs and lists them, the default one first', async () => {
    const { accountId, defaultGroupId } = await workspace('Groups Ltd');
    const emea = await cliJson(
      'groups',
      'create',
      '--account',
      accountId,
      '--name',
      'EMEA Retail',
      '--description',
      'EU desk',
    );
    expect(emea).toMatchObject({
      accountId,
      name: 'EMEA Retail',
      slug: 'emea-retail',
      isDefault: false,
      description: 'EU desk',
    });

    const duplicate = await cli(
      'groups',
      'create',
      '--account',
      accountId,
      '--name',
      'Other',
      '--slug',
      'emea-retail',
    );
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain('already has a group "emea-retail"');
    const badSlug = await cli(
      'groups',
      'create',
      '--account',
      accountId,
      '--name',
      'X',
      '--slug',
      'Not A Slug',
    );
    expect(badSlug.code).toBe(2);
    expect(badSlug.stderr).toMatch(/--slug: must be lowercase/);

    const listed = await cliJson('groups', 'list', '--account', accountId);
    expect((listed.groups as { id: string }[]).map((g) => g.id)).toEqual([defaultGroupId, emea.id]);
    const table = await cli('groups', 'list', '--account', accountId);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+SLUG\s+NAME\s+DEFAULT\s+DESCRIPTION$/);
  });

  it('creates users and adds them to groups of their own account only', async () => {
    const a = await workspace('Users A');
    const b = await workspace('Users B');
    const user = await cliJson(
      'users',
      'create',
      '--account',
      a.accountId,
      '--email',
      'Ana@Example.com',
      '--name',
      'Ana',
    );
    expect(user).toMatchObject({ accountId: a.accountId, email: 'Ana@Example.com', displayName: 'Ana' });

    const sameEmail = await cli('users', 'create', '--account', a.accountId, '--email', 'ana@example.com');
    expect(sameEmail.code).toBe(1);
    expect(sameEmail.stderr).toContain('already has a user');
    expect((await cli('users', 'create', '--account', a.accountId, '--email', 'nope')).code).toBe(2);

    const userId = user.id as string;
    expect(await cliJson('memberships', 'add', '--group', a.defaultGroupId, '--user', userId)).toEqual({
      groupId: a.defaultGroupId,
      userId,
      outcome: 'added',
    });
    expect(await cliJson('memberships', 'add', '--group', a.defaultGroupId, '--user', userId)).toMatchObject({
      outcome: 'already-member',
    });
    const across = await cli('memberships', 'add', '--group', b.defaultGroupId, '--user', userId);
    expect(across.code).toBe(1);
    expect(across.stderr).toContain(`belongs to account ${a.accountId}`);
    const { rows } = await db.pool.query('SELECT group_id FROM group_memberships WHERE user_id = $1', [
      userId,
    ]);
    expect(rows).toEqual([{ group_id: a.defaultGroupId }]);
  });

  it('prints a new key once, stores only its hash, and the key authenticates', async () => {
    const { accountId, defaultGroupId } = await workspace('Keys Inc');
    const out = await cliJson(
      'keys',
      'create',
      '--account',
      accountId,
      '--scopes',
      'all',
      '--actor',
      'api_client',
      '--final-decision',
      '--name',
      'backend',
    );
    expect(out).toMatchObject({
      keyId: expect.any(String),
      apiKey: expect.stringMatching(/^csk_[0-9a-f]{16}_/),
      accountId,
      name: 'backend',
      scopes: [...SCOPES],
      actorType: 'api_client',
      finalDecision: true,
      groupIds: [defaultGroupId],
      status: 'active',
      expiresAt: null,
    });
    const apiKey = out.apiKey as string;
    const { secret } = parseApiKey(apiKey)!;

    const { rows } = await db.pool.query<{ row: string }>(
      'SELECT row_to_json(k)::text AS row FROM api_keys k',
    );
    const table = rows.map((r) => r.row).join('\n');
    expect(table).not.toContain(apiKey);
    expect(table).not.toContain(secret);

    const auth = await authenticateKey(db.pool, apiKey);
    expect(auth).toMatchObject({ ok: true, key: { id: out.keyId, accountId, scopes: [...SCOPES] } });

    for (const listing of [
      await cli('keys', 'list', '--account', accountId),
      await cli('keys', 'list', '--account', accountId, '--json'),
    ]) {
      expect(listing.code).toBe(0);
      expect(listing.stdout).toContain(out.keyId as string);
      expect(listing.stdout).not.toContain(secret);
      expect(listing.stdout).not.toMatch(/hash/i);
    }
    const listed = await cliJson('keys', 'list', '--account', accountId);
    expect(listed.keys).toEqual([expect.objectContaining({ id: out.keyId, status: 'active' })]);
    expect(listed.keys).toEqual([expect.not.objectContaining({ apiKey: expect.anything() })]);
  });

  it('refuses the final-decision permission for agents, before touching the table', async () => {
    const { accountId } = await workspace('Agents');
    const before = await keyCount();
    const refused = await cli(
      'keys',
      'create',
      '--account',
      accountId,
      '--scopes',
      'all',
      '--actor',
      'agent',
      '--final-decision',
      '--json',
    );
    expect(refused).toMatchObject({ code: 2, stdout: '' });
    expect(refused.stderr).toBe(
      'error: --final-decision: agent keys cannot have the final-decision permission\n',
    );
    expect(await keyCount()).toBe(before);

    const agent = await cliJson(
      'keys',
      'create',
      '--account',
      accountId,
      '--scopes',
      'cases:create,checks:read',
      '--actor',
      'agent',
    );
    expect(agent).toMatchObject({
      actorType: 'agent',
      finalDecision: false,
      scopes: ['cases:create', 'checks:read'],
    });
  });

  it('refuses unknown scopes, actors, ids and dates with exit status 2', async () => {
    const { accountId } = await workspace('Validation');
    const before = await keyCount();
    const base = ['keys', 'create', '--account', accountId, '--actor', 'api_client'];

    const scope = await cli(...base, '--scopes', 'cases:read,cases:destroy');
    expect(scope.code).toBe(2);
    expect(scope.stderr).toContain('--scopes: unknown scope "cases:destroy"');

    const many = await cli(
      'keys',
      'create',
      '--account',
      'acme',
      '--scopes',
      'all',
      '--actor',
      'robot',
      '--expires-at',
      'tomorrow',
    );
    expect(many.code).toBe(2);
    expect(many.stderr).toContain('--account: must be a UUID');
    expect(many.stderr).toContain('--actor: must be one of api_client, agent');
    expect(many.stderr).toContain('--expires-at: must be an ISO 8601 date-time');

    const past = await cli(...base, '--scopes', 'all', '--expires-at', '2001-01-01T00:00:00Z');
    expect(past.code).toBe(1);
    expect(past.stderr).toContain('is not in the future');

    const missing = await cli('keys', 'create', '--account', accountId, '--actor', 'agent');
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain("required option '--scopes <list>'");
    expect(await keyCount()).toBe(before);
  });

  it("limits a key to its account's groups: default, all, or listed ones", async () => {
    const a = await workspace('Visibility A');
    const b = await workspace('Visibility B');
    const extra = await cliJson('groups', 'create', '--account', a.accountId, '--name', 'Extra');
    const create = (...more: string[]) =>
      cli(
        'keys',
        'create',
        '--account',
        a.accountId,
        '--scopes',
        'cases:read',
        '--actor',
        'agent',
        ...more,
        '--json',
      );

    const foreign = await create('--groups', `${extra.id},${b.defaultGroupId}`);
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toBe(`error: not groups of account ${a.accountId}: ${b.defaultGroupId}\n`);

    const all = JSON.parse((await create('--groups', 'all')).stdout);
    expect(all.groupIds).toEqual([a.defaultGroupId, extra.id]);
    const listed = JSON.parse((await create('--groups', extra.id as string)).stdout);
    expect(listed.groupIds).toEqual([extra.id]);
  });

  it('revokes and expires keys, which then fail authentication', async () => {
    const { accountId } = await workspace('Lifecycle');
    const create = async () =>
      cliJson('keys', 'create', '--account', accountId, '--scopes', 'all', '--actor', 'api_client');

    const revoked = await create();
    expect(await cliJson('keys', 'revoke', revoked.keyId as string)).toMatchObject({ outcome: 'revoked' });
    expect(await cli('keys', 'revoke', revoked.keyId as string)).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('already revoked'),
    });
    expect(await authenticateKey(db.pool, revoked.apiKey as string)).toEqual({
      ok: false,
      reason: 'revoked',
    });

    const expired = await create();
    const expiredAt = await cli('keys', 'expire', expired.keyId as string);
    expect(expiredAt.code).toBe(0);
    expect(expiredAt.stdout).toMatch(/expires at \d{4}-/);
    expect(await authenticateKey(db.pool, expired.apiKey as string)).toEqual({
      ok: false,
      reason: 'expired',
    });
    const revive = await cli('keys', 'expire', expired.keyId as string, '--at', '2999-01-01T00:00:00Z');
    expect(revive.code).toBe(1);
    expect(revive.stderr).toContain('can only be brought earlier');
    expect((await cli('keys', 'expire', revoked.keyId as string)).code).toBe(1);

    const later = await create();
    expect(
      await cliJson('keys', 'expire', later.keyId as string, '--at', '2999-01-01T00:00:00+01:00'),
    ).toEqual({
      keyId: later.keyId,
      outcome: 'expired',
      expiresAt: '2998-12-31T23:00:00.000Z',
    });
    expect(await authenticateKey(db.pool, later.apiKey as string)).toMatchObject({ ok: true });

    const statuses = await cliJson('keys', 'list', '--account', accountId);
    expect(
      Object.fromEntries((statuses.keys as { id: string; status: string }[]).map((k) => [k.id, k.status])),
    ).toEqual({
      [revoked.keyId as string]: 'revoked',
      [expired.keyId as string]: 'expired',
      [later.keyId as string]: 'active',
    });

    const unknown = await cli('keys', 'revoke', '00000000-0000-4000-8000-000000000000');
    expect(unknown).toMatchObject({
      code: 1,
      stderr: 'error: no API key 00000000-0000-4000-8000-000000000000\n',
    });
    expect(await cli('keys', 'revoke', 'nope')).toMatchObject({
      code: 2,
      stderr: 'error: <id>: must be a UUID\n',
    });
  });

  it('reports an unknown account', async () => {
    const id = '00000000-0000-4000-8000-000000000001';
    for (const argv of [
      ['keys', 'create', '--account', id, '--scopes', 'all', '--actor', 'agent'],
      ['keys', 'list', '--account', id],
      ['groups', 'list', '--account', id],
      ['groups', 'create', '--account', id, '--name', 'G'],
      ['users', 'create', '--account', id, '--email', 'a@example.com'],
    ]) {
      expect(await cli(...argv), argv.join(' ')).toMatchObject({
        code: 1,
        stderr: `error: no account ${id}\n`,
      });
    }
  });
});
