import { describe, expect, it } from 'vitest';
import {
  ACCOUNT,
  ALICE,
  CASE_REF,
  changeGroup,
  complete,
  createCase,
  found,
  GROUP_A,
  GROUP_B,
  NOW,
  OTHER_ACCOUNT,
  OWNER,
  SANCTIONS,
  start,
} from '../../test/support/caseBuilders.js';
import type { CaseCommand } from '../cases/caseDecide.js';
import { decide } from '../cases/caseDecide.js';
import type { CaseEvent } from '../cases/caseEvents.js';
import { foldCase, type MaybeCase } from '../cases/caseState.js';
import type { Checkpoint, EventStore, RecordedEvent } from '../eventStore/eventStore.js';
import {
  deliveriesOf,
  type EndpointRoute,
  type FannedEvent,
  fanOutDeliveryId,
  routes,
  webhookEventsOf,
} from './fanOut.js';
import { webhookEventId } from './webhookEvents.js';

/** The events `commands` append to one case, recorded at revisions 0, 1, ... */
function recordedHistory(...commands: CaseCommand[]): RecordedEvent[] {
  let state: MaybeCase = null;
  const events: CaseEvent[] = [];
  for (const command of commands) {
    const decision = decide(command, state);
    if (!decision.ok) throw new Error(decision.rejection.message);
    events.push(...decision.events);
    state = foldCase(decision.events, state);
  }
  return events.map((event, revision) => ({
    id: `00000000-0000-4000-8000-${String(revision).padStart(12, '0')}`,
    type: event.type,
    data: event.data,
    metadata: {},
    streamName: `case-${CASE_REF}`,
    category: 'case',
    revision: BigInt(revision),
    position: String(revision) as Checkpoint,
    recordedAt: new Date(NOW),
  }));
}

/** A store that holds one stream and counts its reads (the unit under test must not need more). */
function storeOf(history: RecordedEvent[]) {
  const reads: string[] = [];
  const store = {
    async readStream(streamName: string, options: { maxCount?: number } = {}) {
      reads.push(streamName);
      const events = history.slice(0, options.maxCount ?? history.length);
      return { exists: true, revision: BigInt(history.length - 1), events };
    },
  } as unknown as EventStore;
  return { store, reads };
}

const history = recordedHistory(
  createCase(),
  start(SANCTIONS),
  complete(SANCTIONS, [found(SANCTIONS, 'NK-1')]),
  changeGroup(GROUP_B, [OWNER, ALICE]),
);

describe('webhookEventsOf', () => {
  it('folds a batch that starts the stream without reading the store', async () => {
    const { store, reads } = storeOf(history);
    const fanned = await webhookEventsOf(store, history);
    expect(reads).toEqual([]);
    expect(fanned.map(({ event }) => event.type)).toEqual(['case.created', 'check.completed']);
    const completed = fanned[1]!.event;
    expect(completed.id).toBe(webhookEventId(history[2]!.id, 'check.completed'));
    expect(completed.object).toEqual({ id: SANCTIONS, type: 'check' });
    expect(completed.fields).toMatchObject({
      match_count: 1,
      screening_type: 'sanctions',
      lifecycle_status: 'completed',
    });
  });

  it('reads the stream for a batch that starts later, and routes by the group of the moment', async () => {
    const { store, reads } = storeOf(history);
    const fanned = await webhookEventsOf(store, history.slice(2));
    expect(reads).toEqual([`case-${CASE_REF}`]);
    expect(fanned).toHaveLength(1);
    // The case moved to GROUP_B after the check completed: the event still belongs to GROUP_A.
    expect(fanned[0]!.event.groupId).toBe(GROUP_A);
  });

  it('yields nothing for events no webhook is derived from', async () => {
    const { store } = storeOf(history);
    expect(await webhookEventsOf(store, [history[1]!, history[3]!])).toEqual([]);
  });
});

describe('routing', () => {
  const event: FannedEvent = {
    event: {
      id: 'evt_0123',
      type: 'check.completed',
      createdAt: NOW,
      accountId: ACCOUNT,
      groupId: GROUP_A,
      object: { id: SANCTIONS, type: 'check' },
      fields: { case_reference: CASE_REF },
    },
    recordedAt: new Date('2026-06-09T10:00:00Z'),
  };
  const endpoint = (fields: Partial<EndpointRoute> = {}): EndpointRoute => ({
    id: '77777777-7777-4777-8777-777777777777',
    accountId: ACCOUNT,
    eventTypes: null,
    groupIds: null,
    mode: 'summary',
    createdAt: new Date('2026-06-01T00:00:00Z'),
    ...fields,
  });

  it('sends an event to an endpoint of its account, type and group created before it', () => {
    expect(routes(endpoint(), event)).toBe(true);
    expect(routes(endpoint({ eventTypes: ['check.completed'] }), event)).toBe(true);
    expect(routes(endpoint({ groupIds: [GROUP_A] }), event)).toBe(true);
    expect(routes(endpoint({ accountId: OTHER_ACCOUNT }), event)).toBe(false);
    expect(routes(endpoint({ eventTypes: ['case.created'] }), event)).toBe(false);
    expect(routes(endpoint({ groupIds: [GROUP_B] }), event)).toBe(false);
    expect(routes(endpoint({ createdAt: new Date('2026-06-09T10:00:01Z') }), event)).toBe(false);
  });

  it('shapes the body for the endpoint mode, under an id stable for the endpoint and event', () => {
    const [summary] = deliveriesOf([event], [endpoint()]);
    const [expanded] = deliveriesOf([event], [endpoint({ mode: 'expanded' })]);
    expect(JSON.parse(summary!.body).data).toEqual({
      account_id: ACCOUNT,
      group_id: GROUP_A,
      object: event.event.object,
    });
    expect(JSON.parse(expanded!.body).data).toMatchObject({ case_reference: CASE_REF });
    expect(summary!.id).toBe(fanOutDeliveryId(endpoint().id, 'evt_0123'));
    expect(summary!.id).toMatch(/^whd_[a-f0-9]{32}$/);
  });
});

describe('webhookEventId', () => {
  it('is the same for the same domain event and type, whatever the id case, and differs by type', () => {
    const id = '8f14e45f-ceea-467a-9af0-2b4a3c5d6e7f';
    expect(webhookEventId(id, 'case.created')).toBe(webhookEventId(id.toUpperCase(), 'case.created'));
    expect(webhookEventId(id, 'case.created')).not.toBe(webhookEventId(id, 'check.completed'));
    expect(webhookEventId(id, 'case.created')).toMatch(/^evt_[a-f0-9]{32}$/);
  });
});
