import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projections } from '../../../projections/registry.js';
import { installProjections } from '../../../projections/registryStore.js';
import { CONFIGS_OBSERVING_SQL, CONFIGS_SKIPPED_SQL } from '../../../src/monitoring/sweep.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';

/**
 * A sweep looks up the configurations that observed any of a list version's changed or removed
 * parties, and those whose latest run was skipped (docs/monitoring.md, "Delta re-screening").
 * Without indexes both read every row of `monitoring_configs`, state included: 0.1 to 0.2 s at
 * 100,000 configurations in the monitoring benchmark, on each sweep. 5,000 rows, one in a hundred
 * observing a party and one in a thousand skipped, as a book looks after its baselines: the planner
 * must pick the indexes, as it does at 100,000.
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

  /** The book written in a transaction rolled back afterwards. */
  async function withBook(use: (client: pg.PoolClient) => Promise<void>): Promise<void> {
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO monitoring_configs (monitoring_config_id, account_id, group_id, subject_reference,
           status, latest_result, check_types, observed_entity_ids, last_run_at, created_at, updated_at,
           revision, state)
         SELECT 'mc_' || i, gen_random_uuid(), gen_random_uuid(), 'sub_' || i, 'active',
                CASE WHEN i % 1000 = 0 THEN 'skipped' ELSE 'no_change' END, '["sanctions"]',
                CASE WHEN i % 100 = 0 THEN jsonb_build_array('party:' || i) ELSE '[]' END,
                now(), now(), now(), 1, '{}'
           FROM generate_series(1, 5000) AS i`,
      );
      // The view's table, whatever its version: the planner reads the rows just written.
      await client.query('ANALYZE');
      await use(client);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  }

  async function planOf(client: pg.PoolClient, sql: string, values: unknown[] = []): Promise<string> {
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, values);
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  }

  it('finds the configurations observing changed parties through an index on observed_entity_ids', async () => {
    await withBook(async (client) => {
      const parties = [['party:100', 'party:4200', 'party:17']];
      const plan = await planOf(client, CONFIGS_OBSERVING_SQL, parties);
      expect(plan).toMatch(/Index Scan on monitoring_configs_v\d+_observed/);
      expect(plan).not.toMatch(/Seq Scan/);
      const found = await client.query<{ id: string }>(CONFIGS_OBSERVING_SQL, parties);
      expect(found.rows.map((row) => row.id).sort()).toEqual(['mc_100', 'mc_4200']);
    });
  });

  it('finds the configurations whose latest run was skipped through an index on latest_result', async () => {
    await withBook(async (client) => {
      const plan = await planOf(client, CONFIGS_SKIPPED_SQL);
      expect(plan).toMatch(/Index Scan (using|on) monitoring_configs_v\d+_latest_result/);
      expect(plan).not.toMatch(/Seq Scan/);
      const found = await client.query<{ id: string }>(CONFIGS_SKIPPED_SQL);
      expect(found.rows.map((row) => row.id).sort()).toEqual([
        'mc_1000',
        'mc_2000',
        'mc_3000',
        'mc_4000',
        'mc_5000',
      ]);
    });
  });
});
