import type { Command } from 'commander';
import { CHECK_TYPES } from '../../screening/checkTypes.js';
import { ENTITY_KINDS } from '../../screening/model/listedEntity.js';
import { findProfile } from '../../screening/scoring/profiles.js';
import { subjectOf } from '../../screening/scoring/subjectInput.js';
import { CliInputError, type CommandHost, helpExamples, parseInput } from '../commandSupport.js';
import { checkBatchFiles, screenBatch } from './screenBatch.js';
import { MAX_LIMIT, type ScreenInput, screenInput } from './screenFlags.js';
import { screenOne } from './screenOne.js';

/**
 * `screen`: one subject (--name) or a CSV batch (--input) against the loaded lists, as a check
 * would (screeningSet.ts). Its subject type defaults to `unknown`, not the API's `person`: an
 * operator typing a name rarely says what it is, and a company or vessel screened as a person
 * would be compared with persons only and missed.
 */

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function registerScreenCommand(program: Command, { io, inContext }: CommandHost): void {
  program
    .command('screen')
    .description(
      'Screen a name (--name) or a CSV of subjects (--input) against the loaded lists, as a check would',
    )
    .addHelpText(
      'after',
      helpExamples(
        'screen --name "Ri Won Ho" --type person --birth-date 1964-07-17 --country KP',
        'screen --name "Bank of Kunlun" --type company --check-types sanctions --json',
        'screen --input subjects.csv --output matches.jsonl',
      ),
    )
    .option('--name <name>', 'the subject to screen')
    .option(
      '--type <type>',
      `${ENTITY_KINDS.join('|')} (default unknown: compared with every kind of party); with --input, the type of rows without one`,
    )
    .option('--birth-date <date>', 'YYYY, YYYY-MM or YYYY-MM-DD')
    .option('--country <country>', 'ISO 3166-1 code or country name; repeatable', collect)
    .option('--identifier <scheme:value>', 'passport:AB123456, imo:9187629, ...; repeatable', collect)
    .option('--check-types <types>', `comma-separated, default all: ${CHECK_TYPES.join(',')}`)
    .option('--profile <id>', 'screening profile (casescreen profiles), default: default')
    .option(
      '--snapshot <id>',
      'screen against this snapshot instead of the current ones; repeatable, one per dataset',
      collect,
    )
    .option('--limit <n>', `at most this many matches per subject, 1..${MAX_LIMIT} (default: the profile's)`)
    .option('--json', 'print one JSON object with the matches and their explanation')
    .option(
      '--input <file>',
      'batch: a CSV with a header row (full_name, date_of_birth, nationality, type, ...)',
    )
    .option('--output <file>', 'batch: write the JSON lines to this file instead of stdout')
    .action(async (options) => {
      const input = parseInput(screenInput, options);
      checkScreenMode(input);
      const profile = input.profile ?? findProfile(undefined)!;
      if (input.input !== undefined) {
        await checkBatchFiles(input.input, input.output);
        await inContext(({ pool }) => screenBatch(pool, io, input, profile));
        return;
      }
      const subject = subjectOf(
        {
          name: input.name,
          type: input.type,
          birthDate: input.birthDate,
          countries: input.country,
          identifiers: input.identifier,
        },
        'unknown',
      );
      // Every field was validated above; anything left is a bug worth an error, not a guess.
      if (!subject.ok) throw new CliInputError(subject.message);
      await inContext(({ pool }) => screenOne(pool, io, input, profile, subject.value));
    });
}

/** One subject (--name) or a batch (--input), and the flags that go with each. */
function checkScreenMode(input: ScreenInput): void {
  if (input.input === undefined) {
    if (input.name === undefined) {
      throw new CliInputError('give --name <name> to screen one subject, or --input <file.csv> for a batch');
    }
    if (input.output !== undefined) throw new CliInputError('--output: only with --input (a batch)');
    return;
  }
  const single = [
    input.name !== undefined && '--name',
    input.birthDate !== undefined && '--birth-date',
    input.country.length > 0 && '--country',
    input.identifier.length > 0 && '--identifier',
    input.json && '--json',
  ].filter((flag): flag is string => typeof flag === 'string');
  if (single.length > 0) {
    throw new CliInputError(
      `--input: the subjects come from the file (and the output is JSON lines); for one subject (--name) only: ${single.join(', ')}`,
    );
  }
}
