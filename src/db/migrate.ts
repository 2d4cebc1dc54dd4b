import pg from 'pg';
import { migrations as allMigrations, type Migration } from './migrations/index.js';

export interface MigrationReport {
  applied: Migration[];
  alreadyApplied: number;
}

const MIGRATION_LOCK = "hashtextextended('casescreen:migrate', 0)";

/**
 * Brings the database schema up to date. Safe to run from several processes at once: a session
 * advisory lock serializes them and each migration commits with its `schema_migrations` row.
 */
export async function migrate(
  url: string,
  migrations: Migration[] = allMigrations,
): Promise<MigrationReport> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      id integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await client.query<{ id: number }>('SELECT id FROM schema_migrations');
    const done = new Set(rows.map((row) => row.id));
    const applied: Migration[] = [];
    for (const migration of [...migrations].sort((a, b) => a.id - b.id)) {
      if (done.has(migration.id)) continue;
      await client.query('BEGIN');
      try {
        await client.query(migration.sql);
        await client.query('INSERT INTO schema_migrations (id, name) VALUES ($1, $2)', [
          migration.id,
          migration.name,
        ]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`Migration ${migration.id} (${migration.name}) failed: ${(error as Error).message}`);
      }
      applied.push(migration);
    }
    return { applied, alreadyApplied: done.size };
  } finally {
    await client.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`).catch(() => {});
    await client.end();
  }
}
