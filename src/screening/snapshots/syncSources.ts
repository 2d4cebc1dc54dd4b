import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import type { EventStore } from '../../eventStore/eventStore.js';
import type { DeltaFormat, ParseProgress, SourceFormat } from '../model/listedEntity.js';
import { recordSnapshotBecameCurrent } from './datasetStream.js';
import { type Downloaded, downloadFile, fileNameOf } from './download.js';
import { type LoadResult, loadSnapshot, SnapshotLoadError } from './loadSnapshot.js';
import type { SourceConfig, SourcesConfig } from './sourcesConfig.js';

type DownloadSummary = Omit<Downloaded, 'path'>;

export type SyncOutcome =
  | { dataset: string; format: string; ok: true; downloads: DownloadSummary[]; load: LoadResult }
  /** Not loaded, and no failure: the download is no newer publication than the current snapshot. */
  | { dataset: string; format: string; ok: true; downloads: DownloadSummary[]; skipped: string }
  | { dataset: string; format: string; ok: false; error: string };

export interface SyncOptions {
  /** Where each new current snapshot is recorded (datasetStream.ts). */
  store: EventStore;
  formats: Readonly<Record<string, SourceFormat | DeltaFormat>>;
  signal?: AbortSignal;
  /** One line per step, for the operator. */
  log?: (line: string) => void;
  onProgress?: (dataset: string, progress: ParseProgress) => void;
}

/**
 * Downloads every enabled source of the config into a temporary folder of its own and loads it.
 * Sources run one after the other, and one failing (HTTP error, parse error, unknown format) does
 * not stop the others; each outcome says what happened. Only news is loaded: a download whose
 * publication date is not after the current snapshot's (a publisher or mirror serving an older
 * file) is skipped, not loaded over it and not a failure; errors name a download by its URL.
 *
 * The publication date: for a format whose files state none (the OFAC CSV set, the CSL, ...), the
 * newest HTTP Last-Modified of the source's responses, which every one of them must then carry;
 * for one whose files state a date, that date, unless the source says `publishedAtFrom:
 * "last-modified"`. A source that yields no date at all fails, saying so: staleness is measured
 * from the date, and a load time would make a years-old file look fresh.
 */
export async function syncSources(
  pool: pg.Pool,
  config: SourcesConfig,
  options: SyncOptions,
): Promise<SyncOutcome[]> {
  const outcomes: SyncOutcome[] = [];
  for (const source of config.sources.filter((s) => s.enabled)) {
    options.signal?.throwIfAborted();
    try {
      outcomes.push(await syncSource(pool, source, options));
    } catch (error) {
      if (options.signal?.aborted) throw error;
      const message = error instanceof Error ? error.message : String(error);
      options.log?.(`${source.dataset}: failed: ${message}`);
      outcomes.push({ dataset: source.dataset, format: source.format, ok: false, error: message });
    }
  }
  return outcomes;
}

async function syncSource(pool: pg.Pool, source: SourceConfig, options: SyncOptions): Promise<SyncOutcome> {
  const format = options.formats[source.format];
  if (!format) {
    throw new Error(
      `unknown format "${source.format}"; known formats: ${Object.keys(options.formats).sort().join(', ') || '(none)'}`,
    );
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), `casescreen-sync-${source.dataset}-`));
  try {
    const downloads: Downloaded[] = [];
    const names = uniqueFileNames(source.urls);
    for (const [index, url] of source.urls.entries()) {
      options.log?.(`${source.dataset}: downloading ${url}`);
      downloads.push(await downloadFile(url, dir, { fileName: names[index], signal: options.signal }));
    }
    const summaries = downloads.map(({ path: _path, ...rest }) => rest);
    const datedByServer = !format.datedBy || source.publishedAtFrom === 'last-modified';
    let load: LoadResult;
    try {
      load = await loadSnapshot(pool, {
        format,
        paths: downloads.map((d) => d.path),
        dataset: source.dataset,
        publishedAt: datedByServer ? newestLastModified(downloads) : undefined,
        allowPartial: source.allowPartial,
        publicationOrder: 'newer',
        signal: options.signal,
        onProgress: options.onProgress && ((progress) => options.onProgress?.(source.dataset, progress)),
        fileLabels: new Map(downloads.map((d) => [d.path, d.url])),
      });
    } catch (error) {
      if (!(error instanceof SnapshotLoadError)) throw error;
      if (error.code !== 'outdated_publication') throw new Error(syncRefusal(error, downloads));
      options.log?.(`${source.dataset}: skipped: ${error.message}`);
      return {
        dataset: source.dataset,
        format: source.format,
        ok: true,
        downloads: summaries,
        skipped: error.message,
      };
    }
    const { snapshot } = load;
    if (!load.unchanged) {
      // The switch is committed: a failed append is the reconcile's to repair, not a failed sync.
      await recordSnapshotBecameCurrent(options.store, snapshot, load.delta ?? null).catch(
        (error: unknown) => {
          const message = error instanceof Error ? error.message : String(error);
          options.log?.(
            `${source.dataset}: warning: not yet recorded on its dataset stream (${message}); the monitoring worker's reconcile records it`,
          );
        },
      );
    }
    options.log?.(
      load.unchanged
        ? `${source.dataset}: unchanged, version ${snapshot.version} (${snapshot.id}) stays current`
        : `${source.dataset}: loaded version ${snapshot.version} (${snapshot.id}, ${snapshot.entityCount} entities)`,
    );
    return { dataset: source.dataset, format: source.format, ok: true, downloads: summaries, load };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A refused load's message, with what the sync config or the publisher would have to change. */
function syncRefusal(error: SnapshotLoadError, downloads: readonly Downloaded[]): string {
  if (error.code === 'partial_input') {
    return `${error.message}; add their URLs to the source, or set "allowPartial": true`;
  }
  if (error.code !== 'no_publication_date') return error.message;
  const undated = downloads.filter((d) => d.lastModified === undefined).map((d) => d.url);
  return undated.length > 0
    ? `${error.message}; ${undated.join(', ')} sent no Last-Modified header either, so nothing was loaded`
    : `${error.message}; nothing was loaded (set "publishedAtFrom": "last-modified" to date it by the server's Last-Modified)`;
}

/** URL file names, with a numeric prefix only where two URLs would share one. */
function uniqueFileNames(urls: readonly string[]): string[] {
  const names = urls.map(fileNameOf);
  return names.map((name, index) => (names.indexOf(name) === index ? name : `${index}-${name}`));
}

function newestLastModified(downloads: readonly Downloaded[]): Date | undefined {
  if (downloads.some((d) => d.lastModified === undefined)) return undefined;
  return downloads.reduce<Date | undefined>(
    (newest, d) => (!newest || d.lastModified! > newest ? d.lastModified : newest),
    undefined,
  );
}
