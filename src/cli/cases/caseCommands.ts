import type { Command } from 'commander';
import { type CommandHost, helpExamples } from '../commandSupport.js';
import { registerCaseHistoryCommands } from './caseHistoryCommands.js';
import { registerCaseOperationCommands } from './caseOperationCommands.js';

/** `casescreen cases ...`: a case's history and state, and the workspace operations on it. */
export function registerCaseCommands(program: Command, host: CommandHost): void {
  const cases = program
    .command('cases')
    .description('Cases: audit history, current state, and workspace operations as a user of the account')
    .addHelpText(
      'after',
      helpExamples(
        'cases show DKE623260',
        'cases history DKE623260 --as-of 2026-11-25T09:30:00Z',
        'cases assign DKE623260 --owner 23dfc42a-d16a-463d-ae81-50b09b8f811e --user 23dfc42a-d16a-463d-ae81-50b09b8f811e',
      ),
    );
  registerCaseHistoryCommands(cases, host);
  registerCaseOperationCommands(cases, host);
}
