import type { Queryable } from '../db/sql.js';
import type { StoredKey } from './keyCache.js';
import type { ActorType, KeyGrant, Scope } from './keyPolicy.js';

/** An API key as the service sees it: everything but the secret and its hash. */
export interface ApiKeyRecord extends KeyGrant {
  id: string;
  accountId: string;
  name: string;
  /** The non-secret part of the raw key, `csk_<keyPrefix>_…`, for operators to recognise a key. */
  keyPrefix: string;
  scopes: Scope[];
  actorType: ActorType;
  finalDecision: boolean;
  /** The groups the key may see: never empty, always groups of `accountId`. */
  groupIds: string[];
  expiresAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export interface ApiKeyRow {
  id: string;
  account_id: string;
  name: string;
  key_prefix: string;
  scopes: string[];
  actor_type: string;
  final_decision: boolean;
  group_ids: string[];
  expires_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
  last_used_at: Date | null;
}

/** Never includes key_hash: only findKeyByPrefix reads it, for verification. */
export const KEY_COLUMNS = `id, account_id, name, key_prefix, scopes, actor_type, final_decision, group_ids,
  expires_at, revoked_at, created_at, last_used_at`;

export function toApiKeyRecord(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    keyPrefix: row.key_prefix,
    // The table's CHECK constraints hold these to the known values.
    scopes: row.scopes as Scope[],
    actorType: row.actor_type as ActorType,
    finalDecision: row.final_decision,
    groupIds: row.group_ids,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
  };
}

/**
 * The key with this prefix, its secret's hash and the key epoch (migration 0012) read in the same
 * statement: the row reflects every key change up to that epoch, which is what lets a cache keep it.
 */
export async function findKeyByPrefix(db: Queryable, keyPrefix: string): Promise<StoredKey | undefined> {
  const { rows } = await db.query<ApiKeyRow & { key_hash: Buffer; key_epoch: string }>(
    `SELECT ${KEY_COLUMNS}, key_hash, (SELECT epoch FROM api_key_epoch)::text AS key_epoch
       FROM api_keys WHERE key_prefix = $1`,
    [keyPrefix],
  );
  const row = rows[0];
  return row ? { key: toApiKeyRecord(row), keyHash: row.key_hash, epoch: BigInt(row.key_epoch) } : undefined;
}

/** The number of key changes committed so far (migration 0012). */
export async function readKeyEpoch(db: Queryable): Promise<bigint> {
  const { rows } = await db.query<{ epoch: string }>('SELECT epoch::text AS epoch FROM api_key_epoch');
  return BigInt(rows[0]!.epoch);
}

export async function findKeyById(db: Queryable, id: string): Promise<ApiKeyRecord | undefined> {
  const { rows } = await db.query<ApiKeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = $1`, [id]);
  return rows[0] ? toApiKeyRecord(rows[0]) : undefined;
}
