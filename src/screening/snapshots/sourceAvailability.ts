import type { Queryable } from '../../workspace/sql.js';
import { type CheckType, topicsForCheckType } from '../checkTypes.js';
import { currentSnapshots, type ReadySnapshot } from './snapshotStore.js';
import { freshness } from './staleness.js';

export interface SnapshotRef {
  id: string;
  dataset: string;
  version: number;
}

export interface CheckTypeAvailability {
  checkType: CheckType;
  /** At least one current, non-stale snapshot has entities with one of the check type's topics. */
  available: boolean;
  /** Current, non-stale snapshots with such entities: what a check of this type screens against. */
  snapshots: SnapshotRef[];
  /** Current snapshots with such entities that are stale (not to be screened against). */
  staleSnapshots: SnapshotRef[];
}

/**
 * Per requested check type, whether the sources to run it exist and are fresh: the case workflow
 * answers 503 `source_unavailable` otherwise, so that a missing list never reads as "no match".
 * One query: the current snapshots with their stored counts by topic.
 */
export async function sourceAvailability(
  db: Queryable,
  checkTypes: readonly CheckType[],
  now: Date,
  staleAfterMs: number,
): Promise<CheckTypeAvailability[]> {
  return availabilityOf(await currentSnapshots(db), checkTypes, now, staleAfterMs);
}

export function availabilityOf(
  current: readonly ReadySnapshot[],
  checkTypes: readonly CheckType[],
  now: Date,
  staleAfterMs: number,
): CheckTypeAvailability[] {
  return checkTypes.map((checkType) => {
    const topics = topicsForCheckType(checkType);
    const providing = current.filter((snapshot) =>
      topics.some((topic) => (snapshot.countsByTopic[topic] ?? 0) > 0),
    );
    const ref = ({ id, dataset, version }: ReadySnapshot): SnapshotRef => ({ id, dataset, version });
    const fresh = providing.filter((snapshot) => !freshness(snapshot, now, staleAfterMs).stale);
    const stale = providing.filter((snapshot) => freshness(snapshot, now, staleAfterMs).stale);
    return {
      checkType,
      available: fresh.length > 0,
      snapshots: fresh.map(ref),
      staleSnapshots: stale.map(ref),
    };
  });
}
