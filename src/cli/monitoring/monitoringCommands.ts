import { randomUUID } from 'node:crypto';
import type { Command } from 'commander';
import type { Rejection } from '../../eventSourcing/decision.js';
import { MONITORING_RESULTS, RESOLUTION_STATUSES } from '../../monitoring/monitoringEvents.js';
import {
  configHistory,
  getConfigOverview,
  listConfigAlerts,
  listConfigRuns,
  listConfigsForOperator,
  listSweeps,
  queueOperatorRun,
} from '../../monitoring/monitoringOperations.js';
import { notFoundText } from '../../shared/notFound.js';
import { type CommandHost, helpExamples, parseInput, writeJson } from '../commandSupport.js';
import type { CliIo } from '../io.js';
import {
  alertsInput,
  historyInput,
  LABELS,
  listInput,
  rerunInput,
  runsInput,
  showInput,
  sweepsInput,
} from './monitoringInputs.js';
import {
  alertsTable,
  configsTable,
  historyTable,
  lagNote,
  overviewText,
  runsTable,
  sweepsTable,
} from './monitoringView.js';

const EXAMPLE_ACCOUNT = 'f9ce7ce8-95d0-491a-a2e4-0abc65ae68da';
const EXAMPLE_CONFIG = 'mon_3f9a1c0e5b7d2a4c6e8f0b1d';
const EXAMPLE_SUBJECT = 'sub_8c1d2e3f4a5b6c7d8e9f0a1b';

/**
 * `casescreen monitoring list|show|runs|alerts|rerun|sweeps|history`: the operator's view of ongoing
 * monitoring and its one lever, an operator run (docs/monitoring.md, "Operations"). The functions
 * are src/monitoring/monitoringOperations.ts; this module parses and prints.
 */
export function registerMonitoringCommands(program: Command, { io, inContext }: CommandHost): void {
  const monitoring = program
    .command('monitoring')
    .description('Ongoing monitoring: configurations, runs, alerts, sweeps of list versions, operator runs')
    .addHelpText(
      'after',
      helpExamples(
        'monitoring list --result skipped',
        `monitoring show ${EXAMPLE_CONFIG}`,
        `monitoring rerun ${EXAMPLE_CONFIG} --reason "UN list reloaded after a parser fix"`,
        'monitoring sweeps',
      ),
    );

  monitoring
    .command('list')
    .description(
      'Monitoring configurations, newest first: subject, group, status, latest result, last checked, open follow-up cases',
    )
    .addHelpText(
      'after',
      helpExamples(
        'monitoring list',
        `monitoring list --account ${EXAMPLE_ACCOUNT} --status active --result skipped --json`,
        `monitoring list --subject ${EXAMPLE_SUBJECT}`,
      ),
    )
    .option('--account <id>', 'only the configurations of this account')
    .option('--status <status>', 'active or paused')
    .option('--result <latest_result>', `the latest result: ${MONITORING_RESULTS.join(', ')}`)
    .option('--subject <ref>', 'only the configurations of this subject (sub_...)')
    .option('--limit <n>', 'at most this many, 1 to 1000', '50')
    .option('--json', 'print {monitoringConfigs: [...]}')
    .action(async (options) => {
      const input = parseInput(listInput, options);
      await inContext(async ({ pool, store }) => {
        const configs = await listConfigsForOperator(
          { pool, store },
          {
            accountId: input.account,
            status: input.status,
            latestResult: input.result,
            subjectReference: input.subject,
            limit: input.limit,
          },
        );
        if (input.json) writeJson(io, { monitoringConfigs: configs });
        else io.stdout.write(configsTable(configs));
        return 0;
      });
    });

  monitoring
    .command('show')
    .description(
      'A configuration as its stream has it now, its latest run (for a skipped run: why, and which datasets were stale) and its queued and running jobs',
    )
    .addHelpText(
      'after',
      helpExamples(`monitoring show ${EXAMPLE_CONFIG}`, `monitoring show ${EXAMPLE_CONFIG} --json`),
    )
    .argument('<mon_id>', 'monitoring configuration id (mon_...)')
    .option('--json', 'print {config, latestRun, pendingJobs, jobsNotRun}')
    .action(async (id: string, options) => {
      const input = parseInput(showInput, { ...options, monitoringConfigId: id }, LABELS);
      await inContext(async ({ pool, store }) => {
        const overview = await getConfigOverview({ pool, store }, input.monitoringConfigId);
        if (!overview) return notFound(io, input.monitoringConfigId);
        if (input.json) writeJson(io, { ...overview });
        else io.stdout.write(overviewText(overview));
        return 0;
      });
    });

  monitoring
    .command('runs')
    .description('The runs of a configuration, newest first, from the monitoring_activity read model')
    .addHelpText('after', helpExamples(`monitoring runs ${EXAMPLE_CONFIG} --limit 10`))
    .argument('<mon_id>', 'monitoring configuration id (mon_...)')
    .option('--limit <n>', 'at most this many, 1 to 1000', '25')
    .option('--json', 'print {monitoringConfigId, runs: [...], activityLag}')
    .action(async (id: string, options) => {
      const input = parseInput(runsInput, { ...options, monitoringConfigId: id }, LABELS);
      await inContext(async ({ pool, store }) => {
        const outcome = await listConfigRuns({ pool, store }, input.monitoringConfigId, input.limit);
        if (!outcome.ok) return refused(io, outcome.rejection);
        const { runs, lag } = outcome.value;
        if (input.json) {
          writeJson(io, {
            monitoringConfigId: input.monitoringConfigId,
            runs: runs.map((run) => run.record),
            activityLag: lag,
          });
        } else io.stdout.write(runsTable(runs) + lagNote(lag));
        return 0;
      });
    });

  monitoring
    .command('alerts')
    .description('The alerts of a configuration, newest first, with their resolution and follow-up case')
    .addHelpText(
      'after',
      helpExamples(
        `monitoring alerts ${EXAMPLE_CONFIG}`,
        `monitoring alerts ${EXAMPLE_CONFIG} --status pending --json`,
      ),
    )
    .argument('<mon_id>', 'monitoring configuration id (mon_...)')
    .option(
      '--status <resolution_status>',
      `only alerts in this resolution: ${RESOLUTION_STATUSES.join(', ')}`,
    )
    .option('--limit <n>', 'at most this many, 1 to 1000', '25')
    .option('--json', 'print {monitoringConfigId, alerts: [...], activityLag}')
    .action(async (id: string, options) => {
      const input = parseInput(alertsInput, { ...options, monitoringConfigId: id }, LABELS);
      await inContext(async ({ pool, store }) => {
        const outcome = await listConfigAlerts({ pool, store }, input.monitoringConfigId, {
          resolutionStatus: input.status,
          limit: input.limit,
        });
        if (!outcome.ok) return refused(io, outcome.rejection);
        const { alerts, lag } = outcome.value;
        if (input.json) {
          writeJson(io, {
            monitoringConfigId: input.monitoringConfigId,
            alerts: alerts.map((alert) => alert.record),
            activityLag: lag,
          });
        } else io.stdout.write(alertsTable(alerts) + lagNote(lag));
        return 0;
      });
    });

  monitoring
    .command('rerun')
    .description(
      'Queue a run of the configuration now (trigger "operator"); a work process makes it. A paused configuration needs --even-if-paused',
    )
    .addHelpText(
      'after',
      helpExamples(
        `monitoring rerun ${EXAMPLE_CONFIG} --reason "UN list reloaded after a parser fix"`,
        `monitoring rerun ${EXAMPLE_CONFIG} --even-if-paused --json`,
      ),
    )
    .argument('<mon_id>', 'monitoring configuration id (mon_...)')
    .option('--reason <text>', 'why: recorded with the run, in the configuration history')
    .option('--even-if-paused', 'run a paused configuration once (it stays paused)')
    .option('--json', 'print {runId, monitoringConfigId, trigger, status, queued}')
    .action(async (id: string, options) => {
      const input = parseInput(rerunInput, { ...options, monitoringConfigId: id }, LABELS);
      await inContext(async ({ pool, store, clock }) => {
        const outcome = await queueOperatorRun(
          { pool, store, clock },
          {
            monitoringConfigId: input.monitoringConfigId,
            reason: input.reason ?? null,
            evenIfPaused: input.evenIfPaused ?? false,
          },
          // One run per invocation: a fresh trigger key, so two reruns are two runs.
          randomUUID(),
        );
        if (!outcome.ok) {
          if (outcome.rejection.details?.status === 'paused') {
            io.stderr.write(
              `error: monitoring configuration ${input.monitoringConfigId} is paused; nothing was queued. ` +
                'Pass --even-if-paused to run it once (it stays paused), or resume it (PATCH status active).\n',
            );
            return 1;
          }
          return refused(io, outcome.rejection);
        }
        const run = outcome.value;
        if (input.json) {
          writeJson(io, { ...run });
          return 0;
        }
        io.stdout.write(`Queued run ${run.runId} of ${run.monitoringConfigId}\n`);
        if (run.status === 'paused') {
          io.stdout.write('The configuration is paused: this run is made once; it stays paused.\n');
        }
        io.stdout.write(
          `A work process makes it; see \`monitoring show ${run.monitoringConfigId}\` (pending work, then the latest run).\n`,
        );
        return 0;
      });
    });

  monitoring
    .command('sweeps')
    .description(
      'The sweeps of list versions that became current, newest first: what changed, how many configurations were queued, status and last error',
    )
    .addHelpText('after', helpExamples('monitoring sweeps', 'monitoring sweeps --limit 5 --json'))
    .option('--limit <n>', 'at most this many, 1 to 1000', '20')
    .option('--json', 'print {sweeps: [...]}')
    .action(async (options) => {
      const input = parseInput(sweepsInput, options);
      await inContext(async ({ pool }) => {
        const sweeps = await listSweeps(pool, input.limit);
        if (input.json) writeJson(io, { sweeps });
        else io.stdout.write(sweepsTable(sweeps));
        return 0;
      });
    });

  monitoring
    .command('history')
    .description(
      'Every event of the configuration stream in order, with a summary: runs, list versions, alerts, resolutions, follow-up cases',
    )
    .addHelpText(
      'after',
      helpExamples(`monitoring history ${EXAMPLE_CONFIG}`, `monitoring history ${EXAMPLE_CONFIG} --json`),
    )
    .argument('<mon_id>', 'monitoring configuration id (mon_...)')
    .option('--json', 'print {monitoringConfigId, eventCount, events: [...]}')
    .action(async (id: string, options) => {
      const input = parseInput(historyInput, { ...options, monitoringConfigId: id }, LABELS);
      await inContext(async ({ pool, store }) => {
        const entries = await configHistory({ pool, store }, input.monitoringConfigId);
        if (!entries) return notFound(io, input.monitoringConfigId);
        if (input.json) {
          writeJson(io, {
            monitoringConfigId: input.monitoringConfigId,
            eventCount: entries.length,
            events: entries,
          });
          return 0;
        }
        io.stdout.write(
          `History of monitoring configuration ${input.monitoringConfigId}: ${entries.length} event(s)\n`,
        );
        io.stdout.write(historyTable(entries));
        return 0;
      });
    });
}

function notFound(io: CliIo, id: string): number {
  io.stderr.write(`error: ${notFoundText('monitoringConfig', id)}\n`);
  return 1;
}

function refused(io: CliIo, rejection: Rejection): number {
  io.stderr.write(`error: ${rejection.message}\n`);
  return 1;
}
