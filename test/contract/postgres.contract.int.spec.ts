import { createPostgresEventStore } from '../../src/eventStore/postgres/postgresEventStore.js';
import { createTestDatabase } from '../support/testDatabase.js';
import { eventStoreContract } from './eventStore.contract.js';

eventStoreContract('PostgreSQL', async () => {
  const db = await createTestDatabase();
  // The fallback poll is set far above the latency budget: live delivery must come from NOTIFY.
  const store = createPostgresEventStore({ pool: db.pool, connectionString: db.url, pollIntervalMs: 5_000 });
  return {
    store,
    liveLatencyBudgetMs: 250,
    async cleanup() {
      await store.close();
      await db.drop();
    },
  };
});
