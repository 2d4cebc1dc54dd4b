import { z } from 'zod';
import {
  PING_EVENT_TYPE,
  UNMAPPED_WEBHOOK_TYPES,
  WEBHOOK_API_VERSION,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_MAPPINGS,
  type WebhookEventType,
  type WebhookObjectType,
} from '../webhooks/webhookEvents.js';
import { DateTime, Uuid } from './commonSchemas.js';
import {
  WEBHOOK_DELIVERY_ID_EXAMPLE,
  WEBHOOK_EXAMPLES,
  WEBHOOK_SIGNATURE_EXAMPLE,
  WEBHOOK_TIMESTAMP_EXAMPLE,
} from './examples.js';

/**
 * The OpenAPI 3.1 `webhooks` section: one Path Item per event type whose `post` is the delivery
 * the service sends. Payload schemas come from the same mapping the fan-out uses
 * (src/webhooks/webhookEvents.ts), so the document describes what is sent.
 */

type JsonSchema = Record<string, unknown>;

/** What the document says of one event type. */
export interface WebhookContract {
  type: WebhookEventType;
  objectType: WebhookObjectType;
  expandedFields: z.ZodRawShape;
  /** The domain events it derives from; none for a type that nothing sends yet. */
  domainTypes: string[];
}

/**
 * One contract per event type, in WEBHOOK_EVENT_TYPES order: from its mappings (all of which
 * must agree, as the two of check.decision_updated do) or, for a type without any yet, from
 * UNMAPPED_WEBHOOK_TYPES.
 */
export function webhookContracts(): WebhookContract[] {
  return WEBHOOK_EVENT_TYPES.map((type) => {
    const mappings = WEBHOOK_MAPPINGS.filter((mapping) => mapping.webhookType === type);
    const unmapped = UNMAPPED_WEBHOOK_TYPES.filter((entry) => entry.webhookType === type);
    if (mappings.length > 0 && unmapped.length > 0) {
      throw new Error(`${type} has a mapping: remove its UNMAPPED_WEBHOOK_TYPES entry`);
    }
    const [first, ...others] = [...mappings, ...unmapped];
    if (!first) throw new Error(`${type} has neither a mapping nor an UNMAPPED_WEBHOOK_TYPES entry`);
    for (const other of others) {
      if (other.objectType !== first.objectType || other.expandedFields !== first.expandedFields) {
        throw new Error(`the mappings of ${type} disagree on the object type or the expanded fields`);
      }
    }
    return {
      type,
      objectType: first.objectType,
      expandedFields: first.expandedFields,
      domainTypes: mappings.map((mapping) => mapping.domainType as string),
    };
  });
}

/** `check.decision_updated` → `CheckDecisionUpdated`. */
export function webhookSchemaName(type: WebhookEventType, mode: 'Summary' | 'Expanded'): string {
  const pascal = type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
  return `${pascal}${mode}`;
}

/** When each type is sent, in the words of docs/webhooks.md. */
const WHEN: Record<WebhookEventType, { summary: string; description: string }> = {
  'case.created': {
    summary: 'A case was created',
    description:
      'Sent for every new case, whatever created it (today `POST /v1/cases`). The object is the case (`id` is its `case_reference`).',
  },
  'check.completed': {
    summary: 'A check completed',
    description:
      'Sent when a check has been screened. A check without matches completes with `match_count` 0 and the decision `no_matches_found`; no check.decision_updated is sent for that system decision. The object is the check (`id` is its `check_reference`).',
  },
  'check.failed': {
    summary: 'A check failed',
    description:
      'Sent when a check could not be screened; `failure_reason` starts with a code (`source_unavailable`, `unknown_screening_profile`, `screening_error`, `worker_lost`). The object is the check.',
  },
  'match.reviewed': {
    summary: 'A match was reviewed',
    description:
      'Sent for every review of a match (`PATCH /v1/matches/{match_id}/review`), including a change of an earlier review. The object is the match (`id` is its `match_id`).',
  },
  'check.decision_updated': {
    summary: 'A check decision was recorded or withdrawn',
    description:
      'Sent when a check decision is recorded (`PATCH /v1/checks/{check_reference}/decision`), and when a recorded one is withdrawn because a review of one of its matches changed afterwards: then `decision` is `pending_review`, `decided_by` and `notes` are null and `withdrawal_cause` says which review changed. The object is the check.',
  },
  'case.decision_recorded': {
    summary: 'A case decision was recorded',
    description:
      'Sent when the final case decision is recorded (`PATCH /v1/cases/{case_reference}/decision`). The object is the case.',
  },
  'monitoring.alert_created': {
    summary: 'A monitoring alert was created',
    description:
      'Sent when a monitoring run finds a material change to a previously observed match. Not sent yet: this service has no monitoring so far, and the expanded fields may still change before it does. The object is the monitoring configuration (`id` is its `monitoring_config_id`).',
  },
};

const EventId = z.string().regex(/^evt_[a-f0-9]+$/);

function payloadSchema(contract: WebhookContract, mode: 'Summary' | 'Expanded') {
  const examples = WEBHOOK_EXAMPLES[contract.type];
  const data = z.object({
    account_id: Uuid.meta({ description: 'The account the object belongs to.' }),
    group_id: Uuid.nullable().meta({ description: 'The group the object was in when the event happened.' }),
    object: z.object({
      id: z.string().nullable(),
      type: z.literal(contract.objectType),
    }),
    ...(mode === 'Expanded' ? contract.expandedFields : {}),
  });
  return z
    .object({
      id: EventId.meta({
        description:
          'The event id, the same in every delivery of this event (also in `Service-Event-Id`): de-duplicate on it.',
      }),
      type: z.literal(contract.type),
      api_version: z.literal(WEBHOOK_API_VERSION),
      created_at: DateTime.meta({ description: 'When the event happened.' }),
      data,
    })
    .meta({
      id: webhookSchemaName(contract.type, mode),
      description: `A ${contract.type} payload in ${mode.toLowerCase()} mode: ${
        mode === 'Summary'
          ? '`data` holds only `account_id`, `group_id` and `object`.'
          : "`data` adds the event's own fields to the summary."
      }`,
      examples: [mode === 'Summary' ? examples.summary : examples.expanded],
    });
}

/** The payload schemas, made once: each is a named component, and a name must have one schema. */
export const WEBHOOK_PAYLOAD_SCHEMAS = new Map(
  webhookContracts().map((contract) => {
    const summary = payloadSchema(contract, 'Summary');
    const expanded = payloadSchema(contract, 'Expanded');
    // Exactly one matches: summary `data` admits no other field, expanded requires its own.
    return [contract.type, { summary, expanded, body: z.xor([summary, expanded]) }] as const;
  }),
);

const headerParameter = (name: string, description: string, schema: JsonSchema, example: string) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema,
  example,
});

function deliveryHeaders(type: WebhookEventType) {
  return [
    headerParameter(
      'Service-Event-Id',
      "The payload's `id`: the same in every delivery and redelivery of the event. Handle each event id once.",
      { type: 'string', pattern: '^evt_[a-f0-9]+$' },
      WEBHOOK_EXAMPLES[type].summary.id as string,
    ),
    headerParameter(
      'Service-Delivery-Id',
      'The delivery of the event to this endpoint: the same across its retries, a new one for a manual redelivery.',
      { type: 'string' },
      WEBHOOK_DELIVERY_ID_EXAMPLE,
    ),
    headerParameter(
      'Service-Timestamp',
      'When this attempt was signed, in Unix seconds; part of the signed string. Refuse a delivery more than five minutes old.',
      { type: 'string', pattern: '^[0-9]+$' },
      WEBHOOK_TIMESTAMP_EXAMPLE,
    ),
    headerParameter(
      'Service-Signature',
      "`v1=<hex>`: the HMAC-SHA256, keyed with the endpoint's signing secret, of `<Service-Timestamp>.<raw request body>`, in lowercase hex. During a secret rotation's grace period it holds several comma-separated entries (`v1=<new>,v1=<old>`): accept the delivery when any entry matches a secret you hold. Compare in constant time, over the body bytes as received.",
      { type: 'string', pattern: '^v1=[a-f0-9]{64}(,v1=[a-f0-9]{64})*$' },
      WEBHOOK_SIGNATURE_EXAMPLE,
    ),
    headerParameter(
      'Service-Api-Version',
      "The payload's `api_version`.",
      { type: 'string', const: WEBHOOK_API_VERSION },
      WEBHOOK_API_VERSION,
    ),
  ];
}

const ACCEPTED = 'Accepted: the delivery is done.';
const FAILED =
  'Any other answer is a failed attempt, retried later with backoff: another status (201 and 3xx included; redirects are not followed), a timeout, a refused connection or a TLS error.';

function deliveryOperation(contract: WebhookContract, convert: (schema: z.ZodType) => JsonSchema) {
  const examples = WEBHOOK_EXAMPLES[contract.type];
  const schemas = WEBHOOK_PAYLOAD_SCHEMAS.get(contract.type);
  if (!schemas) throw new Error(`no payload schema for ${contract.type}`);
  return {
    operationId: `webhook${webhookSchemaName(contract.type, 'Summary').replace(/Summary$/, '')}`,
    summary: WHEN[contract.type].summary,
    description: [
      WHEN[contract.type].description,
      'The body is the summary payload or, for an endpoint in expanded mode, the expanded one. Answer 200 or 204 quickly and process the event afterwards.',
    ].join('\n\n'),
    // The receiver is the integrator's server: the service's API key plays no part.
    security: [],
    parameters: deliveryHeaders(contract.type),
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: convert(schemas.body),
          examples: {
            summary: { summary: 'Summary mode', value: examples.summary },
            expanded: { summary: 'Expanded mode', value: examples.expanded },
          },
        },
      },
    },
    responses: {
      '200': { description: ACCEPTED },
      '204': { description: ACCEPTED },
      default: { description: FAILED },
    },
  };
}

/** The `webhooks` map: event type → Path Item with the delivery's `post`. */
export function webhookPathItems(convert: (schema: z.ZodType) => JsonSchema) {
  return Object.fromEntries(
    webhookContracts().map((contract) => [contract.type, { post: deliveryOperation(contract, convert) }]),
  );
}

/** The paragraph of `info.description` that introduces the Webhooks section. */
export const WEBHOOKS_INTRODUCTION = `**Webhooks.** The service POSTs signed JSON events to the endpoints configured for an account (the Webhooks section below lists every event type). An endpoint receives the event types it selected, of its account (and of its groups when it names some), as summary payloads (\`data\` holds \`account_id\`, \`group_id\` and \`object\`) or expanded ones (with the event's own fields). Delivery is at least once: answer 200 or 204 to accept; anything else is retried with backoff (for about three days by default), so handle each \`Service-Event-Id\` once. Verify \`Service-Signature\` before trusting a body. A test event of type \`${PING_EVENT_TYPE}\`, sent on request with the same headers and signature, is not an event type to subscribe to: accept it like any other.`;
