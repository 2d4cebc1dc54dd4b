import type pg from 'pg';
import type { EventStore } from '../../eventStore/eventStore.js';

/** What the case endpoints need: the database (workspace, read models, idempotency) and the event store. */
export interface CaseRouteDependencies {
  pool: pg.Pool;
  store: EventStore;
  /** A source snapshot older than this refuses new checks with 503 source_unavailable. */
  sourceStaleAfterMs: number;
}
