import type { Queryable } from '../../db/sql.js';
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
  /**
   * At least one current snapshot has entities with one of the check type's topics, and none of
   * those snapshots is stale. One stale list refuses the check type: screening the others alone
   * would read as "no match" against the stale list.
   */
  available: boolean;
  /** Current, fresh snapshots with such entities: what a check of this type screens against when available. */
  snapshots: SnapshotRef[];
  /** Current snapshots with such entities that are stale: any one makes the check type unavailable. */
  staleSnapshots: SnapshotRef[];
}

/**
 * Per requested check type, whether the sources to run it exist and are all fresh: the case
 * workflow answers 503 `source_unavailable` otherwise (naming the stale datasets), so that a
 * missing or stale list never reads as "no match". One query: the current snapshots with their
 * stored counts by topic.
 */
export async function sourceAvailability(
  db: Queryable,
  checkTypes: readonly CheckType[],
  now: Date,
  staleAfterMs: number,
  datasets?: readonly string[],
): Promise<CheckTypeAvailability[]> {
  return availabilityOf(await currentSnapshots(db), checkTypes, now, staleAfterMs, datasets);
}

/**
 * `datasets` narrows the sources to those a screening profile searches (`us-ofac`): a check of such
 * a profile is only as good as those datasets, whatever else is loaded. A dataset an aggregated
 * snapshot merely contains (an FtM entity's other datasets) does not count: a profile restricted to
 * datasets needs them loaded as snapshots of their own.
 */
export function availabilityOf(
  current: readonly ReadySnapshot[],
  checkTypes: readonly CheckType[],
  now: Date,
  staleAfterMs: number,
  datasets?: readonly string[],
): CheckTypeAvailability[] {
  const ref = ({ id, dataset, version }: ReadySnapshot): SnapshotRef => ({ id, dataset, version });
  return checkTypes.map((checkType) => {
    const topics = topicsForCheckType(checkType);
    const providing = current.filter(
      (snapshot) =>
        (!datasets || datasets.includes(snapshot.dataset)) &&
        topics.some((topic) => (snapshot.countsByTopic[topic] ?? 0) > 0),
    );
    const fresh: ReadySnapshot[] = [];
    const stale: ReadySnapshot[] = [];
    for (const snapshot of providing) {
      (freshness(snapshot, now, staleAfterMs).stale ? stale : fresh).push(snapshot);
    }
    return {
      checkType,
      available: fresh.length > 0 && stale.length === 0,
      snapshots: fresh.map(ref),
      staleSnapshots: stale.map(ref),
    };
  });
}
