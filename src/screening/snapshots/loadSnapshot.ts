import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { isUniqueViolation } from '../../workspace/sql.js';
import type {
  DeltaFormat,
  EntityDelta,
  ListedEntity,
  ParseOptions,
  ParseProgress,
  SourceFormat,
} from '../model/listedEntity.js';
import { hashSourceFiles } from './contentHash.js';
import { ENTITY_BATCH_SIZE, EntityBatchWriter, entityJson, InvalidEntityError } from './entityRows.js';
import { currentSnapshots, type ReadySnapshot, SNAPSHOT_COLUMNS, toSnapshot } from './snapshotStore.js';

/**
 * Loading a list into a new snapshot version (docs/screening-sources.md).
 *
 * The snapshot row is created with status `loading`, entities are written in batches that each
 * commit on their own, and one short final transaction counts them, marks the snapshot `ready`,
 * gives it its version and makes it current. Only that transaction can make a snapshot current
 * (and a trigger refuses any snapshot that is not ready), so nothing half-loaded ever is; a failed
 * load's rows are deleted and the snapshot marked `failed`. One long transaction would have been
 * simpler, but every event-feed reader in the cluster waits behind the oldest open transaction
 * (ADR 0001): a multi-minute list load must not stall projections and reactors.
 *
 * A session advisory lock per dataset keeps loads of one dataset apart (a second one fails at once
 * with `busy`); a `loading` snapshot of the dataset found under that lock belongs to a loader that
 * died, and is cleaned up the same way as a failed one.
 */

export const DATASET_PATTERN = /^[a-z0-9][a-z0-9_.-]{0,99}$/;

export interface LoadSnapshotOptions {
  /** A SourceFormat loads a full list; a DeltaFormat applies changes to the current snapshot. */
  format: SourceFormat | DeltaFormat;
  paths: string[];
  /** Defaults to the format's dataset. */
  dataset?: string;
  /**
   * The publisher's date; when absent, the date the file states (if the format reads one). Newer
   * than the current snapshot's, it makes unchanged content a new version (see isUnchanged).
   */
  publishedAt?: Date;
  onProgress?: (progress: ParseProgress) => void;
  signal?: AbortSignal;
  batchSize?: number;
}

export interface DeltaSummary {
  added: number;
  modified: number;
  deleted: number;
  /** Deletions of ids the base snapshot did not have: ignored. */
  missingDeletes: number;
}

export interface LoadResult {
  /**
   * True when the input's content hash equals the current snapshot's (and no newer publisher date
   * was given): no new version was made.
   */
  unchanged: boolean;
  /** The new current snapshot, or the unchanged current one. */
  snapshot: ReadySnapshot;
  delta?: DeltaSummary;
}

export type SnapshotLoadErrorCode =
  | 'invalid_dataset'
  | 'busy'
  | 'no_current_snapshot'
  | 'duplicate_entity'
  | 'invalid_entity'
  | 'empty';

/** A load refused for a reason of its own (parse errors stay SourceParseError). */
export class SnapshotLoadError extends Error {
  override readonly name = 'SnapshotLoadError';
  constructor(
    readonly code: SnapshotLoadErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function isDeltaFormat(format: SourceFormat | DeltaFormat): format is DeltaFormat {
  return 'parseDelta' in format;
}

/**
 * The same bytes through the same format as the current snapshot, and no newer publisher date given
 * than the one it has. Same bytes with a newer date given (`--published-at`, a newer Last-Modified)
 * are a re-publication: the current snapshot is immutable and cannot take the date, so they become a
 * new version; otherwise a list that stays unchanged for longer than the staleness threshold could
 * never be confirmed current again.
 */
function isUnchanged(
  current: ReadySnapshot,
  hash: string,
  { format, publishedAt }: Pick<LoadSnapshotOptions, 'format' | 'publishedAt'>,
): boolean {
  if (current.contentHash !== hash || current.format !== format.name) return false;
  if (!publishedAt || isDeltaFormat(format)) return true;
  return current.publishedAt !== null && publishedAt.getTime() <= current.publishedAt.getTime();
}

export function newSnapshotId(): string {
  return `snap_${randomBytes(16).toString('hex')}`;
}

export async function loadSnapshot(pool: pg.Pool, options: LoadSnapshotOptions): Promise<LoadResult> {
  const { format } = options;
  const dataset = options.dataset ?? format.defaultDataset;
  if (!DATASET_PATTERN.test(dataset)) {
    throw new SnapshotLoadError(
      'invalid_dataset',
      `dataset "${dataset}" must be lowercase letters, digits, "_", "." or "-", at most 100 characters`,
    );
  }
  const input = await hashSourceFiles(options.paths);
  options.signal?.throwIfAborted();

  const client = await pool.connect();
  let broken = false;
  try {
    await lockDataset(client, dataset);
    try {
      const [current] = await currentSnapshots(client, [dataset]);
      if (current && isUnchanged(current, input.hash, options)) {
        return { unchanged: true, snapshot: current };
      }
      if (isDeltaFormat(format) && !current) {
        throw new SnapshotLoadError(
          'no_current_snapshot',
          `dataset ${dataset} has no current snapshot to apply the ${format.name} delta to; load a full list first`,
        );
      }
      await discardAbandonedLoads(client, dataset);
      const snapshotId = newSnapshotId();
      await client.query(
        `INSERT INTO source_snapshots (id, dataset, format, base_snapshot_id, content_hash, published_at)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [
          snapshotId,
          dataset,
          format.name,
          isDeltaFormat(format) ? current!.id : null,
          input.hash,
          options.publishedAt ?? null,
        ],
      );
      try {
        return await fillSnapshot(client, snapshotId, dataset, current, options);
      } catch (error) {
        // If even the clean-up fails (connection lost), the row stays `loading` and the next load
        // of the dataset discards it; the load's own error is what the caller needs to see.
        await discardLoad(client, snapshotId, describeFailure(error)).catch(() => {});
        throw translateError(error);
      }
    } finally {
      await unlockDataset(client, dataset).catch(() => {
        broken = true;
      });
    }
  } catch (error) {
    if (isConnectionError(error)) broken = true;
    throw error;
  } finally {
    client.release(broken);
  }
}

async function fillSnapshot(
  client: pg.PoolClient,
  snapshotId: string,
  dataset: string,
  current: ReadySnapshot | undefined,
  options: LoadSnapshotOptions,
): Promise<LoadResult> {
  let statedPublishedAt: Date | undefined;
  const parseOptions: ParseOptions = {
    dataset,
    onProgress: options.onProgress,
    onPublishedAt: (date) => {
      if (!Number.isNaN(date.getTime())) statedPublishedAt ??= date;
    },
  };
  const batchSize = options.batchSize ?? ENTITY_BATCH_SIZE;
  let delta: DeltaSummary | undefined;
  if (isDeltaFormat(options.format)) {
    const changes = options.format.parseDelta(options.paths, parseOptions);
    delta = await applyDelta(client, snapshotId, current!.id, changes, batchSize, options.signal);
  } else {
    const writer = new EntityBatchWriter(client, snapshotId, batchSize);
    for await (const entity of options.format.parse(options.paths, parseOptions)) {
      options.signal?.throwIfAborted();
      await writer.add(entity);
    }
    await writer.finish();
  }
  options.signal?.throwIfAborted();
  const snapshot = await makeCurrent(client, snapshotId, dataset, statedPublishedAt ?? null);
  return { unchanged: false, snapshot, ...(delta && { delta }) };
}

/**
 * Copies the base snapshot's entities (in pages, each its own statement) and applies the changes
 * in file order. Within a batch only an id's last change counts, which equals applying them one by
 * one since changes to different ids commute.
 */
async function applyDelta(
  client: pg.PoolClient,
  snapshotId: string,
  baseId: string,
  changes: AsyncIterable<EntityDelta>,
  batchSize: number,
  signal: AbortSignal | undefined,
): Promise<DeltaSummary> {
  await copyEntities(client, baseId, snapshotId, signal);
  const summary: DeltaSummary = { added: 0, modified: 0, deleted: 0, missingDeletes: 0 };
  let pending = new Map<string, ListedEntity | null>();
  const flush = async () => {
    const deletions = [...pending].filter(([, entity]) => entity === null).map(([id]) => id);
    const upserts = [...pending.values()].filter((entity): entity is ListedEntity => entity !== null);
    pending = new Map();
    if (deletions.length > 0) {
      const { rowCount } = await client.query(
        'DELETE FROM source_snapshot_entities WHERE snapshot_id = $1 AND entity_id = ANY ($2::text[])',
        [snapshotId, deletions],
      );
      summary.deleted += rowCount ?? 0;
      summary.missingDeletes += deletions.length - (rowCount ?? 0);
    }
    if (upserts.length > 0) {
      const { rows } = await client.query<{ added: number; modified: number }>(
        `WITH upserted AS (
           INSERT INTO source_snapshot_entities (snapshot_id, entity_id, entity)
           SELECT $1, e->>'id', e FROM jsonb_array_elements($2::jsonb) e
           ON CONFLICT (snapshot_id, entity_id) DO UPDATE SET entity = excluded.entity
           RETURNING xmax = 0 AS inserted)
         SELECT count(*) FILTER (WHERE inserted)::int AS added, count(*) FILTER (WHERE NOT inserted)::int AS modified
           FROM upserted`,
        [snapshotId, `[${upserts.map(entityJson).join(',')}]`],
      );
      summary.added += rows[0]!.added;
      summary.modified += rows[0]!.modified;
    }
  };
  for await (const change of changes) {
    signal?.throwIfAborted();
    if (change.op === 'upsert') {
      pending.delete(change.entity.id);
      pending.set(change.entity.id, change.entity);
    } else {
      pending.delete(change.id);
      pending.set(change.id, null);
    }
    if (pending.size >= batchSize) await flush();
  }
  await flush();
  return summary;
}

const COPY_PAGE_SIZE = 10_000;

async function copyEntities(
  client: pg.PoolClient,
  fromId: string,
  toId: string,
  signal: AbortSignal | undefined,
): Promise<void> {
  let after: string | null = null;
  for (;;) {
    signal?.throwIfAborted();
    const result: pg.QueryResult<{ copied: number; last: string | null }> = await client.query(
      `WITH page AS (
         SELECT entity_id, entity FROM source_snapshot_entities
          WHERE snapshot_id = $1 AND ($2::text IS NULL OR entity_id > $2)
          ORDER BY entity_id LIMIT $4),
       copied AS (
         INSERT INTO source_snapshot_entities (snapshot_id, entity_id, entity)
         SELECT $3, entity_id, entity FROM page)
       SELECT count(*)::int AS copied, max(entity_id) AS last FROM page`,
      [fromId, after, toId, COPY_PAGE_SIZE],
    );
    const page = result.rows[0]!;
    if (page.copied < COPY_PAGE_SIZE || page.last === null) return;
    after = page.last;
  }
}

/** The final switch: counts, `ready`, the next version, current; one short transaction. */
async function makeCurrent(
  client: pg.PoolClient,
  snapshotId: string,
  dataset: string,
  statedPublishedAt: Date | null,
): Promise<ReadySnapshot> {
  // Counted before the transaction starts writing: nothing else writes this snapshot (the lock), and
  // the scan need not run while the transaction holds a transaction id.
  const counts = await countEntities(client, snapshotId);
  if (counts.total === 0) {
    throw new SnapshotLoadError(
      'empty',
      'the list has no entities; an empty snapshot is refused so that it cannot replace the current one',
    );
  }
  await client.query('BEGIN');
  try {
    const { rows } = await client.query(
      `UPDATE source_snapshots s
          SET status = 'ready',
              version = (SELECT coalesce(max(version), 0) + 1 FROM source_snapshots WHERE dataset = $2),
              loaded_at = clock_timestamp(),
              published_at = coalesce(s.published_at, $3),
              entity_count = $4, counts_by_kind = $5, counts_by_topic = $6
        WHERE s.id = $1
        RETURNING ${SNAPSHOT_COLUMNS}`,
      [snapshotId, dataset, statedPublishedAt, counts.total, counts.byKind, counts.byTopic],
    );
    await client.query(
      `INSERT INTO source_dataset_current (dataset, snapshot_id) VALUES ($1, $2)
       ON CONFLICT (dataset) DO UPDATE SET snapshot_id = excluded.snapshot_id, updated_at = clock_timestamp()`,
      [dataset, snapshotId],
    );
    await client.query('COMMIT');
    return toSnapshot(rows[0]) as ReadySnapshot;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

async function countEntities(client: pg.PoolClient, snapshotId: string) {
  const kinds = await client.query<{ kind: string; n: number }>(
    `SELECT entity->>'kind' AS kind, count(*)::int AS n FROM source_snapshot_entities
      WHERE snapshot_id = $1 GROUP BY 1 ORDER BY 1`,
    [snapshotId],
  );
  const topics = await client.query<{ topic: string; n: number }>(
    `SELECT t.topic, count(*)::int AS n
       FROM source_snapshot_entities e
       CROSS JOIN LATERAL (SELECT DISTINCT jsonb_array_elements_text(e.entity->'topics') AS topic) t
      WHERE e.snapshot_id = $1 GROUP BY 1 ORDER BY 1`,
    [snapshotId],
  );
  return {
    total: kinds.rows.reduce((sum, row) => sum + row.n, 0),
    byKind: Object.fromEntries(kinds.rows.map((row) => [row.kind, row.n])),
    byTopic: Object.fromEntries(topics.rows.map((row) => [row.topic, row.n])),
  };
}

/** The advisory lock key of a dataset: loads (and retirements) of one dataset take turns. */
export const datasetLockKey = (dataset: string) => `casescreen:source-dataset:${dataset}`;

async function lockDataset(client: pg.PoolClient, dataset: string): Promise<void> {
  const { rows } = await client.query<{ locked: boolean }>(
    'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked',
    [datasetLockKey(dataset)],
  );
  if (!rows[0]!.locked) {
    throw new SnapshotLoadError('busy', `another load of dataset ${dataset} is in progress`);
  }
}

async function unlockDataset(client: pg.PoolClient, dataset: string): Promise<void> {
  await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [datasetLockKey(dataset)]);
}

/** Loads of the dataset still `loading` while we hold its lock: their loader died. */
async function discardAbandonedLoads(client: pg.PoolClient, dataset: string): Promise<void> {
  const { rows } = await client.query<{ id: string }>(
    "SELECT id FROM source_snapshots WHERE dataset = $1 AND status = 'loading'",
    [dataset],
  );
  for (const { id } of rows)
    await discardLoad(client, id, 'abandoned: the loading process ended before finishing');
}

async function discardLoad(client: pg.PoolClient, snapshotId: string, reason: string): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('DELETE FROM source_snapshot_entities WHERE snapshot_id = $1', [snapshotId]);
    await client.query("UPDATE source_snapshots SET status = 'failed', error = $2 WHERE id = $1", [
      snapshotId,
      reason.slice(0, 2000),
    ]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

function translateError(error: unknown): unknown {
  if (isUniqueViolation(error, 'source_snapshot_entities_pkey')) {
    const id = /=\(snap_[0-9a-f]+, (.*)\) already exists/s.exec(
      (error as { detail?: string }).detail ?? '',
    )?.[1];
    return new SnapshotLoadError(
      'duplicate_entity',
      `entity id ${id ?? '(unknown)'} occurs more than once in the list; ids must be unique within a load`,
    );
  }
  if (error instanceof InvalidEntityError) return new SnapshotLoadError('invalid_entity', error.message);
  return error;
}

function describeFailure(error: unknown): string {
  const translated = translateError(error);
  return translated instanceof Error ? translated.message : String(translated);
}

function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'ECONNRESET' || code === 'EPIPE' || code === '57P01';
}
