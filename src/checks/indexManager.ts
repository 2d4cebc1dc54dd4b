import type pg from 'pg';
import { type LoadedIndex, loadScreeningIndex } from '../screening/index/loadIndex.js';
import { currentSnapshots, type ReadySnapshot } from '../screening/snapshots/snapshotStore.js';
import { type Logger, silentLogger } from '../shared/logger.js';
import { describeError } from '../subscriptions/failurePolicy.js';
import { IndexBuildError } from './failureReasons.js';

/**
 * One in-memory screening index per process, built from the current source snapshots and rebuilt
 * when the set of current snapshot ids changes (docs/check-runner.md, "The index manager").
 *
 * - `currentSnapshots()` is what each job asks first: one query of the current snapshots (ids,
 *   versions, dates, counts by topic), shared by every job within `refreshMs`.
 * - `indexFor(current, needed)` gives an index holding every snapshot the check needs. The index of
 *   exactly `current` is built when it is not there yet; while it builds, the index already loaded
 *   serves the jobs it covers (their snapshots did not change), and the others wait for the build.
 *   A job never gets an index without one of its snapshots, so a newly loaded list is never
 *   silently left out.
 * - One build at a time per process: a build started for an older set finishes first, then the
 *   next one starts if the set still differs. The first jobs of a process wait for the first build.
 * - A build that fails rejects the jobs that wait for it (they retry with backoff); the next job
 *   starts a new build.
 */
export interface IndexManagerOptions {
  pool: pg.Pool;
  logger?: Logger;
  /** How long one reading of the current snapshots serves the jobs that ask. */
  refreshMs?: number;
  /** Builds an index of these snapshots (a test seam; loadScreeningIndex by default). */
  load?: (pool: pg.Pool, snapshotIds: readonly string[]) => Promise<LoadedIndex>;
}

export interface IndexManagerStats {
  builds: number;
  failedBuilds: number;
  lastBuildMs: number | null;
  /** The snapshot ids of the loaded index. */
  snapshotIds: string[];
  building: boolean;
}

const keyOf = (ids: Iterable<string>) => [...ids].sort().join(',');

export class IndexManager {
  private readonly pool: pg.Pool;
  private readonly logger: Logger;
  private readonly refreshMs: number;
  private readonly load: (pool: pg.Pool, snapshotIds: readonly string[]) => Promise<LoadedIndex>;
  private loaded: { key: string; index: LoadedIndex } | undefined;
  private build: { key: string; promise: Promise<LoadedIndex> } | undefined;
  private reading: { at: number; promise: Promise<ReadySnapshot[]> } | undefined;
  private builds = 0;
  private failedBuilds = 0;
  private closed = false;

  constructor(options: IndexManagerOptions) {
    this.pool = options.pool;
    this.logger = options.logger ?? silentLogger;
    this.refreshMs = options.refreshMs ?? 1_500;
    this.load = options.load ?? ((pool, snapshotIds) => loadScreeningIndex(pool, { snapshotIds }));
  }

  /**
   * The current snapshots, read at most once per `refreshMs` (concurrent callers share one query);
   * `fresh` reads them now, for a decision that must not rest on a reading a moment old.
   */
  currentSnapshots(options: { fresh?: boolean } = {}): Promise<ReadySnapshot[]> {
    const now = performance.now();
    if (!this.reading || options.fresh || now - this.reading.at >= this.refreshMs) {
      const promise = currentSnapshots(this.pool);
      this.reading = { at: now, promise };
      // A failed reading must not be served to the next caller.
      promise.catch(() => {
        if (this.reading?.promise === promise) this.reading = undefined;
      });
    }
    return this.reading.promise;
  }

  /**
   * An index holding every snapshot of `needed` (ids among `current`). Starts the build of `current`
   * when the loaded index is of another set; waits for it only when the loaded index lacks a needed
   * snapshot. Rejects with the build's error, or when `signal` aborts the wait.
   */
  async indexFor(
    current: readonly ReadySnapshot[],
    needed: readonly string[],
    signal?: AbortSignal,
  ): Promise<LoadedIndex> {
    const ids = current.map((snapshot) => snapshot.id);
    const key = keyOf(ids);
    for (;;) {
      if (this.closed) throw new Error('the index manager is closed');
      if (this.loaded?.key === key) return this.loaded.index;
      if (!this.build) this.startBuild(key, ids);
      if (this.loaded && covers(this.loaded.index, needed)) return this.loaded.index;
      await abortable(this.build!.promise, signal);
    }
  }

  /**
   * Resolves once the process has an index (or its first build failed: jobs then fail or retry with
   * the build's error). A starting worker waits here before it claims a job, so that no claim is
   * held through the first build, the longest pause of its event loop (see CHECK_LEASE).
   */
  async firstIndex(signal?: AbortSignal): Promise<void> {
    if (this.loaded) return;
    try {
      await this.indexFor(await this.currentSnapshots(), [], signal);
    } catch {
      // Reported by the build itself, or the wait was aborted (the runner stops).
    }
  }

  /** Starts building the index of the current snapshots now (at start-up), so the first job waits less. */
  warmUp(): void {
    this.currentSnapshots()
      .then((current) => this.indexFor(current, []))
      .catch((error: unknown) => {
        if (!this.closed) this.logger.warn({ error: describeError(error) }, 'screening index warm-up failed');
      });
  }

  stats(): IndexManagerStats {
    return {
      builds: this.builds,
      failedBuilds: this.failedBuilds,
      lastBuildMs: this.loaded ? Math.round(this.loaded.index.buildMs) : null,
      snapshotIds: this.loaded ? this.loaded.index.snapshots.map((snapshot) => snapshot.id) : [],
      building: this.build !== undefined,
    };
  }

  /** No new builds; a build in flight ends on its own (its result is dropped). */
  close(): void {
    this.closed = true;
    this.loaded = undefined;
  }

  private startBuild(key: string, ids: readonly string[]): void {
    this.logger.info({ snapshotIds: ids }, 'building the screening index');
    const promise = this.load(this.pool, ids).catch((error: unknown) => {
      throw new IndexBuildError(describeError(error), { cause: error });
    });
    const build = { key, promise };
    this.build = build;
    promise.then(
      (index) => {
        this.build = undefined;
        this.builds++;
        if (this.closed) return;
        this.loaded = { key, index };
        const stats = index.index.stats();
        this.logger.info(
          {
            snapshotIds: ids,
            buildMs: Math.round(index.buildMs),
            entities: stats.entities,
            names: stats.names,
            heapUsedMb: Math.round(process.memoryUsage().heapUsed / 1_048_576),
          },
          'screening index built',
        );
      },
      (error: unknown) => {
        this.build = undefined;
        this.failedBuilds++;
        if (!this.closed) {
          this.logger.error(
            { snapshotIds: ids, error: describeError(error) },
            'building the screening index failed',
          );
        }
      },
    );
  }
}

function covers(index: LoadedIndex, needed: readonly string[]): boolean {
  const held = new Set(index.snapshots.map((snapshot) => snapshot.id));
  return needed.every((id) => held.has(id));
}

export class WaitAbortedError extends Error {
  override readonly name = 'WaitAbortedError';
}

/** `promise`, or a WaitAbortedError as soon as `signal` aborts (the promise itself goes on). */
export function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new WaitAbortedError('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new WaitAbortedError('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
