import type { Migration } from './index.js';

// Owned by the PostgreSQL event store adapter (src/eventStore/postgres). Filled in with it.
export const eventStoreMigration: Migration = {
  id: 1,
  name: 'event_store',
  sql: `SELECT 1;`,
};
