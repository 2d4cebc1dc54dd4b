import type { Command } from 'commander';
import { z } from 'zod';
import { formatDuration, parseDuration } from '../screening/snapshots/staleness.js';
import { sleep } from '../shared/sleep.js';
import {
  DEFAULT_ROTATION_GRACE_MS,
  DELIVERY_ID_PATTERN,
  DELIVERY_STATUSES,
  EVENT_ID_PATTERN,
  MAX_ROTATION_GRACE_MS,
  PAYLOAD_MODES,
  parseEndpointGroups,
  parseEventTypeList,
} from '../webhooks/adminPolicy.js';
import {
  DEFAULT_DELIVERY_LIST,
  type DeliveryView,
  deliveryStats,
  getDelivery,
  listDeliveries,
  MAX_DELIVERY_LIST,
  queuePing,
  redeliver,
  redeliverDead,
} from '../webhooks/deliveryAdmin.js';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  disableWebhookEndpoint,
  enableWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpoints,
  rotateWebhookSecret,
} from '../webhooks/webhookEndpoints.js';
import {
  type CommandHost,
  helpExamples,
  parseInput,
  uuidInput,
  viaParser,
  writeJson,
} from './commandSupport.js';
import {
  deliveriesText,
  endpointsTable,
  endpointText,
  eventTypesText,
  groupsText,
  pingOutcome,
  pingText,
} from './webhookView.js';

const json = z.boolean().optional();

/** A duration as parseDuration reads it (`90s`, `15m`, `24h`, `7d`), or `0`, at most `maxMs`. */
function durationInput(maxMs: number) {
  return z.string().transform((value, ctx): number => {
    if (/^0[wdhms]?$/.test(value.trim())) return 0;
    const duration = parseDuration(value);
    if (!duration.ok) {
      ctx.addIssue({ code: 'custom', message: `${duration.message}, or 0` });
      return z.NEVER;
    }
    if (duration.value > maxMs) {
      ctx.addIssue({ code: 'custom', message: `must be at most ${formatDuration(maxMs)}` });
      return z.NEVER;
    }
    return duration.value;
  });
}

const createInput = z.object({
  account: uuidInput,
  url: z.string().trim().min(1, 'must not be empty'),
  events: z.string().transform(viaParser(parseEventTypeList)),
  groups: z.string().optional().transform(viaParser(parseEndpointGroups)),
  mode: z.enum(PAYLOAD_MODES, `must be one of ${PAYLOAD_MODES.join(', ')}`).default('summary'),
  description: z.string().trim().max(2000, 'must be at most 2000 characters').optional(),
  json,
});
const listInput = z.object({ account: uuidInput.optional(), json });
const idInput = z.object({ id: uuidInput, json });
const disableInput = z.object({
  id: uuidInput,
  reason: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(2000, 'must be at most 2000 characters')
    .optional(),
  json,
});
const rotateInput = z.object({
  id: uuidInput,
  grace: durationInput(MAX_ROTATION_GRACE_MS).default(DEFAULT_ROTATION_GRACE_MS),
  json,
});
const deliveryIdInput = z.string().regex(DELIVERY_ID_PATTERN, 'must be a delivery id (whd_<hex>)');
const deliveriesInput = z.object({
  endpoint: uuidInput.optional(),
  status: z.enum(DELIVERY_STATUSES, `must be one of ${DELIVERY_STATUSES.join(', ')}`).optional(),
  event: z.string().regex(EVENT_ID_PATTERN, 'must be an event id (evt_<hex>)').optional(),
  limit: z.coerce
    .number(`must be a whole number from 1 to ${MAX_DELIVERY_LIST}`)
    .int(`must be a whole number from 1 to ${MAX_DELIVERY_LIST}`)
    .min(1, `must be a whole number from 1 to ${MAX_DELIVERY_LIST}`)
    .max(MAX_DELIVERY_LIST, `must be a whole number from 1 to ${MAX_DELIVERY_LIST}`)
    .default(DEFAULT_DELIVERY_LIST),
  json,
});
const redeliverInput = z
  .object({
    id: deliveryIdInput.optional(),
    endpoint: uuidInput.optional(),
    dead: z.boolean().optional(),
    json,
  })
  .superRefine((input, ctx) => {
    const problem = (path: string, message: string) =>
      ctx.addIssue({ code: 'custom', path: [path], message });
    if (input.id !== undefined && (input.endpoint !== undefined || input.dead)) {
      problem('id', 'give a delivery id, or --endpoint <id> --dead, not both');
    } else if (input.id === undefined && input.endpoint === undefined && !input.dead) {
      problem('id', 'give a delivery id, or --endpoint <id> --dead');
    } else if (input.endpoint !== undefined && !input.dead) {
      problem('dead', 'required with --endpoint: only dead deliveries are queued again in bulk');
    } else if (input.dead && input.endpoint === undefined) {
      problem('endpoint', 'required with --dead');
    }
  });
const MAX_PING_WAIT_MS = 10 * 60_000;
const DEFAULT_PING_WAIT_MS = 15_000;
const pingInput = z.object({
  id: uuidInput,
  wait: durationInput(MAX_PING_WAIT_MS).default(DEFAULT_PING_WAIT_MS),
  json,
});

const ID_LABEL = { id: '<id>' };
const DELIVERY_LABEL = { id: '<delivery-id>' };
const EXAMPLE_ACCOUNT = 'f9ce7ce8-95d0-491a-a2e4-0abc65ae68da';
const EXAMPLE_ENDPOINT = '3d1f4c1e-5b7a-4e0c-9a55-7b0f2f7c9e21';
const EXAMPLE_DELIVERY = 'whd_5f0c8e1b9a7d4c3e2f1a0b9c8d7e6f5a';
const EXAMPLE_EVENT = 'evt_9b2e4f6a8c0d1e3f5a7b9c1d3e5f7a9b';
/** How often `ping` looks at its delivery while it waits. */
const PING_POLL_MS = 200;

/**
 * `webhooks create|list|show|disable|enable|delete|rotate-secret|deliveries|redeliver|ping` on the
 * `webhooks` command group (main.ts). A signing secret is printed by create and rotate-secret
 * only, once; nothing else shows or logs it.
 */
export function registerWebhookCommands(webhooks: Command, { io, inContext }: CommandHost): void {
  webhooks.addHelpText(
    'after',
    helpExamples(
      `webhooks create --account ${EXAMPLE_ACCOUNT} --url https://hooks.northwind.example/casescreen --events all`,
      'webhooks list',
      `webhooks deliveries --endpoint ${EXAMPLE_ENDPOINT} --status dead`,
      `webhooks ping ${EXAMPLE_ENDPOINT}`,
    ),
  );

  webhooks
    .command('create')
    .description('Create a webhook endpoint and print its signing secret once')
    .addHelpText(
      'after',
      helpExamples(
        `webhooks create --account ${EXAMPLE_ACCOUNT} --url https://hooks.northwind.example/casescreen --events all`,
        `webhooks create --account ${EXAMPLE_ACCOUNT} --url https://hooks.northwind.example/checks --events check.completed,check.failed --groups 1874f46d-7842-47ea-bad4-ff8022860f0e --mode expanded --description "Onboarding service" --json`,
      ),
    )
    .requiredOption('--account <id>', 'account id')
    .requiredOption(
      '--url <url>',
      'https URL of the receiver; must resolve to public addresses (WEBHOOK_ALLOW_PRIVATE_TARGETS=true lifts this, and allows http, for local development)',
    )
    .requiredOption('--events <list>', '"all" (also types added later) or a comma list of event types')
    .option('--groups <ids>', 'comma list of group ids of the account; default: every group, also later ones')
    .option('--mode <mode>', 'summary (account, group, object) or expanded (plus event fields)', 'summary')
    .option('--description <text>', 'a label for operators')
    .option('--json', 'print {endpointId, signingSecret, accountId, url, eventTypes, groupIds, mode, ...}')
    .action(async (options) => {
      const input = parseInput(createInput, options);
      await inContext(async ({ pool, clock, config }) => {
        const { endpoint, secret } = await createWebhookEndpoint(
          pool,
          {
            accountId: input.account,
            url: input.url,
            eventTypes: input.events,
            groupIds: input.groups,
            mode: input.mode,
            description: input.description,
          },
          { clock, allowPrivateTargets: config.webhookAllowPrivateTargets },
        );
        if (input.json) {
          const { id, ...rest } = endpoint;
          writeJson(io, { endpointId: id, signingSecret: secret, ...rest });
          return 0;
        }
        io.stdout.write(`Created webhook endpoint ${endpoint.id} for account ${endpoint.accountId}\n`);
        io.stdout.write(`  URL:          ${endpoint.url}\n`);
        io.stdout.write(`  Event types:  ${eventTypesText(endpoint)}\n`);
        io.stdout.write(`  Groups:       ${groupsText(endpoint)}\n`);
        io.stdout.write(`  Mode:         ${endpoint.mode}\n`);
        io.stdout.write(
          `Signing secret (shown only now; it cannot be shown again, store it safely): ${secret}\n`,
        );
        return 0;
      });
    });

  webhooks
    .command('list')
    .description('Webhook endpoints, of one account or all; never shows secrets')
    .addHelpText('after', helpExamples('webhooks list', `webhooks list --account ${EXAMPLE_ACCOUNT} --json`))
    .option('--account <id>', 'only the endpoints of this account')
    .option('--json', 'print {endpoints: [...]}')
    .action(async (options) => {
      const input = parseInput(listInput, options);
      await inContext(async ({ pool }) => {
        const endpoints = await listWebhookEndpoints(pool, { accountId: input.account });
        if (input.json) writeJson(io, { ...(input.account ? { accountId: input.account } : {}), endpoints });
        else io.stdout.write(endpointsTable(endpoints));
        return 0;
      });
    });

  webhooks
    .command('show')
    .description(
      'An endpoint: status (and why it was disabled), failing since, event types, groups, mode, URL, secret rotation, deliveries of the last 24 hours by status',
    )
    .addHelpText('after', helpExamples(`webhooks show ${EXAMPLE_ENDPOINT}`))
    .argument('<id>', 'endpoint id')
    .option('--json', 'print the endpoint with {recentDeliveries: {since, counts, lastDeliveredAt}}')
    .action(async (id: string, options) => {
      const input = parseInput(idInput, { ...options, id }, ID_LABEL);
      await inContext(async ({ pool, clock }) => {
        const endpoint = await getWebhookEndpoint(pool, input.id);
        const now = clock();
        const stats = await deliveryStats(pool, endpoint.id, new Date(now.getTime() - 86_400_000));
        if (input.json) writeJson(io, { ...endpoint, recentDeliveries: stats });
        else io.stdout.write(endpointText(endpoint, stats, now));
        return 0;
      });
    });

  webhooks
    .command('disable')
    .description('Stop sending to an endpoint; its deliveries wait, queued, until it is enabled')
    .addHelpText('after', helpExamples(`webhooks disable ${EXAMPLE_ENDPOINT} --reason "receiver migration"`))
    .argument('<id>', 'endpoint id')
    .option('--reason <text>', 'why, shown by webhooks show; default "disabled by an operator"')
    .option('--json', 'print {endpointId, outcome, disabledAt, disabledReason}')
    .action(async (id: string, options) => {
      const input = parseInput(disableInput, { ...options, id }, ID_LABEL);
      await inContext(async ({ pool, clock }) => {
        const { outcome, endpoint } = await disableWebhookEndpoint(pool, input.id, {
          clock,
          reason: input.reason,
        });
        const { disabledAt, disabledReason } = endpoint;
        if (input.json) writeJson(io, { endpointId: endpoint.id, outcome, disabledAt, disabledReason });
        else if (outcome === 'disabled')
          io.stdout.write(`Disabled webhook endpoint ${endpoint.id}: ${disabledReason}\n`);
        else
          io.stdout.write(
            `Webhook endpoint ${endpoint.id} was already disabled at ${disabledAt?.toISOString()}: ${disabledReason}\n`,
          );
        return 0;
      });
    });

  webhooks
    .command('enable')
    .description('Send to an endpoint again: queued deliveries go out, the failure clock starts afresh')
    .addHelpText('after', helpExamples(`webhooks enable ${EXAMPLE_ENDPOINT}`))
    .argument('<id>', 'endpoint id')
    .option('--json', 'print {endpointId, outcome}')
    .action(async (id: string, options) => {
      const input = parseInput(idInput, { ...options, id }, ID_LABEL);
      await inContext(async ({ pool, clock }) => {
        const { outcome, endpoint } = await enableWebhookEndpoint(pool, input.id, { clock });
        if (input.json) writeJson(io, { endpointId: endpoint.id, outcome });
        else if (outcome === 'enabled') io.stdout.write(`Enabled webhook endpoint ${endpoint.id}\n`);
        else io.stdout.write(`Webhook endpoint ${endpoint.id} was already enabled\n`);
        return 0;
      });
    });

  webhooks
    .command('delete')
    .description('Delete an endpoint for good, with its secret and its delivery history')
    .addHelpText('after', helpExamples(`webhooks delete ${EXAMPLE_ENDPOINT}`))
    .argument('<id>', 'endpoint id')
    .option('--json', 'print {endpointId, outcome, deletedDeliveries}')
    .action(async (id: string, options) => {
      const input = parseInput(idInput, { ...options, id }, ID_LABEL);
      await inContext(async ({ pool }) => {
        const { deletedDeliveries } = await deleteWebhookEndpoint(pool, input.id);
        if (input.json) writeJson(io, { endpointId: input.id, outcome: 'deleted', deletedDeliveries });
        else
          io.stdout.write(`Deleted webhook endpoint ${input.id} and its ${deletedDeliveries} deliveries\n`);
        return 0;
      });
    });

  webhooks
    .command('rotate-secret')
    .description(
      'Replace the signing secret and print the new one once; during the grace period deliveries carry both signatures',
    )
    .addHelpText(
      'after',
      helpExamples(
        `webhooks rotate-secret ${EXAMPLE_ENDPOINT}`,
        `webhooks rotate-secret ${EXAMPLE_ENDPOINT} --grace 0 --json`,
      ),
    )
    .argument('<id>', 'endpoint id')
    .option('--grace <duration>', 'how long the old secret keeps signing too: 0 to 7d', '24h')
    .option('--json', 'print {endpointId, signingSecret, previousSecretExpiresAt}')
    .action(async (id: string, options) => {
      const input = parseInput(rotateInput, { ...options, id }, ID_LABEL);
      await inContext(async ({ pool, clock }) => {
        const { endpoint, secret, previousSecretExpiresAt } = await rotateWebhookSecret(pool, input.id, {
          clock,
          graceMs: input.grace,
        });
        if (input.json) {
          writeJson(io, { endpointId: endpoint.id, signingSecret: secret, previousSecretExpiresAt });
          return 0;
        }
        io.stdout.write(
          `New signing secret of webhook endpoint ${endpoint.id} (shown only now; it cannot be shown again, store it safely): ${secret}\n`,
        );
        io.stdout.write(
          previousSecretExpiresAt
            ? `Until ${previousSecretExpiresAt.toISOString()} deliveries carry both signatures (Service-Signature: v1=<new>,v1=<old>); then the new one only\n`
            : 'The previous secret no longer signs: deliveries carry the new signature only\n',
        );
        return 0;
      });
    });

  webhooks
    .command('deliveries')
    .description(
      'Deliveries, newest first, each with its attempts (time, HTTP status, duration, error, response)',
    )
    .addHelpText(
      'after',
      helpExamples(
        `webhooks deliveries --endpoint ${EXAMPLE_ENDPOINT} --status dead`,
        `webhooks deliveries --event ${EXAMPLE_EVENT} --json`,
      ),
    )
    .option('--endpoint <id>', 'only the deliveries of this endpoint')
    .option('--status <status>', `only deliveries in this status: ${DELIVERY_STATUSES.join(', ')}`)
    .option('--event <id>', 'only the deliveries of this event (evt_...)')
    .option('--limit <n>', `at most this many, 1 to ${MAX_DELIVERY_LIST}`, String(DEFAULT_DELIVERY_LIST))
    .option('--json', 'print {deliveries: [{id, eventId, status, ..., attempts: [...]}]}')
    .action(async (options) => {
      const input = parseInput(deliveriesInput, options);
      await inContext(async ({ pool }) => {
        const deliveries = await listDeliveries(pool, {
          endpointId: input.endpoint,
          status: input.status,
          eventId: input.event,
          limit: input.limit,
        });
        if (input.json) writeJson(io, { deliveries });
        else io.stdout.write(deliveriesText(deliveries));
        return 0;
      });
    });

  webhooks
    .command('redeliver')
    .description(
      'Queue a delivery again, as a new delivery of the same event and body; or, with --endpoint and --dead, every event whose deliveries to the endpoint are all dead',
    )
    .addHelpText(
      'after',
      helpExamples(
        `webhooks redeliver ${EXAMPLE_DELIVERY}`,
        `webhooks redeliver --endpoint ${EXAMPLE_ENDPOINT} --dead`,
      ),
    )
    .argument('[delivery-id]', 'delivery id (whd_...)')
    .option('--endpoint <id>', 'endpoint id, with --dead')
    .option('--dead', 'queue again every event whose deliveries to the endpoint are all dead')
    .option('--json', 'print {deliveryId, redeliveryOf, eventId, endpointId} or {endpointId, queued}')
    .action(async (deliveryId: string | undefined, options) => {
      const input = parseInput(redeliverInput, { ...options, id: deliveryId }, DELIVERY_LABEL);
      await inContext(async ({ pool, clock }) => {
        if (input.id !== undefined) {
          const queued = await redeliver(pool, input.id, clock);
          if (input.json) writeJson(io, { ...queued });
          else {
            io.stdout.write(
              `Queued delivery ${queued.deliveryId}: event ${queued.eventId} again to endpoint ${queued.endpointId} (redelivery of ${queued.redeliveryOf})\n`,
            );
            if (queued.endpointStatus === 'disabled') io.stdout.write(disabledNote(queued.endpointId));
          }
          return 0;
        }
        const endpointId = input.endpoint!;
        const queued = await redeliverDead(pool, endpointId, clock);
        const endpoint = await getWebhookEndpoint(pool, endpointId);
        if (input.json) writeJson(io, { endpointId: endpoint.id, queued, endpointStatus: endpoint.status });
        else {
          io.stdout.write(
            queued === 0
              ? `No dead deliveries to queue again for endpoint ${endpoint.id}\n`
              : `Queued ${queued} dead ${queued === 1 ? 'delivery' : 'deliveries'} again to endpoint ${endpoint.id}\n`,
          );
          if (queued > 0 && endpoint.status === 'disabled') io.stdout.write(disabledNote(endpoint.id));
        }
        return 0;
      });
    });

  webhooks
    .command('ping')
    .description('Send a signed test event (type "ping") to an endpoint and wait for the outcome')
    .addHelpText(
      'after',
      helpExamples(`webhooks ping ${EXAMPLE_ENDPOINT}`, `webhooks ping ${EXAMPLE_ENDPOINT} --wait 0 --json`),
    )
    .argument('<id>', 'endpoint id')
    .option('--wait <duration>', 'how long to wait for the first attempt, up to 10m; 0 only queues it', '15s')
    .option('--json', 'print {deliveryId, eventId, endpointId, outcome, status, attempt, nextAttemptAt}')
    .action(async (id: string, options) => {
      const input = parseInput(pingInput, { ...options, id }, ID_LABEL);
      await inContext(async ({ pool, clock }) => {
        const queued = await queuePing(pool, input.id, clock);
        if (input.wait === 0) {
          if (input.json) writeJson(io, { ...queued, outcome: 'queued' });
          else io.stdout.write(`Queued ping: delivery ${queued.deliveryId}, event ${queued.eventId}\n`);
          return 0;
        }
        // The wait is the operator's, in real time: the worker sends on the real clock too.
        const deadline = Date.now() + input.wait;
        let delivery: DeliveryView = await getDelivery(pool, queued.deliveryId);
        let { outcome, settled } = pingOutcome(delivery, new Date());
        while (!settled && Date.now() < deadline && !io.signal?.aborted) {
          await sleep(Math.min(PING_POLL_MS, deadline - Date.now()), io.signal);
          delivery = await getDelivery(pool, queued.deliveryId);
          ({ outcome, settled } = pingOutcome(delivery, new Date()));
        }
        if (input.json) {
          writeJson(io, {
            ...queued,
            outcome,
            status: delivery.status,
            attempt: delivery.attempts.at(-1) ?? null,
            nextAttemptAt: delivery.nextAttemptAt,
          });
        } else io.stdout.write(pingText(delivery, outcome, formatDuration(input.wait)));
        return outcome === 'delivered' ? 0 : 1;
      });
    });
}

function disabledNote(endpointId: string): string {
  return `Endpoint ${endpointId} is disabled: nothing is sent until it is enabled (webhooks enable ${endpointId})\n`;
}
