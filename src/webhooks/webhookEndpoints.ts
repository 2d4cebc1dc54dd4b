import { randomUUID } from 'node:crypto';
import { validate as isUuid } from 'uuid';
import type { Queryable } from '../db/sql.js';
import type { Clock } from '../shared/clock.js';
import { findAccount } from '../workspace/workspaceStore.js';
import {
  checkEventTypes,
  checkGroupIds,
  DEFAULT_ROTATION_GRACE_MS,
  type EventTypeSelection,
  generateSigningSecret,
  MAX_DESCRIPTION_LENGTH,
  MAX_ROTATION_GRACE_MS,
  MAX_URL_LENGTH,
  PAYLOAD_MODES,
  rotationGraceEnd,
} from './adminPolicy.js';
import { notifyDeliveryWorkers } from './deliveries.js';
import { checkTarget, WebhookTargetError } from './targets.js';
import { WebhookAdminError } from './webhookAdminError.js';
import type { PayloadMode, WebhookEventType } from './webhookEvents.js';

/**
 * Webhook endpoints: workspace settings kept in `webhook_endpoints` (migration 0010), changed by
 * operators through `casescreen webhooks ...` and, later, by the settings page. Every function
 * takes a Queryable and reports refusals as WebhookAdminError. The signing secret leaves this
 * module only in the result of create and rotate; every other result is a WebhookEndpointView,
 * which has no secret in it.
 */

/** An endpoint as it may be shown anywhere: never the secret or the previous secret. */
export interface WebhookEndpointView {
  id: string;
  accountId: string;
  url: string;
  description: string | null;
  /** `all`: every event type, including types added later. */
  eventTypes: EventTypeSelection;
  /** null: every group of the account, including groups created later. */
  groupIds: string[] | null;
  mode: PayloadMode;
  status: 'enabled' | 'disabled';
  disabledReason: string | null;
  disabledAt: Date | null;
  /** Since when every attempt has failed (null after a success); set by the delivery worker. */
  failingSince: Date | null;
  /**
   * Until when deliveries also carry a signature with the replaced secret (after a rotation with a
   * grace period); null when there is no replaced secret. May be in the past once the grace ended.
   */
  secretRotatingUntil: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewWebhookEndpoint {
  accountId: string;
  url: string;
  eventTypes: readonly WebhookEventType[] | 'all';
  /** null or absent: every group of the account. Each id must be a group of the account. */
  groupIds?: readonly string[] | null;
  mode?: PayloadMode;
  description?: string | null;
}

export interface WithSecret {
  endpoint: WebhookEndpointView;
  /** The only time the secret is handed out: show it to the operator once, never log it. */
  secret: string;
}

export interface EndpointAdminOptions {
  clock: Clock;
}

export const DISABLED_BY_OPERATOR = 'disabled by an operator';

const VIEW_COLUMNS = `id, account_id, url, description, event_types, group_ids, mode, status,
  disabled_reason, disabled_at, failing_since,
  CASE WHEN previous_secret IS NOT NULL THEN previous_secret_expires_at END AS secret_rotating_until,
  created_at, updated_at`;

/**
 * Creates an enabled endpoint and its signing secret. The URL must be https and resolve to public
 * addresses only, unless private targets are allowed (WEBHOOK_ALLOW_PRIVATE_TARGETS, which also
 * allows http); it is stored in its normalised form.
 */
export async function createWebhookEndpoint(
  db: Queryable,
  input: NewWebhookEndpoint,
  options: EndpointAdminOptions & { allowPrivateTargets: boolean },
): Promise<WithSecret> {
  const eventTypes = valid(checkEventTypes(input.eventTypes));
  const groupIds = valid(checkGroupIds(input.groupIds ?? null));
  const mode = input.mode ?? 'summary';
  if (!PAYLOAD_MODES.includes(mode)) {
    throw new WebhookAdminError('invalid', `mode must be one of ${PAYLOAD_MODES.join(', ')}`);
  }
  const description = input.description?.trim() || null;
  if (description !== null && description.length > MAX_DESCRIPTION_LENGTH) {
    throw new WebhookAdminError(
      'invalid',
      `description must be at most ${MAX_DESCRIPTION_LENGTH} characters`,
    );
  }
  if (input.url.length > MAX_URL_LENGTH) {
    throw new WebhookAdminError('invalid', `the URL must be at most ${MAX_URL_LENGTH} characters`);
  }
  const accountId = await existingAccount(db, input.accountId);
  if (groupIds) await requireGroupsOfAccount(db, accountId, groupIds);
  const url = await allowedTarget(input.url.trim(), options.allowPrivateTargets);

  const secret = generateSigningSecret();
  const now = options.clock();
  const { rows } = await db.query(
    `INSERT INTO webhook_endpoints (id, account_id, url, description, event_types, group_ids, mode, secret,
                                    created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)
     RETURNING ${VIEW_COLUMNS}`,
    [
      randomUUID(),
      accountId,
      url,
      description,
      eventTypes === 'all' ? null : eventTypes,
      groupIds,
      mode,
      secret,
      now,
    ],
  );
  return { endpoint: toView(rows[0]), secret };
}

/** Endpoints, oldest first; of one account when given (which must exist). */
export async function listWebhookEndpoints(
  db: Queryable,
  filter: { accountId?: string } = {},
): Promise<WebhookEndpointView[]> {
  if (filter.accountId === undefined) {
    const { rows } = await db.query(`SELECT ${VIEW_COLUMNS} FROM webhook_endpoints ORDER BY created_at, id`);
    return rows.map(toView);
  }
  const accountId = await existingAccount(db, filter.accountId);
  const { rows } = await db.query(
    `SELECT ${VIEW_COLUMNS} FROM webhook_endpoints WHERE account_id = $1 ORDER BY created_at, id`,
    [accountId],
  );
  return rows.map(toView);
}

/** One endpoint; `not_found` for an unknown id or one that is not a UUID. */
export async function getWebhookEndpoint(db: Queryable, id: string): Promise<WebhookEndpointView> {
  const { rows } = await db.query(`SELECT ${VIEW_COLUMNS} FROM webhook_endpoints WHERE id = $1`, [
    endpointId(id),
  ]);
  if (!rows[0]) throw notFound(id);
  return toView(rows[0]);
}

/**
 * Stops deliveries to the endpoint: the worker claims none while it is disabled; they stay queued
 * (and keep their due times) until it is enabled. Disabling a disabled endpoint changes nothing, so
 * the reason and time of the first disabling (the worker's automatic one, say) are kept.
 */
export async function disableWebhookEndpoint(
  db: Queryable,
  id: string,
  options: EndpointAdminOptions & { reason?: string },
): Promise<{ outcome: 'disabled' | 'already-disabled'; endpoint: WebhookEndpointView }> {
  const reason = options.reason?.trim() || DISABLED_BY_OPERATOR;
  if (reason.length > MAX_DESCRIPTION_LENGTH) {
    throw new WebhookAdminError('invalid', `the reason must be at most ${MAX_DESCRIPTION_LENGTH} characters`);
  }
  const { rows } = await db.query(
    `UPDATE webhook_endpoints
        SET status = 'disabled', disabled_reason = $2, disabled_at = $3, updated_at = $3
      WHERE id = $1 AND status = 'enabled'
      RETURNING ${VIEW_COLUMNS}`,
    [endpointId(id), reason, options.clock()],
  );
  if (rows[0]) return { outcome: 'disabled', endpoint: toView(rows[0]) };
  return { outcome: 'already-disabled', endpoint: await getWebhookEndpoint(db, id) };
}

/**
 * Enables the endpoint and clears why it was disabled and since when it was failing, so the
 * automatic disabling counts afresh. Queued deliveries that are due go out at the worker's next
 * claim; dead ones stay dead (redeliver them).
 */
export async function enableWebhookEndpoint(
  db: Queryable,
  id: string,
  options: EndpointAdminOptions,
): Promise<{ outcome: 'enabled' | 'already-enabled'; endpoint: WebhookEndpointView }> {
  const { rows } = await db.query(
    `UPDATE webhook_endpoints
        SET status = 'enabled', disabled_reason = NULL, disabled_at = NULL, failing_since = NULL,
            updated_at = $2
      WHERE id = $1 AND status = 'disabled'
      RETURNING ${VIEW_COLUMNS}`,
    [endpointId(id), options.clock()],
  );
  if (rows[0]) {
    // Its deliveries that waited while it was disabled are due: workers take them at once.
    await notifyDeliveryWorkers(db);
    return { outcome: 'enabled', endpoint: toView(rows[0]) };
  }
  return { outcome: 'already-enabled', endpoint: await getWebhookEndpoint(db, id) };
}

/**
 * Deletes the endpoint for good, its secret, and its deliveries and attempts with it (the foreign
 * keys cascade). Not refused while deliveries are in flight: an attempt already sent may still
 * reach the receiver, and its outcome is no longer recorded. Disable first to stop sending.
 */
export async function deleteWebhookEndpoint(
  db: Queryable,
  id: string,
): Promise<{ deletedDeliveries: number }> {
  // The subquery sees the table as it was before the DELETE: the deliveries that cascade.
  const { rows } = await db.query<{ deliveries: number }>(
    `WITH deleted AS (DELETE FROM webhook_endpoints WHERE id = $1 RETURNING id)
     SELECT (SELECT count(*)::int FROM webhook_deliveries WHERE endpoint_id = deleted.id) AS deliveries
       FROM deleted`,
    [endpointId(id)],
  );
  if (!rows[0]) throw notFound(id);
  return { deletedDeliveries: rows[0].deliveries };
}

/**
 * Replaces the signing secret. With a grace period the replaced secret keeps signing until it ends:
 * deliveries carry `v1=<new>,v1=<old>`, so receivers can switch without rejecting any. A secret
 * replaced by an earlier rotation and still in its grace is dropped: only two secrets ever sign.
 */
export async function rotateWebhookSecret(
  db: Queryable,
  id: string,
  options: EndpointAdminOptions & { graceMs?: number },
): Promise<WithSecret & { previousSecretExpiresAt: Date | null }> {
  const graceMs = options.graceMs ?? DEFAULT_ROTATION_GRACE_MS;
  if (!Number.isInteger(graceMs) || graceMs < 0 || graceMs > MAX_ROTATION_GRACE_MS) {
    throw new WebhookAdminError(
      'invalid',
      `the grace period must be between 0 and ${MAX_ROTATION_GRACE_MS / 86_400_000} days`,
    );
  }
  const now = options.clock();
  const graceEnd = rotationGraceEnd(now, graceMs);
  const secret = generateSigningSecret();
  // On the right-hand side `secret` is the value before this UPDATE: the one being replaced.
  const { rows } = await db.query(
    `UPDATE webhook_endpoints
        SET previous_secret = CASE WHEN $3::timestamptz IS NULL THEN NULL ELSE secret END,
            previous_secret_expires_at = $3, secret = $2, updated_at = $4
      WHERE id = $1
      RETURNING ${VIEW_COLUMNS}`,
    [endpointId(id), secret, graceEnd, now],
  );
  if (!rows[0]) throw notFound(id);
  return { endpoint: toView(rows[0]), secret, previousSecretExpiresAt: graceEnd };
}

/** Whether deliveries at `now` still carry a signature with the replaced secret. */
export function isSecretRotating(
  endpoint: Pick<WebhookEndpointView, 'secretRotatingUntil'>,
  now: Date,
): boolean {
  return endpoint.secretRotatingUntil !== null && endpoint.secretRotatingUntil.getTime() > now.getTime();
}

/** The id as a query parameter: a non-UUID cannot name an endpoint, so it is simply not found. */
function endpointId(id: string): string {
  if (!isUuid(id)) throw notFound(id);
  return id.toLowerCase();
}

function notFound(id: string): WebhookAdminError {
  return new WebhookAdminError('not_found', `no webhook endpoint ${id}`);
}

async function existingAccount(db: Queryable, accountId: string): Promise<string> {
  if (!isUuid(accountId)) throw new WebhookAdminError('not_found', `no account ${accountId}`);
  if (!(await findAccount(db, accountId)))
    throw new WebhookAdminError('not_found', `no account ${accountId}`);
  return accountId.toLowerCase();
}

async function requireGroupsOfAccount(db: Queryable, accountId: string, groupIds: string[]): Promise<void> {
  const { rows } = await db.query<{ id: string }>(
    'SELECT id FROM groups WHERE account_id = $1 AND id = ANY($2::uuid[])',
    [accountId, groupIds],
  );
  const found = new Set(rows.map((row) => row.id));
  const missing = groupIds.filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw new WebhookAdminError(
      'invalid',
      `not a group of account ${accountId}: ${missing.join(', ')} (see groups list --account ${accountId})`,
    );
  }
}

async function allowedTarget(url: string, allowPrivateTargets: boolean): Promise<string> {
  try {
    return (await checkTarget(url, { allowPrivate: allowPrivateTargets })).href;
  } catch (error) {
    if (error instanceof WebhookTargetError) {
      throw new WebhookAdminError('invalid', `webhook URL refused: ${error.message}`);
    }
    throw error;
  }
}

function valid<T>(parsed: { ok: true; value: T } | { ok: false; message: string }): T {
  if (!parsed.ok) throw new WebhookAdminError('invalid', parsed.message);
  return parsed.value;
}

function toView(row: Record<string, unknown>): WebhookEndpointView {
  const eventTypes = row.event_types as WebhookEventType[] | null;
  return {
    id: row.id as string,
    accountId: row.account_id as string,
    url: row.url as string,
    description: row.description as string | null,
    eventTypes: eventTypes ?? 'all',
    groupIds: row.group_ids as string[] | null,
    mode: row.mode as PayloadMode,
    status: row.status as 'enabled' | 'disabled',
    disabledReason: row.disabled_reason as string | null,
    disabledAt: row.disabled_at as Date | null,
    failingSince: row.failing_since as Date | null,
    secretRotatingUntil: row.secret_rotating_until as Date | null,
    createdAt: row.created_at as Date,
    updatedAt: row.updated_at as Date,
  };
}
