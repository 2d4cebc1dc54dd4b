import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { loadConfig } from '../config.js';
import { CHECK_TYPES } from '../screening/checkTypes.js';
import {
  type DeltaFormat,
  type MissingFile,
  type ParseProgress,
  type SourceFormat,
  SourceParseError,
} from '../screening/model/listedEntity.js';
import { deltaFormats, sourceFormats } from '../screening/parsers/registry.js';
import { recordDatasetRetired, recordSnapshotBecameCurrent } from '../screening/snapshots/datasetStream.js';
import {
  checkLoadInput,
  DATASET_PATTERN,
  isDeltaFormat,
  type LoadResult,
  loadSnapshot,
  SnapshotLoadError,
} from '../screening/snapshots/loadSnapshot.js';
import { retireDataset } from '../screening/snapshots/retireDataset.js';
import { listDatasets, listSnapshots, type SourceSnapshot } from '../screening/snapshots/snapshotStore.js';
import { availabilityOf, type CheckTypeAvailability } from '../screening/snapshots/sourceAvailability.js';
import { readSourcesConfig, SourcesConfigError } from '../screening/snapshots/sourcesConfig.js';
import { formatDuration } from '../screening/snapshots/staleness.js';
import { type SyncOutcome, syncSources } from '../screening/snapshots/syncSources.js';
import { CliInputError, type CommandHost, helpExamples, parseInput, writeJson } from './commandSupport.js';
import type { CliIo } from './io.js';
import { formatTable } from './table.js';

const json = z.boolean().optional();
const datasetInput = z.string().regex(DATASET_PATTERN, 'must be lowercase letters, digits, "_", "." or "-"');
/** Publisher dates before this are typos (`0001-01-01`), not lists anyone screens against. */
const EARLIEST_PUBLISHED_AT = new Date('1990-01-01T00:00:00Z');
/** Slack for publishers (and operators) a time zone ahead: a date after that is a typo. */
const PUBLISHED_AT_FUTURE_SLACK_MS = 86_400_000;

/**
 * A day (`2024-05-03`, midnight UTC) or a date-time with a time zone; a real calendar date (zod's
 * ISO checks refuse `2024-02-30`, which `new Date` would roll over to March 1st), from 1990 on and
 * at most a day ahead of now: a future date would never turn stale, an ancient one always is.
 */
const publishedAtInput = z
  .string()
  .refine(
    (value) =>
      z.iso.date().safeParse(value).success || z.iso.datetime({ offset: true }).safeParse(value).success,
    {
      message: 'must be a real date (2024-05-03) or an ISO 8601 date-time with a time zone',
    },
  )
  .transform((value) => new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value))
  .refine((date) => date >= EARLIEST_PUBLISHED_AT, { message: 'must not be before 1990-01-01' })
  .refine((date) => date.getTime() <= Date.now() + PUBLISHED_AT_FUTURE_SLACK_MS, {
    message: 'must not be more than a day in the future',
  });

const loadInput = z.object({
  format: z.string().min(1),
  paths: z.array(z.string().min(1)).min(1),
  dataset: datasetInput.optional(),
  publishedAt: publishedAtInput.optional(),
  allowOlder: z.boolean().optional(),
  allowPartial: z.boolean().optional(),
  json,
});
const statusInput = z.object({ json });
const snapshotsInput = z.object({ dataset: datasetInput.optional(), json });
const syncInput = z.object({ config: z.string().min(1).optional(), json });
const retireInput = z.object({ dataset: datasetInput, json });

/** Every format by CLI name: full lists and deltas. */
function knownFormats(): Record<string, SourceFormat | DeltaFormat> {
  return { ...sourceFormats, ...deltaFormats };
}

/** The formats whose files state no publication date: `sources load` needs --published-at for them. */
function undatedFormats(): string[] {
  return Object.values(knownFormats())
    .filter((format) => !format.datedBy)
    .map((format) => format.name)
    .sort();
}

/** What the CLI tells the operator to do about a list refused for want of a date or of files. */
const PUBLISHED_AT_REMEDY =
  'pass --published-at <date>, the date the publisher issued this list (2024-05-03, or an ISO 8601 date-time with a time zone)';
const PARTIAL_REMEDY =
  'give every file of the set (or its folder), or --allow-partial to load it without them';

/** The one line `sources load` prints for a load refused for its input, or undefined for other errors. */
function refusalLine(error: unknown): string | undefined {
  if (error instanceof SnapshotLoadError && error.code === 'no_publication_date') {
    return `${error.message}: ${PUBLISHED_AT_REMEDY}`;
  }
  if (error instanceof SnapshotLoadError && error.code === 'partial_input') {
    return `${error.message}; ${PARTIAL_REMEDY}`;
  }
  return undefined;
}

function describeMissing(missing: readonly MissingFile[]): string {
  return missing.map((file) => `${file.name} (${file.holds})`).join(', ');
}

/** The formats that read a folder given as input. */
function directoryFormats(): string[] {
  return Object.values(knownFormats())
    .filter((format) => format.acceptsDirectories)
    .map((format) => format.name)
    .sort();
}

/** `sources load --help`: every format of the parser registry, with what a reader needs to pick one. */
function formatsHelp(): string {
  const formats = Object.values(knownFormats()).sort((a, b) => a.name.localeCompare(b.name));
  const width = Math.max(...formats.map((format) => format.name.length));
  const lines = formats.map((format) => {
    const notes = [
      `dataset ${format.defaultDataset}`,
      ...(format.acceptsDirectories ? ['takes a folder'] : []),
      ...(isDeltaFormat(format) ? ['a delta on the current snapshot'] : []),
    ];
    return `  ${format.name.padEnd(width)}  ${notes.join('; ')}`;
  });
  return `\nList formats (--format) and the dataset each loads into (unless --dataset):\n${lines.join('\n')}\n`;
}

/** `sources load|status|snapshots|sync|retire`: versioned list snapshots (docs/screening-sources.md). */
export function registerSourceCommands(program: Command, { io, inContext }: CommandHost): void {
  const sources = program
    .command('sources')
    .description('Screening lists: load, sync, inspect and retire snapshots')
    .addHelpText(
      'after',
      helpExamples('sources sync', 'sources load --format un-xml consolidated.xml', 'sources status'),
    );

  sources
    .command('load')
    .description('Load list files into a new snapshot version of a dataset and make it current')
    .addHelpText(
      'after',
      formatsHelp() +
        helpExamples(
          'sources load --format un-xml consolidated.xml',
          'sources load --format ofac-csv sdn.csv add.csv alt.csv sdn_comments.csv --published-at 2026-01-08',
          'sources load --format un-xml UN_consolidated_2025-04.xml --dataset un_2025',
        ),
    )
    .requiredOption('--format <format>', 'list format, one of the list below')
    .argument('<paths...>', `the list files (or a folder, for ${directoryFormats().join(', ')})`)
    .option('--dataset <name>', "dataset name (default: the format's)")
    .option(
      '--published-at <date>',
      `the publisher's date of the list, which staleness counts from; required for ${undatedFormats().join(', ')} (their files state none); wins over a date the file states`,
    )
    .option(
      '--allow-older',
      'load a list published before the current snapshot (replacing a bad publication); refused otherwise',
    )
    .option(
      '--allow-partial',
      'load an OFAC CSV set lacking some of its files (alt.csv, add.csv, sdn_comments.csv); refused otherwise',
    )
    .option('--json', 'print the snapshot summary as JSON')
    .action(async (paths: string[], options) => {
      const input = parseInput(loadInput, { ...options, paths });
      const format = knownFormats()[input.format];
      if (!format) {
        throw new CliInputError(
          `unknown format "${input.format}"; known formats: ${Object.keys(knownFormats()).sort().join(', ') || '(none)'}`,
        );
      }
      const missing = input.paths.filter((file) => !existsSync(file));
      if (missing.length > 0) throw new CliInputError(`no such file: ${missing.join(', ')}`);
      const folders = input.paths.filter((file) => statSync(file).isDirectory());
      if (folders.length > 0 && !format.acceptsDirectories) {
        throw new CliInputError(
          `--format ${format.name} reads files, not a folder: ${folders.join(', ')}; give the list file itself ` +
            `(formats that take a folder: ${directoryFormats().join(', ')})`,
        );
      }
      if (input.allowOlder && isDeltaFormat(format)) {
        throw new CliInputError(
          `--allow-older: not for a delta (${format.name}): a delta older than the snapshot it applies to would undo later changes`,
        );
      }
      if (input.allowPartial && !format.missingFiles) {
        throw new CliInputError(
          `--allow-partial: ${format.name} has no companion files that could be missing`,
        );
      }
      // Refused before the database is opened; loadSnapshot checks the same again.
      const missingFiles = await checkLoadInput({
        format,
        paths: input.paths,
        publishedAt: input.publishedAt,
        allowPartial: input.allowPartial,
      }).catch((error: unknown) => {
        const line = error instanceof SourceParseError ? error.message : refusalLine(error);
        if (line === undefined) throw error;
        throw new CliInputError(line);
      });
      if (missingFiles.length > 0) {
        io.stderr.write(
          `warning: partial load (--allow-partial): without ${describeMissing(missingFiles)}; the snapshot records them as missing\n`,
        );
      }
      await inContext(async ({ pool, store }) => {
        const started = performance.now();
        const progress = progressPrinter(io);
        let result: LoadResult;
        try {
          result = await loadSnapshot(pool, {
            format,
            paths: input.paths,
            dataset: input.dataset,
            publishedAt: input.publishedAt,
            allowPartial: input.allowPartial,
            publicationOrder: input.allowOlder ? 'any' : 'not-older',
            onProgress: progress,
            signal: io.signal,
          });
        } catch (error) {
          return reportLoadFailure(io, error, format);
        }
        if (!result.unchanged) {
          await recordSnapshotBecameCurrent(store, result.snapshot, result.delta ?? null).catch(
            (error: unknown) => warnUnrecorded(io, result.snapshot.dataset, error),
          );
        }
        const durationMs = Math.round(performance.now() - started);
        if (input.json) writeJson(io, { ...loadSummary(result), durationMs });
        else io.stdout.write(describeLoad(result, durationMs));
        return 0;
      });
    });

  sources
    .command('status')
    .description(
      'Each dataset with its current version, publisher date, age and whether it is stale; each check type and whether it is available',
    )
    .addHelpText('after', helpExamples('sources status', 'sources status --json'))
    .option('--json', 'print {staleAfter, datasets: [...], checkTypes: [...]}')
    .action(async (options) => {
      const input = parseInput(statusInput, options);
      // The service's limit, from the same configuration: the report says what the service does.
      const staleAfterMs = loadConfig(io.env).sourceStaleAfterMs;
      await inContext(async ({ pool, clock }) => {
        const now = clock();
        const datasets = await listDatasets(pool, now, staleAfterMs);
        // From the same snapshots as the datasets above, so the two parts of the report agree.
        const checkTypes = availabilityOf(
          datasets.map((d) => d.snapshot),
          CHECK_TYPES,
          now,
          staleAfterMs,
        ).map(checkTypeSummary);
        if (input.json) {
          writeJson(io, {
            now,
            staleAfterMs,
            staleAfter: formatDuration(staleAfterMs),
            datasets: datasets.map(({ dataset, snapshot, ageMs, stale }) => ({
              dataset,
              snapshotId: snapshot.id,
              version: snapshot.version,
              format: snapshot.format,
              entityCount: snapshot.entityCount,
              publishedAt: snapshot.publishedAt,
              missingFiles: snapshot.missingFiles,
              loadedAt: snapshot.loadedAt,
              ageMs,
              age: ageMs === null ? null : formatDuration(ageMs),
              stale,
            })),
            checkTypes,
          });
          return 0;
        }
        if (datasets.length === 0) {
          io.stdout.write('No source snapshots loaded yet (casescreen sources load / sync)\n');
          return 0;
        }
        io.stdout.write(
          formatTable(
            ['DATASET', 'VERSION', 'SNAPSHOT', 'FORMAT', 'ENTITIES', 'PUBLISHED', 'LOADED', 'AGE', 'STALE'],
            datasets.map(({ dataset, snapshot, ageMs, stale }) => [
              dataset,
              String(snapshot.version),
              snapshot.id,
              snapshot.format,
              String(snapshot.entityCount),
              snapshot.publishedAt?.toISOString() ?? 'unknown',
              snapshot.loadedAt.toISOString(),
              ageMs === null ? 'unknown' : formatDuration(ageMs),
              stale ? 'yes' : 'no',
            ]),
          ),
        );
        io.stdout.write(
          `Stale after ${formatDuration(staleAfterMs)} (SOURCE_STALE_AFTER), counted from the publisher's date of each list\n`,
        );
        for (const { snapshot, ageMs } of datasets) {
          if (ageMs === null) {
            io.stdout.write(
              `${snapshot.dataset}: version ${snapshot.version} has no publication date (loaded before every load needed one), so its age is unknown and it counts as stale; load the list again with --published-at <date>, or sync it\n`,
            );
          }
          if (snapshot.missingFiles.length > 0) {
            io.stdout.write(
              `${snapshot.dataset}: version ${snapshot.version} is a partial load, without ${snapshot.missingFiles.join(', ')}\n`,
            );
          }
        }
        io.stdout.write('\n');
        io.stdout.write(
          formatTable(
            ['CHECK TYPE', 'AVAILABLE', 'FRESH DATASETS', 'STALE DATASETS'],
            checkTypes.map((c) => [
              c.checkType,
              c.available ? 'yes' : c.staleDatasets.length > 0 ? 'no (stale)' : 'no (no source)',
              c.datasets.join(',') || '-',
              c.staleDatasets.join(',') || '-',
            ]),
          ),
        );
        return 0;
      });
    });

  sources
    .command('snapshots')
    .description('Every load of every dataset (or one), newest first: versions, failed and running loads')
    .addHelpText('after', helpExamples('sources snapshots --dataset un_sc_sanctions'))
    .option('--dataset <name>', 'only this dataset')
    .option('--json', 'print {snapshots: [...]}')
    .action(async (options) => {
      const input = parseInput(snapshotsInput, options);
      await inContext(async ({ pool }) => {
        const snapshots = await listSnapshots(pool, { dataset: input.dataset });
        if (input.json) writeJson(io, { snapshots });
        else
          io.stdout.write(
            formatTable(
              [
                'DATASET',
                'VERSION',
                'SNAPSHOT',
                'STATUS',
                'CURRENT',
                'ENTITIES',
                'PUBLISHED',
                'STARTED',
                'ERROR',
              ],
              snapshots.map((s) => snapshotRow(s)),
            ),
          );
        return 0;
      });
    });

  sources
    .command('sync')
    .description('Download every configured publisher list and load each one')
    .addHelpText('after', helpExamples('sources sync', 'sources sync --config config/sources.json --json'))
    .option('--config <file>', 'sources config (default: SOURCES_CONFIG, else config/sources.json)')
    .option('--json', 'print {ok, sources: [...]}')
    .action(async (options) => {
      const input = parseInput(syncInput, options);
      const file = path.resolve(input.config ?? loadConfig(io.env).sourcesConfigPath);
      const config = await readSourcesConfig(file).catch((error: unknown) => {
        throw error instanceof SourcesConfigError ? new CliInputError(error.message) : error;
      });
      await inContext(async ({ pool, store }) => {
        const progress = progressPrinter(io);
        let outcomes: SyncOutcome[];
        try {
          outcomes = await syncSources(pool, config, {
            store,
            formats: knownFormats(),
            signal: io.signal,
            log: (line) => io.stderr.write(`${line}\n`),
            onProgress: (_dataset, p) => progress(p),
          });
        } catch (error) {
          if (!io.signal?.aborted) throw error;
          io.stderr.write(
            'error: sync interrupted: the source in progress was not loaded and nothing of it became current; sources synced before it stay loaded\n',
          );
          return 1;
        }
        const ok = outcomes.every((outcome) => outcome.ok);
        if (input.json) {
          writeJson(io, {
            ok,
            sources: outcomes.map((outcome) =>
              outcome.ok && 'load' in outcome
                ? { ok: true, downloads: outcome.downloads, ...loadSummary(outcome.load) }
                : outcome,
            ),
          });
        } else {
          for (const outcome of outcomes) {
            if (!outcome.ok) io.stdout.write(`${outcome.dataset}: FAILED: ${outcome.error}\n`);
            else if ('skipped' in outcome)
              io.stdout.write(`${outcome.dataset}: Skipped: ${outcome.skipped}\n`);
            else
              io.stdout.write(
                `${outcome.dataset}: ${describeLoad(outcome.load, undefined).split('\n')[0]}\n`,
              );
          }
          if (outcomes.length === 0) io.stdout.write(`No enabled sources in ${file}\n`);
        }
        return ok ? 0 : 1;
      });
    });

  sources
    .command('retire')
    .description(
      'Stop screening against a dataset: it is no longer current (its snapshots are kept); loading it again makes it current again',
    )
    .addHelpText('after', helpExamples('sources retire un_2025'))
    .argument('<dataset>', 'the dataset to retire')
    .option('--json', 'print {dataset, snapshotId, version, ...} of the snapshot that was current')
    .action(async (dataset: string, options) => {
      const input = parseInput(retireInput, { ...options, dataset }, { dataset: '<dataset>' });
      await inContext(async ({ pool, store, clock }) => {
        const result = await retireDataset(pool, input.dataset);
        if (result.outcome === 'retired') {
          await recordDatasetRetired(store, result.snapshot, clock()).catch((error: unknown) =>
            warnUnrecorded(io, input.dataset, error),
          );
        }
        if (result.outcome === 'no_current_snapshot') {
          io.stderr.write(
            `error: dataset ${input.dataset} has no current snapshot (never loaded, or already retired); nothing to retire\n`,
          );
          return 1;
        }
        if (result.outcome === 'busy') {
          io.stderr.write(
            `error: a load of dataset ${input.dataset} is in progress; retire it once it ends\n`,
          );
          return 1;
        }
        const { snapshot } = result;
        if (input.json) {
          writeJson(io, {
            dataset: snapshot.dataset,
            snapshotId: snapshot.id,
            version: snapshot.version,
            format: snapshot.format,
            entityCount: snapshot.entityCount,
            publishedAt: snapshot.publishedAt,
            loadedAt: snapshot.loadedAt,
            countsByTopic: snapshot.countsByTopic,
          });
        } else {
          io.stdout.write(
            `Retired ${snapshot.dataset}: version ${snapshot.version} (${snapshot.id}, ${snapshot.entityCount} entities) is no longer current\n` +
              '  its snapshots are kept; loading the dataset again makes it current as its next version\n',
          );
        }
        const syncedBy = await syncConfigLoading(loadConfig(io.env).sourcesConfigPath, snapshot.dataset);
        if (syncedBy) {
          io.stderr.write(
            `warning: ${syncedBy} syncs ${snapshot.dataset}: the next sources sync makes it current again; ` +
              'remove it there or set "enabled": false\n',
          );
        }
        return 0;
      });
    });
}

/**
 * The sync config file when it has an enabled source loading `dataset`, else undefined. Best effort,
 * for a warning only: a missing or invalid config is not the retire command's concern.
 */
async function syncConfigLoading(file: string, dataset: string): Promise<string | undefined> {
  const config = await readSourcesConfig(file).catch(() => undefined);
  return config?.sources.some((source) => source.enabled && source.dataset === dataset) ? file : undefined;
}

/**
 * The switch committed but its event did not reach the dataset stream: the snapshot is current all
 * the same, and the monitoring worker's reconcile appends the event; the operator should know.
 */
function warnUnrecorded(io: CliIo, dataset: string, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  io.stderr.write(
    `warning: ${dataset}: the change of current snapshot is made but not yet recorded on its dataset stream (${message}); the monitoring worker records it when it next reconciles\n`,
  );
}

/** A check type in `sources status`: available, or why not (the stale datasets, or none at all). */
function checkTypeSummary({ checkType, available, snapshots, staleSnapshots }: CheckTypeAvailability) {
  return {
    checkType,
    available,
    datasets: snapshots.map((s) => s.dataset),
    staleDatasets: staleSnapshots.map((s) => s.dataset),
  };
}

function loadSummary({ unchanged, snapshot, delta }: LoadResult) {
  return {
    unchanged,
    snapshotId: snapshot.id,
    dataset: snapshot.dataset,
    format: snapshot.format,
    version: snapshot.version,
    entityCount: snapshot.entityCount,
    contentHash: snapshot.contentHash,
    publishedAt: snapshot.publishedAt,
    missingFiles: snapshot.missingFiles,
    loadedAt: snapshot.loadedAt,
    baseSnapshotId: snapshot.baseSnapshotId,
    countsByKind: snapshot.countsByKind,
    countsByTopic: snapshot.countsByTopic,
    ...(delta && { delta }),
  };
}

function describeLoad({ unchanged, snapshot, delta }: LoadResult, durationMs: number | undefined): string {
  const took = durationMs === undefined ? '' : ` in ${(durationMs / 1000).toFixed(1)} s`;
  const lines = unchanged
    ? [`Unchanged: ${snapshot.dataset} version ${snapshot.version} (${snapshot.id}) already has this content`]
    : [
        `Loaded ${snapshot.dataset} version ${snapshot.version}: ${snapshot.id}, ${snapshot.entityCount} entities${took}`,
      ];
  if (delta) {
    lines.push(
      `  delta on ${snapshot.baseSnapshotId}: ${delta.added} added, ${delta.modified} modified, ${delta.deleted} deleted` +
        (delta.missingDeletes > 0 ? `, ${delta.missingDeletes} deletions of unknown ids ignored` : ''),
    );
  }
  lines.push(`  content hash ${snapshot.contentHash}`);
  lines.push(`  published ${snapshot.publishedAt?.toISOString() ?? 'unknown'}`);
  if (snapshot.missingFiles.length > 0) {
    lines.push(`  partial: without ${snapshot.missingFiles.join(', ')}`);
  }
  const kinds = Object.entries(snapshot.countsByKind).map(([kind, n]) => `${kind} ${n}`);
  lines.push(`  kinds: ${kinds.join(', ')}`);
  return `${lines.join('\n')}\n`;
}

function reportLoadFailure(io: CliIo, error: unknown, format: SourceFormat | DeltaFormat): number {
  // Ctrl-C or SIGTERM surfaces as the signal's bare AbortError ("This operation was aborted").
  if (io.signal?.aborted) {
    io.stderr.write(
      'error: load interrupted: nothing was loaded and nothing became current; the current version stays as it was\n',
    );
    return 1;
  }
  const refusal = refusalLine(error);
  if (refusal !== undefined) {
    io.stderr.write(`error: load failed: ${refusal}\n`);
    return 2;
  }
  if (error instanceof SourceParseError || error instanceof SnapshotLoadError) {
    io.stderr.write(`error: load failed: ${error.message}\n`);
    if (
      error instanceof SnapshotLoadError &&
      error.code === 'outdated_publication' &&
      !isDeltaFormat(format)
    ) {
      io.stderr.write('  to replace a bad publication with this older one on purpose, add --allow-older\n');
    }
    return 1;
  }
  throw error;
}

/** Progress lines on stderr, at most one a second, so small files print none. */
function progressPrinter(io: CliIo): (progress: ParseProgress) => void {
  let last = performance.now();
  return (progress) => {
    const now = performance.now();
    if (now - last < 1000) return;
    last = now;
    const percent =
      progress.bytesTotal > 0 ? Math.floor((progress.bytesRead / progress.bytesTotal) * 100) : 0;
    io.stderr.write(
      `  ${path.basename(progress.file)}: ${percent}% of ${megabytes(progress.bytesTotal)}, ${progress.entities} entities\n`,
    );
  };
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

function snapshotRow(s: SourceSnapshot & { current: boolean }): string[] {
  return [
    s.dataset,
    s.version === null ? '-' : String(s.version),
    s.id,
    s.status,
    s.current ? 'yes' : '',
    s.entityCount === null ? '-' : String(s.entityCount),
    s.publishedAt?.toISOString() ?? '-',
    s.startedAt.toISOString(),
    s.error ?? '',
  ];
}
