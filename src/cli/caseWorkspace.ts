import type { Actor } from '../cases/caseEvents.js';
import type { Queryable } from '../db/sql.js';

/**
 * The workspace facts the operator case commands look up: the acting user, a group and its
 * members (the domain's membership rules take `groupMemberIds`).
 */

export interface OperatorUser {
  id: string;
  accountId: string;
  email: string;
  displayName: string | null;
}

export async function findUser(db: Queryable, userId: string): Promise<OperatorUser | undefined> {
  const { rows } = await db.query<{
    id: string;
    account_id: string;
    email: string;
    display_name: string | null;
  }>('SELECT id, account_id, email, display_name FROM users WHERE id = $1', [userId]);
  const row = rows[0];
  return row && { id: row.id, accountId: row.account_id, email: row.email, displayName: row.display_name };
}

/** A person of the workspace acting: named in the audit trail by display name, else by email. */
export function humanActor(user: OperatorUser): Actor {
  return { type: 'human', id: user.id, displayName: user.displayName ?? user.email };
}

export async function findGroupAccount(db: Queryable, groupId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ account_id: string }>('SELECT account_id FROM groups WHERE id = $1', [
    groupId,
  ]);
  return rows[0]?.account_id;
}

export async function groupMemberIds(db: Queryable, groupId: string): Promise<string[]> {
  const { rows } = await db.query<{ user_id: string }>(
    'SELECT user_id FROM group_memberships WHERE group_id = $1 ORDER BY user_id',
    [groupId],
  );
  return rows.map((row) => row.user_id);
}
