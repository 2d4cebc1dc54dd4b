import type { Migration } from './index.js';

/**
 * Rate-limit counters and the per-key request metadata log (docs/rate-limits-and-request-log.md).
 * - rate_limit_windows holds one counter per key and fixed window; every service process bumps the
 *   same row, so several `serve` processes share one budget. Rows older than two windows are purged.
 * - api_request_log keeps request metadata only. The CHECK on `path` is the last line of defence
 *   against a query string (which may carry personal data) ever being stored.
 * - Neither table references api_keys: the rate-limit upsert is on every request's hot path, and the
 *   log must keep its 90 days even for keys that are later removed.
 */
export const rateLimitAndRequestLogMigration: Migration = {
  id: 5,
  name: 'rate_limit_and_request_log',
  sql: `
CREATE TABLE rate_limit_windows (
  api_key_id   uuid NOT NULL,
  window_start timestamptz NOT NULL,
  count        integer NOT NULL CHECK (count > 0),
  PRIMARY KEY (api_key_id, window_start)
);

CREATE TABLE api_request_log (
  id                      bigserial PRIMARY KEY,
  api_key_id              uuid NOT NULL,
  account_id              uuid NOT NULL,
  method                  text NOT NULL CHECK (method ~ '^[A-Z]{1,16}$'),
  path                    text NOT NULL CHECK (strpos(path, '?') = 0 AND strpos(path, '#') = 0 AND length(path) <= 2048),
  status                  integer NOT NULL CHECK (status BETWEEN 100 AND 599),
  request_id              text NOT NULL CHECK (length(request_id) BETWEEN 1 AND 200),
  idempotency_key_present boolean NOT NULL,
  occurred_at             timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX api_request_log_key_time ON api_request_log (api_key_id, occurred_at);
CREATE INDEX api_request_log_time ON api_request_log (occurred_at);
`,
};
