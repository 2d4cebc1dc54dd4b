import type { Queryable } from '../db/sql.js';
import { generateApiKey } from './apiKeys.js';
import { WorkspaceError } from './errors.js';
import {
  type ActorType,
  finalDecisionProblem,
  type GroupSelection,
  SCOPES,
  type Scope,
} from './keyPolicy.js';
import { type ApiKeyRecord, type ApiKeyRow, findKeyById, KEY_COLUMNS, toApiKeyRecord } from './keyRecords.js';
import { findAccount } from './workspaceStore.js';

export interface NewApiKey {
  accountId: string;
  /** Defaults to "<actor type> key". */
  name?: string;
  scopes: readonly Scope[];
  actorType: ActorType;
  finalDecision: boolean;
  groups: GroupSelection;
  expiresAt: Date | null;
}

export interface CreatedApiKey {
  key: ApiKeyRecord;
  /** The only copy of the raw key there will ever be: hand it to the operator, then drop it. */
  rawKey: string;
}

/**
 * Creates a key after checking what the table's constraints would also refuse, to give operators a
 * clear message. A prefix collision (64 random bits) fails on the unique index instead of ever
 * letting two keys share a lookup handle.
 */
export async function createApiKey(
  db: Queryable,
  input: NewApiKey,
  now: Date = new Date(),
): Promise<CreatedApiKey> {
  const problem = finalDecisionProblem(input.actorType, input.finalDecision);
  if (problem) throw new WorkspaceError('invalid', problem);
  const scopes = SCOPES.filter((scope) => input.scopes.includes(scope));
  if (scopes.length === 0) throw new WorkspaceError('invalid', 'a key needs at least one scope');
  if (input.expiresAt !== null && input.expiresAt.getTime() <= now.getTime()) {
    throw new WorkspaceError('invalid', `expiry ${input.expiresAt.toISOString()} is not in the future`);
  }
  const name = input.name?.trim() || `${input.actorType} key`;
  if (!(await findAccount(db, input.accountId))) {
    throw new WorkspaceError('not_found', `no account ${input.accountId}`);
  }
  const groupIds = await resolveGroups(db, input.accountId, input.groups);

  const generated = generateApiKey();
  const { rows } = await db.query<ApiKeyRow>(
    `INSERT INTO api_keys (account_id, name, key_prefix, key_hash, scopes, actor_type, final_decision,
                           group_ids, expires_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     RETURNING ${KEY_COLUMNS}`,
    [
      input.accountId,
      name,
      generated.prefix,
      generated.secretHash,
      scopes,
      input.actorType,
      input.finalDecision,
      groupIds,
      input.expiresAt,
      now,
    ],
  );
  return { key: toApiKeyRecord(rows[0]!), rawKey: generated.rawKey };
}

/**
 * Group visibility is explicit: the default group, every group the account has now (`all` is a
 * snapshot; groups created later need a new key), or named groups, which must all be the account's.
 */
async function resolveGroups(db: Queryable, accountId: string, selection: GroupSelection): Promise<string[]> {
  if (selection.kind === 'ids') {
    const { rows } = await db.query<{ id: string }>(
      'SELECT id FROM groups WHERE account_id = $1 AND id = ANY($2::uuid[])',
      [accountId, selection.ids],
    );
    const found = new Set(rows.map((row) => row.id));
    const foreign = selection.ids.filter((id) => !found.has(id));
    if (foreign.length > 0) {
      throw new WorkspaceError('invalid', `not groups of account ${accountId}: ${foreign.join(', ')}`);
    }
    return selection.ids;
  }
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM groups WHERE account_id = $1 ${selection.kind === 'default' ? 'AND is_default' : ''}
      ORDER BY is_default DESC, created_at, id`,
    [accountId],
  );
  if (rows.length === 0) throw new WorkspaceError('invalid', `account ${accountId} has no default group`);
  return rows.map((row) => row.id);
}

/** Every key of the account, newest first, revoked and expired ones included. */
export async function listApiKeys(db: Queryable, accountId: string): Promise<ApiKeyRecord[]> {
  const { rows } = await db.query<ApiKeyRow>(
    `SELECT ${KEY_COLUMNS} FROM api_keys WHERE account_id = $1 ORDER BY created_at DESC, id`,
    [accountId],
  );
  return rows.map(toApiKeyRecord);
}

export type RevokeResult =
  | { outcome: 'revoked' | 'already-revoked'; key: ApiKeyRecord }
  | { outcome: 'unknown' };

/** Revocation is final and idempotent: a second revoke keeps the first timestamp. */
export async function revokeApiKey(db: Queryable, id: string, now: Date = new Date()): Promise<RevokeResult> {
  const { rows } = await db.query<ApiKeyRow>(
    `UPDATE api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING ${KEY_COLUMNS}`,
    [id, now],
  );
  if (rows[0]) return { outcome: 'revoked', key: toApiKeyRecord(rows[0]) };
  const key = await findKeyById(db, id);
  return key ? { outcome: 'already-revoked', key } : { outcome: 'unknown' };
}

export type ExpireResult =
  | { outcome: 'expired' | 'revoked' | 'expires-earlier'; key: ApiKeyRecord }
  | { outcome: 'unknown' };

/**
 * Sets a key's expiry to `at` (now, or a moment to come). It only ever shortens a key's life: moving
 * an expiry later would revive expired keys, which needs a new key instead. Revoked keys stay as
 * they are.
 */
export async function expireApiKey(db: Queryable, id: string, at: Date): Promise<ExpireResult> {
  const { rows } = await db.query<ApiKeyRow>(
    `UPDATE api_keys SET expires_at = $2
      WHERE id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at >= $2)
      RETURNING ${KEY_COLUMNS}`,
    [id, at],
  );
  if (rows[0]) return { outcome: 'expired', key: toApiKeyRecord(rows[0]) };
  const key = await findKeyById(db, id);
  if (!key) return { outcome: 'unknown' };
  return { outcome: key.revokedAt !== null ? 'revoked' : 'expires-earlier', key };
}
