import { createHash } from 'node:crypto';
import type pg from 'pg';
import { prepared } from '../db/sql.js';
import type { StreamType } from '../eventSourcing/commandHandler.js';
import type { EventStore, RecordedEvent } from '../eventStore/eventStore.js';
import type { SubscriptionHandler } from '../subscriptions/handler.js';
import { notifyDeliveryWorkers } from './deliveries.js';
import {
  type Derived,
  mappedStreams,
  mappingsOf,
  type PayloadMode,
  type WebhookEvent,
  type WebhookEventType,
  webhookEventId,
  webhookPayload,
} from './webhookEvents.js';

/**
 * The webhook fan-out (docs/webhooks.md): a reactor on the global feed that turns each mapped
 * domain event into one delivery row per enabled endpoint that wants it. The rows are written
 * through the runner's transaction, the one that moves the subscription's checkpoint (the outbox),
 * so an event is fanned out exactly once however often its batch is handled; a batch seen again
 * finds its rows there (deterministic ids, ON CONFLICT DO NOTHING). It is a subscription of its
 * own, so rebuilding a projection never sends a webhook again.
 */
export const WEBHOOK_FAN_OUT_SUBSCRIPTION_ID = 'reactor:webhooks';

type AnyStream = StreamType<unknown, { type: string; data: unknown }>;

/** A webhook event with what routing needs: when the domain event was recorded. */
export interface FannedEvent {
  event: WebhookEvent;
  recordedAt: Date;
}

/**
 * The webhook events of a batch, in feed order. Each stream with a mapped event is folded with its
 * own stream type's `evolve` up to that event, so `derive` sees the state of that moment (the group
 * a case was in then, not now). A stream whose batch events start at revision 0 is folded from the
 * batch alone; any other is read from the store up to its last mapped event.
 */
export async function webhookEventsOf(
  store: EventStore,
  events: readonly RecordedEvent[],
): Promise<FannedEvent[]> {
  const streams = mappedStreams();
  const mapped = events.filter((event) => mappingsOf(event.type).length > 0);
  if (mapped.length === 0) return [];

  const lastMapped = new Map<string, bigint>();
  for (const event of mapped) lastMapped.set(event.streamName, event.revision);

  const derived = new Map<string, FannedEvent[]>();
  await Promise.all(
    [...lastMapped].map(async ([streamName, upTo]) => {
      const inBatch = events.filter((event) => event.streamName === streamName && event.revision <= upTo);
      const history =
        inBatch[0]?.revision === 0n
          ? inBatch
          : (await store.readStream(streamName, { maxCount: Number(upTo) + 1 })).events;
      const stream = streams.get(history[0]!.category) as AnyStream;
      let state = stream.initialState();
      for (const recorded of history) {
        const domainEvent = stream.toEvent(recorded);
        state = stream.evolve(state, domainEvent);
        for (const mapping of mappingsOf(recorded.type)) {
          const type = mapping.webhookType as WebhookEventType;
          const fanned = {
            event: {
              id: webhookEventId(recorded.id, type),
              type,
              createdAt: occurredAt(recorded),
              ...(mapping.derive as (state: unknown, event: unknown) => Derived)(state, domainEvent),
            },
            recordedAt: recorded.recordedAt,
          };
          derived.set(recorded.id, [...(derived.get(recorded.id) ?? []), fanned]);
        }
      }
    }),
  );
  return mapped.flatMap((event) => derived.get(event.id) ?? []);
}

/** When the domain event happened: its `occurredAt`, else when the store recorded it. */
function occurredAt(recorded: RecordedEvent): string {
  const data = recorded.data as { occurredAt?: unknown };
  return typeof data.occurredAt === 'string' ? data.occurredAt : recorded.recordedAt.toISOString();
}

export interface EndpointRoute {
  id: string;
  accountId: string;
  /** Null: every type. */
  eventTypes: string[] | null;
  /** Null: every group. */
  groupIds: string[] | null;
  mode: PayloadMode;
  createdAt: Date;
}

/**
 * Whether an endpoint receives an event: its account, a selected type, a selected group (when it
 * names groups), and an event recorded after the endpoint was created, so a new endpoint, or a
 * fan-out started again from the beginning, never replays history to it.
 */
export function routes(endpoint: EndpointRoute, fanned: FannedEvent): boolean {
  const { event } = fanned;
  return (
    endpoint.accountId === event.accountId &&
    (endpoint.eventTypes === null || endpoint.eventTypes.includes(event.type)) &&
    (endpoint.groupIds === null || (event.groupId !== null && endpoint.groupIds.includes(event.groupId))) &&
    endpoint.createdAt.getTime() <= fanned.recordedAt.getTime()
  );
}

/** The first delivery of an event to an endpoint: `whd_` and 32 hex digits, the same on every run. */
export function fanOutDeliveryId(endpointId: string, eventId: string): string {
  return `whd_${createHash('sha256').update(`${endpointId}:${eventId}`).digest('hex').slice(0, 32)}`;
}

export interface NewDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  body: string;
}

export function deliveriesOf(
  fanned: readonly FannedEvent[],
  endpoints: readonly EndpointRoute[],
): NewDelivery[] {
  return fanned.flatMap((item) =>
    endpoints
      .filter((endpoint) => routes(endpoint, item))
      .map((endpoint) => ({
        id: fanOutDeliveryId(endpoint.id, item.event.id),
        endpointId: endpoint.id,
        eventId: item.event.id,
        eventType: item.event.type,
        body: JSON.stringify(webhookPayload(item.event, endpoint.mode)),
      })),
  );
}

async function enabledEndpoints(tx: pg.PoolClient, accountIds: string[]): Promise<EndpointRoute[]> {
  const { rows } = await tx.query<{
    id: string;
    account_id: string;
    event_types: string[] | null;
    group_ids: string[] | null;
    mode: PayloadMode;
    created_at: Date;
  }>(
    prepared(
      `SELECT id, account_id, event_types, group_ids, mode, created_at
       FROM webhook_endpoints
      WHERE status = 'enabled' AND account_id = ANY($1::uuid[])`,
      [accountIds],
    ),
  );
  return rows.map((row) => ({
    id: row.id,
    accountId: row.account_id,
    eventTypes: row.event_types,
    groupIds: row.group_ids,
    mode: row.mode,
    createdAt: row.created_at,
  }));
}

/** Inserts the deliveries (those already there are left alone) and wakes delivery workers. */
async function insertDeliveries(
  tx: pg.PoolClient,
  deliveries: readonly NewDelivery[],
  sender: string | undefined,
): Promise<void> {
  if (deliveries.length === 0) return;
  await tx.query(
    prepared(
      `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, body, next_attempt_at, created_at, updated_at)
     SELECT d.id, d.endpoint_id, d.event_id, d.event_type, d.body, now(), now(), now()
       FROM unnest($1::text[], $2::uuid[], $3::text[], $4::text[], $5::text[])
            AS d (id, endpoint_id, event_id, event_type, body)
     ON CONFLICT DO NOTHING`,
      [
        deliveries.map((d) => d.id),
        deliveries.map((d) => d.endpointId),
        deliveries.map((d) => d.eventId),
        deliveries.map((d) => d.eventType),
        deliveries.map((d) => d.body),
      ],
    ),
  );
  // The runner's own delivery workers are woken when it commits (webhookRunner.ts).
  await notifyDeliveryWorkers(tx, sender);
}

/** `sender`: the notifications of its batches, which the caller's own delivery workers skip (newNotificationSender). */
export function webhookFanOutHandler(store: EventStore, sender?: string): SubscriptionHandler {
  return {
    subscriptionId: WEBHOOK_FAN_OUT_SUBSCRIPTION_ID,
    categories: [...mappedStreams().keys()],
    async handle(events, tx) {
      const fanned = await webhookEventsOf(store, events);
      if (fanned.length === 0) return;
      const accounts = [...new Set(fanned.map(({ event }) => event.accountId))];
      const endpoints = await enabledEndpoints(tx, accounts);
      await insertDeliveries(tx, deliveriesOf(fanned, endpoints), sender);
    },
  };
}
