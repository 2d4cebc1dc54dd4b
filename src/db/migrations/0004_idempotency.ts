import type { Migration } from './index.js';

/**
 * Idempotency keys (docs/idempotency.md): one row per (API key, Idempotency-Key).
 * - No foreign key to api_keys: the rows are a short-lived cache purged on their own schedule, and
 *   the HTTP layer only reaches the store after authenticating the key.
 * - The shape check ties each state to its columns, so a half-written row cannot be replayed.
 * - lease_id names the current owner of an in-flight row: after a lease is taken over, the stale
 *   owner's complete or abandon no longer matches and changes nothing.
 * - expires_at is set to created_at + 48 hours by the store; the check enforces the spec's 24-hour
 *   minimum whatever the code does.
 */
export const idempotencyMigration: Migration = {
  id: 4,
  name: 'idempotency',
  sql: `
CREATE TABLE idempotency_keys (
  api_key_id          uuid NOT NULL,
  idempotency_key     text NOT NULL CHECK (char_length(idempotency_key) BETWEEN 8 AND 160),
  request_fingerprint text NOT NULL CHECK (request_fingerprint ~ '^[0-9a-f]{64}$'),
  method              text NOT NULL CHECK (method ~ '^[A-Z]+$'),
  path                text NOT NULL,
  state               text NOT NULL CHECK (state IN ('in_flight', 'completed')),
  response_status     integer NULL CHECK (response_status BETWEEN 100 AND 499),
  response_body       jsonb NULL,
  lease_id            uuid NULL,
  locked_until        timestamptz NULL,
  created_at          timestamptz NOT NULL DEFAULT now(),
  completed_at        timestamptz NULL,
  expires_at          timestamptz NOT NULL,
  PRIMARY KEY (api_key_id, idempotency_key),
  CONSTRAINT idempotency_keys_state_shape CHECK (
    (state = 'in_flight' AND lease_id IS NOT NULL AND locked_until IS NOT NULL
      AND response_status IS NULL AND response_body IS NULL AND completed_at IS NULL)
    OR (state = 'completed' AND response_status IS NOT NULL AND completed_at IS NOT NULL
      AND lease_id IS NULL AND locked_until IS NULL)
  ),
  CONSTRAINT idempotency_keys_retention CHECK (expires_at >= created_at + interval '24 hours')
);
CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at);
`,
};
