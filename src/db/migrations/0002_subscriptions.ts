import type { Migration } from './index.js';

/**
 * Subscription checkpoints and the projection registry (src/subscriptions, projections/).
 * - es_checkpoints: one row per subscriber. The runner moves `checkpoint` in the same transaction as
 *   the subscriber's own writes, with a compare-and-swap, so effects on PostgreSQL happen once even
 *   when two runners race. A poison event parks the row with what an operator needs to act.
 * - projection_registry: which table version of each projection serves reads (through a view named
 *   after the table), which one is being rebuilt, and which one waits to be dropped.
 */
export const subscriptionsMigration: Migration = {
  id: 2,
  name: 'subscriptions',
  sql: `
CREATE TABLE es_checkpoints (
  subscription_id text PRIMARY KEY,
  -- Adapter-encoded feed position of the last processed event; NULL = nothing processed yet.
  checkpoint      text NULL,
  status          text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'parked')),
  -- Consecutive failed attempts of the current batch, for operators; the runner keeps its own count.
  attempts        integer NOT NULL DEFAULT 0,
  last_error      text NULL,
  parked_event_id text NULL,
  parked_position text NULL,
  parked_at       timestamptz NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 'parked') = (parked_at IS NOT NULL))
);

CREATE TABLE projection_registry (
  name                  text PRIMARY KEY,
  active_version        integer NOT NULL,
  -- The projection code version that built the active tables; a newer code version needs a rebuild.
  active_code_version   integer NOT NULL,
  building_version      integer NULL,
  building_code_version integer NULL,
  -- Replaced tables are dropped only once no runner can still write them.
  retired_version       integer NULL,
  created_at            timestamptz NOT NULL DEFAULT now(),
  updated_at            timestamptz NOT NULL DEFAULT now(),
  swapped_at            timestamptz NULL,
  CHECK ((building_version IS NULL) = (building_code_version IS NULL))
);
`,
};
