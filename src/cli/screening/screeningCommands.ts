import type { Command } from 'commander';
import type { CommandHost } from '../commandSupport.js';
import { registerCompareCommand } from './compareCommand.js';
import { registerProfilesCommand } from './profilesCommand.js';
import { registerScreenCommand } from './screenCommand.js';

/**
 * Screening from the command line, for operators checking a name and evaluators scripting against
 * the engine (docs/screening-cli.md): `screen`, `compare` and `profiles`, in the order help lists them.
 */
export function registerScreenCommands(program: Command, host: CommandHost): void {
  registerScreenCommand(program, host);
  registerCompareCommand(program, host);
  registerProfilesCommand(program, host);
}
