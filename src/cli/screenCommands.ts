import { once } from 'node:events';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import { CsvError, parse } from 'csv-parse';
import { stringify } from 'csv-stringify';
import type pg from 'pg';
import { z } from 'zod';
import { loadConfig } from '../config.js';
import { CHECK_TYPES, type CheckType, isCheckType, topicsForCheckType } from '../screening/checkTypes.js';
import type { LoadedIndex } from '../screening/index/loadIndex.js';
import { loadScreeningIndex, readySnapshots } from '../screening/index/loadIndex.js';
import type { ScreeningIndex, ScreeningMatch } from '../screening/index/screeningIndex.js';
import { ENTITY_KINDS, type EntityKind, type ListedEntity } from '../screening/model/listedEntity.js';
import { scoreNamePair } from '../screening/scoring/comparePair.js';
import { findProfile, listProfiles, type ScreeningProfile } from '../screening/scoring/profiles.js';
import {
  formatSubjectBirthDate,
  parseSubjectBirthDate,
  type ScreeningSubject,
} from '../screening/scoring/query.js';
import {
  isFutureBirthDate,
  type SubjectReading,
  subjectCountryOf,
  subjectFromRow,
  subjectIdentifierOf,
  subjectKindOf,
  subjectOf,
  unmatchableName,
} from '../screening/scoring/subjectInput.js';
import {
  currentSnapshots,
  type ReadySnapshot,
  SnapshotNotReadyError,
  type SourceSnapshot,
} from '../screening/snapshots/snapshotStore.js';
import { formatDuration, freshness } from '../screening/snapshots/staleness.js';
import {
  CliInputError,
  type CommandHost,
  helpExamples,
  parseInput,
  viaParser,
  writeJson,
} from './commandSupport.js';
import type { CliIo } from './io.js';
import { formatTable } from './table.js';

/**
 * `screen`, `compare` and `profiles`: screening from the command line, for operators checking a
 * name and evaluators scripting against the engine (docs/screening-cli.md).
 *
 * `screen` builds the in-memory index itself from the snapshots in the database (the current one
 * of every dataset, or the `--snapshot` ones), so it works whether or not the service runs and
 * answers exactly what a check against those snapshots would. Its subject type defaults to
 * `unknown`, not the API's `person`: an operator typing a name rarely says what it is, and a
 * company or vessel screened as a person would be compared with persons only and missed.
 */

/** At most this many matches per subject (`--limit`). */
export const MAX_LIMIT = 1000;
/** Batch progress on stderr every this many rows. */
export const PROGRESS_EVERY = 5000;
const SNAPSHOT_ID = /^snap_[0-9a-f]{32}$/;
/** The columns `compare` appends to every row. */
const COMPARE_COLUMNS = ['score', 'predicted_match'] as const;

type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

function parseType(text: string): Parsed<EntityKind> {
  const kind = subjectKindOf(text);
  return kind
    ? { ok: true, value: kind }
    : { ok: false, message: `must be one of ${ENTITY_KINDS.join(', ')} (or an FtM schema such as Person)` };
}

function parseBirthDate(text: string): Parsed<string> {
  const date = parseSubjectBirthDate(text);
  if (!date) {
    return {
      ok: false,
      message: `"${text}" is not YYYY, YYYY-MM or YYYY-MM-DD (a real date, year 1800-2100)`,
    };
  }
  return isFutureBirthDate(date, new Date())
    ? { ok: false, message: `"${text}" is in the future` }
    : { ok: true, value: text.trim() };
}

function parseCountry(text: string): Parsed<string> {
  const code = subjectCountryOf(text);
  return code
    ? { ok: true, value: code }
    : { ok: false, message: `unknown country "${text}" (an ISO 3166-1 code such as DE or DEU, or a name)` };
}

function parseIdentifier(text: string): Parsed<string> {
  return subjectIdentifierOf(text)
    ? { ok: true, value: text.trim() }
    : { ok: false, message: `"${text}" is not scheme:value (passport:AB123456) or a bare number` };
}

function parseCheckTypes(text: string): Parsed<CheckType[]> {
  const parts = text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
  const unknown = parts.filter((part) => !isCheckType(part));
  if (parts.length === 0 || unknown.length > 0) {
    const what = unknown.length > 0 ? `unknown check type "${unknown.join('", "')}"` : 'no check type given';
    return { ok: false, message: `${what}; known: ${CHECK_TYPES.join(', ')} (comma-separated)` };
  }
  return { ok: true, value: [...new Set(parts as CheckType[])] };
}

function parseProfile(text: string): Parsed<ScreeningProfile> {
  const profile = findProfile(text.trim());
  return profile
    ? { ok: true, value: profile }
    : {
        ok: false,
        message: `unknown profile "${text}"; known: ${listProfiles()
          .map((p) => p.id)
          .join(', ')}`,
      };
}

function parseLimit(text: string): Parsed<number> {
  const value = /^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN;
  return Number.isSafeInteger(value) && value >= 1 && value <= MAX_LIMIT
    ? { ok: true, value }
    : { ok: false, message: `must be a whole number from 1 to ${MAX_LIMIT}` };
}

const profileInput = z.string().transform(viaParser(parseProfile)).optional();
const fileInput = z.string().trim().min(1, 'must name a file');

const screenInput = z.object({
  name: z
    .string()
    .transform((value) => value.replace(/\s+/g, ' ').trim())
    .pipe(
      z
        .string()
        .min(1, 'must not be empty')
        .max(240, 'must be at most 240 characters')
        .refine((name) => name === '' || !unmatchableName(name), 'must contain a letter or a digit'),
    )
    .optional(),
  type: z.string().transform(viaParser(parseType)).optional(),
  birthDate: z.string().transform(viaParser(parseBirthDate)).optional(),
  country: z.array(z.string().transform(viaParser(parseCountry))).default([]),
  identifier: z.array(z.string().transform(viaParser(parseIdentifier))).default([]),
  checkTypes: z.string().transform(viaParser(parseCheckTypes)).optional(),
  profile: profileInput,
  snapshot: z
    .array(z.string().trim().regex(SNAPSHOT_ID, 'must be a snapshot id: snap_ and 32 hex digits'))
    .default([]),
  limit: z.string().transform(viaParser(parseLimit)).optional(),
  input: fileInput.optional(),
  output: fileInput.optional(),
  json: z.boolean().optional(),
});
type ScreenInput = z.output<typeof screenInput>;

const compareInput = z.object({ input: fileInput, output: fileInput.optional(), profile: profileInput });
const profilesInput = z.object({ json: z.boolean().optional() });

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** Registers `screen`, `compare` and `profiles`. */
export function registerScreenCommands(program: Command, { io, inContext }: CommandHost): void {
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
      await checkInputFile(input.input, input.output);
      const header = await readCsvHeader(input.input);
      const missing = ['schema', 'name1', 'name2'].filter((column) => !header.includes(column));
      if (missing.length > 0) {
        throw new CliInputError(
          `--input: ${input.input} has no ${missing.join(', ')} column (header: ${header.join(', ')})`,
        );
      }
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

/** Rows of a batch or a compare that could not be processed: runCli prints it and exits with 1. */
class RowsFailedError extends Error {
  override readonly name = 'RowsFailedError';
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

async function checkBatchFiles(file: string, output: string | undefined): Promise<void> {
  await checkInputFile(file, output);
  const header = await readCsvHeader(file);
  if (!header.includes('full_name')) {
    throw new CliInputError(`--input: ${file} has no full_name column (header: ${header.join(', ')})`);
  }
}

/** The input exists and is a file; the output, if any, is another file. */
async function checkInputFile(file: string, output: string | undefined): Promise<void> {
  if (!existsSync(file)) throw new CliInputError(`--input: no such file: ${file}`);
  if (!statSync(file).isFile()) throw new CliInputError(`--input: ${file} is not a file`);
  if (output !== undefined && path.resolve(output) === path.resolve(file)) {
    throw new CliInputError('--output: must not be the input file');
  }
  if (output !== undefined && !existsSync(path.dirname(path.resolve(output)))) {
    throw new CliInputError(`--output: no such folder: ${path.dirname(output)}`);
  }
  if (output !== undefined && existsSync(output) && statSync(output).isDirectory()) {
    throw new CliInputError(`--output: ${output} is a folder`);
  }
}

const CSV_OPTIONS = { bom: true, skip_empty_lines: true, relax_column_count: true } as const;

/** The header row (the first record), names trimmed; a file without one is bad input. */
async function readCsvHeader(file: string): Promise<string[]> {
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

interface CsvRecord {
  fields: string[];
  /** The line the record ends on (the header is line 1, unless blank lines precede it). */
  line: number;
}

/** The data rows of a CSV (the records after its header), streamed. */
async function* readCsvRecords(file: string): AsyncGenerator<CsvRecord> {
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

/** Where output goes: a file (opened here, so that an unwritable one fails at once), or the CLI's stdout. */
async function outputStream(io: CliIo, file: string | undefined): Promise<Writable> {
  if (file !== undefined) return (await open(file, 'w')).createWriteStream();
  return new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      io.stdout.write(chunk.toString());
      callback();
    },
  });
}

interface ScreeningSet {
  loaded: LoadedIndex;
  /** The check types screened. */
  checkTypes: CheckType[];
  /** Check types left out by default because no snapshot provides them (never requested ones). */
  missingCheckTypes: CheckType[];
}

class NothingToScreenError extends Error {}

/**
 * The snapshots to screen against and their index. Candidates are the `--snapshot` ones or the
 * current snapshot of every dataset, narrowed to the profile's datasets. Each check type named in
 * `--check-types` needs at least one of them holding entities with its topics, or the command
 * fails: a missing list must never read as "no matches". Without `--check-types`, every check type
 * some candidate provides is screened, and the others are named in a warning (and in the JSON), so
 * that a database with sanctions lists only can be screened without spelling that out; when no
 * candidate provides any check type the command fails all the same. Only snapshots providing a
 * screened check type are indexed. Stale snapshots are screened (an evaluator or an investigation
 * may well want last month's list) with a warning, where the service would refuse them.
 */
async function openScreening(
  pool: pg.Pool,
  io: CliIo,
  input: ScreenInput,
  profile: ScreeningProfile,
): Promise<ScreeningSet> {
  const explicit = input.snapshot.length > 0;
  const candidates = explicit ? await givenSnapshots(pool, input.snapshot) : await currentSnapshots(pool);
  if (candidates.length === 0) {
    throw new NothingToScreenError(
      'no source snapshot is loaded, so there is nothing to screen against (casescreen sources load or sources sync)',
    );
  }
  const inProfile = profile.datasets
    ? candidates.filter((snapshot) => profile.datasets!.includes(snapshot.dataset))
    : candidates;
  const providing = (type: CheckType) =>
    inProfile.filter((snapshot) =>
      topicsForCheckType(type).some((topic) => (snapshot.countsByTopic?.[topic] ?? 0) > 0),
    );
  const requested = input.checkTypes ?? [...CHECK_TYPES];
  const unprovided = requested.filter((type) => providing(type).length === 0);
  const checkTypes = requested.filter((type) => !unprovided.includes(type));
  const where = `${explicit ? 'none of the given snapshots' : 'no current source snapshot'}${
    profile.datasets ? ` of the datasets of profile ${profile.id} (${profile.datasets.join(', ')})` : ''
  }`;
  const describe = (types: readonly CheckType[]) =>
    types.map((type) => `${type} (topics ${topicsForCheckType(type).join(', ')})`).join('; ');
  if (unprovided.length > 0 && (input.checkTypes !== undefined || checkTypes.length === 0)) {
    throw new NothingToScreenError(
      `${where} provides check type ${describe(unprovided)}: nothing to screen against (load a list with those topics${
        input.checkTypes ? ', or leave the type out of --check-types' : ''
      })`,
    );
  }
  if (unprovided.length > 0) {
    io.stderr.write(
      `warning: not screening ${unprovided.join(', ')}: ${where} provides it (give --check-types to make that an error)\n`,
    );
  }
  const searched = inProfile.filter((snapshot) =>
    checkTypes.some((type) => providing(type).includes(snapshot)),
  );
  for (const snapshot of candidates) {
    if (explicit && !searched.includes(snapshot)) {
      io.stderr.write(
        `note: ${describeSnapshot(snapshot)} is not searched: ${
          inProfile.includes(snapshot)
            ? 'it provides none of the check types screened'
            : `profile ${profile.id} leaves its dataset out`
        }\n`,
      );
    }
  }
  warnStale(io, searched);
  const loaded = await loadScreeningIndex(pool, { snapshotIds: searched.map((snapshot) => snapshot.id) });
  return { loaded, checkTypes, missingCheckTypes: unprovided };
}

async function givenSnapshots(pool: pg.Pool, ids: readonly string[]): Promise<ReadySnapshot[]> {
  try {
    return await readySnapshots(pool, ids);
  } catch (error) {
    if (error instanceof SnapshotNotReadyError) throw new CliInputError(`--snapshot: ${error.message}`);
    throw error;
  }
}

/** The staleness rule and limit of the service (SOURCE_STALE_AFTER), so that both say the same. */
function warnStale(io: CliIo, snapshots: readonly ReadySnapshot[]): void {
  const staleAfterMs = loadConfig(io.env).sourceStaleAfterMs;
  const now = new Date();
  for (const snapshot of snapshots) {
    const { ageMs, stale } = freshness(snapshot, now, staleAfterMs);
    if (!stale) continue;
    const why =
      ageMs === null
        ? 'no publication date, so its age is unknown; load it again with --published-at'
        : `published ${formatDuration(ageMs)} ago, over ${formatDuration(staleAfterMs)}`;
    io.stderr.write(
      `warning: ${describeSnapshot(snapshot)} is stale (${why}); the service refuses checks against it\n`,
    );
  }
}

function describeSnapshot(snapshot: SourceSnapshot): string {
  return `${snapshot.dataset} version ${snapshot.version ?? '-'} (${snapshot.id})`;
}

/** Runs `openScreening`, turning "nothing to screen against" into its message and exit code 1. */
async function withScreening(
  pool: pg.Pool,
  io: CliIo,
  input: ScreenInput,
  profile: ScreeningProfile,
  command: (set: ScreeningSet) => Promise<number>,
): Promise<number> {
  let set: ScreeningSet;
  try {
    set = await openScreening(pool, io, input, profile);
  } catch (error) {
    if (!(error instanceof NothingToScreenError)) throw error;
    io.stderr.write(`error: ${error.message}\n`);
    return 1;
  }
  return command(set);
}

function search(
  index: ScreeningIndex,
  subject: ScreeningSubject,
  set: ScreeningSet,
  input: ScreenInput,
  profile: ScreeningProfile,
) {
  return index.search(subject, { profile, checkTypes: set.checkTypes, limit: input.limit });
}

function primaryName(entity: ListedEntity): string {
  return (entity.names.find((name) => name.kind === 'primary') ?? entity.names[0])?.full ?? '';
}

function subjectJson(subject: ScreeningSubject) {
  return {
    name: subject.name,
    type: subject.kind,
    birth_date: subject.birthDate ?? null,
    countries: subject.countries,
    identifiers: subject.identifiers,
  };
}

function screenOne(
  pool: pg.Pool,
  io: CliIo,
  input: ScreenInput,
  profile: ScreeningProfile,
  subject: ScreeningSubject,
): Promise<number> {
  return withScreening(pool, io, input, profile, async (set) => {
    const { index, snapshots } = set.loaded;
    const matches = search(index, subject, set, input, profile);
    if (input.json) {
      writeJson(io, {
        subject: subjectJson(subject),
        profile: { id: profile.id, threshold: profile.threshold },
        check_types: set.checkTypes,
        missing_check_types: set.missingCheckTypes,
        snapshots: snapshots.map(({ id, dataset, version }) => ({ id, dataset, version })),
        matches: matches.map((match) => ({
          entity_id: match.entity.id,
          name: primaryName(match.entity),
          matched_name: match.explanation.matchedName,
          score: match.explanation.score,
          match_type: match.explanation.matchType,
          topics: match.entity.topics,
          datasets: match.entity.datasets,
          source_record_ref: match.entity.sourceRecordRef,
          snapshot_id: match.snapshotId,
          reason: match.explanation.reason,
          supporting_fields: match.explanation.supportingFields,
        })),
      });
      return 0;
    }
    io.stdout.write(describeScreening(set, profile, input));
    io.stdout.write(`Subject: ${describeSubject(subject)}\n\n`);
    if (matches.length === 0) {
      io.stdout.write(`No matches at or above ${profile.threshold}\n`);
      return 0;
    }
    io.stdout.write(formatTable(MATCH_HEADER, matches.map(matchRow)));
    return 0;
  });
}

const MATCH_HEADER = ['RANK', 'SCORE', 'MATCH TYPE', 'MATCHED NAME', 'ENTITY', 'DATASETS', 'TOPICS'];

function matchRow(match: ScreeningMatch, rank: number): string[] {
  return [
    String(rank + 1),
    match.explanation.score.toFixed(3),
    match.explanation.matchType,
    match.explanation.matchedName,
    match.entity.id,
    match.entity.datasets.join(','),
    match.entity.topics.join(','),
  ];
}

function describeScreening(set: ScreeningSet, profile: ScreeningProfile, input: ScreenInput): string {
  const { snapshots, buildMs, index } = set.loaded;
  const limit = input.limit ?? profile.maxMatches;
  const searched = snapshots.map((s) => `${s.dataset} v${s.version} (${s.id})`).join(', ');
  return [
    `Profile ${profile.id}: threshold ${profile.threshold}, at most ${limit} matches; check types ${set.checkTypes.join(', ')}`,
    `Searched ${searched}`,
    `Index of ${index.stats().entities} entities built in ${(buildMs / 1000).toFixed(1)} s`,
    '',
  ].join('\n');
}

function describeSubject(subject: ScreeningSubject): string {
  const parts = [`"${subject.name}"`, `type ${subject.kind}`];
  if (subject.birthDate) parts.push(`born ${formatSubjectBirthDate(subject.birthDate)}`);
  if (subject.countries.length > 0) parts.push(`countries ${subject.countries.join(', ')}`);
  if (subject.identifiers.length > 0) {
    parts.push(`identifiers ${subject.identifiers.map((i) => `${i.scheme}:${i.value}`).join(', ')}`);
  }
  return parts.join(', ');
}

/** Writes a line, waiting while the output is full (a file on a slow disk). */
async function writeLine(out: Writable, line: string): Promise<void> {
  if (out.errored) throw out.errored;
  if (!out.write(`${line}\n`)) await once(out, 'drain');
}

/** Ends the output and waits until it is written (or throws why it could not be). */
async function endOutput(out: Writable): Promise<void> {
  out.end();
  await finished(out);
}

function screenBatch(
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
          const matches = search(set.loaded.index, subject, set, input, profile);
          if (matches.length > 0) withMatches++;
          if (warnings.length > 0) withWarnings++;
          await writeLine(
            out,
            JSON.stringify({
              row,
              matches: matches.map((match) => ({
                entity_id: match.entity.id,
                name: primaryName(match.entity),
                score: match.explanation.score,
                match_type: match.explanation.matchType,
                topics: match.entity.topics,
                datasets: match.entity.datasets,
              })),
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
): Parsed<SubjectReading> {
  if (record.length !== header.length) {
    return { ok: false, message: `the row has ${record.length} fields, the header ${header.length}` };
  }
  const row: Record<string, string> = {};
  header.forEach((column, i) => {
    row[column] = record[i]!;
  });
  return subjectFromRow(row, defaultType);
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
