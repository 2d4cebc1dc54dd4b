import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { type CastingContext, CsvError, parse } from 'csv-parse';
import { type ParseOptions, SourceParseError } from '../model/listedEntity.js';
import { ProgressTracker } from './progress.js';

/**
 * Streaming CSV (and tab-separated) tables with a header row, for the list formats published
 * that way (US CSL, BIS Denied Persons, EBRD, EveryPolitician). The file is read in chunks through
 * csv-parse; a gzipped file (known by its magic bytes, not its name) is inflated on the way. Only
 * one row at a time is handed out, as an object keyed by the header's column names, trimmed: the
 * EBRD header's " Ineligible Until" is `Ineligible Until`.
 */

export interface CsvRow {
  /** Values by column name (names trimmed); values as published, not trimmed. */
  values: Record<string, string>;
  /** The line the row ends on (1 is the header), for error messages. */
  line: number;
}

export interface CsvTableOptions {
  progress: ProgressTracker;
  /** Columns the format cannot do without; a header lacking one is not this format. */
  required: readonly string[];
  /** What the file should be, for the error message ("a US CSL CSV file"). */
  formatLabel: string;
  delimiter?: string;
  /**
   * Accept quotes the publisher did not escape (`"Rafael "Ace" Lim"`, EBRD): such a field is read
   * as written, quotes included, and `repairQuotes` takes the outer pair off again. Only that shape
   * is accepted (see strayQuoteProblem); any other stray quote is a SourceParseError.
   */
  relaxQuotes?: boolean;
}

const GZIP_MAGIC = [0x1f, 0x8b];

/** `ProgressTracker.forFiles`, with a file that cannot be read reported as a `SourceParseError`. */
export async function trackFiles(files: string[], options: ParseOptions): Promise<ProgressTracker> {
  for (const file of files) {
    try {
      await stat(file);
    } catch (error) {
      throw new SourceParseError(file, `cannot read: ${(error as Error).message}`);
    }
  }
  return ProgressTracker.forFiles(files, options);
}

/** Whether `file` starts with the gzip magic bytes. */
export async function isGzipped(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await handle.read(head, 0, 2, 0);
    return bytesRead === 2 && head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
  } finally {
    await handle.close();
  }
}

/**
 * Yields the rows of a CSV table after checking its header. Throws `SourceParseError` naming
 * the file and line for a header without a required column, a row with another number of
 * fields than the header, malformed CSV, and a file that cannot be read or inflated.
 */
export async function* readCsvTable(file: string, options: CsvTableOptions): AsyncGenerator<CsvRow> {
  let gzipped: boolean;
  try {
    gzipped = await isGzipped(file);
  } catch (error) {
    throw new SourceParseError(file, `cannot read: ${(error as Error).message}`);
  }
  const stream = createReadStream(file, { highWaterMark: 256 * 1024 });
  const source: Readable = gzipped ? stream.pipe(createGunzip()) : stream;
  const delimiter = options.delimiter ?? ',';
  // The header as `cast` sees it: csv-parse reads ahead of the loop below, so `header` may be unset.
  const columnNames: string[] = [];
  const parser = source.pipe(
    parse({
      bom: true,
      info: true,
      relax_column_count: true,
      relax_quotes: options.relaxQuotes ?? false,
      skip_empty_lines: true,
      delimiter,
      // csv-parse hands each field to `cast` with whether it was quoted: the one place a stray quote
      // can be told from a properly escaped one.
      ...(options.relaxQuotes && {
        cast: (value: string, context: CastingContext) => {
          const column = typeof context.column === 'number' ? context.column : -1;
          if (context.records === 0) columnNames[column] = value.trim();
          const problem = strayQuoteProblem(value, context.quoting, delimiter);
          if (!problem) return value;
          const name = columnNames[column] ?? `field ${column + 1}`;
          throw new SourceParseError(file, `${name}: ${problem}`, {
            // The field's first line: where the quote that was never closed opens.
            line: context.lines - (value.match(/\n/g)?.length ?? 0),
          });
        },
      }),
    }),
  );
  stream.on('error', (error) => parser.destroy(error));
  if (source !== stream) source.on('error', (error) => parser.destroy(error));

  let header: string[] | undefined;
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: string[];
      info: { lines: number };
    }>) {
      options.progress.read(file, stream.bytesRead);
      if (!header) {
        header = record.map((name) => name.trim());
        const missing = options.required.filter((column) => !header!.includes(column));
        if (missing.length > 0) {
          throw new SourceParseError(
            file,
            `not ${options.formatLabel}: the header lacks ${missing.join(', ')} (found ${header.join(', ')})`,
            { line: info.lines },
          );
        }
        continue;
      }
      // A row of one empty field is a blank line csv-parse did not skip (whitespace only).
      if (record.length === 1 && record[0]!.trim() === '') continue;
      if (record.length !== header.length) {
        throw new SourceParseError(file, `expected ${header.length} fields, found ${record.length}`, {
          line: info.lines,
        });
      }
      const values: Record<string, string> = {};
      header.forEach((name, index) => {
        values[name] = record[index]!;
      });
      yield { values, line: info.lines };
    }
  } catch (error) {
    throw csvReadError(file, error);
  } finally {
    stream.destroy();
  }
  if (!header) throw new SourceParseError(file, `not ${options.formatLabel}: the file is empty`);
  options.progress.fileDone(file, stream.bytesRead);
}

/**
 * Why a field read with relaxed quotes is not the one shape of unescaped quotes accepted, or
 * undefined when it is. `relax_quotes` alone takes any stray quote as text, so a quoted field whose
 * closing quote is missing runs on over the delimiter (or line break) to the next quote, and the
 * rest of the row shifts: garbage names, and often still the right number of fields. The
 * publisher's defect has one shape: a field quoted as a whole with bare quotes inside
 * (`"Rafael "Ace" Lim"`), which csv-parse returns starting and ending with a quote and which
 * cannot span a delimiter after its first inner quote. Refused: a bare quote in an unquoted field
 * (a missing opening quote, or the tail of a field cut off by a missing closing quote), and a
 * field that starts with a stray quote, does not end with one and holds a delimiter or line break
 * (it swallowed the end of the field before it).
 */
function strayQuoteProblem(value: string, quoted: boolean, delimiter: string): string | undefined {
  if (!quoted) {
    return value.includes('"') ? `a quote inside an unquoted field: ${excerpt(value)}` : undefined;
  }
  const ranOn = value.includes(delimiter) || value.includes('\n');
  if (value.startsWith('"') && !value.endsWith('"') && ranOn) {
    return `a quoted field is not closed (it runs on over a delimiter or line break): ${excerpt(value)}`;
  }
  return undefined;
}

/** The field as read, on one line and cut short, after a colon. */
function excerpt(value: string): string {
  const flat = value.replace(/\s+/g, ' ').trim();
  return `read as ${flat.length > 80 ? `${flat.slice(0, 77)}...` : flat}`;
}

/**
 * A field the publisher quoted without escaping its inner quotes (`"Rafael "Ace" Lim"`), which
 * csv-parse with `relax_quotes` returns with the outer quotes: those are taken off.
 */
export function repairQuotes(value: string): string {
  const trimmed = value.trim();
  return trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"')
    ? trimmed.slice(1, -1)
    : value;
}

/** A failure while reading a CSV file as a SourceParseError naming the file (and line, when known). */
export function csvReadError(file: string, error: unknown): SourceParseError {
  if (error instanceof SourceParseError) return error;
  if (error instanceof CsvError) {
    const line = typeof error.lines === 'number' ? error.lines : undefined;
    return new SourceParseError(
      file,
      `malformed CSV: ${error.message}`,
      line === undefined ? undefined : { line },
    );
  }
  return new SourceParseError(file, `cannot read: ${(error as Error).message}`);
}
