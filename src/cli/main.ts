import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config.js';
import { projectVersion } from '../shared/projectRoot.js';
import { registerCaseCommands } from './cases/caseCommands.js';
import { CliInputError, type CommandHost, helpConfiguration, helpExamples } from './commandSupport.js';
import { type CliContext, withCliContext } from './context.js';
import type { CliIo } from './io.js';
import { registerKeyCommands } from './keyCommands.js';
import { registerMonitoringCommands } from './monitoring/monitoringCommands.js';
import { projectionsRebuild, projectionsStatus } from './projectionCommands.js';
import { registerRequestLogCommands } from './requestLogCommands.js';
import { registerScreenCommands } from './screening/screeningCommands.js';
import { registerSourceCommands } from './sourceCommands.js';
import { registerStatusCommand } from './statusCommand.js';
import { subscriptionsResume, subscriptionsStatus } from './subscriptionCommands.js';
import { registerWebhookCommands } from './webhookCommands.js';
import { registerWebhookListenCommand } from './webhookListenCommand.js';
import { registerWorkspaceCommands } from './workspaceCommands.js';

export type { CliIo } from './io.js';

/**
 * The operator CLI (`npx casescreen ...`), in-process testable: returns the exit code instead of
 * exiting. Every command works whether or not the service is running on the same data.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let exitCode = 0;
  const inContext = async (command: (context: CliContext) => Promise<number>) => {
    exitCode = await withCliContext(io, command);
  };

  const program = new Command('casescreen')
    .description(
      'Operate the case screening service: database, read models, workspaces and API keys, screening lists, screening, cases, monitoring',
    )
    .version(projectVersion(), '-V, --version', 'print the version')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .configureHelp(helpConfiguration)
    .addHelpText(
      'after',
      helpExamples(
        'workspace create --name "Northwind Payments"',
        'keys create --account f9ce7ce8-95d0-491a-a2e4-0abc65ae68da --scopes all --actor api_client',
        'sources sync',
        'screen --name "Ri Won Ho" --birth-date 1964-07-17 --country KP',
      ),
    );

  program
    .command('migrate')
    .description('Bring the database schema and the read-model tables up to date')
    .addHelpText('after', helpExamples('migrate'))
    .action(() =>
      inContext(async ({ migration, installedProjections }) => {
        for (const applied of migration.applied)
          io.stdout.write(`Applied migration ${applied.id} ${applied.name}\n`);
        for (const name of installedProjections) io.stdout.write(`Installed projection ${name} v1\n`);
        if (migration.applied.length === 0 && installedProjections.length === 0) {
          io.stdout.write('Database is up to date\n');
        }
        return 0;
      }),
    );

  const projections = program
    .command('projections')
    .description('Read models')
    .addHelpText('after', helpExamples('projections status', 'projections rebuild case_views'));
  projections
    .command('status')
    .description("Each projection's version, checkpoint, lag to the head of the feed and status")
    .addHelpText('after', helpExamples('projections status --json'))
    .option('--json', 'machine-readable output')
    .action((options: { json?: boolean }) => inContext((context) => projectionsStatus(context, io, options)));
  projections
    .command('rebuild')
    .description('Rebuild into a new table version while the current one keeps serving, then swap')
    .addHelpText('after', helpExamples('projections rebuild case_views'))
    .argument('<name>', 'projection name')
    .action((name: string) => inContext((context) => projectionsRebuild(context, io, name)));

  const subscriptions = program
    .command('subscriptions')
    .description('Projection and reactor subscriptions')
    .addHelpText(
      'after',
      helpExamples('subscriptions status', 'subscriptions resume projection:stream_index:v1'),
    );
  subscriptions
    .command('status')
    .description('Every subscription checkpoint, parked ones with their event and error')
    .addHelpText('after', helpExamples('subscriptions status --json'))
    .option('--json', 'machine-readable output')
    .action((options: { json?: boolean }) =>
      inContext((context) => subscriptionsStatus(context, io, options)),
    );
  subscriptions
    .command('resume')
    .description('Un-park a subscription: its runner retries the parked event')
    .addHelpText('after', helpExamples('subscriptions resume projection:stream_index:v1'))
    .argument('<id>', 'subscription id, e.g. projection:stream_index:v1')
    .action((id: string) => inContext((context) => subscriptionsResume(context, io, id)));

  const host: CommandHost = { io, inContext };
  registerStatusCommand(program, host);
  registerWorkspaceCommands(program, host);
  registerKeyCommands(program, host);
  registerRequestLogCommands(program, host);
  registerSourceCommands(program, host);
  registerScreenCommands(program, host);
  registerCaseCommands(program, host);
  registerMonitoringCommands(program, host);
  const webhooks = program
    .command('webhooks')
    .description('Webhook endpoints, deliveries and a local receiver')
    .addHelpText(
      'after',
      helpExamples(
        'webhooks create --account f9ce7ce8-95d0-491a-a2e4-0abc65ae68da --url https://hooks.example.com/screening --events all',
        'webhooks listen --port 4000 --secret whsec_Qm9vdHN0cmFwIHNlY3JldCBmb3IgZG9jcw',
      ),
    );
  registerWebhookCommands(webhooks, host);
  registerWebhookListenCommand(webhooks, io);

  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    // Commander's own refusals (unknown option, missing argument) are bad input like any other: 2.
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (error instanceof CliInputError) {
      io.stderr.write(`error: ${error.message}\n`);
      return 2;
    }
    if (error instanceof ConfigError) {
      io.stderr.write(`${error.message}\n`);
      return 2;
    }
    io.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
