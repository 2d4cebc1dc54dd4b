import {
  claimNext,
  type LeasedQueue,
  type LeaseIdentity,
  markDone,
  release,
  renewLease as renewQueueLease,
  retryLater,
} from '../db/leasedQueue.js';
import { prepared, type Queryable } from '../db/sql.js';
import type { CheckType } from '../screening/checkTypes.js';

/**
 * The work table `check_jobs` (migration 0007, docs/check-runner.md): one row per queued check.
 * Every statement here is one short autocommit statement: no transaction stays open while a check
 * is screened (an open writing transaction would hold back the event feed of the whole cluster).
 * Times are the database's (`now()`), so the clocks of worker machines do not matter.
 *
 * A claim is identified by (lease_owner, attempts): every update of a claimed row names both, so a
 * worker whose lease expired and was taken over cannot touch the row its successor now holds.
 */

export type JobStatus = 'queued' | 'running' | 'done';

export interface NewCheckJob {
  checkReference: string;
  caseReference: string;
  accountId: string;
  checkType: CheckType;
}

export interface CheckJob extends NewCheckJob {
  status: JobStatus;
  /** Claims so far, this one included: the `attempt` of the check's events. */
  attempts: number;
  leaseOwner: string | null;
  leaseUntil: Date | null;
  nextAttemptAt: Date;
  lastError: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface ClaimedJob extends CheckJob {
  status: 'running';
  leaseOwner: string;
  leaseUntil: Date;
  /** The row was `running` under another worker whose lease expired: a takeover. */
  tookOver: boolean;
}

const COLUMNS = `j.check_reference, j.case_reference, j.account_id, j.check_type, j.status, j.attempts,
  j.lease_owner, j.lease_until, j.next_attempt_at, j.last_error, j.created_at, j.updated_at`;

interface JobRow {
  check_reference: string;
  case_reference: string;
  account_id: string;
  check_type: CheckType;
  status: JobStatus;
  attempts: number;
  lease_owner: string | null;
  lease_until: Date | null;
  next_attempt_at: Date;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
}

function toJob(row: JobRow): CheckJob {
  return {
    checkReference: row.check_reference,
    caseReference: row.case_reference,
    accountId: row.account_id,
    checkType: row.check_type,
    status: row.status,
    attempts: row.attempts,
    leaseOwner: row.lease_owner,
    leaseUntil: row.lease_until,
    nextAttemptAt: row.next_attempt_at,
    lastError: row.last_error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * Queues jobs; a job already there (a replayed event) is left as it is. Run inside the scheduler's
 * checkpoint transaction: the rows and the checkpoint move commit together.
 */
export async function insertJobs(db: Queryable, jobs: readonly NewCheckJob[]): Promise<number> {
  if (jobs.length === 0) return 0;
  const result = await db.query(
    prepared(
      `INSERT INTO check_jobs (check_reference, case_reference, account_id, check_type)
     SELECT j.check_reference, j.case_reference, j.account_id, j.check_type
       FROM jsonb_to_recordset($1::jsonb)
            AS j(check_reference text, case_reference text, account_id text, check_type text)
     ON CONFLICT (check_reference) DO NOTHING`,
      [
        JSON.stringify(
          jobs.map((job) => ({
            check_reference: job.checkReference,
            case_reference: job.caseReference,
            account_id: job.accountId,
            check_type: job.checkType,
          })),
        ),
      ],
    ),
  );
  return result.rowCount ?? 0;
}

/** check_jobs as a leased work table (src/db/leasedQueue.ts: due rows, claims, leases). */
const CHECK_QUEUE: LeasedQueue = { table: 'check_jobs', key: 'check_reference' };

/**
 * Claims the job that has been due longest, if any: a queued job whose next attempt has come, or a
 * running job whose lease expired (its worker died or hung). SKIP LOCKED lets any number of workers
 * claim side by side without waiting on each other; a row is claimed by one statement only.
 */
export async function claimNextJob(
  db: Queryable,
  owner: string,
  leaseMs: number,
): Promise<ClaimedJob | undefined> {
  const claim = await claimNext(db, CHECK_QUEUE, owner, leaseMs);
  if (!claim) return undefined;
  return { ...(toJob(claim.row as unknown as JobRow) as ClaimedJob), tookOver: claim.tookOver };
}

export interface Claim {
  checkReference: string;
  leaseOwner: string;
  attempts: number;
}

const identity = (claim: Claim): LeaseIdentity => ({
  key: claim.checkReference,
  leaseOwner: claim.leaseOwner,
  attempts: claim.attempts,
});

/** Extends the lease; false when the claim is no longer this worker's (it expired and was taken over). */
export function renewLease(db: Queryable, claim: Claim, leaseMs: number): Promise<boolean> {
  return renewQueueLease(db, CHECK_QUEUE, identity(claim), leaseMs);
}

/** The check ended (completed or failed on its stream): nothing more to do. `note` is kept for operators. */
export function markJobDone(db: Queryable, claim: Claim, note: string | null = null): Promise<boolean> {
  return markDone(db, CHECK_QUEUE, identity(claim), note);
}

/** A transient failure: back to the queue, to be tried again after `delayMs`. */
export function retryJobLater(db: Queryable, claim: Claim, delayMs: number, error: string): Promise<boolean> {
  return retryLater(db, CHECK_QUEUE, identity(claim), delayMs, error);
}

/**
 * Gives a claim back untouched (the worker is stopping before it wrote anything for the check): due
 * at once, and the attempt it counted is given back, since none was made.
 */
export function releaseJob(db: Queryable, claim: Claim): Promise<boolean> {
  return release(db, CHECK_QUEUE, identity(claim));
}

export async function findJob(db: Queryable, checkReference: string): Promise<CheckJob | undefined> {
  const { rows } = await db.query<JobRow>(
    `SELECT ${COLUMNS} FROM check_jobs j WHERE j.check_reference = $1`,
    [checkReference],
  );
  return rows[0] && toJob(rows[0]);
}

export interface JobCounts {
  queued: number;
  running: number;
  done: number;
  /** Running with an expired lease: waiting to be taken over. */
  expired: number;
}

export async function countJobs(db: Queryable): Promise<JobCounts> {
  const { rows } = await db.query<JobCounts>(
    `SELECT count(*) FILTER (WHERE status = 'queued')::int AS queued,
            count(*) FILTER (WHERE status = 'running')::int AS running,
            count(*) FILTER (WHERE status = 'done')::int AS done,
            count(*) FILTER (WHERE status = 'running' AND lease_until < now())::int AS expired
       FROM check_jobs`,
  );
  return rows[0]!;
}
