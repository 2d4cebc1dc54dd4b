import type { Queryable } from '../../db/sql.js';
import type { ListedEntity } from '../../screening/model/listedEntity.js';

/**
 * The difference between two snapshots of a dataset, entity by entity (same entity id): what a
 * new current snapshot added, changed and removed. Monitoring re-screens only the subjects these
 * entities can match (monitoredSubjectIndex.ts) and decides which changes are material
 * (materialChanges.ts).
 *
 * PostgreSQL compares the entities (jsonb equality ignores key order and whitespace), so only the
 * entities that differ cross the wire. Pages are ranges of entity ids, bounded by the next
 * PAGE_SIZE ids of the current snapshot (and, after its last id, whatever the previous one has
 * left), so each page reads about PAGE_SIZE rows of each side through the primary key, however
 * few or many of them differ.
 */

export interface EntityChange {
  previous: ListedEntity;
  current: ListedEntity;
}

export interface SnapshotDiff {
  /** In the current snapshot only. */
  added: ListedEntity[];
  /** In both, with a different entity. */
  changed: EntityChange[];
  /** In the previous snapshot only. */
  removed: ListedEntity[];
}

export const DIFF_PAGE_SIZE = 5000;

/** The whole difference at once; previous null (a dataset's first snapshot): everything is added. */
export async function diffSnapshots(
  db: Queryable,
  previousSnapshotId: string | null,
  currentSnapshotId: string,
  options: { pageSize?: number } = {},
): Promise<SnapshotDiff> {
  const diff: SnapshotDiff = { added: [], changed: [], removed: [] };
  for await (const page of snapshotDiffPages(db, previousSnapshotId, currentSnapshotId, options)) {
    diff.added.push(...page.added);
    diff.changed.push(...page.changed);
    diff.removed.push(...page.removed);
  }
  return diff;
}

/** The difference a page at a time, in entity id order (for a caller that streams a large one). */
export async function* snapshotDiffPages(
  db: Queryable,
  previousSnapshotId: string | null,
  currentSnapshotId: string,
  options: { pageSize?: number } = {},
): AsyncGenerator<SnapshotDiff> {
  const pageSize = options.pageSize ?? DIFF_PAGE_SIZE;
  let after: string | null = null;
  for (;;) {
    // `upto` is the last of the next pageSize ids of the current snapshot; null once it has none
    // left, when the page runs to the end of both snapshots.
    const result: { rows: DiffRow[] } = await db.query<DiffRow>(
      `WITH bound AS (
         SELECT max(entity_id) AS upto, count(*) AS n FROM (
           SELECT entity_id FROM source_snapshot_entities
            WHERE snapshot_id = $2 AND ($3::text IS NULL OR entity_id > $3)
            ORDER BY entity_id LIMIT $4) ids),
       previous AS (
         SELECT entity_id, entity FROM source_snapshot_entities, bound
          WHERE snapshot_id = $1 AND ($3::text IS NULL OR entity_id > $3)
            AND (bound.n < $4 OR entity_id <= bound.upto)),
       current AS (
         SELECT entity_id, entity FROM source_snapshot_entities, bound
          WHERE snapshot_id = $2 AND ($3::text IS NULL OR entity_id > $3)
            AND (bound.n < $4 OR entity_id <= bound.upto))
       SELECT coalesce(p.entity_id, c.entity_id) AS entity_id, p.entity AS previous, c.entity AS current,
              (SELECT CASE WHEN n < $4 THEN NULL ELSE upto END FROM bound) AS upto
         FROM previous p FULL OUTER JOIN current c ON c.entity_id = p.entity_id
        WHERE p.entity IS DISTINCT FROM c.entity
       UNION ALL
       SELECT NULL, NULL, NULL, CASE WHEN n < $4 THEN NULL ELSE upto END FROM bound
        ORDER BY 1 NULLS LAST`,
      [previousSnapshotId, currentSnapshotId, after, pageSize],
    );
    // The last row is the page's bound alone; the others are the entities that differ.
    const rows = result.rows;
    const bound: string | null = rows.pop()!.upto;
    const page: SnapshotDiff = { added: [], changed: [], removed: [] };
    for (const row of rows) {
      if (!row.previous) page.added.push(row.current!);
      else if (!row.current) page.removed.push(row.previous);
      else page.changed.push({ previous: row.previous, current: row.current });
    }
    if (rows.length > 0) yield page;
    if (bound === null) return;
    after = bound;
  }
}

interface DiffRow {
  entity_id: string | null;
  previous: ListedEntity | null;
  current: ListedEntity | null;
  upto: string | null;
}
