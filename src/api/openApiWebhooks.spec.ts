import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  at,
  complete,
  createCase,
  decideCase,
  decideCheck,
  failCheck,
  found,
  review,
  SANCTIONS,
  start,
} from '../../test/support/caseBuilders.js';
import { schemaValidator } from '../../test/support/openApiExamples.js';
import type { CaseCommand } from '../cases/caseDecide.js';
import { decide } from '../cases/caseDecide.js';
import { evolve, type MaybeCase } from '../cases/caseState.js';
import type { EventStore } from '../eventStore/eventStore.js';
import type { MonitoringEvent } from '../monitoring/monitoringEvents.js';
import { evolveMonitoring, type MaybeMonitoringConfig } from '../monitoring/monitoringState.js';
import { systemClock } from '../shared/clock.js';
import {
  type Derived,
  mappingsOf,
  type PayloadMode,
  WEBHOOK_MAPPINGS,
  type WebhookEvent,
  type WebhookEventType,
  webhookEventId,
  webhookPayload,
} from '../webhooks/webhookEvents.js';
import { publicRoutes } from './apiServer.js';
import { CASE_EVENT_PAGE_EXAMPLE, WEBHOOK_EXAMPLES } from './examples.js';
import { webhookSchemaName } from './openApiWebhooks.js';
import { buildOpenApiDocument } from './openapi.js';

const routes = publicRoutes({
  pool: {} as pg.Pool,
  store: {} as EventStore,
  sourceStaleAfterMs: 0,
  clock: systemClock,
});
const json = JSON.parse(JSON.stringify(buildOpenApiDocument(routes))) as {
  info: { description: string };
  webhooks: Record<string, { post: Delivery }>;
  components: { schemas: Record<string, Payload> };
};
const validate = schemaValidator(json);

interface Delivery {
  security: unknown[];
  parameters: { name: string; in: string; required: boolean; description: string }[];
  requestBody: { content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { description: string }>;
}
interface Payload {
  properties: {
    type: { const: string };
    data: { properties: Record<string, { properties?: { type?: { const: string } } }> };
  };
}

const SPEC_EVENT_TYPES = [
  'case.created',
  'check.completed',
  'check.failed',
  'match.reviewed',
  'check.decision_updated',
  'case.decision_recorded',
  'monitoring.alert_created',
];
const COMMON_DATA = ['account_id', 'group_id', 'object'];

function payloadSchema(type: string, mode: PayloadMode): Payload {
  const name = webhookSchemaName(type as WebhookEventType, mode === 'summary' ? 'Summary' : 'Expanded');
  const schema = json.components.schemas[name];
  if (!schema) throw new Error(`no component ${name}`);
  return schema;
}

const dataFields = (type: string, mode: PayloadMode) =>
  Object.keys(payloadSchema(type, mode).properties.data.properties).sort();

/**
 * The webhook events the commands produce, as the fan-out derives them: each domain event folded
 * into the case's state, then each of its mappings' `derive` on that state.
 */
function webhookEventsOf(...commands: CaseCommand[]): WebhookEvent[] {
  let state: MaybeCase = null;
  let revision = 0;
  const events: WebhookEvent[] = [];
  for (const command of commands) {
    const decision = decide(command, state);
    if (!decision.ok) throw new Error(decision.rejection.message);
    for (const domainEvent of decision.events) {
      state = evolve(state, domainEvent);
      const domainEventId = `00000000-0000-4000-8000-${String(revision++).padStart(12, '0')}`;
      for (const mapping of mappingsOf(domainEvent.type)) {
        const derive = mapping.derive as (state: unknown, event: unknown) => Derived;
        events.push({
          id: webhookEventId(domainEventId, mapping.webhookType),
          type: mapping.webhookType,
          createdAt: domainEvent.data.occurredAt,
          ...derive(state, domainEvent),
        });
      }
    }
  }
  return events;
}

/** The same, for a monitoring configuration's stream: its events folded, then derived. */
function webhookEventsOfMonitoring(events: MonitoringEvent[]): WebhookEvent[] {
  let state: MaybeMonitoringConfig = null;
  return events.flatMap((domainEvent, revision) => {
    state = evolveMonitoring(state, domainEvent);
    const domainEventId = `00000000-0000-4000-9000-${String(revision).padStart(12, '0')}`;
    return mappingsOf(domainEvent.type).map((mapping) => ({
      id: webhookEventId(domainEventId, mapping.webhookType),
      type: mapping.webhookType,
      createdAt: domainEvent.data.occurredAt,
      ...(mapping.derive as (state: unknown, event: unknown) => Derived)(state, domainEvent),
    }));
  });
}

const MONITORING_HISTORY: MonitoringEvent[] = [
  {
    type: 'MonitoringConfigCreated',
    data: {
      monitoringConfigId: 'mon_0123456789abcdef01234567',
      accountId: '11111111-1111-4111-8111-111111111111',
      groupId: '22222222-2222-4222-8222-222222222222',
      subject: {
        subjectReference: 'sub_0123456789abcdef01234567',
        type: 'person',
        displayName: 'Kim Jong Un',
        countries: ['KP'],
        birthDate: null,
        externalReference: null,
        metadata: {},
      },
      checkTypes: ['sanctions'],
      ownerUserId: null,
      collaboratorUserIds: [],
      status: 'active',
      metadata: {},
      screeningProfileId: 'default',
      enrolledFrom: { kind: 'api' },
      actor: { type: 'api_client', id: null, displayName: 'test' },
      occurredAt: at(20),
    },
  },
  {
    type: 'MonitoringRunStarted',
    data: { runId: 'run_1', trigger: { kind: 'enrollment' }, checkTypes: ['sanctions'], occurredAt: at(21) },
  },
  {
    type: 'MonitoringAlertRaised',
    data: {
      alertId: 'alt_1',
      runId: 'run_1',
      kind: 'new_match',
      checkType: 'sanctions',
      fingerprint: 'fp_1',
      entityId: 'un:KPi.033',
      displayName: 'KIM JONG UN',
      source: { name: 'UN', recordReference: 'KPi.033' },
      score: 0.97,
      changeSummary: 'New match: KIM JONG UN on UN (sanctions).',
      changes: [],
      previous: null,
      current: null,
      currentMatch: null,
      actionable: true,
      occurredAt: at(21),
    },
  },
];

const sanctionsMatch = found(SANCTIONS, 'NK-1').matchId;
/** One case through every mapped domain event, a withdrawn check decision included, and a failed check. */
const produced = [
  ...webhookEventsOf(
    createCase({ now: at(0) }, ['sanctions']),
    start(SANCTIONS, 1, { now: at(1) }),
    complete(SANCTIONS, [found(SANCTIONS, 'NK-1')], { now: at(2) }),
    review(sanctionsMatch, 'confirmed_match', 'same person', { now: at(3) }),
    decideCheck(SANCTIONS, 'fail', 'listed', { now: at(4) }),
    review(sanctionsMatch, 'not_relevant', 'other birth date', { now: at(5) }),
    decideCheck(SANCTIONS, 'pass', null, { now: at(6) }),
    decideCase('pass', 'cleared', { now: at(7) }),
  ),
  ...webhookEventsOf(
    createCase({ caseReference: 'XYZ000001', now: at(10) }, ['pep']),
    start('XYZ000001-1', 1, { now: at(11) }),
    failCheck('XYZ000001-1', 'source_unavailable: no current source list provides pep screening', {
      attempt: 1,
      now: at(12),
    }),
  ),
  ...webhookEventsOfMonitoring(MONITORING_HISTORY),
];

describe('the webhooks section of the OpenAPI document', () => {
  it('describes exactly the seven event types of the spec, each as a POST delivery', () => {
    expect(Object.keys(json.webhooks).sort()).toEqual([...SPEC_EVENT_TYPES].sort());
    for (const item of Object.values(json.webhooks)) expect(Object.keys(item)).toEqual(['post']);
  });

  it('gives each type a summary payload of the common data fields and an expanded one that adds its mapping fields', () => {
    for (const type of SPEC_EVENT_TYPES) {
      expect(dataFields(type, 'summary'), type).toEqual([...COMMON_DATA].sort());
      for (const mapping of WEBHOOK_MAPPINGS.filter((m) => m.webhookType === type)) {
        expect(dataFields(type, 'expanded'), type).toEqual(
          [...COMMON_DATA, ...Object.keys(mapping.expandedFields)].sort(),
        );
      }
      for (const mode of ['summary', 'expanded'] as const) {
        const schema = payloadSchema(type, mode);
        expect(Object.keys(schema.properties).sort()).toEqual([
          'api_version',
          'created_at',
          'data',
          'id',
          'type',
        ]);
        expect(schema.properties.type.const).toBe(type);
      }
      expect(json.webhooks[type]?.post.requestBody.content['application/json']?.schema).toEqual({
        oneOf: [
          { $ref: `#/components/schemas/${webhookSchemaName(type as WebhookEventType, 'Summary')}` },
          { $ref: `#/components/schemas/${webhookSchemaName(type as WebhookEventType, 'Expanded')}` },
        ],
      });
    }
  });

  it('has expanded check.completed carry exactly the fields of the spec, on a check object', () => {
    expect(dataFields('check.completed', 'expanded')).toEqual([
      'account_id',
      'case_reference',
      'check_reference',
      'group_id',
      'lifecycle_status',
      'match_count',
      'object',
      'screening_record_id',
      'screening_type',
      'subject_name',
    ]);
  });

  it('names the object type of each event type, monitoring.alert_created included', () => {
    const objectTypes = Object.fromEntries(
      SPEC_EVENT_TYPES.map((type) => [
        type,
        payloadSchema(type, 'summary').properties.data.properties.object?.properties?.type?.const,
      ]),
    );
    expect(objectTypes).toEqual({
      'case.created': 'case',
      'check.completed': 'check',
      'check.failed': 'check',
      'match.reviewed': 'match',
      'check.decision_updated': 'check',
      'case.decision_recorded': 'case',
      'monitoring.alert_created': 'monitoring',
    });
    expect(dataFields('monitoring.alert_created', 'expanded')).toEqual(
      expect.arrayContaining(['monitoring_config_id', 'alert_id']),
    );
  });

  it('lists the delivery headers as required header parameters, and 200 and 204 as the only acceptances', () => {
    for (const type of SPEC_EVENT_TYPES) {
      const delivery = json.webhooks[type]!.post;
      expect(delivery.parameters.map((p) => [p.name, p.in, p.required])).toEqual([
        ['Service-Event-Id', 'header', true],
        ['Service-Delivery-Id', 'header', true],
        ['Service-Timestamp', 'header', true],
        ['Service-Signature', 'header', true],
        ['Service-Api-Version', 'header', true],
      ]);
      const signature = delivery.parameters.find((p) => p.name === 'Service-Signature')!;
      expect(signature.description).toContain('HMAC-SHA256');
      expect(signature.description).toContain('`<Service-Timestamp>.<raw request body>`');
      expect(signature.description).toContain('comma-separated');
      expect(Object.keys(delivery.responses).sort()).toEqual(['200', '204', 'default']);
      expect(delivery.responses.default?.description).toMatch(/201 and 3xx included/);
      // The API key's bearer scheme does not apply to a request the service sends.
      expect(delivery.security).toEqual([]);
    }
    expect(json.info.description).toContain('`ping`');
  });

  it('accepts, in both modes, the payloads that the mappings derive from real case histories', () => {
    const mappedTypes = new Set(WEBHOOK_MAPPINGS.map((mapping) => mapping.webhookType));
    expect(new Set(produced.map((event) => event.type))).toEqual(mappedTypes);
    // Both sources of check.decision_updated: a recorded decision and a withdrawn one.
    expect(produced.filter((event) => event.type === 'check.decision_updated')).toHaveLength(3);

    for (const event of produced) {
      for (const mode of ['summary', 'expanded'] as const) {
        const payload = webhookPayload(event, mode);
        const where = `${event.type} ${mode}`;
        expect(validate(payloadSchema(event.type, mode) as never, payload), where).toEqual([]);
        const body = json.webhooks[event.type]!.post.requestBody.content['application/json']!.schema;
        expect(validate(body, payload), where).toEqual([]);
      }
      // A summary is not an expanded payload, nor the other way round.
      expect(
        validate(payloadSchema(event.type, 'expanded') as never, webhookPayload(event, 'summary')),
      ).not.toEqual([]);
      expect(
        validate(payloadSchema(event.type, 'summary') as never, webhookPayload(event, 'expanded')),
      ).not.toEqual([]);
    }
  });

  it('has examples whose event ids derive from the domain events they illustrate', () => {
    const caseEvent = (eventType: string) =>
      CASE_EVENT_PAGE_EXAMPLE.events.find((event) => event.event_type === eventType)!.event_id;
    expect(WEBHOOK_EXAMPLES['check.decision_updated'].summary.id).toBe(
      webhookEventId(caseEvent('check_decision_recorded'), 'check.decision_updated'),
    );
    expect(WEBHOOK_EXAMPLES['case.decision_recorded'].summary.id).toBe(
      webhookEventId(caseEvent('case_decision_recorded'), 'case.decision_recorded'),
    );
  });
});
