import { prepared, type Queryable } from '../db/sql.js';
import type { Checkpoint, StoreIdentity } from '../eventStore/eventStore.js';

export type SubscriptionStatus = 'active' | 'parked';

export interface CheckpointRow {
  subscriptionId: string;
  checkpoint: Checkpoint | null;
  status: SubscriptionStatus;
  attempts: number;
  lastError: string | null;
  parkedEventId: string | null;
  parkedPosition: Checkpoint | null;
  parkedAt: Date | null;
  /** The store whose feed `checkpoint` is a position on; null until a runner first used the row. */
  store: StoreIdentity | null;
  updatedAt: Date;
}

interface Row {
  subscription_id: string;
  checkpoint: string | null;
  status: SubscriptionStatus;
  attempts: number;
  last_error: string | null;
  parked_event_id: string | null;
  parked_position: string | null;
  parked_at: Date | null;
  store_kind: StoreIdentity['kind'] | null;
  store_instance: string | null;
  updated_at: Date;
}

const COLUMNS = `subscription_id, checkpoint, status, attempts, last_error, parked_event_id, parked_position,
  parked_at, store_kind, store_instance, updated_at`;

function toCheckpointRow(row: Row): CheckpointRow {
  return {
    subscriptionId: row.subscription_id,
    checkpoint: row.checkpoint as Checkpoint | null,
    status: row.status,
    attempts: row.attempts,
    lastError: row.last_error,
    parkedEventId: row.parked_event_id,
    parkedPosition: row.parked_position as Checkpoint | null,
    parkedAt: row.parked_at,
    store:
      row.store_kind && row.store_instance ? { kind: row.store_kind, instance: row.store_instance } : null,
    updatedAt: row.updated_at,
  };
}

/** The subscription's row, created at the start of the feed on first use. */
export async function ensureCheckpoint(db: Queryable, subscriptionId: string): Promise<CheckpointRow> {
  await db.query('INSERT INTO es_checkpoints (subscription_id) VALUES ($1) ON CONFLICT DO NOTHING', [
    subscriptionId,
  ]);
  const row = await loadCheckpoint(db, subscriptionId);
  if (!row) throw new Error(`Checkpoint row of ${subscriptionId} vanished right after its creation`);
  return row;
}

/**
 * Records `store` on a row that names none yet (a new row, or one from before stores were recorded)
 * and returns the row as it is now: its `store` is the one to compare with.
 */
export async function claimCheckpointStore(
  db: Queryable,
  subscriptionId: string,
  store: StoreIdentity,
): Promise<CheckpointRow> {
  await db.query(
    `UPDATE es_checkpoints SET store_kind = $2, store_instance = $3, updated_at = now()
      WHERE subscription_id = $1 AND store_instance IS NULL`,
    [subscriptionId, store.kind, store.instance],
  );
  const row = await loadCheckpoint(db, subscriptionId);
  if (!row) throw new Error(`Checkpoint row of ${subscriptionId} is gone`);
  return row;
}

export async function loadCheckpoint(
  db: Queryable,
  subscriptionId: string,
): Promise<CheckpointRow | undefined> {
  const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM es_checkpoints WHERE subscription_id = $1`, [
    subscriptionId,
  ]);
  return rows[0] && toCheckpointRow(rows[0]);
}

export async function listCheckpoints(db: Queryable): Promise<CheckpointRow[]> {
  const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM es_checkpoints ORDER BY subscription_id`);
  return rows.map(toCheckpointRow);
}

/**
 * Compare-and-swap, meant to run in the transaction of the handler's writes: false when the row is
 * no longer at `expected` (another runner got there first, or it was parked), and the caller must
 * roll back.
 */
export async function advanceCheckpoint(
  tx: Queryable,
  subscriptionId: string,
  expected: Checkpoint | null,
  next: Checkpoint,
): Promise<boolean> {
  const { rowCount } = await tx.query(
    prepared(
      `UPDATE es_checkpoints SET checkpoint = $3, attempts = 0, last_error = NULL, updated_at = now()
      WHERE subscription_id = $1 AND checkpoint IS NOT DISTINCT FROM $2 AND status = 'active'`,
      [subscriptionId, expected, next],
    ),
  );
  return rowCount === 1;
}

/** Makes a failing batch visible to operators before the subscription is parked (or recovers). */
export async function recordFailure(
  db: Queryable,
  subscriptionId: string,
  attempts: number,
  error: string,
): Promise<void> {
  await db.query(
    'UPDATE es_checkpoints SET attempts = $2, last_error = $3, updated_at = now() WHERE subscription_id = $1',
    [subscriptionId, attempts, error],
  );
}

export interface ParkRequest {
  /** Where the runner stands; a row that moved on meanwhile is not parked. */
  expected: Checkpoint | null;
  eventId: string;
  position: Checkpoint;
  attempts: number;
  error: string;
}

export async function parkSubscription(
  db: Queryable,
  subscriptionId: string,
  request: ParkRequest,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE es_checkpoints
        SET status = 'parked', parked_event_id = $3, parked_position = $4, parked_at = now(),
            attempts = $5, last_error = $6, updated_at = now()
      WHERE subscription_id = $1 AND checkpoint IS NOT DISTINCT FROM $2 AND status = 'active'`,
    [subscriptionId, request.expected, request.eventId, request.position, request.attempts, request.error],
  );
  return rowCount === 1;
}

export type ResumeOutcome = 'resumed' | 'not-parked' | 'unknown';

/** Operator action: the runner holding the subscription retries the parked event on its next poll. */
export async function resumeSubscription(db: Queryable, subscriptionId: string): Promise<ResumeOutcome> {
  const { rowCount } = await db.query(
    `UPDATE es_checkpoints
        SET status = 'active', attempts = 0, last_error = NULL, parked_event_id = NULL,
            parked_position = NULL, parked_at = NULL, updated_at = now()
      WHERE subscription_id = $1 AND status = 'parked'`,
    [subscriptionId],
  );
  if (rowCount === 1) return 'resumed';
  return (await loadCheckpoint(db, subscriptionId)) ? 'not-parked' : 'unknown';
}
