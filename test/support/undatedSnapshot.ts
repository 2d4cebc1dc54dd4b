import { migrate } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import type { SourceFormat } from '../../src/screening/model/listedEntity.js';
import { hashSourceFiles } from '../../src/screening/snapshots/contentHash.js';
import { newSnapshotId } from '../../src/screening/snapshots/loadSnapshot.js';
import { collectEntities } from './parsedEntities.js';
import { createTestDatabase, type TestDatabase } from './testDatabase.js';

/** The last migration before every ready snapshot needed a publication date. */
const BEFORE_PUBLICATION_DATES = 8;

/**
 * A database as one loaded before publication dates were required (migration 9): migrated up to
 * migration 8, `paths` loaded through `format` as the dataset's current snapshot, version 1,
 * without a publication date (as the loader then wrote an undated list), then migrated to the end.
 * The snapshot id.
 */
export async function createDatabaseWithUndatedSnapshot(load: {
  format: SourceFormat;
  paths: string[];
  dataset: string;
}): Promise<{ db: TestDatabase; snapshotId: string }> {
  const db = await createTestDatabase({ migrate: false });
  await migrate(
    db.url,
    migrations.filter((migration) => migration.id <= BEFORE_PUBLICATION_DATES),
  );
  const entities = await collectEntities(load.format, load.paths, { dataset: load.dataset });
  const { hash } = await hashSourceFiles(load.paths);
  const snapshotId = newSnapshotId();
  await db.pool.query(
    'INSERT INTO source_snapshots (id, dataset, format, content_hash) VALUES ($1, $2, $3, $4)',
    [snapshotId, load.dataset, load.format.name, hash],
  );
  await db.pool.query(
    `INSERT INTO source_snapshot_entities (snapshot_id, entity_id, entity)
     SELECT $1, e->>'id', e FROM jsonb_array_elements($2::jsonb) e`,
    [snapshotId, JSON.stringify(entities)],
  );
  await db.pool.query(
    `UPDATE source_snapshots SET status = 'ready', version = 1, loaded_at = clock_timestamp(),
            entity_count = $2, counts_by_kind = $3, counts_by_topic = $4
      WHERE id = $1`,
    [
      snapshotId,
      entities.length,
      tally(entities.map((entity) => [entity.kind])),
      tally(entities.map((entity) => [...new Set(entity.topics)])),
    ],
  );
  await db.pool.query('INSERT INTO source_dataset_current (dataset, snapshot_id) VALUES ($1, $2)', [
    load.dataset,
    snapshotId,
  ]);
  await migrate(db.url);
  return { db, snapshotId };
}

/** How many of the groups hold each value. */
function tally(groups: string[][]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of groups.flat()) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}
