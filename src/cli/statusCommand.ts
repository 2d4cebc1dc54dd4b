import type { Command } from 'commander';
import { readSystemStatus, type SystemStatus } from '../observability/systemStatus.js';
import { formatLag } from '../subscriptions/feedLag.js';
import { type CommandHost, helpExamples } from './commandSupport.js';
import { formatTable } from './table.js';

/**
 * `casescreen status [--json]`: the whole system with a verdict per part (docs/operations.md,
 * "System status"). Exits 0 when all is well and 1 otherwise, so it can run as a health check.
 */
export function registerStatusCommand(program: Command, host: CommandHost): void {
  program
    .command('status')
    .description(
      'The whole system: subscriptions and their runners, sources, the check queue, webhook deliveries; exit 1 when anything needs attention',
    )
    .addHelpText('after', helpExamples('status', 'status --json'))
    .option('--json', 'print the status as JSON')
    .action((options: { json?: boolean }) =>
      host.inContext(async ({ pool, store, config, clock }) => {
        const status = await readSystemStatus(pool, store, {
          staleAfterMs: config.sourceStaleAfterMs,
          now: clock(),
        });
        host.io.stdout.write(options.json ? `${JSON.stringify(status, null, 2)}\n` : formatStatus(status));
        return status.ok ? 0 : 1;
      }),
    );
}

const mark = (ok: boolean) => (ok ? 'ok' : 'ATTENTION');

export function formatStatus(status: SystemStatus): string {
  const parts = [
    `System: ${status.ok ? 'all well' : 'needs attention'} (${status.checkedAt.toISOString()})`,
    '',
    'Subscriptions',
    formatTable(
      ['SUBSCRIPTION', 'RUNNER', 'STATUS', 'LAG', 'LAST PROGRESS', 'VERDICT'],
      status.subscriptions.map((s) => [
        s.subscriptionId,
        s.runnerAlive ? 'alive' : 'none',
        s.status,
        formatLag(s.lag),
        s.lastProgressAt?.toISOString() ?? '-',
        `${mark(s.ok)}: ${s.verdict}`,
      ]),
    ).trimEnd(),
    '',
    `Sources: ${mark(status.sources.ok)}: ${status.sources.verdict}`,
    `Checks: ${mark(status.checks.ok)}: ${status.checks.verdict}`,
    `Webhooks: ${mark(status.webhooks.ok)}: ${status.webhooks.verdict}`,
  ];
  return `${parts.join('\n')}\n`;
}
