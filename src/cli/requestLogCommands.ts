import type { Command } from 'commander';
import { z } from 'zod';
import { defaultPurgeTasks, runPurgeRound } from '../maintenance/purgeScheduler.js';
import {
  listRequests,
  RETENTION_DAYS,
  type RequestLogRecord,
  retentionCutoff,
} from '../requestLog/requestLog.js';
import {
  type CommandHost,
  helpExamples,
  isoDateTimeInput,
  parseInput,
  uuidInput,
  writeJson,
} from './commandSupport.js';
import { formatTable } from './table.js';

const json = z.boolean().optional();
export const REQUESTS_LIST_DEFAULT_LIMIT = 100;
export const REQUESTS_LIST_MAX_LIMIT = 10_000;

const requestListInput = z
  .object({
    key: uuidInput.optional(),
    account: uuidInput.optional(),
    since: isoDateTimeInput.optional(),
    until: isoDateTimeInput.optional(),
    limit: z.coerce
      .number('must be a number')
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(REQUESTS_LIST_MAX_LIMIT, `must be at most ${REQUESTS_LIST_MAX_LIMIT}`)
      .default(REQUESTS_LIST_DEFAULT_LIMIT),
    json,
  })
  .superRefine((input, ctx) => {
    if (input.since && input.until && input.since >= input.until) {
      ctx.addIssue({ code: 'custom', path: ['until'], message: 'must be after --since' });
    }
  });
const requestPurgeInput = z.object({ json });

/** `requests list|purge`: the per-key request metadata log (docs/rate-limits-and-request-log.md). */
export function registerRequestLogCommands(program: Command, { io, inContext }: CommandHost): void {
  const requests = program
    .command('requests')
    .description(`Per-key API request metadata, kept ${RETENTION_DAYS} days`)
    .addHelpText(
      'after',
      helpExamples('requests list --key 711eeba3-e805-41eb-a99e-546dc26e1015 --limit 20', 'requests purge'),
    );
  requests
    .command('list')
    .description('Logged requests, newest first: method, path, status, time, request id, idempotency key')
    .addHelpText(
      'after',
      helpExamples(
        'requests list --account f9ce7ce8-95d0-491a-a2e4-0abc65ae68da --since 2026-11-25T00:00:00Z --until 2026-11-26T00:00:00Z --limit 50',
      ),
    )
    .option('--key <id>', 'only this API key id')
    .option('--account <id>', 'only keys of this account')
    .option('--since <iso>', 'from this ISO 8601 date-time with a time zone (inclusive)')
    .option('--until <iso>', 'before this ISO 8601 date-time with a time zone (exclusive)')
    .option('--limit <n>', `at most n rows (default ${REQUESTS_LIST_DEFAULT_LIMIT})`)
    .option('--json', 'print {requests: [...]}')
    .action(async (options) => {
      const input = parseInput(requestListInput, options);
      await inContext(async ({ pool }) => {
        const rows = await listRequests(pool, {
          apiKeyId: input.key,
          accountId: input.account,
          from: input.since,
          to: input.until,
          limit: input.limit,
        });
        if (input.json) writeJson(io, { requests: rows });
        else
          io.stdout.write(
            formatTable(
              ['OCCURRED AT', 'KEY', 'METHOD', 'PATH', 'STATUS', 'REQUEST ID', 'IDEMPOTENCY KEY'],
              rows.map(requestRow),
            ),
          );
        return 0;
      });
    });

  requests
    .command('purge')
    .description(
      `Run the retention purge now: request metadata older than ${RETENTION_DAYS} days, stale rate-limit windows, finished webhook deliveries older than WEBHOOK_RETENTION`,
    )
    .option('--json', 'print {cutoff, deleted: {requestLog, rateLimitWindows, ...}}')
    .addHelpText('after', helpExamples('requests purge --json'))
    .action(async (options) => {
      const input = parseInput(requestPurgeInput, options);
      await inContext(async ({ pool, config }) => {
        // Waits for a round a service process may be running, so the counts printed are this run's.
        const tasks = defaultPurgeTasks({ webhookRetentionMs: config.webhookRetentionMs });
        const result = await runPurgeRound(pool, { wait: true, tasks });
        if (!result.ran) throw new Error('purge did not run');
        const cutoff = retentionCutoff(result.at);
        if (input.json) writeJson(io, { cutoff, deleted: result.deleted });
        else {
          io.stdout.write(`Purged request metadata older than ${cutoff.toISOString()}\n`);
          for (const [name, count] of Object.entries(result.deleted))
            io.stdout.write(`Deleted ${count} ${name} rows\n`);
        }
        return 0;
      });
    });
}

function requestRow(row: RequestLogRecord): string[] {
  return [
    row.occurredAt.toISOString(),
    row.apiKeyId,
    row.method,
    row.path,
    String(row.status),
    row.requestId,
    row.idempotencyKeyPresent ? 'yes' : 'no',
  ];
}
