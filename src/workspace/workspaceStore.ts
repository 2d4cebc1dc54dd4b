import type pg from 'pg';
import { inTransaction, isForeignKeyViolation, isUniqueViolation, type Queryable } from '../db/sql.js';
import { WorkspaceError } from './errors.js';
import type { KeyGrant } from './keyPolicy.js';
import { isValidSlug, slugify } from './slug.js';

export interface Account {
  id: string;
  name: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface Group {
  id: string;
  accountId: string;
  name: string;
  slug: string;
  isDefault: boolean;
  description: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface User {
  id: string;
  accountId: string;
  email: string;
  displayName: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export const DEFAULT_GROUP = { name: 'Default', slug: 'default' } as const;

const ACCOUNT_COLUMNS = 'id, name, created_at, updated_at';
export const GROUP_COLUMNS = 'id, account_id, name, slug, is_default, description, created_at, updated_at';
const USER_COLUMNS = 'id, account_id, email, display_name, created_at, updated_at';

/** An account and its default group, in one transaction: no account ever lacks its default group. */
export async function createWorkspace(
  pool: pg.Pool,
  input: { name: string },
): Promise<{ account: Account; defaultGroup: Group }> {
  const name = requireText(input.name, 'account name');
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query(
      `INSERT INTO accounts (name) VALUES ($1) RETURNING ${ACCOUNT_COLUMNS}`,
      [name],
    );
    const account = toAccount(rows[0]);
    const defaultGroup = await insertGroup(client, {
      accountId: account.id,
      name: DEFAULT_GROUP.name,
      slug: DEFAULT_GROUP.slug,
      isDefault: true,
      description: null,
    });
    return { account, defaultGroup };
  });
}

export async function findAccount(db: Queryable, id: string): Promise<Account | undefined> {
  const { rows } = await db.query(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id = $1`, [id]);
  return rows[0] ? toAccount(rows[0]) : undefined;
}

/** A further, non-default group. The slug is derived from the name unless given. */
export async function createGroup(
  db: Queryable,
  input: { accountId: string; name: string; slug?: string; description?: string | null },
): Promise<Group> {
  const name = requireText(input.name, 'group name');
  const slug = input.slug ?? slugify(name);
  if (slug === undefined) {
    throw new WorkspaceError('invalid', `cannot derive a slug from "${name}"; give one explicitly`);
  }
  if (!isValidSlug(slug)) {
    throw new WorkspaceError(
      'invalid',
      `slug "${slug}" must be lowercase words of a-z and 0-9 joined by "-"`,
    );
  }
  return insertGroup(db, {
    accountId: input.accountId,
    name,
    slug,
    isDefault: false,
    description: input.description ?? null,
  });
}

async function insertGroup(
  db: Queryable,
  group: Pick<Group, 'accountId' | 'name' | 'slug' | 'isDefault' | 'description'>,
): Promise<Group> {
  try {
    const { rows } = await db.query(
      `INSERT INTO groups (account_id, name, slug, is_default, description) VALUES ($1, $2, $3, $4, $5)
       RETURNING ${GROUP_COLUMNS}`,
      [group.accountId, group.name, group.slug, group.isDefault, group.description],
    );
    return toGroup(rows[0]);
  } catch (error) {
    if (isUniqueViolation(error, 'groups_account_slug')) {
      throw new WorkspaceError('conflict', `account ${group.accountId} already has a group "${group.slug}"`);
    }
    if (isForeignKeyViolation(error, 'groups_account_id_fkey')) {
      throw new WorkspaceError('not_found', `no account ${group.accountId}`);
    }
    throw error;
  }
}

/** Every group of the account, the default one first. */
export async function listGroups(db: Queryable, accountId: string): Promise<Group[]> {
  const { rows } = await db.query(
    `SELECT ${GROUP_COLUMNS} FROM groups WHERE account_id = $1 ORDER BY is_default DESC, name, id`,
    [accountId],
  );
  return rows.map(toGroup);
}

/** The order a key's groups are listed in, its default group first: the first is the default for a new case. */
export const KEY_GROUP_ORDER = 'is_default DESC, name, id';

/** GET /v1/groups: the groups a key may see, the default one first. */
export async function listGroupsForKey(
  db: Queryable,
  key: Pick<KeyGrant, 'groupIds'> & { accountId: string },
): Promise<Group[]> {
  const { rows } = await db.query(
    `SELECT ${GROUP_COLUMNS} FROM groups WHERE account_id = $1 AND id = ANY($2::uuid[])
      ORDER BY ${KEY_GROUP_ORDER}`,
    [key.accountId, key.groupIds],
  );
  return rows.map(toGroup);
}

/**
 * One group if the key may see it. Undefined both for a missing group and for one outside the key's
 * scope: the spec reports both as `not_found`.
 */
export async function findGroupForKey(
  db: Queryable,
  key: Pick<KeyGrant, 'groupIds'> & { accountId: string },
  groupId: string,
): Promise<Group | undefined> {
  if (!key.groupIds.includes(groupId.toLowerCase())) return undefined;
  const { rows } = await db.query(`SELECT ${GROUP_COLUMNS} FROM groups WHERE id = $1 AND account_id = $2`, [
    groupId,
    key.accountId,
  ]);
  return rows[0] ? toGroup(rows[0]) : undefined;
}

/** A group by id, whatever its account; undefined when there is none. */
export async function findGroup(db: Queryable, groupId: string): Promise<Group | undefined> {
  const { rows } = await db.query(`SELECT ${GROUP_COLUMNS} FROM groups WHERE id = $1`, [groupId]);
  return rows[0] ? toGroup(rows[0]) : undefined;
}

/**
 * The ids among `userIds` (a uuid[] parameter) that are members of `groupId` (an SQL expression), as
 * a text[] column: the rule of "owner and collaborators are members of the group", for statements
 * that read it together with other things.
 */
export const memberIdsAmongSql = (groupId: string, userIds: string) =>
  `ARRAY(SELECT m.user_id::text FROM group_memberships m
          WHERE m.group_id = ${groupId} AND m.user_id = ANY (${userIds}::uuid[]) ORDER BY m.user_id)`;

/** Lower-cased and once each, as `memberIdsAmongSql` and `groupMembersAmong` take them. */
export const distinctUserIds = (userIds: readonly string[]) => [
  ...new Set(userIds.map((id) => id.toLowerCase())),
];

/** Those of `userIds` that are members of the group (the case rules' `groupMemberIds`). */
export async function groupMembersAmong(
  db: Queryable,
  groupId: string,
  userIds: readonly string[],
): Promise<string[]> {
  if (userIds.length === 0) return [];
  const { rows } = await db.query<{ member_ids: string[] }>(
    `SELECT ${memberIdsAmongSql('$1', '$2')} AS member_ids`,
    [groupId, distinctUserIds(userIds)],
  );
  return rows[0]!.member_ids;
}

export async function findUser(db: Queryable, userId: string): Promise<User | undefined> {
  const { rows } = await db.query(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [userId]);
  return rows[0] ? toUser(rows[0]) : undefined;
}

export async function createUser(
  db: Queryable,
  input: { accountId: string; email: string; displayName?: string | null },
): Promise<User> {
  const email = requireText(input.email, 'email');
  try {
    const { rows } = await db.query(
      `INSERT INTO users (account_id, email, display_name) VALUES ($1, $2, $3) RETURNING ${USER_COLUMNS}`,
      [input.accountId, email, input.displayName?.trim() || null],
    );
    return toUser(rows[0]);
  } catch (error) {
    if (isUniqueViolation(error, 'users_account_email')) {
      throw new WorkspaceError('conflict', `account ${input.accountId} already has a user ${email}`);
    }
    if (isForeignKeyViolation(error, 'users_account_id_fkey')) {
      throw new WorkspaceError('not_found', `no account ${input.accountId}`);
    }
    throw error;
  }
}

/**
 * Adds a user to a group of the same account; adding an existing member changes nothing. The
 * INSERT ... SELECT only pairs a group and a user of one account (the table's foreign keys insist).
 */
export async function addMembership(
  db: Queryable,
  input: { groupId: string; userId: string },
): Promise<'added' | 'already-member'> {
  const { rowCount } = await db.query(
    `INSERT INTO group_memberships (account_id, group_id, user_id)
     SELECT g.account_id, g.id, u.id FROM groups g JOIN users u ON u.account_id = g.account_id
      WHERE g.id = $1 AND u.id = $2
     ON CONFLICT (group_id, user_id) DO NOTHING`,
    [input.groupId, input.userId],
  );
  if (rowCount === 1) return 'added';
  const { rows } = await db.query<{
    group_account: string | null;
    user_account: string | null;
    member: boolean;
  }>(
    `SELECT (SELECT account_id FROM groups WHERE id = $1) AS group_account,
            (SELECT account_id FROM users WHERE id = $2) AS user_account,
            EXISTS (SELECT 1 FROM group_memberships WHERE group_id = $1 AND user_id = $2) AS member`,
    [input.groupId, input.userId],
  );
  const found = rows[0]!;
  if (found.member) return 'already-member';
  if (found.group_account === null) throw new WorkspaceError('not_found', `no group ${input.groupId}`);
  if (found.user_account === null) throw new WorkspaceError('not_found', `no user ${input.userId}`);
  throw new WorkspaceError(
    'invalid',
    `user ${input.userId} belongs to account ${found.user_account}, group ${input.groupId} to account ${found.group_account}`,
  );
}

/** The spec's Group resource (snake_case), as GET /v1/groups returns it. */
export interface GroupResource {
  id: string;
  account_id: string;
  name: string;
  slug: string;
  is_default: boolean;
  description: string | null;
  created_at: string;
  updated_at: string;
}

export function toGroupResource(group: Group): GroupResource {
  return {
    id: group.id,
    account_id: group.accountId,
    name: group.name,
    slug: group.slug,
    is_default: group.isDefault,
    description: group.description,
    created_at: group.createdAt.toISOString(),
    updated_at: group.updatedAt.toISOString(),
  };
}

function requireText(value: string, what: string): string {
  const trimmed = value.trim();
  if (trimmed.length === 0) throw new WorkspaceError('invalid', `${what} must not be empty`);
  return trimmed;
}

function toAccount(row: Record<string, unknown>): Account {
  return {
    id: row.id as string,
    name: row.name as string,
    createdAt: row.created_at as Date,
    updatedAt: row.updated_at as Date,
  };
}

export function toGroup(row: Record<string, unknown>): Group {
  return {
    id: row.id as string,
    accountId: row.account_id as string,
    name: row.name as string,
    slug: row.slug as string,
    isDefault: row.is_default as boolean,
    description: row.description as string | null,
    createdAt: row.created_at as Date,
    updatedAt: row.updated_at as Date,
  };
}

function toUser(row: Record<string, unknown>): User {
  return {
    id: row.id as string,
    accountId: row.account_id as string,
    email: row.email as string,
    displayName: row.display_name as string | null,
    createdAt: row.created_at as Date,
    updatedAt: row.updated_at as Date,
  };
}
