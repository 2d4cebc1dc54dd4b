import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { isUniqueViolation } from '../../db/sql.js';
import {
  type DeltaFormat,
  type EntityDelta,
  type ListedEntity,
  type MissingFile,
  type ParseOptions,
  type ParseProgress,
  type SourceFormat,
  SourceParseError,
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
 * Every snapshot has the publisher's date of its list, which staleness is measured from: given
 * (`publishedAt`) or stated by the files; a load with neither is refused (checkLoadInput for
 * formats whose files state none, at the end of the parse for those whose file failed to). So is
 * an input lacking companion files its format expects (an OFAC CSV set without alt.csv), unless
 * `allowPartial` says so; the snapshot then records what it lacks.
 *
 * A list whose publication date is before the current snapshot's (a delta: not after its base's)
 * is refused like a parse error (checkPublicationOrder): a load never silently rolls a dataset back.
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
   * The publisher's date; when absent, the date the file states. Required for a format whose files
   * state none (no `datedBy`). Newer than the current snapshot's, it makes unchanged content a new
   * version (see isUnchanged).
   */
  publishedAt?: Date;
  /**
   * Load an input that lacks companion files its format expects (`missingFiles`); the snapshot
   * records which. Refused otherwise: the list would silently lose what they hold.
   */
  allowPartial?: boolean;
  /**
   * Which publication dates a full list may have, compared with the current snapshot's (when both
   * are known): `not-older` (the default) refuses an older one, which would silently roll the
   * dataset back; `newer` refuses an equal one too (sync: only news is loaded); `any` loads an older
   * one as the next version (an operator replacing a bad publication). A delta always needs a newer
   * date than its base, whatever this says: an older delta applied on top would undo later changes.
   */
  publicationOrder?: PublicationOrder;
  onProgress?: (progress: ParseProgress) => void;
  signal?: AbortSignal;
  batchSize?: number;
  /**
   * How to name input files in errors, by path (sync: the URL a temporary download came from, since
   * the file is deleted once the load ends).
   */
  fileLabels?: ReadonlyMap<string, string>;
}

export type PublicationOrder = 'newer' | 'not-older' | 'any';

/**
 * The net change from the base snapshot to the new one, whatever the order of the changes and the
 * batch size: an entity added then deleted by the delta counts nowhere.
 */
export interface DeltaSummary {
  /** In the new snapshot, not in the base. */
  added: number;
  /** In both, with a different entity. */
  modified: number;
  /** In the base, not in the new snapshot. */
  deleted: number;
  /** Deletions of ids the snapshot did not have when the deletion came (nor earlier changes): ignored. */
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
  | 'empty'
  | 'outdated_publication'
  | 'no_publication_date'
  | 'partial_input'
  | 'undated_base';

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

/** An input lacking companion files (`partial_input`): which, and what each would have added. */
export class PartialInputError extends SnapshotLoadError {
  constructor(
    format: SourceFormat | DeltaFormat,
    readonly missingFiles: readonly MissingFile[],
  ) {
    const missing = missingFiles.map((file) => `${file.name} (${file.holds})`).join(', ');
    super('partial_input', `incomplete ${format.name} input: without ${missing}`);
  }
}

export function isDeltaFormat(format: SourceFormat | DeltaFormat): format is DeltaFormat {
  return 'parseDelta' in format;
}

/**
 * What can be told of a load's input without reading it or the database: a format whose files state
 * no publication date needs one given, and an input lacking companion files of its format needs
 * `allowPartial`. The missing files a partial load goes ahead without. `loadSnapshot` checks this
 * itself; the CLI calls it first as well, to refuse bad input before it opens the database.
 */
export async function checkLoadInput(
  options: Pick<LoadSnapshotOptions, 'format' | 'paths' | 'publishedAt' | 'allowPartial'>,
): Promise<MissingFile[]> {
  const { format } = options;
  if (!format.datedBy && !options.publishedAt) {
    throw new SnapshotLoadError(
      'no_publication_date',
      `the ${format.name} files state no publication date, and staleness is measured from it`,
    );
  }
  const missing = (await format.missingFiles?.(options.paths)) ?? [];
  if (missing.length > 0 && !options.allowPartial) throw new PartialInputError(format, missing);
  return missing;
}

/**
 * The same bytes through the same format as the current snapshot, and no newer publisher date given
 * than the one it has. Same bytes with a newer date given (`--published-at`, a newer Last-Modified)
 * are a re-publication: the current snapshot is immutable and cannot take the date, so they become a
 * new version; otherwise a list that stays unchanged for longer than the staleness threshold could
 * never be confirmed current again. A current full list without a date (loaded before every load
 * needed one) is never "unchanged": the same bytes, now dated, replace it.
 */
function isUnchanged(
  current: ReadySnapshot,
  hash: string,
  { format, publishedAt }: Pick<LoadSnapshotOptions, 'format' | 'publishedAt'>,
): boolean {
  if (current.contentHash !== hash || current.format !== format.name) return false;
  if (isDeltaFormat(format)) return true;
  if (!current.publishedAt) return false;
  return !publishedAt || publishedAt.getTime() <= current.publishedAt.getTime();
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
  const missingFiles = await checkLoadInput(options);
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
      if (isDeltaFormat(format) && !current!.publishedAt) {
        // A delta must follow its base; with the base's date unknown nothing shows it does, and the
        // delta's date would make a list of unknown age look fresh.
        throw new SnapshotLoadError(
          'undated_base',
          `dataset ${dataset} version ${current!.version} (${current!.id}) has no publication date (loaded before every load needed one), so a delta cannot be shown to follow it; load a full list first`,
        );
      }
      await discardAbandonedLoads(client, dataset);
      const snapshotId = newSnapshotId();
      await client.query(
        `INSERT INTO source_snapshots (id, dataset, format, base_snapshot_id, content_hash, published_at, missing_files)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [
          snapshotId,
          dataset,
          format.name,
          isDeltaFormat(format) ? current!.id : null,
          input.hash,
          options.publishedAt ?? null,
          missingFiles.map((file) => file.name),
        ],
      );
      try {
        return await fillSnapshot(client, snapshotId, dataset, current, options);
      } catch (error) {
        const failure = labelFiles(translateError(error), options.fileLabels);
        // If even the clean-up fails (connection lost), the row stays `loading` and the next load
        // of the dataset discards it; the load's own error is what the caller needs to see.
        await discardLoad(client, snapshotId, describeFailure(failure)).catch(() => {});
        throw failure;
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
  // Checked as soon as the date is known (formats state it before their first entity), so that a
  // refused list is not read to its end; and once more at the end, for a date stated last.
  let orderChecked = false;
  const checkOrder = () => {
    const publishedAt = options.publishedAt ?? statedPublishedAt;
    if (orderChecked || !publishedAt || !current) return;
    orderChecked = true;
    checkPublicationOrder(current, publishedAt, options);
  };
  const batchSize = options.batchSize ?? ENTITY_BATCH_SIZE;
  let delta: DeltaSummary | undefined;
  if (isDeltaFormat(options.format)) {
    const changes = options.format.parseDelta(options.paths, parseOptions);
    delta = await applyDelta(client, snapshotId, current!.id, changes, {
      batchSize,
      signal: options.signal,
      afterChange: checkOrder,
    });
  } else {
    const writer = new EntityBatchWriter(client, snapshotId, batchSize);
    for await (const entity of options.format.parse(options.paths, parseOptions)) {
      options.signal?.throwIfAborted();
      checkOrder();
      await writer.add(entity);
    }
    await writer.finish();
  }
  options.signal?.throwIfAborted();
  checkOrder();
  if (!options.publishedAt && !statedPublishedAt) {
    throw new SnapshotLoadError(
      'no_publication_date',
      `the list states no publication date (${options.format.name} reads it from ${options.format.datedBy}), and staleness is measured from it`,
    );
  }
  const snapshot = await makeCurrent(client, snapshotId, dataset, statedPublishedAt ?? null);
  return { unchanged: false, snapshot, ...(delta && { delta }) };
}

/**
 * Refuses a publication that would take the dataset back in time: a delta not newer than its base
 * (it would undo the base's later changes and resurrect what they deleted), a full list older than
 * the current snapshot (unless `publicationOrder` is `any`) or, with `newer`, not newer than it.
 * A current full list without a date (loaded before every load needed one) is replaced by any
 * dated one.
 */
function checkPublicationOrder(
  current: ReadySnapshot,
  publishedAt: Date,
  options: LoadSnapshotOptions,
): void {
  if (!current.publishedAt) return;
  const order = isDeltaFormat(options.format) ? 'newer' : (options.publicationOrder ?? 'not-older');
  const diff = publishedAt.getTime() - current.publishedAt.getTime();
  if (order === 'any' || diff > 0 || (diff === 0 && order === 'not-older')) return;
  const against = `${current.dataset} version ${current.version} (${current.id}), published ${current.publishedAt.toISOString()}`;
  const published = publishedAt.toISOString();
  const message = isDeltaFormat(options.format)
    ? `the delta is published ${published}, not after its base ${against}: applied on top it would undo later changes; nothing was loaded`
    : diff < 0
      ? `the list is published ${published}, before the current ${against}: loading it would roll the dataset back; nothing was loaded`
      : `the list is published ${published}, not after the current ${against}; nothing was loaded`;
  throw new SnapshotLoadError('outdated_publication', message);
}

/**
 * Copies the base snapshot's entities (in pages, each its own statement) and applies the changes
 * in file order, in batches of changes to distinct ids (an id changed again starts the next
 * batch), so that each change meets exactly the state the changes before it left and deletions of
 * ids missing at that point can be counted. The summary compares base and result for the ids the
 * delta touched: the net change, independent of batch size and of intermediate steps.
 */
async function applyDelta(
  client: pg.PoolClient,
  snapshotId: string,
  baseId: string,
  changes: AsyncIterable<EntityDelta>,
  options: { batchSize: number; signal: AbortSignal | undefined; afterChange: () => void },
): Promise<DeltaSummary> {
  const { batchSize, signal, afterChange } = options;
  const touched = new Set<string>();
  let missingDeletes = 0;
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
      missingDeletes += deletions.length - (rowCount ?? 0);
    }
    if (upserts.length > 0) {
      await client.query(
        `INSERT INTO source_snapshot_entities (snapshot_id, entity_id, entity)
         SELECT $1, e->>'id', e FROM jsonb_array_elements($2::jsonb) e
         ON CONFLICT (snapshot_id, entity_id) DO UPDATE SET entity = excluded.entity`,
        [snapshotId, `[${upserts.map(entityJson).join(',')}]`],
      );
    }
  };
  const iterator = changes[Symbol.asyncIterator]();
  try {
    // The first change is read before the base is copied: a format states its publication date by
    // then, and a delta refused for its date must not cost a copy of the whole base.
    let next = await iterator.next();
    afterChange();
    await copyEntities(client, baseId, snapshotId, signal);
    for (; !next.done; next = await iterator.next()) {
      signal?.throwIfAborted();
      afterChange();
      const change = next.value;
      const id = change.op === 'upsert' ? change.entity.id : change.id;
      if (pending.has(id)) await flush();
      pending.set(id, change.op === 'upsert' ? change.entity : null);
      touched.add(id);
      if (pending.size >= batchSize) await flush();
    }
  } finally {
    // Stopped early (refused, aborted, a write failed): the parser closes its files.
    await iterator.return?.();
  }
  await flush();
  return { ...(await netChange(client, baseId, snapshotId, [...touched])), missingDeletes };
}

/** Added, modified and deleted among `ids`, comparing the base snapshot with the new one. */
async function netChange(
  client: pg.PoolClient,
  baseId: string,
  snapshotId: string,
  ids: string[],
): Promise<Omit<DeltaSummary, 'missingDeletes'>> {
  const { rows } = await client.query<Omit<DeltaSummary, 'missingDeletes'>>(
    `SELECT count(*) FILTER (WHERE b.entity IS NULL AND r.entity IS NOT NULL)::int AS added,
            count(*) FILTER (WHERE b.entity IS NOT NULL AND r.entity IS NOT NULL AND b.entity <> r.entity)::int AS modified,
            count(*) FILTER (WHERE b.entity IS NOT NULL AND r.entity IS NULL)::int AS deleted
       FROM unnest($3::text[]) AS t(entity_id)
       LEFT JOIN source_snapshot_entities b ON b.snapshot_id = $1 AND b.entity_id = t.entity_id
       LEFT JOIN source_snapshot_entities r ON r.snapshot_id = $2 AND r.entity_id = t.entity_id`,
    [baseId, snapshotId, ids],
  );
  return rows[0]!;
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
  return error instanceof Error ? error.message : String(error);
}

/** A parse error about a file that has a label (a download's URL) names the label instead. */
function labelFiles(error: unknown, labels: ReadonlyMap<string, string> | undefined): unknown {
  if (!(error instanceof SourceParseError)) return error;
  const label = labels?.get(error.file);
  return label === undefined ? error : new SourceParseError(label, error.reason, error.location);
}

function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'ECONNRESET' || code === 'EPIPE' || code === '57P01';
}
