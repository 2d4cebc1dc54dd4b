import type pg from 'pg';
import { openPlatform } from '../app/platform.js';
import { type Config, loadConfig } from '../config.js';
import { describeDatabase } from '../db/database.js';
import type { MigrationReport } from '../db/migrate.js';
import type { EventStore } from '../eventStore/eventStore.js';
import type { Clock } from '../shared/clock.js';
import { type CliIo, clockOf } from './io.js';

export interface CliContext {
  pool: pg.Pool;
  databaseUrl: string;
  store: EventStore;
  migration: MigrationReport;
  installedProjections: string[];
  clock: Clock;
  /** The settings the service would run with (WEBHOOK_ALLOW_PRIVATE_TARGETS, retention, ...). */
  config: Config;
}

/**
 * The platform exactly as the service opens it: DATABASE_URL, or the embedded server on the same
 * data directory (reused when the service runs, started for this command otherwise), brought up to
 * date before the command runs.
 */
export async function withCliContext<T>(io: CliIo, command: (context: CliContext) => Promise<T>): Promise<T> {
  const config = loadConfig(io.env);
  const platform = await openPlatform(config, { applicationName: 'casescreen-cli', poolSize: 5 });
  try {
    // DATABASE_URL is the operator's explicit choice; the embedded server's place is worth a line.
    if (platform.database.embedded) io.stderr.write(`Database: ${describeDatabase(platform.database)}\n`);
    const { pool, store, migration, installedProjections } = platform;
    return await command({
      pool,
      databaseUrl: platform.database.url,
      store,
      migration,
      installedProjections,
      clock: clockOf(io),
      config,
    });
  } finally {
    await platform.close();
  }
}
