import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import { CsvError } from 'csv-parse';
import { stringify } from 'csv-stringify';
import { z } from 'zod';
import { scoreNamePair } from '../../screening/scoring/comparePair.js';
import { findProfile, type ScreeningProfile } from '../../screening/scoring/profiles.js';
import { subjectKindOf } from '../../screening/scoring/subjectInput.js';
import { CliInputError, type CommandHost, helpExamples, parseInput } from '../commandSupport.js';
import type { CliIo } from '../io.js';
import { outputStream } from './commandOutput.js';
import { type CsvRecord, readCsvRecords, readInputHeader } from './csvInput.js';
import { fileInput, profileInput } from './screenFlags.js';

/**
 * `compare`: labelled name pairs (a CSV with schema, name1, name2) scored as a screening would
 * score them, each row written back with `score` and `predicted_match` appended. No database.
 */

/** The columns `compare` appends to every row. */
const COMPARE_COLUMNS = ['score', 'predicted_match'] as const;

const compareInput = z.object({ input: fileInput, output: fileInput.optional(), profile: profileInput });

/** Rows of the input that could not be read or scored: runCli prints the message and exits with 1. */
class RowsFailedError extends Error {
  override readonly name = 'RowsFailedError';
}

export function registerCompareCommand(program: Command, { io }: CommandHost): void {
  program
    .command('compare')
    .description(
      'Score labelled name pairs (CSV with schema,name1,name2) as a screening would; no database needed',
    )
    .addHelpText('after', helpExamples('compare --input name_pairs.csv --output pairs_scored.csv'))
    .requiredOption('--input <file>', 'CSV with a header row and at least schema, name1, name2')
    .option('--output <file>', 'write the CSV here instead of stdout')
    .option('--profile <id>', 'the profile whose fuzziness and threshold decide predicted_match')
    .action(async (options) => {
      const input = parseInput(compareInput, options);
      const profile = input.profile ?? findProfile(undefined)!;
      const header = await readInputHeader(input.input, input.output, ['schema', 'name1', 'name2']);
      const clash = COMPARE_COLUMNS.filter((column) => header.includes(column));
      if (clash.length > 0) {
        throw new CliInputError(
          `--input: ${input.input} already has a ${clash.join(' and a ')} column, which compare appends`,
        );
      }
      const failed = await comparePairs(io, input.input, input.output, header, profile);
      if (failed > 0)
        throw new RowsFailedError(`${failed} row(s) could not be scored (see the warnings above)`);
    });
}

/** Streams the pairs through scoreNamePair; returns how many rows could not be scored. */
async function comparePairs(
  io: CliIo,
  file: string,
  output: string | undefined,
  header: readonly string[],
  profile: ScreeningProfile,
): Promise<number> {
  const column = (name: string) => header.indexOf(name);
  const [schemaAt, name1At, name2At] = [column('schema'), column('name1'), column('name2')];
  let failed = 0;
  let row = 0;
  async function* scored(records: AsyncIterable<CsvRecord>): AsyncGenerator<string[]> {
    yield [...header, ...COMPARE_COLUMNS];
    for await (const { fields: record, line } of records) {
      const warn = (message: string) => {
        failed++;
        io.stderr.write(`warning: row ${row} (line ${line}): ${message}; score left empty\n`);
      };
      // Every row keeps the header's columns, so the appended ones line up.
      const fields = header.map((_, i) => record[i] ?? '');
      let result: string[] = ['', ''];
      const kind = subjectKindOf(fields[schemaAt]!);
      if (record.length !== header.length) warn(`${record.length} fields, the header has ${header.length}`);
      else if (!kind) warn(`unknown schema "${fields[schemaAt]}"`);
      else if (!fields[name1At]!.trim() || !fields[name2At]!.trim()) warn('name1 or name2 is empty');
      else {
        const { score, match } = scoreNamePair(kind, fields[name1At]!, fields[name2At]!, profile);
        result = [score.toFixed(3), String(match)];
      }
      row++;
      yield [...fields, ...result];
    }
  }
  try {
    await pipeline(readCsvRecords(file), scored, stringify(), await outputStream(io, output));
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    throw new RowsFailedError(`${file}: ${error.message} (after ${row} rows)`);
  }
  return failed;
}
