import { createPostgresEventStore } from '../../src/eventStore/postgres/postgresEventStore.js';
import { createTestDatabase } from '../support/testDatabase.js';
import { CONTRACT_POLL_INTERVAL_MS, eventStoreContract } from './eventStore.contract.js';

eventStoreContract('PostgreSQL', async () => {
  const db = await createTestDatabase();
  // Live delivery must come from NOTIFY: the fallback poll never runs within a test.
  const store = createPostgresEventStore({
    pool: db.pool,
    connectionString: db.url,
    pollIntervalMs: CONTRACT_POLL_INTERVAL_MS,
  });
  return {
    store,
    async cleanup() {
      await store.close();
      await db.drop();
    },
    streamDeletion: { unsupported: 'PostgreSQL streams are never deleted: the store has no delete' },
    anotherStore: {
      async open() {
        // Another database on the same server: another store.
        const otherDb = await createTestDatabase();
        const other = createPostgresEventStore({
          pool: otherDb.pool,
          connectionString: otherDb.url,
          pollIntervalMs: CONTRACT_POLL_INTERVAL_MS,
        });
        return {
          store: other,
          async close() {
            await other.close();
            await otherDb.drop();
          },
        };
      },
    },
  };
});
