import type pg from 'pg';
import { inTransaction, isForeignKeyViolation, type Queryable } from '../db/sql.js';
import type { Clock } from '../shared/clock.js';
import {
  DELIVERY_ID_PATTERN,
  DELIVERY_STATUSES,
  type DeliveryStatus,
  EVENT_ID_PATTERN,
  newDeliveryId,
  newPingEventId,
  pingPayload,
} from './adminPolicy.js';
import { notifyDeliveryWorkers } from './deliveries.js';
import { WebhookAdminError } from './webhookAdminError.js';
import { getWebhookEndpoint } from './webhookEndpoints.js';
import { PING_EVENT_TYPE } from './webhookEvents.js';

/**
 * What operators do with the delivery outbox (docs/webhooks.md): look at deliveries and
 * their attempts, queue them again, send a test event, and purge old history. The delivery worker
 * claims every row in status pending or failed whose next_attempt_at has come and whose endpoint is
 * enabled, POSTs its `body` verbatim and records each attempt; the rows written here are for it.
 *
 * A redelivery is a new row (a new `Service-Delivery-Id`, the same `Service-Event-Id` and body)
 * whose `redelivery_of` names the first delivery of the chain, never another redelivery: every
 * delivery of one event to one endpoint hangs off the one row the fan-out wrote.
 */

export interface DeliveryAttemptView {
  attempt: number;
  startedAt: Date;
  durationMs: number;
  /** null when no HTTP answer came (timeout, refused connection, TLS error). */
  httpStatus: number | null;
  error: string | null;
  responseSnippet: string | null;
}

export interface DeliveryView {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  /** Attempts made so far. */
  attemptCount: number;
  /** When the next attempt is due (pending and failed deliveries only). */
  nextAttemptAt: Date | null;
  /** A worker's claim: while it lies ahead, an attempt is in flight. */
  leaseUntil: Date | null;
  lastStatus: number | null;
  lastError: string | null;
  /** The first delivery of the chain this one redelivers; null for the fan-out's (or a ping's) own. */
  redeliveryOf: string | null;
  createdAt: Date;
  updatedAt: Date;
  deliveredAt: Date | null;
  attempts: DeliveryAttemptView[];
}

export interface DeliveryFilter {
  endpointId?: string;
  status?: DeliveryStatus;
  eventId?: string;
  /** 1 to MAX_DELIVERY_LIST; default 50. */
  limit?: number;
}

export const DEFAULT_DELIVERY_LIST = 50;
export const MAX_DELIVERY_LIST = 1000;

/** WEBHOOK_RETENTION's default: how long delivered and dead deliveries are kept. */
export const DEFAULT_WEBHOOK_RETENTION_MS = 30 * 86_400_000;

const DELIVERY_COLUMNS = `id, endpoint_id, event_id, event_type, status, attempts, next_attempt_at, lease_until,
  last_status, last_error, redelivery_of, created_at, updated_at, delivered_at`;

/** Deliveries, newest first, each with its attempts in order. */
export async function listDeliveries(db: Queryable, filter: DeliveryFilter = {}): Promise<DeliveryView[]> {
  const limit = filter.limit ?? DEFAULT_DELIVERY_LIST;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_DELIVERY_LIST) {
    throw new WebhookAdminError('invalid', `the limit must be between 1 and ${MAX_DELIVERY_LIST}`);
  }
  const conditions: string[] = [];
  const params: unknown[] = [];
  if (filter.endpointId !== undefined) {
    // An unknown endpoint is an error, not an empty list: it is most likely a mistyped id.
    const endpoint = await getWebhookEndpoint(db, filter.endpointId);
    params.push(endpoint.id);
    conditions.push(`endpoint_id = $${params.length}`);
  }
  if (filter.status !== undefined) {
    if (!DELIVERY_STATUSES.includes(filter.status)) {
      throw new WebhookAdminError('invalid', `the status must be one of ${DELIVERY_STATUSES.join(', ')}`);
    }
    params.push(filter.status);
    conditions.push(`status = $${params.length}`);
  }
  if (filter.eventId !== undefined) {
    if (!EVENT_ID_PATTERN.test(filter.eventId)) {
      throw new WebhookAdminError(
        'invalid',
        `${JSON.stringify(filter.eventId)} is not an event id (evt_<hex>)`,
      );
    }
    params.push(filter.eventId);
    conditions.push(`event_id = $${params.length}`);
  }
  params.push(limit);
  const { rows } = await db.query(
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries
      ${conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : ''}
      ORDER BY created_at DESC, id DESC
      LIMIT $${params.length}`,
    params,
  );
  return withAttempts(db, rows);
}

/** One delivery with its attempts; `not_found` for an unknown id or one that is not `whd_<hex>`. */
export async function getDelivery(db: Queryable, id: string): Promise<DeliveryView> {
  const { rows } = await db.query(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = $1`, [
    deliveryId(id),
  ]);
  if (!rows[0]) throw deliveryNotFound(id);
  return (await withAttempts(db, rows))[0]!;
}

export interface QueuedDelivery {
  deliveryId: string;
  eventId: string;
  endpointId: string;
  /** A disabled endpoint's deliveries wait until it is enabled. */
  endpointStatus: 'enabled' | 'disabled';
}

/**
 * Queues the delivery again, whatever its status: a new row with the same endpoint, event and body,
 * due now. The original keeps its history.
 */
export async function redeliver(
  db: Queryable,
  id: string,
  clock: Clock,
): Promise<QueuedDelivery & { redeliveryOf: string }> {
  const now = clock();
  const { rows } = await db.query<{
    id: string;
    endpoint_id: string;
    event_id: string;
    redelivery_of: string;
    endpoint_status: 'enabled' | 'disabled';
  }>(
    `WITH original AS (
       SELECT d.*, e.status AS endpoint_status
         FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE d.id = $1
     ), queued AS (
       INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, body, status, attempts,
                                       next_attempt_at, redelivery_of, created_at, updated_at)
       SELECT $2, endpoint_id, event_id, event_type, body, 'pending', 0, now(), COALESCE(redelivery_of, id), $3, $3
         FROM original
       RETURNING id, endpoint_id, event_id, redelivery_of
     )
     SELECT queued.*, original.endpoint_status FROM queued, original`,
    [deliveryId(id), newDeliveryId(), now],
  );
  const row = rows[0];
  if (!row) throw deliveryNotFound(id);
  await notifyDeliveryWorkers(db);
  return {
    deliveryId: row.id,
    eventId: row.event_id,
    endpointId: row.endpoint_id,
    endpointStatus: row.endpoint_status,
    redeliveryOf: row.redelivery_of,
  };
}

/**
 * Queues one redelivery of every event whose deliveries to the endpoint are all dead: an event
 * delivered, or with a delivery still pending or failing, is left alone, so running this twice
 * queues nothing the second time. Pings are not sent again. Returns how many were queued. Runs in
 * a transaction holding the endpoint's row, so that two runs at once cannot both queue an event.
 */
export async function redeliverDead(pool: pg.Pool, endpointId: string, clock: Clock): Promise<number> {
  const endpoint = await getWebhookEndpoint(pool, endpointId);
  return inTransaction(pool, async (client) => {
    const locked = await client.query('SELECT 1 FROM webhook_endpoints WHERE id = $1 FOR NO KEY UPDATE', [
      endpoint.id,
    ]);
    if (locked.rowCount === 0) throw new WebhookAdminError('not_found', `no webhook endpoint ${endpointId}`);
    const { rows } = await client.query<{ root: string }>(
      `SELECT root FROM (
         SELECT COALESCE(redelivery_of, id) AS root, bool_and(status = 'dead') AS all_dead, min(created_at) AS since
           FROM webhook_deliveries
          WHERE endpoint_id = $1 AND event_type <> $2
          GROUP BY 1
       ) chains
       WHERE all_dead
       ORDER BY since, root`,
      [endpoint.id, PING_EVENT_TYPE],
    );
    if (rows.length === 0) return 0;
    const now = clock();
    const roots = rows.map((row) => row.root);
    const { rowCount } = await client.query(
      `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, body, status, attempts,
                                       next_attempt_at, redelivery_of, created_at, updated_at)
       SELECT queued.id, d.endpoint_id, d.event_id, d.event_type, d.body, 'pending', 0, now(), d.id, $3, $3
         FROM unnest($1::text[], $2::text[]) AS queued (id, root)
         JOIN webhook_deliveries d ON d.id = queued.root`,
      [roots.map(() => newDeliveryId()), roots, now],
    );
    await notifyDeliveryWorkers(client);
    return rowCount ?? 0;
  });
}

/**
 * Queues a test event (`ping`) to the endpoint, due now, signed and sent like any delivery. Refused
 * for a disabled endpoint: the worker would not send it until the endpoint is enabled.
 */
export async function queuePing(db: Queryable, endpointId: string, clock: Clock): Promise<QueuedDelivery> {
  const endpoint = await getWebhookEndpoint(db, endpointId);
  if (endpoint.status === 'disabled') {
    throw new WebhookAdminError(
      'conflict',
      `webhook endpoint ${endpoint.id} is disabled (${endpoint.disabledReason}); enable it first`,
    );
  }
  const now = clock();
  const eventId = newPingEventId();
  const id = newDeliveryId();
  const body = JSON.stringify(
    pingPayload({ eventId, createdAt: now, accountId: endpoint.accountId, endpointId: endpoint.id }),
  );
  try {
    await db.query(
      `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, body, status, attempts,
                                       next_attempt_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, 'pending', 0, now(), $6, $6)`,
      [id, endpoint.id, eventId, PING_EVENT_TYPE, body, now],
    );
  } catch (error) {
    // Deleted between the read and the insert.
    if (isForeignKeyViolation(error, 'webhook_deliveries_endpoint_id_fkey')) {
      throw new WebhookAdminError('not_found', `no webhook endpoint ${endpointId}`);
    }
    throw error;
  }
  await notifyDeliveryWorkers(db);
  return { deliveryId: id, eventId, endpointId: endpoint.id, endpointStatus: endpoint.status };
}

export interface DeliveryStats {
  since: Date;
  /** Deliveries created since `since`, by their status now. */
  counts: Record<DeliveryStatus, number>;
  lastDeliveredAt: Date | null;
}

/** How the endpoint's recent deliveries fared: for `webhooks show`. */
export async function deliveryStats(db: Queryable, endpointId: string, since: Date): Promise<DeliveryStats> {
  const { rows } = await db.query<Record<DeliveryStatus, number> & { last_delivered_at: Date | null }>(
    `SELECT count(*) FILTER (WHERE status = 'pending')::int AS pending,
            count(*) FILTER (WHERE status = 'failed')::int AS failed,
            count(*) FILTER (WHERE status = 'delivered')::int AS delivered,
            count(*) FILTER (WHERE status = 'dead')::int AS dead,
            max(delivered_at) AS last_delivered_at
       FROM webhook_deliveries
      WHERE endpoint_id = $1 AND created_at >= $2`,
    [endpointId, since],
  );
  const { last_delivered_at, ...counts } = rows[0]!;
  return { since, counts, lastDeliveredAt: last_delivered_at };
}

/**
 * The retention purge: deletes delivered and dead deliveries last changed before `now - retentionMs`,
 * and their attempts (the foreign key cascades). Pending and failing ones are never purged. A first
 * delivery stays while any redelivery of it stays, so the chain is dropped as a whole.
 */
export async function purgeWebhookDeliveries(db: Queryable, now: Date, retentionMs: number): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionMs);
  const { rowCount } = await db.query(
    `DELETE FROM webhook_deliveries d
      WHERE d.status IN ('delivered', 'dead') AND d.updated_at < $1
        AND NOT EXISTS (
          SELECT 1 FROM webhook_deliveries r
           WHERE r.redelivery_of = d.id
             AND NOT (r.status IN ('delivered', 'dead') AND r.updated_at < $1))`,
    [cutoff],
  );
  return rowCount ?? 0;
}

function deliveryId(id: string): string {
  if (!DELIVERY_ID_PATTERN.test(id)) throw deliveryNotFound(id);
  return id;
}

function deliveryNotFound(id: string): WebhookAdminError {
  return new WebhookAdminError('not_found', `no webhook delivery ${id}`);
}

async function withAttempts(db: Queryable, rows: Record<string, unknown>[]): Promise<DeliveryView[]> {
  if (rows.length === 0) return [];
  const { rows: attemptRows } = await db.query(
    `SELECT delivery_id, attempt, started_at, duration_ms, http_status, error, response_snippet
       FROM webhook_attempts WHERE delivery_id = ANY($1::text[])
      ORDER BY delivery_id, attempt`,
    [rows.map((row) => row.id)],
  );
  const attempts = new Map<string, DeliveryAttemptView[]>();
  for (const row of attemptRows) {
    const list = attempts.get(row.delivery_id) ?? [];
    list.push({
      attempt: row.attempt,
      startedAt: row.started_at,
      durationMs: row.duration_ms,
      httpStatus: row.http_status,
      error: row.error,
      responseSnippet: row.response_snippet,
    });
    attempts.set(row.delivery_id, list);
  }
  return rows.map((row) => ({
    id: row.id as string,
    endpointId: row.endpoint_id as string,
    eventId: row.event_id as string,
    eventType: row.event_type as string,
    status: row.status as DeliveryStatus,
    attemptCount: row.attempts as number,
    nextAttemptAt: row.next_attempt_at as Date | null,
    leaseUntil: row.lease_until as Date | null,
    lastStatus: row.last_status as number | null,
    lastError: row.last_error as string | null,
    redeliveryOf: row.redelivery_of as string | null,
    createdAt: row.created_at as Date,
    updatedAt: row.updated_at as Date,
    deliveredAt: row.delivered_at as Date | null,
    attempts: attempts.get(row.id as string) ?? [],
  }));
}
