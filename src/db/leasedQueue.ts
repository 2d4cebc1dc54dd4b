import { prepared, type Queryable } from './sql.js';

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

/** Who holds a row, and on which attempt: every update of a claimed row names all three. */
export interface LeaseIdentity {
  key: string;
  leaseOwner: string;
  attempts: number;
}

export interface QueueClaim extends LeaseIdentity {
  tookOver: boolean;
  /** The claimed row, as updated by the claim. */
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
            lease_until = now() + ${interval('$2')},
            last_error = CASE WHEN next.took_over
                              THEN format('attempt %s: the lease of %s expired', j.attempts, j.lease_owner)
                              ELSE j.last_error END,
            updated_at = now()
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
const claimParams = (claim: LeaseIdentity) => [claim.key, claim.leaseOwner, claim.attempts];

/** Extends the lease; false when the claim is no longer this worker's (it expired and was taken over). */
export async function renewLease(
  db: Queryable,
  queue: LeasedQueue,
  claim: LeaseIdentity,
  leaseMs: number,
): Promise<boolean> {
  const result = await db.query(
    `UPDATE ${queue.table} SET lease_until = now() + ${interval('$4')}, updated_at = now() WHERE ${owned(queue)}`,
    [...claimParams(claim), leaseMs],
  );
  return result.rowCount === 1;
}

/** Finished: nothing more to do. `note` is kept in last_error for operators. */
export async function markDone(
  db: Queryable,
  queue: LeasedQueue,
  claim: LeaseIdentity,
  note: string | null = null,
): Promise<boolean> {
  const result = await db.query(
    prepared(
      `UPDATE ${queue.table} SET status = 'done', lease_owner = NULL, lease_until = NULL,
            last_error = COALESCE($4, last_error), updated_at = now()
      WHERE ${owned(queue)}`,
      [...claimParams(claim), note],
    ),
  );
  return result.rowCount === 1;
}

/** A transient failure: back to the queue, to be tried again after `delayMs`. */
export async function retryLater(
  db: Queryable,
  queue: LeasedQueue,
  claim: LeaseIdentity,
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
export async function release(db: Queryable, queue: LeasedQueue, claim: LeaseIdentity): Promise<boolean> {
  const result = await db.query(
    `UPDATE ${queue.table} SET status = 'queued', lease_owner = NULL, lease_until = NULL,
            attempts = attempts - 1, next_attempt_at = now(), updated_at = now()
      WHERE ${owned(queue)}`,
    claimParams(claim),
  );
  return result.rowCount === 1;
}
