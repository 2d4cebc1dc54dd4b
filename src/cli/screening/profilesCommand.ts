import type { Command } from 'commander';
import { z } from 'zod';
import { findProfile, listProfiles } from '../../screening/scoring/profiles.js';
import { type CommandHost, helpExamples, parseInput, writeJson } from '../commandSupport.js';
import { formatTable } from '../table.js';

/** `profiles`: the screening profiles `screen --profile` and `compare --profile` take. */

const profilesInput = z.object({ json: z.boolean().optional() });

export function registerProfilesCommand(program: Command, { io }: CommandHost): void {
  program
    .command('profiles')
    .description('The screening profiles: threshold, fuzziness, datasets, max matches')
    .addHelpText('after', helpExamples('profiles', 'profiles --json'))
    .option('--json', 'print {profiles: [...]}')
    .action((options) => {
      const input = parseInput(profilesInput, options);
      const profiles = listProfiles();
      if (input.json) {
        writeJson(io, {
          default_profile: findProfile(undefined)!.id,
          profiles: profiles.map((p) => ({
            id: p.id,
            threshold: p.threshold,
            fuzziness: { budget_factor: p.fuzziness.budgetFactor, phonetic: p.fuzziness.phonetic },
            datasets: p.datasets ?? null,
            max_matches: p.maxMatches,
            description: p.description,
          })),
        });
        return;
      }
      io.stdout.write(
        formatTable(
          ['ID', 'THRESHOLD', 'FUZZINESS', 'DATASETS', 'MAX MATCHES', 'DESCRIPTION'],
          profiles.map((p) => [
            p.id,
            p.threshold.toFixed(3),
            `edit budget x${p.fuzziness.budgetFactor}${p.fuzziness.phonetic ? ', phonetic' : ''}`,
            p.datasets?.join(',') ?? 'all',
            String(p.maxMatches),
            p.description,
          ]),
        ),
      );
    });
}
