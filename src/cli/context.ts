import type pg from 'pg';
import { projections } from '../../projections/registry.js';
import { installProjections } from '../../projections/registryStore.js';
import { loadConfig } from '../config.js';
import { closePool, createPool, describeDatabase, openDatabase } from '../db/database.js';
import { type MigrationReport, migrate } from '../db/migrate.js';
import type { EventStore } from '../eventStore/eventStore.js';
import { openEventStore } from '../eventStore/openEventStore.js';
import type { CliIo } from './io.js';

export interface CliContext {
  pool: pg.Pool;
  databaseUrl: string;
  store: EventStore;
  migration: MigrationReport;
  installedProjections: string[];
}

/**
 * The database exactly as the service gets it: DATABASE_URL, or the embedded server on the same
 * data directory (reused when the service runs, started for this command otherwise), brought up to
 * date before the command runs.
 */
export async function withCliContext<T>(io: CliIo, command: (context: CliContext) => Promise<T>): Promise<T> {
  const config = loadConfig(io.env);
  const database = await openDatabase(config);
  try {
    // DATABASE_URL is the operator's explicit choice; the embedded server's place is worth a line.
    if (database.embedded) io.stderr.write(`Database: ${describeDatabase(database)}\n`);
    const migration = await migrate(database.url);
    const pool = createPool(database.url, { max: 5, applicationName: 'casescreen-cli' });
    try {
      const installedProjections = await installProjections(pool, projections);
      const store = openEventStore(config, { pool, databaseUrl: database.url });
      try {
        return await command({ pool, databaseUrl: database.url, store, migration, installedProjections });
      } finally {
        await store.close();
      }
    } finally {
      await closePool(pool);
    }
  } finally {
    await database.close();
  }
}
