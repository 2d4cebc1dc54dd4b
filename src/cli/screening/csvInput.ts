import { createReadStream, existsSync, statSync } from 'node:fs';
import { parse } from 'csv-parse';
import { CliInputError } from '../commandSupport.js';
import { checkOutputFile } from './commandOutput.js';

/**
 * The CSV file a command reads (`--input`): a header row, then the records, streamed. A byte
 * order mark and blank lines are skipped; a record of another length than the header is read, not
 * refused: the command says what it makes of it.
 */

const CSV_OPTIONS = { bom: true, skip_empty_lines: true, relax_column_count: true } as const;

export interface CsvRecord {
  fields: string[];
  /** The line the record ends on (the header is line 1, unless blank lines precede it). */
  line: number;
}

/**
 * The header of the input, once the input is a file with the `columns` a command needs and the
 * output, if any, another file; each problem is bad input (exit code 2), found before any work.
 */
export async function readInputHeader(
  file: string,
  output: string | undefined,
  columns: readonly string[],
): Promise<string[]> {
  if (!existsSync(file)) throw new CliInputError(`--input: no such file: ${file}`);
  if (!statSync(file).isFile()) throw new CliInputError(`--input: ${file} is not a file`);
  checkOutputFile(output, file);
  const header = await readCsvHeader(file);
  const missing = columns.filter((column) => !header.includes(column));
  if (missing.length > 0) {
    throw new CliInputError(
      `--input: ${file} has no ${missing.join(', ')} column (header: ${header.join(', ')})`,
    );
  }
  return header;
}

/** The header row (the first record), names trimmed; a file without one is bad input. */
export async function readCsvHeader(file: string): Promise<string[]> {
  const source = createReadStream(file);
  const parser = parse(CSV_OPTIONS);
  source.on('error', (error) => parser.destroy(error));
  try {
    for await (const record of source.pipe(parser)) return (record as string[]).map((name) => name.trim());
  } catch (error) {
    throw new CliInputError(`--input: ${file}: ${(error as Error).message}`);
  } finally {
    source.destroy();
    parser.destroy();
  }
  throw new CliInputError(`--input: ${file} is empty; it needs a header row`);
}

/** The data rows of a CSV (the records after its header), streamed. */
export async function* readCsvRecords(file: string): AsyncGenerator<CsvRecord> {
  const source = createReadStream(file, { highWaterMark: 256 * 1024 });
  const parser = parse({ ...CSV_OPTIONS, info: true });
  source.on('error', (error) => parser.destroy(error));
  let header = true;
  try {
    for await (const { record, info } of source.pipe(parser) as AsyncIterable<{
      record: string[];
      info: { lines: number };
    }>) {
      if (header) header = false;
      else yield { fields: record, line: info.lines };
    }
  } finally {
    source.destroy();
  }
}
