import type { EventStore } from '../../src/eventStore/eventStore.js';
import { createPostgresEventStore } from '../../src/eventStore/postgres/postgresEventStore.js';
import { createTestDatabase, type TestDatabase } from './testDatabase.js';

export interface TestEventStore {
  db: TestDatabase;
  store: EventStore;
  close(): Promise<void>;
}

/** A migrated database of its own with a PostgreSQL event store on it; close() drops both. */
export async function openTestEventStore(pollIntervalMs = 100): Promise<TestEventStore> {
  const db = await createTestDatabase();
  const store = createPostgresEventStore({ pool: db.pool, connectionString: db.url, pollIntervalMs });
  return {
    db,
    store,
    async close() {
      await store.close();
      await db.drop();
    },
  };
}
