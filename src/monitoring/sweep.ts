import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type pg from 'pg';
import { defaultProfile } from '../screening/scoring/profiles.js';
import type { MonitoredSubjects } from './delta/monitoredSubjects.js';
import { diffSnapshots } from './delta/snapshotDiff.js';
import { insertRuns, queuedRun } from './monitoringScheduler.js';

/**
 * Delta re-screening of one list version (docs/monitoring.md, "The reverse index"): instead of
 * running every configuration when a list changes, run those the change can affect:
 *
 * 1. the difference from the previous version: parties added, changed and removed;
 * 2. the active configurations whose subject an added or changed party can match, found by
 *    screening the party against an index of the monitored subjects (reverse screening, with the
 *    guarantee that every subject the forward screen would match is among the candidates);
 * 3. the configurations that observed a changed, removed or re-added party (observed_entity_ids);
 * 4. the configurations whose last run was skipped for missing or stale sources.
 *
 * Each of those gets a full run (the same run as any other), so the alerts are exactly those a
 * re-screen of every configuration would raise: the others would find nothing new.
 */
export interface SweepStats {
  added: number;
  changed: number;
  removed: number;
  /** Active configurations in the reverse index: 0 when nothing was added or changed. */
  activeConfigs: number;
  byReverseIndex: number;
  byObservation: number;
  skippedBefore: number;
  queued: number;
  ms: number;
  /** Where the time went (operations; the monitoring benchmark prints them). */
  diffMs: number;
  /** Bringing the reverse index of the subjects up to date (it is kept warm: MonitoredSubjects). */
  indexBuildMs: number;
  /** The reverse screening of the added and changed parties. */
  searchMs: number;
  /** Configs observing a touched party, configs skipped before, and queueing the runs. */
  queueMs: number;
}

export async function sweepSnapshot(
  pool: pg.Pool,
  sweep: { snapshotId: string; previousSnapshotId: string | null },
  subjects: MonitoredSubjects,
): Promise<SweepStats> {
  const began = performance.now();
  const diff = await diffSnapshots(pool, sweep.previousSnapshotId, sweep.snapshotId);
  const diffed = performance.now();
  const touched = [...diff.added, ...diff.changed.map((change) => change.current)];
  const touchedIds = [...touched.map((entity) => entity.id), ...diff.removed.map((entity) => entity.id)];

  // Only an added or changed party can match a subject it did not match before: a version that
  // only removes parties (a delisting day) needs no reverse screening.
  const affected = new Set<string>();
  let activeConfigs = 0;
  let built = performance.now();
  if (touched.length > 0) {
    const profile = defaultProfile();
    activeConfigs = await subjects.withCurrent(async (index) => {
      built = performance.now();
      // No subject to find (a first list version, before any enrollment): nothing to prepare.
      if (index.size === 0) return 0;
      function* search() {
        for (const entity of touched) {
          for (const key of yield* index.candidateSteps(entity, profile)) affected.add(key);
          yield;
        }
      }
      await inSlices(search());
      return index.size;
    });
  }
  const byReverseIndex = affected.size;
  const searched = performance.now();
  const observing = await configsObserving(pool, touchedIds);
  for (const id of observing) affected.add(id);
  const skipped = await skippedConfigs(pool);
  for (const id of skipped) affected.add(id);

  const runs = [...affected].map((id) =>
    queuedRun(id, { kind: 'snapshot', snapshotIds: [sweep.snapshotId] }, `snapshot:${sweep.snapshotId}`),
  );
  let queued = 0;
  for (let i = 0; i < runs.length; i += 1000) queued += await insertRuns(pool, runs.slice(i, i + 1000));
  const ended = performance.now();
  return {
    added: diff.added.length,
    changed: diff.changed.length,
    removed: diff.removed.length,
    activeConfigs,
    byReverseIndex,
    byObservation: observing.length,
    skippedBefore: skipped.length,
    queued,
    ms: Math.round(ended - began),
    diffMs: Math.round(diffed - began),
    indexBuildMs: Math.round(built - diffed),
    searchMs: Math.round(searched - built),
    queueMs: Math.round(ended - searched),
  };
}

/** The longest stretch the reverse search holds the event loop (runs, projections and checks share it). */
export const SEARCH_SLICE_MS = 20;

/**
 * Takes the steps one after another, yielding to the event loop whenever a stretch of them has
 * taken `sliceMs`: searching a large change takes seconds, which would otherwise stall everything
 * else the process does (the other workers' runs, and in the `work` role the checks, projections
 * and webhook deliveries). A step is short (a party's search is cut in steps of a few dozen name
 * groups), so no stretch runs much past the slice.
 */
export async function inSlices(
  steps: Iterable<unknown>,
  options: { sliceMs?: number; now?: () => number; yieldNow?: () => Promise<void> } = {},
): Promise<void> {
  const sliceMs = options.sliceMs ?? SEARCH_SLICE_MS;
  const now = options.now ?? (() => performance.now());
  const yieldNow = options.yieldNow ?? (() => yieldToEventLoop());
  let sliceStart = now();
  for (const _ of steps) {
    if (now() - sliceStart >= sliceMs) {
      await yieldNow();
      sliceStart = now();
    }
  }
}

/** The active configurations that observed any of the parties $1 (a GIN index serves it). */
export const CONFIGS_OBSERVING_SQL = `SELECT monitoring_config_id AS id FROM monitoring_configs
  WHERE status = 'active' AND observed_entity_ids ?| $1::text[]`;

async function configsObserving(pool: pg.Pool, entityIds: readonly string[]): Promise<string[]> {
  if (entityIds.length === 0) return [];
  const { rows } = await pool.query<{ id: string }>(CONFIGS_OBSERVING_SQL, [entityIds]);
  return rows.map((row) => row.id);
}

/** The active configurations whose latest run was skipped (an index on latest_result serves it). */
export const CONFIGS_SKIPPED_SQL = `SELECT monitoring_config_id AS id FROM monitoring_configs
  WHERE status = 'active' AND latest_result = 'skipped'`;

async function skippedConfigs(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query<{ id: string }>(CONFIGS_SKIPPED_SQL);
  return rows.map((row) => row.id);
}
