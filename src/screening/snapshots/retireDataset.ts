import type pg from 'pg';
import { datasetLockKey } from './loadSnapshot.js';
import { type ReadySnapshot, SNAPSHOT_COLUMNS, toSnapshot } from './snapshotStore.js';

/**
 * Retiring a dataset (docs/screening-sources.md, "Retiring a dataset"): it stops being current, so
 * nothing screens against it and it no longer counts for (or against) any check type's
 * availability. Its snapshots stay as they were, immutable: matches refer to them. Loading the
 * dataset again makes it current again, as its next version.
 */

export type RetireOutcome =
  | { outcome: 'retired'; snapshot: ReadySnapshot }
  /** The dataset has no current snapshot: never loaded, only failed loads, or already retired. */
  | { outcome: 'no_current_snapshot' }
  /** A load of the dataset holds its lock; retiring now would be undone by that load's final switch. */
  | { outcome: 'busy' };

// The retire takes the loader's per-dataset key as a transaction-level advisory lock: it conflicts
// with the loader's session-level lock on the same key, so a retire and a load of one dataset
// exclude each other, and the lock goes with the transaction.

export async function retireDataset(pool: pg.Pool, dataset: string): Promise<RetireOutcome> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('BEGIN');
    try {
      const lock = await client.query<{ locked: boolean }>(
        'SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS locked',
        [datasetLockKey(dataset)],
      );
      if (!lock.rows[0]!.locked) {
        await client.query('ROLLBACK');
        return { outcome: 'busy' };
      }
      const { rows } = await client.query(
        `WITH retired AS (DELETE FROM source_dataset_current WHERE dataset = $1 RETURNING snapshot_id)
         SELECT ${SNAPSHOT_COLUMNS} FROM retired r JOIN source_snapshots s ON s.id = r.snapshot_id`,
        [dataset],
      );
      await client.query('COMMIT');
      return rows[0]
        ? { outcome: 'retired', snapshot: toSnapshot(rows[0]) as ReadySnapshot }
        : { outcome: 'no_current_snapshot' };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw error;
    }
  } finally {
    client.release(broken);
  }
}
