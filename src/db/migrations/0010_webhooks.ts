import type { Migration } from './index.js';

/**
 * Webhooks (docs/webhooks.md). Endpoints are workspace settings, not event-sourced. Deliveries are
 * the outbox: the `reactor:webhooks` subscription inserts one row per endpoint and event in the same
 * transaction as its checkpoint, so no event is lost or fanned out twice. Delivery workers claim due
 * rows with FOR UPDATE SKIP LOCKED under a lease and record every attempt.
 */
export const webhooksMigration: Migration = {
  id: 10,
  name: 'webhooks',
  sql: `
CREATE TABLE webhook_endpoints (
  id                         uuid PRIMARY KEY,
  account_id                 uuid NOT NULL REFERENCES accounts (id),
  url                        text NOT NULL CHECK (url ~ '^https?://'),
  description                text,
  -- NULL: every event type, including those added later.
  event_types                text[],
  -- NULL: every group of the account.
  group_ids                  uuid[],
  mode                       text NOT NULL CHECK (mode IN ('summary', 'expanded')),
  status                     text NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
  disabled_reason            text,
  disabled_at                timestamptz,
  -- The signing secret: kept so that deliveries can be signed; shown once, never logged.
  secret                     text NOT NULL,
  previous_secret            text,
  previous_secret_expires_at timestamptz,
  -- Since when every attempt has failed (NULL after a success): the automatic disabling's clock.
  failing_since              timestamptz,
  created_at                 timestamptz NOT NULL,
  updated_at                 timestamptz NOT NULL,
  CONSTRAINT webhook_endpoints_disabled CHECK ((status = 'disabled') = (disabled_at IS NOT NULL))
);
CREATE INDEX webhook_endpoints_account ON webhook_endpoints (account_id) WHERE status = 'enabled';

CREATE TABLE webhook_deliveries (
  id               text PRIMARY KEY CHECK (id ~ '^whd_[a-f0-9]+$'),
  endpoint_id      uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_id         text NOT NULL CHECK (event_id ~ '^evt_[a-f0-9]+$'),
  event_type       text NOT NULL,
  -- The exact bytes sent, and signed.
  body             text NOT NULL,
  status           text NOT NULL DEFAULT 'pending'
                     CHECK (status IN ('pending', 'failed', 'delivered', 'dead')),
  attempts         integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at  timestamptz,
  lease_owner      text,
  lease_until      timestamptz,
  last_status      integer,
  last_error       text,
  -- A manual redelivery starts a new chain of attempts under a new delivery id.
  redelivery_of    text REFERENCES webhook_deliveries (id) ON DELETE SET NULL,
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL,
  delivered_at     timestamptz,
  CONSTRAINT webhook_deliveries_due CHECK ((status IN ('pending', 'failed')) = (next_attempt_at IS NOT NULL))
);
-- Each event reaches each endpoint once from the fan-out, however often its batch is handled.
CREATE UNIQUE INDEX webhook_deliveries_fan_out ON webhook_deliveries (endpoint_id, event_id)
  WHERE redelivery_of IS NULL AND event_type <> 'ping';
-- Claiming: the unfinished rows by the time they are due.
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at, id)
  WHERE status IN ('pending', 'failed');
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at DESC);
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);
-- The redeliveries of a delivery: what the foreign key's ON DELETE looks up for every deleted row,
-- and what the purge checks before it drops a first delivery.
CREATE INDEX webhook_deliveries_redelivery_of ON webhook_deliveries (redelivery_of)
  WHERE redelivery_of IS NOT NULL;
-- The retention purge: finished deliveries by age.
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (updated_at)
  WHERE status IN ('delivered', 'dead');

CREATE TABLE webhook_attempts (
  delivery_id      text NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  attempt          integer NOT NULL CHECK (attempt >= 1),
  started_at       timestamptz NOT NULL,
  duration_ms      integer NOT NULL,
  http_status      integer,
  error            text,
  response_snippet text,
  PRIMARY KEY (delivery_id, attempt)
);
`,
};
