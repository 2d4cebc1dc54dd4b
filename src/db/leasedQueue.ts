import type { Queryable } from './sql.js';

/**
 * A work table claimed under leases (the pattern of check_jobs, docs/check-runner.md): rows are
 * `queued`, `running` under a lease, or `done`; a row is due when queued and its next attempt has
 * come, or running and its lease has run out (its worker died). Claims skip rows other workers hold
 * (FOR UPDATE SKIP LOCKED). A claim is (key, lease_owner, attempts): a worker whose lease was taken
 * over cannot touch the row its successor holds. Times are the database's.
 *
 * The table needs: <key> text PRIMARY KEY, status, attempts, lease_owner, lease_until,
 * next_attempt_at, last_error, updated_at (migration 0011 has two).
 */
export interface LeasedQueue {
  readonly table: string;
  readonly key: string;
}

export interface QueueClaim {
  key: string;
  leaseOwner: string;
  attempts: number;
  tookOver: boolean;
  row: Record<string, unknown>;
}

const interval = (parameter: string) => `make_interval(secs => ${parameter}::double precision / 1000)`;
const DUE = `(CASE WHEN status = 'running' THEN lease_until ELSE next_attempt_at END)`;

export async function claimNext(
  db: Queryable,
  queue: LeasedQueue,
  owner: string,
  leaseMs: number,
): Promise<QueueClaim | undefined> {
  const { table, key } = queue;
  const { rows } = await db.query<Record<string, unknown> & { took_over: boolean }>(
    `WITH next AS (
       SELECT ${key}, status = 'running' AS took_over FROM ${table}
        WHERE status <> 'done' AND ${DUE} <= now()
        ORDER BY ${DUE}, ${key} LIMIT 1
        FOR UPDATE SKIP LOCKED)
     UPDATE ${table} j
        SET status = 'running', attempts = j.attempts + 1, lease_owner = $1,
            lease_until = now() + ${interval('$2')}, updated_at = now()
       FROM next WHERE j.${key} = next.${key}
     RETURNING j.*, next.took_over`,
    [owner, leaseMs],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    key: row[key] as string,
    leaseOwner: owner,
    attempts: row.attempts as number,
    tookOver: row.took_over,
    row,
  };
}

const owned = (queue: LeasedQueue) =>
  `${queue.key} = $1 AND lease_owner = $2 AND attempts = $3 AND status = 'running'`;
const claimParams = (claim: QueueClaim) => [claim.key, claim.leaseOwner, claim.attempts];

export async function markDone(
  db: Queryable,
  queue: LeasedQueue,
  claim: QueueClaim,
  note: string | null = null,
): Promise<boolean> {
  const result = await db.query(
    `UPDATE ${queue.table} SET status = 'done', lease_owner = NULL, lease_until = NULL,
            last_error = COALESCE($4, last_error), updated_at = now()
      WHERE ${owned(queue)}`,
    [...claimParams(claim), note],
  );
  return result.rowCount === 1;
}

export async function retryLater(
  db: Queryable,
  queue: LeasedQueue,
  claim: QueueClaim,
  delayMs: number,
  error: string,
): Promise<boolean> {
  const result = await db.query(
    `UPDATE ${queue.table} SET status = 'queued', lease_owner = NULL, lease_until = NULL,
            next_attempt_at = now() + ${interval('$4')}, last_error = $5, updated_at = now()
      WHERE ${owned(queue)}`,
    [...claimParams(claim), delayMs, error],
  );
  return result.rowCount === 1;
}

/** Back to the queue untouched (the worker stops before doing anything), the attempt given back. */
export async function release(db: Queryable, queue: LeasedQueue, claim: QueueClaim): Promise<boolean> {
  const result = await db.query(
    `UPDATE ${queue.table} SET status = 'queued', lease_owner = NULL, lease_until = NULL,
            attempts = attempts - 1, next_attempt_at = now(), updated_at = now()
      WHERE ${owned(queue)}`,
    claimParams(claim),
  );
  return result.rowCount === 1;
}
