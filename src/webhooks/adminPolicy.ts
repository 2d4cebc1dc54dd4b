import { randomBytes } from 'node:crypto';
import { validate as isUuid } from 'uuid';
import { type ParsedList, splitList } from '../workspace/keyPolicy.js';
import {
  type PayloadMode,
  PING_EVENT_TYPE,
  WEBHOOK_API_VERSION,
  WEBHOOK_EVENT_TYPES,
  type WebhookEventType,
} from './webhookEvents.js';

/**
 * The pure rules of webhook administration (docs/webhooks.md): what an endpoint may select,
 * how secrets and ids look, what a ping carries. webhookEndpoints.ts and deliveryAdmin.ts apply them
 * to the database; the CLI uses the parsers for its flags.
 */

export const PAYLOAD_MODES = ['summary', 'expanded'] as const satisfies readonly PayloadMode[];

export const DELIVERY_STATUSES = ['pending', 'failed', 'delivered', 'dead'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Every event type (stored as NULL: types added later included), or the listed ones. */
export type EventTypeSelection = WebhookEventType[] | 'all';

export function isWebhookEventType(name: string): name is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(name);
}

/**
 * `all`, or event type names. Returned in the canonical order without duplicates; unknown names are
 * refused with the valid ones, never dropped: a typo must not silently subscribe to less.
 */
export function checkEventTypes(names: readonly string[] | 'all'): ParsedList<EventTypeSelection> {
  if (names === 'all') return { ok: true, value: 'all' };
  if (names.length === 0) return { ok: false, message: 'no event types given ("all" selects every one)' };
  if (names.includes('all')) {
    if (names.length > 1) return { ok: false, message: '"all" cannot be combined with event types' };
    return { ok: true, value: 'all' };
  }
  const unknown = names.filter((name) => !isWebhookEventType(name));
  if (unknown.length > 0) {
    const quoted = unknown.map((name) => `"${name}"`).join(', ');
    return {
      ok: false,
      message: `unknown event type ${quoted}; valid: all, ${WEBHOOK_EVENT_TYPES.join(', ')}`,
    };
  }
  return { ok: true, value: WEBHOOK_EVENT_TYPES.filter((type) => names.includes(type)) };
}

/** `--events`: `all` or a comma list of event types. */
export function parseEventTypeList(input: string): ParsedList<EventTypeSelection> {
  return checkEventTypes(splitList(input));
}

/**
 * Group ids an endpoint is limited to, lower-cased and without duplicates; null (every group of the
 * account, including groups created later) stays null. Only the form is checked here.
 */
export function checkGroupIds(ids: readonly string[] | null): ParsedList<string[] | null> {
  if (ids === null) return { ok: true, value: null };
  if (ids.length === 0) return { ok: false, message: 'no groups given (omit them for every group)' };
  const invalid = ids.filter((id) => !isUuid(id));
  if (invalid.length > 0) return { ok: false, message: `not a group id: ${invalid.join(', ')}` };
  return { ok: true, value: [...new Set(ids.map((id) => id.toLowerCase()))] };
}

/** `--groups`: a comma list of group ids, or `all`; absent means every group. */
export function parseEndpointGroups(input: string | undefined): ParsedList<string[] | null> {
  if (input === undefined) return { ok: true, value: null };
  const items = splitList(input);
  if (items.includes('all')) {
    if (items.length > 1) return { ok: false, message: '"all" cannot be combined with group ids' };
    return { ok: true, value: null };
  }
  return checkGroupIds(items);
}

export const MAX_URL_LENGTH = 2048;
export const MAX_DESCRIPTION_LENGTH = 2000;

/** `whsec_` and 32 random bytes in base64url (43 characters): the HMAC key of the signatures. */
export function generateSigningSecret(random: (size: number) => Buffer = randomBytes): string {
  return `whsec_${random(32).toString('base64url')}`;
}

/** How long the replaced secret keeps signing after a rotation, by default. */
export const DEFAULT_ROTATION_GRACE_MS = 24 * 3_600_000;
/**
 * The longest grace: a rotation is often a response to a leaked secret, whose signatures should not
 * stay valid for long; a week is enough for any receiver's deploy (Stripe allows the same).
 */
export const MAX_ROTATION_GRACE_MS = 7 * 24 * 3_600_000;

/** Until when the replaced secret still signs; null for no overlap (grace 0). */
export function rotationGraceEnd(now: Date, graceMs: number): Date | null {
  if (!Number.isInteger(graceMs) || graceMs < 0 || graceMs > MAX_ROTATION_GRACE_MS) {
    throw new RangeError(`grace must be between 0 and ${MAX_ROTATION_GRACE_MS} ms, got ${graceMs}`);
  }
  return graceMs === 0 ? null : new Date(now.getTime() + graceMs);
}

export const DELIVERY_ID_PATTERN = /^whd_[a-f0-9]+$/;
export const EVENT_ID_PATTERN = /^evt_[a-f0-9]+$/;

/** `whd_` and 32 random hex digits: a new chain of attempts, the `Service-Delivery-Id`. */
export function newDeliveryId(random: (size: number) => Buffer = randomBytes): string {
  return `whd_${random(16).toString('hex')}`;
}

/** `evt_` and 32 random hex digits: a ping is no domain event, so its id is random. */
export function newPingEventId(random: (size: number) => Buffer = randomBytes): string {
  return `evt_${random(16).toString('hex')}`;
}

/**
 * The body of a test event: the payload envelope of every event type, with the endpoint itself as
 * the object, so a receiver's parsing and signature check are exercised as by a real event.
 */
export function pingPayload(input: {
  eventId: string;
  createdAt: Date;
  accountId: string;
  endpointId: string;
}): Record<string, unknown> {
  return {
    id: input.eventId,
    type: PING_EVENT_TYPE,
    api_version: WEBHOOK_API_VERSION,
    created_at: input.createdAt.toISOString(),
    data: {
      account_id: input.accountId,
      group_id: null,
      object: { id: input.endpointId, type: 'webhook_endpoint' },
    },
  };
}
