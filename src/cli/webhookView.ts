import type { DeliveryAttemptView, DeliveryStats, DeliveryView } from '../webhooks/deliveryAdmin.js';
import type { WebhookEndpointView } from '../webhooks/webhookEndpoints.js';
import { formatTable } from './table.js';

/**
 * What `casescreen webhooks ...` print, as pure functions of the admin functions' results. None of
 * them ever sees a signing secret: create and rotate-secret print theirs themselves, once.
 */

const iso = (date: Date | null) => date?.toISOString() ?? '-';

/** Control characters and line breaks of a receiver's answer would break the terminal's lines. */
function oneLine(text: string, max: number): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: replacing them is the point
  const flat = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function eventTypesText(endpoint: Pick<WebhookEndpointView, 'eventTypes'>): string {
  return endpoint.eventTypes === 'all' ? 'all' : endpoint.eventTypes.join(', ');
}

export function groupsText(endpoint: Pick<WebhookEndpointView, 'groupIds'>): string {
  return endpoint.groupIds === null ? 'all' : endpoint.groupIds.join(', ');
}

export function endpointsTable(endpoints: WebhookEndpointView[]): string {
  return formatTable(
    ['ID', 'ACCOUNT', 'URL', 'EVENTS', 'GROUPS', 'MODE', 'STATUS', 'CREATED'],
    endpoints.map((endpoint) => [
      endpoint.id,
      endpoint.accountId,
      endpoint.url,
      endpoint.eventTypes === 'all' ? 'all' : endpoint.eventTypes.join(','),
      endpoint.groupIds === null ? 'all' : String(endpoint.groupIds.length),
      endpoint.mode,
      endpoint.status,
      iso(endpoint.createdAt),
    ]),
  );
}

function statusText(endpoint: WebhookEndpointView): string {
  if (endpoint.status === 'enabled') return 'enabled';
  return `disabled at ${iso(endpoint.disabledAt)}: ${oneLine(endpoint.disabledReason ?? '', 500)}`;
}

function rotationText(endpoint: WebhookEndpointView, now: Date): string {
  const until = endpoint.secretRotatingUntil;
  if (until === null) return 'none';
  if (until.getTime() <= now.getTime()) return `ended at ${iso(until)}`;
  return `the previous secret also signs until ${iso(until)}`;
}

/** `webhooks show`: the endpoint, one fact a line, and how its recent deliveries fared. */
export function endpointText(endpoint: WebhookEndpointView, stats: DeliveryStats, now: Date): string {
  const lines = [`Webhook endpoint ${endpoint.id}`];
  const row = (label: string, value: string) => lines.push(`  ${`${label}:`.padEnd(24)}${value}`);
  row('Account', endpoint.accountId);
  row('URL', endpoint.url);
  row('Description', endpoint.description === null ? '-' : oneLine(endpoint.description, 500));
  row('Status', statusText(endpoint));
  row('Failing since', iso(endpoint.failingSince));
  row('Event types', eventTypesText(endpoint));
  row('Groups', groupsText(endpoint));
  row('Mode', endpoint.mode);
  row('Secret rotation', rotationText(endpoint, now));
  row('Created', iso(endpoint.createdAt));
  row('Updated', iso(endpoint.updatedAt));
  const { counts } = stats;
  row(
    'Recent deliveries',
    `${counts.pending} pending, ${counts.failed} failed, ${counts.delivered} delivered, ${counts.dead} dead (created since ${iso(stats.since)})`,
  );
  row('Last delivered', iso(stats.lastDeliveredAt));
  return `${lines.join('\n')}\n`;
}

export function attemptText(attempt: DeliveryAttemptView): string {
  const status = attempt.httpStatus === null ? 'no answer' : `HTTP ${attempt.httpStatus}`;
  const parts = [`#${attempt.attempt}`, iso(attempt.startedAt), status, `${attempt.durationMs} ms`];
  // An error that only repeats the status says nothing more.
  if (attempt.error && attempt.error !== status) parts.push(oneLine(attempt.error, 200));
  if (attempt.responseSnippet) parts.push(`response: ${oneLine(attempt.responseSnippet, 100)}`);
  return parts.join('  ');
}

/** `webhooks deliveries`: a table of deliveries, each followed by its attempts, indented. */
export function deliveriesText(deliveries: DeliveryView[]): string {
  const table = formatTable(
    ['DELIVERY', 'EVENT', 'TYPE', 'ENDPOINT', 'STATUS', 'ATTEMPTS', 'NEXT ATTEMPT', 'CREATED'],
    deliveries.map((delivery) => [
      delivery.id,
      delivery.eventId,
      delivery.eventType,
      delivery.endpointId,
      delivery.status,
      String(delivery.attemptCount),
      iso(delivery.nextAttemptAt),
      iso(delivery.createdAt),
    ]),
  ).split('\n');
  const lines = [table[0]!];
  deliveries.forEach((delivery, index) => {
    lines.push(table[index + 1]!);
    if (delivery.redeliveryOf) lines.push(`    redelivery of ${delivery.redeliveryOf}`);
    for (const attempt of delivery.attempts) lines.push(`    ${attemptText(attempt)}`);
  });
  return `${lines.join('\n')}\n`;
}

/** How far a ping got by the end of the wait. */
export type PingOutcome = 'delivered' | 'failed' | 'dead' | 'in_flight' | 'not_taken';

/**
 * How far the ping's delivery has got, by its status (the worker's word), and whether that is its
 * fate: delivered or dead, or failed with the failed attempt recorded (the worker may write the
 * status and the attempt in separate statements, so a failure waits for its attempt's details).
 */
export function pingOutcome(delivery: DeliveryView, now: Date): { outcome: PingOutcome; settled: boolean } {
  switch (delivery.status) {
    case 'delivered':
    case 'dead':
      return { outcome: delivery.status, settled: true };
    case 'failed':
      return { outcome: 'failed', settled: delivery.attempts.length > 0 };
    case 'pending': {
      const leased = delivery.leaseUntil !== null && delivery.leaseUntil.getTime() > now.getTime();
      return { outcome: leased ? 'in_flight' : 'not_taken', settled: false };
    }
  }
}

/** The line `webhooks ping` ends with. */
export function pingText(delivery: DeliveryView, outcome: PingOutcome, waited: string): string {
  const last = delivery.attempts.at(-1);
  const ids = `delivery ${delivery.id}, event ${delivery.eventId}`;
  switch (outcome) {
    case 'delivered':
      return last
        ? `Ping delivered: HTTP ${last.httpStatus} in ${last.durationMs} ms (${ids})\n`
        : `Ping delivered: HTTP ${delivery.lastStatus ?? '-'} (${ids})\n`;
    case 'failed':
    case 'dead': {
      const attempt = last
        ? attemptText(last)
        : `HTTP ${delivery.lastStatus ?? '-'} ${delivery.lastError ?? ''}`;
      const next =
        outcome === 'dead'
          ? `dead after ${delivery.attemptCount} attempt(s)`
          : `the worker retries it at ${iso(delivery.nextAttemptAt)}`;
      return `Ping failed: ${attempt}; ${next} (${ids})\n`;
    }
    case 'in_flight':
      return (
        `Ping queued (${ids}); a worker is sending it but had no answer within ${waited}: ` +
        `see webhooks deliveries --event ${delivery.eventId}\n`
      );
    case 'not_taken':
      return (
        `Ping queued (${ids}); no delivery worker took it within ${waited}: ` +
        'is `npm start` or `node dist/src/main.js work` running, with WEBHOOK_WORKERS above 0? ' +
        'It stays queued and goes out when a worker runs.\n'
      );
  }
}
