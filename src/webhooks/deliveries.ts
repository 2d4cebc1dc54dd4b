import { notifyWorkers } from '../db/notifications.js';
import { prepared, type Queryable } from '../db/sql.js';

/**
 * The delivery outbox's claim and record statements (docs/webhooks.md, "Delivery"). A claim takes
 * due rows of enabled endpoints with FOR UPDATE SKIP LOCKED, counts the attempt and leases the row
 * for longer than an attempt can take, so no two workers ever send the same attempt at once; a
 * worker that dies leaves the lease to run out and the row is claimed again as the next attempt.
 * Recording an attempt is one statement, guarded by the lease: a worker whose row was taken over
 * writes nothing. Accepted attempts, the steady traffic, are recorded several to a statement.
 *
 * The statements that run for every delivery are named, so each connection prepares them once:
 * planning them cost the server more than executing them (0.5-0.7 ms against 0.4-0.9 ms a call,
 * docs/benchmarks.md, "Webhooks").
 */

export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  body: string;
  /** This attempt's number (1-based). */
  attempt: number;
  url: string;
  /** The signing secrets: the current one first, then one still in its rotation grace period. */
  secrets: string[];
  leaseOwner: string;
}

export async function claimDeliveries(
  db: Queryable,
  leaseOwner: string,
  leaseMs: number,
  limit: number,
): Promise<ClaimedDelivery[]> {
  const { rows } = await db.query<{
    id: string;
    endpoint_id: string;
    event_id: string;
    event_type: string;
    body: string;
    attempts: number;
    url: string;
    secret: string;
    previous_secret: string | null;
  }>(
    prepared(
      `WITH due AS (
       SELECT d.id
         FROM webhook_deliveries d
         JOIN webhook_endpoints e ON e.id = d.endpoint_id AND e.status = 'enabled'
        WHERE d.status IN ('pending', 'failed')
          AND d.next_attempt_at <= now()
          AND (d.lease_until IS NULL OR d.lease_until < now())
        ORDER BY d.next_attempt_at, d.id
        LIMIT $3
        FOR UPDATE OF d SKIP LOCKED
     )
     UPDATE webhook_deliveries d
        SET attempts = d.attempts + 1,
            lease_owner = $1,
            lease_until = now() + make_interval(secs => $2::double precision / 1000),
            updated_at = now()
       FROM due, webhook_endpoints e
      WHERE d.id = due.id AND e.id = d.endpoint_id
     RETURNING d.id, d.endpoint_id, d.event_id, d.event_type, d.body, d.attempts, e.url, e.secret,
               CASE WHEN e.previous_secret_expires_at > now() THEN e.previous_secret END AS previous_secret`,
      [leaseOwner, leaseMs, limit],
    ),
  );
  return rows.map((row) => ({
    id: row.id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    eventType: row.event_type,
    body: row.body,
    attempt: row.attempts,
    url: row.url,
    secrets: row.previous_secret ? [row.secret, row.previous_secret] : [row.secret],
    leaseOwner,
  }));
}

export interface AttemptRecord {
  startedAt: Date;
  durationMs: number;
  httpStatus: number | null;
  error: string | null;
  responseSnippet: string | null;
  /** The receiver accepted the delivery (200 or 204). */
  accepted: boolean;
  /** After a failed attempt: the delay before the next, or null when this was the last. */
  retryInMs: number | null;
}

export type RecordOutcome = 'delivered' | 'failed' | 'dead' | 'endpoint_disabled' | 'lease_lost';

/**
 * Records an attempt and what follows from it in one statement: the attempt row, the delivery's
 * status (delivered; failed with its next attempt due; dead), and the endpoint's failure clock. An
 * endpoint whose every attempt has failed since `disableAfterMs` ago is disabled, saying why; the
 * endpoint row is written only when that clock starts, stops or disables it, so steady successful
 * traffic never contends on it.
 */
export async function recordAttempt(
  db: Queryable,
  claim: ClaimedDelivery,
  record: AttemptRecord,
  disableAfterMs: number,
): Promise<RecordOutcome> {
  const status = record.accepted ? 'delivered' : record.retryInMs === null ? 'dead' : 'failed';
  const { rows } = await db.query<{ recorded: boolean; disabled: boolean }>(
    prepared(
      // The attempt CTE runs though nothing selects from it: PostgreSQL executes every data-modifying CTE.
      `WITH delivery AS (
       UPDATE webhook_deliveries
          SET status = $4,
              next_attempt_at = CASE WHEN $4 = 'failed'
                                     THEN now() + make_interval(secs => $10::double precision / 1000) END,
              lease_owner = NULL, lease_until = NULL,
              last_status = $7, last_error = $8,
              delivered_at = CASE WHEN $4 = 'delivered' THEN now() END,
              updated_at = now()
        WHERE id = $1 AND lease_owner = $2 AND attempts = $3
       RETURNING endpoint_id
     ),
     attempt AS (
       INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, http_status, error, response_snippet)
       SELECT $1, $3, $5, $6, $7, $8, $9 FROM delivery
       RETURNING 1
     ),
     -- The endpoint's failure clock; NULL unless the endpoint is enabled.
     clock AS (
       SELECT e.id, e.failing_since AS was_failing_since,
              COALESCE(e.failing_since, $5) AS failing_since,
              $4 <> 'delivered'
                AND COALESCE(e.failing_since, $5) <= now() - make_interval(secs => $11::double precision / 1000)
                AS disable
         FROM webhook_endpoints e JOIN delivery ON e.id = delivery.endpoint_id
        WHERE e.status = 'enabled'
     ),
     endpoint AS (
       UPDATE webhook_endpoints e
          SET failing_since = CASE WHEN $4 = 'delivered' THEN NULL ELSE clock.failing_since END,
              status = CASE WHEN clock.disable THEN 'disabled' ELSE e.status END,
              disabled_at = CASE WHEN clock.disable THEN now() ELSE e.disabled_at END,
              disabled_reason = CASE WHEN clock.disable
                THEN 'every delivery attempt failed since '
                     || to_char(clock.failing_since AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
                     || '; the last: ' || COALESCE($8, 'HTTP ' || $7::text)
                ELSE e.disabled_reason END,
              updated_at = now()
         FROM clock
        WHERE e.id = clock.id
          AND CASE WHEN $4 = 'delivered' THEN clock.was_failing_since IS NOT NULL
                   ELSE clock.was_failing_since IS NULL OR clock.disable END
       RETURNING clock.disable
     )
     SELECT EXISTS (SELECT 1 FROM delivery) AS recorded,
            COALESCE((SELECT disable FROM endpoint), false) AS disabled`,
      [
        claim.id,
        claim.leaseOwner,
        claim.attempt,
        status,
        record.startedAt,
        Math.round(record.durationMs),
        record.httpStatus,
        record.error,
        record.responseSnippet,
        record.retryInMs ?? 0,
        disableAfterMs,
      ],
    ),
  );
  const row = rows[0]!;
  if (!row.recorded) return 'lease_lost';
  if (row.disabled) return 'endpoint_disabled';
  return status;
}

/** An attempt the receiver accepted, to record with recordAccepted. */
export interface AcceptedAttempt {
  claim: ClaimedDelivery;
  record: Pick<AttemptRecord, 'startedAt' | 'durationMs' | 'httpStatus' | 'responseSnippet'>;
}

/**
 * Records accepted attempts of several deliveries in one statement, each as recordAttempt records
 * one alone: the delivery delivered and its lease released, where this worker still holds it; its
 * attempt row; and the failure clock of an endpoint that was failing, stopped. The delivery worker
 * gathers the attempts that finish while its last batch is being written (group commit), so steady
 * traffic pays one round trip and one commit for many deliveries. Endpoint rows are locked in id
 * order: two workers' batches never deadlock on them. The outcome of each attempt, in order.
 */
export async function recordAccepted(
  db: Queryable,
  attempts: readonly AcceptedAttempt[],
): Promise<('delivered' | 'lease_lost')[]> {
  if (attempts.length === 0) return [];
  const { rows } = await db.query<{ id: string }>(
    prepared(
      `WITH batch AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::timestamptz[], $5::int[], $6::int[], $7::text[])
                AS b (id, lease_owner, attempt, started_at, duration_ms, http_status, response_snippet)
     ),
     delivery AS (
       UPDATE webhook_deliveries d
          SET status = 'delivered', next_attempt_at = NULL, lease_owner = NULL, lease_until = NULL,
              last_status = b.http_status, last_error = NULL, delivered_at = now(), updated_at = now()
         FROM batch b
        WHERE d.id = b.id AND d.lease_owner = b.lease_owner AND d.attempts = b.attempt
       RETURNING d.id, d.endpoint_id
     ),
     attempt AS (
       INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, http_status, error, response_snippet)
       SELECT b.id, b.attempt, b.started_at, b.duration_ms, b.http_status, NULL, b.response_snippet
         FROM batch b JOIN delivery ON delivery.id = b.id
     ),
     recovered AS (
       SELECT e.id FROM webhook_endpoints e
        WHERE e.id IN (SELECT endpoint_id FROM delivery) AND e.status = 'enabled' AND e.failing_since IS NOT NULL
        ORDER BY e.id
          FOR UPDATE
     ),
     endpoint AS (
       UPDATE webhook_endpoints e SET failing_since = NULL, updated_at = now()
         FROM recovered WHERE e.id = recovered.id
     )
     SELECT id FROM delivery`,
      [
        attempts.map(({ claim }) => claim.id),
        attempts.map(({ claim }) => claim.leaseOwner),
        attempts.map(({ claim }) => claim.attempt),
        attempts.map(({ record }) => record.startedAt),
        attempts.map(({ record }) => Math.round(record.durationMs)),
        attempts.map(({ record }) => record.httpStatus),
        attempts.map(({ record }) => record.responseSnippet),
      ],
    ),
  );
  const recorded = new Set(rows.map((row) => row.id));
  return attempts.map(({ claim }) => (recorded.has(claim.id) ? 'delivered' : 'lease_lost'));
}

/**
 * Gives back rows claimed but not sent (the worker is stopping): the attempt did not happen, so
 * it is not counted.
 */
export async function releaseDelivery(db: Queryable, claim: ClaimedDelivery): Promise<void> {
  await db.query(
    `UPDATE webhook_deliveries
        SET attempts = attempts - 1, lease_owner = NULL, lease_until = NULL, updated_at = now()
      WHERE id = $1 AND lease_owner = $2 AND attempts = $3`,
    [claim.id, claim.leaseOwner, claim.attempt],
  );
}

/** Delivery workers LISTEN on this channel: a notification makes them claim at once. */
export const DELIVERIES_CHANNEL = 'webhook_deliveries';

/** Wakes the delivery workers of every process (at commit, when `db` is in a transaction); see notifyWorkers. */
export async function notifyDeliveryWorkers(db: Queryable, sender?: string): Promise<void> {
  await notifyWorkers(db, DELIVERIES_CHANNEL, sender);
}
