import type pg from 'pg';
import { preloadJapaneseReadings } from '../matching/vocabulary/japaneseReadings.js';
import {
  currentSnapshots,
  findSnapshot,
  type ReadySnapshot,
  readSnapshotEntities,
  SnapshotNotReadyError,
} from '../snapshots/snapshotStore.js';
import { type ScreeningIndex, ScreeningIndexBuilder } from './screeningIndex.js';

export interface LoadedIndex {
  index: ScreeningIndex;
  /** The snapshots indexed, one per dataset. */
  snapshots: ReadySnapshot[];
  buildMs: number;
}

/**
 * Builds the screening index from source snapshots: the current snapshot of every dataset, or the
 * given ones (one per dataset: two versions of a dataset would list every party twice). The
 * dictionary of Japanese name readings is read first, whatever the lists hold, so that no search
 * waits for it.
 */
export async function loadScreeningIndex(
  pool: pg.Pool,
  options: { snapshotIds?: readonly string[] } = {},
): Promise<LoadedIndex> {
  const started = performance.now();
  const snapshots = options.snapshotIds
    ? await readySnapshots(pool, options.snapshotIds)
    : await currentSnapshots(pool);
  preloadJapaneseReadings();
  const builder = new ScreeningIndexBuilder();
  for (const snapshot of snapshots) {
    for await (const entity of readSnapshotEntities(pool, snapshot.id)) builder.add(entity, snapshot.id);
  }
  return { index: builder.build(), snapshots, buildMs: performance.now() - started };
}

/** The given snapshots, each ready and of a dataset of its own, or SnapshotNotReadyError saying why not. */
export async function readySnapshots(pool: pg.Pool, ids: readonly string[]): Promise<ReadySnapshot[]> {
  const snapshots: ReadySnapshot[] = [];
  for (const id of new Set(ids)) {
    const snapshot = await findSnapshot(pool, id);
    if (snapshot?.status !== 'ready') {
      throw new SnapshotNotReadyError(
        snapshot
          ? `source snapshot ${id} is ${snapshot.status}`
          : `no source snapshot ${id} (casescreen sources snapshots lists them)`,
      );
    }
    const twin = snapshots.find((other) => other.dataset === snapshot.dataset);
    if (twin) {
      throw new SnapshotNotReadyError(
        `source snapshots ${twin.id} and ${id} are both of dataset ${snapshot.dataset}; screen against one version of a dataset at a time`,
      );
    }
    snapshots.push(snapshot as ReadySnapshot);
  }
  return snapshots;
}
