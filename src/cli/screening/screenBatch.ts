import { CsvError } from 'csv-parse';
import type pg from 'pg';
import type { EntityKind } from '../../screening/model/listedEntity.js';
import type { ScreeningProfile } from '../../screening/scoring/profiles.js';
import {
  type InputResult,
  type SubjectReading,
  subjectFromRow,
} from '../../screening/scoring/subjectInput.js';
import type { CliIo } from '../io.js';
import { endOutput, outputStream, writeLine } from './commandOutput.js';
import { readCsvHeader, readCsvRecords, readInputHeader } from './csvInput.js';
import { briefMatchJson } from './matchOutput.js';
import type { ScreenInput } from './screenFlags.js';
import { describeScreening, search, withScreening } from './screeningSet.js';

/**
 * `screen --input`: a CSV of subjects, one JSON line per row (its matches, or why it could not be
 * read), to `--output` or stdout; the summary and progress go to stderr. Exit code 1 when a row was
 * unreadable.
 */

/** Batch progress on stderr every this many rows. */
const PROGRESS_EVERY = 5000;

/** The batch's files are usable and its CSV has the one column a subject needs. */
export async function checkBatchFiles(file: string, output: string | undefined): Promise<void> {
  await readInputHeader(file, output, ['full_name']);
}

export function screenBatch(
  pool: pg.Pool,
  io: CliIo,
  input: ScreenInput,
  profile: ScreeningProfile,
): Promise<number> {
  const file = input.input!;
  return withScreening(pool, io, input, profile, async (set) => {
    io.stderr.write(describeScreening(set, profile, input));
    const header = await readCsvHeader(file);
    const out = await outputStream(io, input.output);
    // A write error (a full disk) surfaces through writeLine and endOutput, not as an unhandled event.
    out.on('error', () => {});
    const started = performance.now();
    let rows = 0;
    let withMatches = 0;
    let unreadable = 0;
    let withWarnings = 0;
    try {
      for await (const { fields } of readCsvRecords(file)) {
        const row = rows++;
        const reading = batchSubject(header, fields, input.type);
        if (!reading.ok) {
          unreadable++;
          await writeLine(out, JSON.stringify({ row, error: reading.message }));
        } else {
          const { subject, warnings } = reading.value;
          const matches = search(set, subject, input, profile);
          if (matches.length > 0) withMatches++;
          if (warnings.length > 0) withWarnings++;
          await writeLine(
            out,
            JSON.stringify({
              row,
              matches: matches.map(briefMatchJson),
              ...(warnings.length > 0 && { warnings }),
            }),
          );
        }
        if (rows % PROGRESS_EVERY === 0) {
          const perSecond = Math.round(rows / ((performance.now() - started) / 1000));
          io.stderr.write(`  ${rows} rows screened, ${perSecond} rows/s\n`);
        }
      }
    } catch (error) {
      await endOutput(out);
      if (!(error instanceof CsvError)) throw error;
      io.stderr.write(`error: ${file}: ${error.message} (after ${rows} rows)\n`);
      return 1;
    }
    await endOutput(out);
    const seconds = (performance.now() - started) / 1000;
    io.stderr.write(
      `Screened ${rows} rows in ${seconds.toFixed(1)} s: ${withMatches} with matches, ${withWarnings} screened without an unreadable field, ${unreadable} unreadable${
        input.output ? `; written to ${input.output}` : ''
      }\n`,
    );
    return unreadable > 0 ? 1 : 0;
  });
}

/** A batch row as a subject; `defaultType` (--type) for rows whose type and schema are empty. */
function batchSubject(
  header: readonly string[],
  record: readonly string[],
  defaultType: EntityKind | undefined,
): InputResult<SubjectReading> {
  if (record.length !== header.length) {
    return { ok: false, message: `the row has ${record.length} fields, the header ${header.length}` };
  }
  const row: Record<string, string> = {};
  header.forEach((column, i) => {
    row[column] = record[i]!;
  });
  return subjectFromRow(row, defaultType);
}
