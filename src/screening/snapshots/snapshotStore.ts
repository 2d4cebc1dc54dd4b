import type pg from 'pg';
import type { Queryable } from '../../db/sql.js';
import type { ListedEntity } from '../model/listedEntity.js';
import { type Freshness, freshness } from './staleness.js';

/** Reading source snapshots (docs/screening-sources.md); loadSnapshot.ts writes them. */

export type SnapshotStatus = 'loading' | 'ready' | 'failed';

export interface SourceSnapshot {
  id: string;
  dataset: string;
  format: string;
  status: SnapshotStatus;
  /** 1, 2, ... per dataset, given when the load succeeds; null while loading and for failed loads. */
  version: number | null;
  /** The snapshot a delta was applied to. */
  baseSnapshotId: string | null;
  /** sha256 (hex) of the input files (contentHash.ts). */
  contentHash: string;
  /**
   * The publisher's date of the list, what staleness is measured from. Every snapshot made ready
   * since migration 9 has one; older ones may not, and are stale (staleness.ts).
   */
  publishedAt: Date | null;
  /** Companion files a partial load went ahead without (`--allow-partial`): `alt.csv`, ... */
  missingFiles: string[];
  startedAt: Date;
  loadedAt: Date | null;
  entityCount: number | null;
  countsByKind: Record<string, number> | null;
  /** Entities per topic (an entity with two topics counts under each). */
  countsByTopic: Record<string, number> | null;
  error: string | null;
}

export interface ReadySnapshot extends SourceSnapshot {
  status: 'ready';
  version: number;
  loadedAt: Date;
  entityCount: number;
  countsByKind: Record<string, number>;
  countsByTopic: Record<string, number>;
}

export const SNAPSHOT_COLUMNS = `s.id, s.dataset, s.format, s.status, s.version, s.base_snapshot_id, s.content_hash,
  s.published_at, s.missing_files, s.started_at, s.loaded_at, s.entity_count, s.counts_by_kind, s.counts_by_topic, s.error`;

interface SnapshotRow {
  id: string;
  dataset: string;
  format: string;
  status: SnapshotStatus;
  version: number | null;
  base_snapshot_id: string | null;
  content_hash: string;
  published_at: Date | null;
  missing_files: string[];
  started_at: Date;
  loaded_at: Date | null;
  entity_count: number | null;
  counts_by_kind: Record<string, number> | null;
  counts_by_topic: Record<string, number> | null;
  error: string | null;
}

export function toSnapshot(row: SnapshotRow): SourceSnapshot {
  return {
    id: row.id,
    dataset: row.dataset,
    format: row.format,
    status: row.status,
    version: row.version,
    baseSnapshotId: row.base_snapshot_id,
    contentHash: row.content_hash,
    publishedAt: row.published_at,
    missingFiles: row.missing_files,
    startedAt: row.started_at,
    loadedAt: row.loaded_at,
    entityCount: row.entity_count,
    countsByKind: row.counts_by_kind,
    countsByTopic: row.counts_by_topic,
    error: row.error,
  };
}

export async function findSnapshot(db: Queryable, id: string): Promise<SourceSnapshot | undefined> {
  const { rows } = await db.query<SnapshotRow>(
    `SELECT ${SNAPSHOT_COLUMNS} FROM source_snapshots s WHERE s.id = $1`,
    [id],
  );
  return rows[0] && toSnapshot(rows[0]);
}

const CURRENT_SNAPSHOTS_FROM = 'source_dataset_current c JOIN source_snapshots s ON s.id = c.snapshot_id';

/** The current snapshot of every dataset, or of the given ones (those without one are left out). */
export async function currentSnapshots(
  db: Queryable,
  datasets?: readonly string[],
): Promise<ReadySnapshot[]> {
  const { rows } = await db.query<SnapshotRow>(
    `SELECT ${SNAPSHOT_COLUMNS}
       FROM ${CURRENT_SNAPSHOTS_FROM}
      WHERE $1::text[] IS NULL OR c.dataset = ANY ($1::text[])
      ORDER BY c.dataset`,
    [datasets ?? null],
  );
  return rows.map((row) => toSnapshot(row) as ReadySnapshot);
}

/**
 * Every dataset's current snapshot as one JSON array expression, for a statement that reads other
 * things in the same round trip (src/cases/caseCreationReads.ts); `currentSnapshotsOfJson` maps it.
 */
export const CURRENT_SNAPSHOTS_JSON = `(SELECT coalesce(json_agg(row_to_json(current) ORDER BY current.dataset), '[]'::json)
    FROM (SELECT ${SNAPSHOT_COLUMNS} FROM ${CURRENT_SNAPSHOTS_FROM}) current)`;

type JsonTimestamps<Row> = { [K in keyof Row]: Row[K] extends Date | null ? string | null : Row[K] };

export function currentSnapshotsOfJson(rows: readonly JsonTimestamps<SnapshotRow>[]): ReadySnapshot[] {
  const date = (text: string | null) => (text === null ? null : new Date(text));
  return rows.map(
    (row) =>
      toSnapshot({
        ...row,
        published_at: date(row.published_at),
        started_at: new Date(row.started_at!),
        loaded_at: date(row.loaded_at),
      }) as ReadySnapshot,
  );
}

/** Every load attempt, newest first: ready versions, failed loads and loads in progress. */
export async function listSnapshots(
  db: Queryable,
  options: { dataset?: string; limit?: number } = {},
): Promise<(SourceSnapshot & { current: boolean })[]> {
  const { rows } = await db.query<SnapshotRow & { current: boolean }>(
    `SELECT ${SNAPSHOT_COLUMNS}, c.snapshot_id IS NOT NULL AS current
       FROM source_snapshots s LEFT JOIN source_dataset_current c ON c.snapshot_id = s.id
      WHERE $1::text IS NULL OR s.dataset = $1
      ORDER BY s.dataset, s.started_at DESC, s.id
      LIMIT $2`,
    [options.dataset ?? null, options.limit ?? 1000],
  );
  return rows.map((row) => ({ ...toSnapshot(row), current: row.current }));
}

export type DatasetStatus = Freshness & {
  dataset: string;
  snapshot: ReadySnapshot;
};

/** Each dataset with its current snapshot and whether that is stale at `now`. */
export async function listDatasets(db: Queryable, now: Date, staleAfterMs: number): Promise<DatasetStatus[]> {
  const current = await currentSnapshots(db);
  return current.map((snapshot) => ({
    dataset: snapshot.dataset,
    snapshot,
    ...freshness(snapshot, now, staleAfterMs),
  }));
}

export class SnapshotNotReadyError extends Error {
  override readonly name = 'SnapshotNotReadyError';
}

/**
 * The entities of a ready snapshot in entity id order, a page at a time (keyset pagination on the
 * primary key, the next page fetched while the caller works on this one). Snapshots are immutable,
 * so pages need no transaction; nothing holds a connection while a slow consumer (the index
 * builder) works through millions of entities.
 */
export async function* readSnapshotEntities(
  pool: pg.Pool,
  snapshotId: string,
  options: { pageSize?: number } = {},
): AsyncGenerator<ListedEntity> {
  const pageSize = options.pageSize ?? 2000;
  const snapshot = await findSnapshot(pool, snapshotId);
  if (snapshot?.status !== 'ready') {
    throw new SnapshotNotReadyError(
      snapshot ? `source snapshot ${snapshotId} is ${snapshot.status}` : `no source snapshot ${snapshotId}`,
    );
  }
  const page = (after: string | null) => {
    const query = pool.query<{ entity_id: string; entity: ListedEntity }>(
      `SELECT entity_id, entity FROM source_snapshot_entities
        WHERE snapshot_id = $1 AND ($2::text IS NULL OR entity_id > $2)
        ORDER BY entity_id LIMIT $3`,
      [snapshotId, after, pageSize],
    );
    // A consumer that stops early leaves the prefetched page unread; its failure is nobody's error.
    query.catch(() => {});
    return query;
  };
  let next = page(null);
  for (;;) {
    const { rows } = await next;
    const last = rows.at(-1);
    if (rows.length === pageSize && last) next = page(last.entity_id);
    for (const row of rows) yield row.entity;
    if (rows.length < pageSize) return;
  }
}
