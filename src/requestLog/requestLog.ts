import type { Queryable } from '../db/sql.js';

/** The spec (Authentication, item 9; Limits): request metadata is retained for 90 days. */
export const RETENTION_DAYS = 90;
export const MAX_PATH_LENGTH = 2048;
export const MAX_REQUEST_ID_LENGTH = 200;
const DAY_MS = 86_400_000;

/**
 * Everything that may be logged about a request, and nothing else: this type deliberately has no
 * body, query string or header fields (spec, Authentication item 9).
 */
export interface RequestLogEntry {
  apiKeyId: string;
  accountId: string;
  method: string;
  /** The request path; any query string or fragment is removed before storing. */
  path: string;
  status: number;
  requestId: string;
  idempotencyKeyPresent: boolean;
  /** Default: the database's now(). */
  occurredAt?: Date;
}

export interface RequestLogRecord {
  /** bigserial, kept as a string because it may exceed Number.MAX_SAFE_INTEGER. */
  id: string;
  apiKeyId: string;
  accountId: string;
  method: string;
  path: string;
  status: number;
  requestId: string;
  idempotencyKeyPresent: boolean;
  occurredAt: Date;
}

export interface RequestLogQuery {
  apiKeyId?: string;
  accountId?: string;
  /** Inclusive. */
  from?: Date;
  /** Exclusive. */
  to?: Date;
  limit: number;
}

/**
 * The path of a request target with the query string and fragment cut off. Callers should pass the
 * path alone; this is the defence for when they pass `request.url`, which includes the query. An
 * absolute-form target (`http://host/p?q`) is reduced to its path as well.
 */
export function pathOnly(target: string): string {
  let path = target;
  const cut = path.search(/[?#]/);
  if (cut >= 0) path = path.slice(0, cut);
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(path);
  if (absolute) path = path.slice(absolute[0].length) || '/';
  return path.slice(0, MAX_PATH_LENGTH);
}

/**
 * Stores one request's metadata. Fields are copied one by one, so an entry object that happens to
 * carry more (a whole request, say) still stores only the allowed ones.
 */
export async function recordRequest(db: Queryable, entry: RequestLogEntry): Promise<void> {
  await recordRequests(db, [entry]);
}

/** Stores the metadata of many requests in one statement, each entry as `recordRequest` would. */
export async function recordRequests(db: Queryable, entries: readonly RequestLogEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const rows = entries.map(storedFields);
  await db.query(
    `INSERT INTO api_request_log
       (api_key_id, account_id, method, path, status, request_id, idempotency_key_present, occurred_at)
     SELECT api_key_id, account_id, method, path, status, request_id, idempotency_key_present,
            coalesce(occurred_at, now())
       FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::int[], $6::text[], $7::boolean[],
                   $8::timestamptz[])
         AS e (api_key_id, account_id, method, path, status, request_id, idempotency_key_present, occurred_at)`,
    [
      rows.map((row) => row.apiKeyId),
      rows.map((row) => row.accountId),
      rows.map((row) => row.method),
      rows.map((row) => row.path),
      rows.map((row) => row.status),
      rows.map((row) => row.requestId),
      rows.map((row) => row.idempotencyKeyPresent),
      rows.map((row) => row.occurredAt),
    ],
  );
}

/** The fields of an entry as stored: the allowed ones only, normalized and cut to the table's limits. */
export function storedFields(entry: RequestLogEntry): Required<Omit<RequestLogEntry, 'occurredAt'>> & {
  occurredAt: Date | null;
} {
  return {
    apiKeyId: entry.apiKeyId,
    accountId: entry.accountId,
    method: entry.method.toUpperCase(),
    path: pathOnly(entry.path),
    status: entry.status,
    requestId: entry.requestId.slice(0, MAX_REQUEST_ID_LENGTH),
    idempotencyKeyPresent: entry.idempotencyKeyPresent === true,
    occurredAt: entry.occurredAt ?? null,
  };
}

/**
 * Why the table would refuse the entry (its CHECK constraints), or undefined. A batch is one
 * statement, so an entry it would refuse is kept out rather than taking the others down with it.
 */
export function entryProblem(entry: RequestLogEntry): string | undefined {
  const fields = storedFields(entry);
  if (!/^[A-Z]{1,16}$/.test(fields.method)) return 'method is not 1 to 16 letters';
  if (!Number.isInteger(fields.status) || fields.status < 100 || fields.status > 599)
    return 'status is not 100 to 599';
  if (fields.requestId.length === 0) return 'request id is empty';
  return undefined;
}

/** Log rows matching every given filter, newest first. */
export async function listRequests(db: Queryable, query: RequestLogQuery): Promise<RequestLogRecord[]> {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const where = (sql: string, value: unknown) => {
    params.push(value);
    conditions.push(sql.replace('?', `$${params.length}`));
  };
  if (query.apiKeyId !== undefined) where('api_key_id = ?', query.apiKeyId);
  if (query.accountId !== undefined) where('account_id = ?', query.accountId);
  if (query.from !== undefined) where('occurred_at >= ?', query.from);
  if (query.to !== undefined) where('occurred_at < ?', query.to);
  params.push(query.limit);
  const { rows } = await db.query<Row>(
    `SELECT id::text, api_key_id, account_id, method, path, status, request_id, idempotency_key_present,
            occurred_at
       FROM api_request_log
      ${conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : ''}
      ORDER BY occurred_at DESC, id DESC
      LIMIT $${params.length}`,
    params,
  );
  return rows.map(toRecord);
}

/** The oldest moment still retained at `now`. */
export function retentionCutoff(now: Date, retentionDays: number = RETENTION_DAYS): Date {
  return new Date(now.getTime() - retentionDays * DAY_MS);
}

/** Deletes rows older than the retention period; returns how many. */
export async function purgeRequestLog(
  db: Queryable,
  now: Date = new Date(),
  retentionDays: number = RETENTION_DAYS,
): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM api_request_log WHERE occurred_at < $1', [
    retentionCutoff(now, retentionDays),
  ]);
  return rowCount ?? 0;
}

interface Row {
  id: string;
  api_key_id: string;
  account_id: string;
  method: string;
  path: string;
  status: number;
  request_id: string;
  idempotency_key_present: boolean;
  occurred_at: Date;
}

function toRecord(row: Row): RequestLogRecord {
  return {
    id: row.id,
    apiKeyId: row.api_key_id,
    accountId: row.account_id,
    method: row.method,
    path: row.path,
    status: row.status,
    requestId: row.request_id,
    idempotencyKeyPresent: row.idempotency_key_present,
    occurredAt: row.occurred_at,
  };
}
