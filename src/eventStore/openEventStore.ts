import type pg from 'pg';
import { createEsdbEventStore } from './esdb/esdbEventStore.js';
import type { EventStore } from './eventStore.js';
import { createPostgresEventStore } from './postgres/postgresEventStore.js';

export interface EventStoreConfig {
  eventStore: 'postgres' | 'esdb';
  esdbConnectionString?: string | undefined;
  feedPollIntervalMs: number;
}

export interface EventStoreDeps {
  pool: pg.Pool;
  /** For connections that must not come from the pool (the PostgreSQL adapter's LISTEN). */
  databaseUrl: string;
}

/**
 * The adapter named by EVENT_STORE. The pool is needed either way: read models and subscription
 * checkpoints live in PostgreSQL whichever store holds the events.
 */
export function openEventStore(config: EventStoreConfig, deps: EventStoreDeps): EventStore {
  switch (config.eventStore) {
    case 'postgres':
      return createPostgresEventStore({
        pool: deps.pool,
        connectionString: deps.databaseUrl,
        pollIntervalMs: config.feedPollIntervalMs,
      });
    case 'esdb': {
      if (!config.esdbConnectionString) {
        throw new Error('EVENT_STORE=esdb needs ESDB_CONNECTION_STRING');
      }
      return createEsdbEventStore({
        connectionString: config.esdbConnectionString,
        pollIntervalMs: config.feedPollIntervalMs,
      });
    }
  }
}
