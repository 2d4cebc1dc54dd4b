import type { Migration } from './index.js';

/**
 * Which event store instance a checkpoint's position belongs to (EventStore.identity()). A position
 * means nothing on another store: PostgreSQL's transaction ids start again in another cluster, and
 * EventStoreDB's log positions in a recreated server point anywhere. The runner records the identity
 * on the checkpoint's first use (rows from before this migration adopt the store that first runs
 * them) and stops, for an operator, when it is connected to another one.
 */
export const checkpointStoreMigration: Migration = {
  id: 14,
  name: 'checkpoint_store',
  sql: `
ALTER TABLE es_checkpoints
  ADD COLUMN store_kind     text NULL,
  ADD COLUMN store_instance text NULL,
  ADD CONSTRAINT es_checkpoints_store_check CHECK ((store_kind IS NULL) = (store_instance IS NULL));
`,
};
