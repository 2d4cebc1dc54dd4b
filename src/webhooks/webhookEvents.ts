import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { CaseEvent } from '../cases/caseEvents.js';
import { actorResource } from '../cases/caseEventView.js';
import { type CaseState, findCheck, findMatch } from '../cases/caseState.js';
import { caseStream } from '../cases/caseStream.js';
import type { StreamType } from '../eventSourcing/commandHandler.js';
import type { MonitoringEvent } from '../monitoring/monitoringEvents.js';
import type { MaybeMonitoringConfig } from '../monitoring/monitoringState.js';
import { monitoringStream } from '../monitoring/monitoringStream.js';

/**
 * The webhook event types and how each is derived from the domain event that the operation
 * appended (docs/webhooks.md has the table). A mapping entry names the stream type, the domain event
 * and a `derive` that sees the stream's state right after that event; the fan-out reactor
 * (fanOut.ts) folds each stream it meets with the stream type's own `evolve`, so the group, the
 * subject name and the check's type are those of the moment the event happened. Monitoring adds its
 * stream type and one entry for `monitoring.alert_created`.
 */

export const WEBHOOK_API_VERSION = '2026-06-09';

export const WEBHOOK_EVENT_TYPES = [
  'case.created',
  'check.completed',
  'check.failed',
  'match.reviewed',
  'check.decision_updated',
  'case.decision_recorded',
  'monitoring.alert_created',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const WEBHOOK_OBJECT_TYPES = ['case', 'check', 'match', 'monitoring'] as const;
export type WebhookObjectType = (typeof WEBHOOK_OBJECT_TYPES)[number];

/** The test event `webhooks ping` sends; never fanned out from the domain. */
export const PING_EVENT_TYPE = 'ping';

export type PayloadMode = 'summary' | 'expanded';

/** One webhook event, before it is shaped for an endpoint's mode. */
export interface WebhookEvent {
  id: string;
  type: WebhookEventType;
  /** When the domain event happened. */
  createdAt: string;
  accountId: string;
  groupId: string | null;
  object: { id: string | null; type: WebhookObjectType };
  /** The event-specific fields of an expanded payload. */
  fields: Record<string, unknown>;
}

/** What a mapping entry derives from one domain event. */
export type Derived = Omit<WebhookEvent, 'id' | 'type' | 'createdAt'>;

export interface WebhookMapping<State, Event extends { type: string; data: unknown }> {
  webhookType: WebhookEventType;
  stream: StreamType<State, Event>;
  domainType: Event['type'];
  /** The object type of the payload: documented per event type. */
  objectType: WebhookObjectType;
  /** The expanded fields, for the OpenAPI description; `derive` must produce exactly these. */
  expandedFields: z.ZodRawShape;
  /** `state` is the stream's state right after `event`. */
  derive(state: State, event: Event): Derived;
}

// --- Expanded field sets (docs/webhooks.md) -----------------------------------------------------

const actorFields = z.object({
  type: z.enum(['human', 'api_client', 'agent', 'system']),
  id: z.string().nullable(),
  display_name: z.string().nullable(),
});

const checkCompletedFields = {
  case_reference: z.string(),
  check_reference: z.string(),
  lifecycle_status: z.literal('completed'),
  match_count: z.number().int().min(0),
  screening_record_id: z.string().uuid(),
  screening_type: z.string(),
  subject_name: z.string(),
};

const checkFailedFields = {
  case_reference: z.string(),
  check_reference: z.string(),
  lifecycle_status: z.literal('failed'),
  failure_reason: z.string(),
  screening_record_id: z.string().uuid(),
  screening_type: z.string(),
  subject_name: z.string(),
};

const caseCreatedFields = {
  case_reference: z.string(),
  external_reference: z.string().nullable(),
  subject_reference: z.string(),
  subject_name: z.string(),
  subject_type: z.string(),
  check_references: z.array(z.string()),
};

const matchReviewedFields = {
  case_reference: z.string(),
  check_reference: z.string(),
  match_id: z.string(),
  review_status: z.enum(['pending_review', 'confirmed_match', 'not_relevant']),
  previous_review_status: z.enum(['pending_review', 'confirmed_match', 'not_relevant']),
  matched_name: z.string().nullable(),
  reviewed_by: actorFields,
};

const checkDecisionFields = {
  case_reference: z.string(),
  check_reference: z.string(),
  decision: z.enum(['pending_review', 'no_matches_found', 'pass', 'conditional_pass', 'fail']),
  previous_decision: z.enum(['pending_review', 'no_matches_found', 'pass', 'conditional_pass', 'fail']),
  notes: z.string().nullable(),
  decided_by: actorFields.nullable(),
  /** Why a recorded decision was withdrawn (a later review changed), null for a recorded one. */
  withdrawal_cause: z.string().nullable(),
};

const caseDecisionFields = {
  case_reference: z.string(),
  decision: z.enum(['pass', 'conditional_pass', 'fail']),
  previous_decision: z.enum(['pending_decision', 'pass', 'conditional_pass', 'fail']),
  notes: z.string().nullable(),
  decided_by: actorFields,
};

/**
 * monitoring.alert_created: the object is the monitoring configuration (the resource an integrator
 * can fetch, with the alert under its alerts).
 */
const monitoringAlertCreatedFields = {
  monitoring_config_id: z.string().regex(/^mon_[a-f0-9]+$/),
  monitoring_run_id: z.string(),
  alert_id: z.string(),
  subject_reference: z.string().nullable(),
  screening_type: z.string(),
  matched_name: z.string(),
  change_summary: z.string(),
};

// --- The mapping -------------------------------------------------------------------------------

type CaseMapping = WebhookMapping<CaseState | null, CaseEvent>;

function caseMapping<T extends CaseEvent['type']>(
  entry: Omit<CaseMapping, 'derive' | 'domainType' | 'stream'> & {
    domainType: T;
    derive(state: CaseState, event: Extract<CaseEvent, { type: T }>): Derived;
  },
): CaseMapping {
  return {
    ...entry,
    stream: caseStream,
    derive(state, event) {
      if (!state) throw new Error(`${event.type} before its case was created`);
      return entry.derive(state, event as Extract<CaseEvent, { type: T }>);
    },
  };
}

function onCase(state: CaseState, objectType: WebhookObjectType, objectId: string) {
  return {
    accountId: state.accountId,
    groupId: state.groupId,
    object: { id: objectId, type: objectType },
  };
}

/** The fields that identify a check in check.completed and check.failed. */
function checkIdentity(state: CaseState, check: ReturnType<typeof checkOf>) {
  return {
    case_reference: state.caseReference,
    check_reference: check.checkReference,
    screening_record_id: check.checkId,
    screening_type: check.type,
    subject_name: state.subject.displayName,
  };
}

function checkOf(state: CaseState, checkReference: string) {
  const check = findCheck(state, checkReference);
  if (!check) throw new Error(`no check ${checkReference} on case ${state.caseReference}`);
  return check;
}

export const WEBHOOK_MAPPINGS: readonly WebhookMapping<never, never>[] = [
  caseMapping({
    webhookType: 'case.created',
    domainType: 'CaseCreated',
    objectType: 'case',
    expandedFields: caseCreatedFields,
    derive: (state) => ({
      ...onCase(state, 'case', state.caseReference),
      fields: {
        case_reference: state.caseReference,
        external_reference: state.externalReference,
        subject_reference: state.subject.subjectReference,
        subject_name: state.subject.displayName,
        subject_type: state.subject.type,
        check_references: state.checks.map((check) => check.checkReference),
      },
    }),
  }),
  caseMapping({
    webhookType: 'check.completed',
    domainType: 'CheckCompleted',
    objectType: 'check',
    expandedFields: checkCompletedFields,
    derive: (state, event) => {
      const check = checkOf(state, event.data.checkReference);
      return {
        ...onCase(state, 'check', check.checkReference),
        fields: {
          ...checkIdentity(state, check),
          lifecycle_status: 'completed',
          match_count: event.data.matches.length,
        },
      };
    },
  }),
  caseMapping({
    webhookType: 'check.failed',
    domainType: 'CheckFailed',
    objectType: 'check',
    expandedFields: checkFailedFields,
    derive: (state, event) => {
      const check = checkOf(state, event.data.checkReference);
      return {
        ...onCase(state, 'check', check.checkReference),
        fields: {
          ...checkIdentity(state, check),
          lifecycle_status: 'failed',
          failure_reason: event.data.failureReason,
        },
      };
    },
  }),
  caseMapping({
    webhookType: 'match.reviewed',
    domainType: 'MatchReviewed',
    objectType: 'match',
    expandedFields: matchReviewedFields,
    derive: (state, event) => {
      const { checkReference, matchId } = event.data;
      const match = findMatch(state, matchId);
      return {
        ...onCase(state, 'match', matchId),
        fields: {
          case_reference: state.caseReference,
          check_reference: checkReference,
          match_id: matchId,
          review_status: event.data.reviewStatus,
          previous_review_status: event.data.previousStatus,
          matched_name: match?.match.displayName ?? null,
          reviewed_by: actorResource(event.data.actor),
        },
      };
    },
  }),
  caseMapping({
    webhookType: 'check.decision_updated',
    domainType: 'CheckDecisionRecorded',
    objectType: 'check',
    expandedFields: checkDecisionFields,
    derive: (state, event) => ({
      ...onCase(state, 'check', event.data.checkReference),
      fields: {
        case_reference: state.caseReference,
        check_reference: event.data.checkReference,
        decision: event.data.decision,
        previous_decision: event.data.previousDecision,
        notes: event.data.notes,
        decided_by: actorResource(event.data.actor),
        withdrawal_cause: null,
      },
    }),
  }),
  caseMapping({
    webhookType: 'check.decision_updated',
    domainType: 'CheckDecisionWithdrawn',
    objectType: 'check',
    expandedFields: checkDecisionFields,
    derive: (state, event) => ({
      ...onCase(state, 'check', event.data.checkReference),
      fields: {
        case_reference: state.caseReference,
        check_reference: event.data.checkReference,
        decision: checkOf(state, event.data.checkReference).decision,
        previous_decision: event.data.withdrawnDecision,
        notes: null,
        decided_by: null,
        withdrawal_cause: event.data.cause,
      },
    }),
  }),
  caseMapping({
    webhookType: 'case.decision_recorded',
    domainType: 'CaseDecisionRecorded',
    objectType: 'case',
    expandedFields: caseDecisionFields,
    derive: (state, event) => ({
      ...onCase(state, 'case', state.caseReference),
      fields: {
        case_reference: state.caseReference,
        decision: event.data.decision,
        previous_decision: event.data.previousDecision,
        notes: event.data.notes,
        decided_by: actorResource(event.data.actor),
      },
    }),
  }),
  {
    webhookType: 'monitoring.alert_created',
    stream: monitoringStream,
    domainType: 'MonitoringAlertRaised',
    objectType: 'monitoring',
    expandedFields: monitoringAlertCreatedFields,
    derive(state: MaybeMonitoringConfig, event: MonitoringEvent): Derived {
      if (!state || event.type !== 'MonitoringAlertRaised')
        throw new Error(`${event.type} before its configuration`);
      return {
        accountId: state.accountId,
        groupId: state.groupId,
        object: { id: state.monitoringConfigId, type: 'monitoring' },
        fields: {
          monitoring_config_id: state.monitoringConfigId,
          monitoring_run_id: event.data.runId,
          alert_id: event.data.alertId,
          subject_reference: state.subject.subjectReference,
          screening_type: event.data.checkType,
          matched_name: event.data.displayName,
          change_summary: event.data.changeSummary,
        },
      };
    },
  } satisfies WebhookMapping<MaybeMonitoringConfig, MonitoringEvent>,
] as unknown as readonly WebhookMapping<never, never>[];

// --- Types without a domain yet --------------------------------------------------------------

/**
 * Event types that no mapping produces yet, described for the documentation only (a type added to
 * the spec before its feature: declare its object type and expanded fields here, and replace the
 * entry with a mapping when the feature lands). None today.
 */
export const UNMAPPED_WEBHOOK_TYPES: readonly Pick<
  WebhookMapping<never, never>,
  'webhookType' | 'objectType' | 'expandedFields'
>[] = [];

/** The stream types whose events can become webhooks, by category. */
export function mappedStreams(): Map<string, StreamType<unknown, { type: string; data: unknown }>> {
  const streams = new Map<string, StreamType<unknown, { type: string; data: unknown }>>();
  for (const mapping of WEBHOOK_MAPPINGS) {
    const stream = mapping.stream as unknown as StreamType<unknown, { type: string; data: unknown }>;
    streams.set(stream.category, stream);
  }
  return streams;
}

/** The mappings of one domain event type (a domain event yields at most one webhook per mapping). */
export function mappingsOf(domainType: string): readonly WebhookMapping<unknown, never>[] {
  return WEBHOOK_MAPPINGS.filter((mapping) => mapping.domainType === domainType) as never;
}

/**
 * `evt_` and 32 hex digits derived from the domain event's id and the webhook type: the same for
 * every redelivery and for a fan-out run again from the start, so receivers can de-duplicate on it.
 */
export function webhookEventId(domainEventId: string, type: string): string {
  const digest = createHash('sha256').update(`${domainEventId.toLowerCase()}:${type}`).digest('hex');
  return `evt_${digest.slice(0, 32)}`;
}

/** The payload an endpoint receives, in the spec's field order. */
export function webhookPayload(event: WebhookEvent, mode: PayloadMode): Record<string, unknown> {
  return {
    id: event.id,
    type: event.type,
    api_version: WEBHOOK_API_VERSION,
    created_at: event.createdAt,
    data: {
      account_id: event.accountId,
      group_id: event.groupId,
      object: event.object,
      ...(mode === 'expanded' ? event.fields : {}),
    },
  };
}
