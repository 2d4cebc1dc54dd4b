import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projections } from '../../../projections/registry.js';
import { installProjections } from '../../../projections/registryStore.js';
import { CONFIGS_OBSERVING_SQL } from '../../../src/monitoring/sweep.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';

/**
 * A sweep looks up the configurations that observed any of a list version's changed or removed
 * parties (docs/monitoring.md, "Delta re-screening"). Without an index that reads every row of
 * `monitoring_configs`, state included: 0.2 s at 100,000 configurations in the monitoring
 * benchmark, on each sweep. 5,000 rows, one in a hundred observing parties, as a book looks after
 * its baselines: the planner must pick the index, as it does at 100,000.
 */
describe('the monitoring_configs read model', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
    await installProjections(db.pool, projections);
  });

  afterAll(async () => {
    await db.drop();
  });

  it('serves the sweep’s lookup of observing configurations through an index on observed_entity_ids', async () => {
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO monitoring_configs (monitoring_config_id, account_id, group_id, subject_reference,
           status, latest_result, check_types, observed_entity_ids, last_run_at, created_at, updated_at,
           revision, state)
         SELECT 'mc_' || i, gen_random_uuid(), gen_random_uuid(), 'sub_' || i, 'active', 'no_change',
                '["sanctions"]', CASE WHEN i % 100 = 0 THEN jsonb_build_array('party:' || i) ELSE '[]' END,
                now(), now(), now(), 1, '{}'
           FROM generate_series(1, 5000) AS i`,
      );
      // The view's table, whatever its version: the planner reads the rows just written.
      await client.query('ANALYZE');
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${CONFIGS_OBSERVING_SQL}`, [
        ['party:100', 'party:4200', 'party:17'],
      ]);
      const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
      expect(plan).toMatch(/Index Scan on monitoring_configs_v\d+_observed/);
      expect(plan).not.toMatch(/Seq Scan/);
      const found = await client.query<{ id: string }>(CONFIGS_OBSERVING_SQL, [
        ['party:100', 'party:4200', 'party:17'],
      ]);
      expect(found.rows.map((row) => row.id).sort()).toEqual(['mc_100', 'mc_4200']);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });
});
