import type pg from 'pg';
import { projections } from '../../projections/registry.js';
import { installProjections } from '../../projections/registryStore.js';
import type { Config } from '../config.js';
import { closePool, createPool, type Database, openDatabase } from '../db/database.js';
import { type MigrationReport, migrate } from '../db/migrate.js';
import type { EventStore } from '../eventStore/eventStore.js';
import { openEventStore } from '../eventStore/openEventStore.js';

/**
 * What every process stands on, the service and the CLI alike: the database (DATABASE_URL, or the
 * embedded server), its schema brought up to date, a pool, the event store EVENT_STORE names, and
 * every projection installed (a serve-only process reads projection views before any worker may
 * have created them).
 */
export interface Platform {
  database: Database;
  pool: pg.Pool;
  store: EventStore;
  migration: MigrationReport;
  /** Projections installed by this start-up (none when they all existed). */
  installedProjections: string[];
  /** Closes the event store, then the pool (every connection), then the embedded server it started. */
  close(): Promise<void>;
}

export interface PlatformOptions {
  /** PostgreSQL's application_name of the pool's connections: which process they belong to. */
  applicationName: string;
  poolSize: number;
  /** How long a caller waits for a free pool connection before an error (0 or unset: forever). */
  poolWaitTimeoutMs?: number;
  /** The embedded server's own log lines. */
  log?: (line: string) => void;
}

export async function openPlatform(config: Config, options: PlatformOptions): Promise<Platform> {
  const opened: (() => Promise<void>)[] = [];
  const close = async () => {
    const errors: unknown[] = [];
    for (const closeOne of opened.reverse()) await closeOne().catch((error: unknown) => errors.push(error));
    if (errors.length > 0) throw errors[0];
  };
  try {
    const database = await openDatabase(config, options.log);
    opened.push(() => database.close());
    const migration = await migrate(database.url);
    const pool = createPool(database.url, {
      max: options.poolSize,
      applicationName: options.applicationName,
      connectionTimeoutMillis: options.poolWaitTimeoutMs,
    });
    opened.push(() => closePool(pool));
    const store = openEventStore(config, { pool, databaseUrl: database.url });
    opened.push(() => store.close());
    const installedProjections = await installProjections(pool, projections);
    return { database, pool, store, migration, installedProjections, close };
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
}
