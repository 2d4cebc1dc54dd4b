import type { Migration } from './index.js';

/**
 * Every change to an API key that authentication depends on, announced in the transaction that
 * makes it, so that processes caching keys (src/workspace/keyCache.ts) never serve a stale one:
 * - api_key_epoch counts such changes. The triggers bump it once per changing statement; its row
 *   lock serializes those transactions, so epochs commit in order and without gaps, and a statement
 *   that reads the epoch knows every key change up to it has committed.
 * - pg_notify('api_key_changes', {"epoch": "<n>", "prefixes": [...]}) is sent at the same commit
 *   (the prefixes are null when more than 100 keys changed at once: drop everything).
 * - Only columns the service reads count: last_used_at, written on use, bumps nothing.
 * - Creating a key announces nothing: no process caches the absence of a key.
 */
export const apiKeyChangesMigration: Migration = {
  id: 12,
  name: 'api_key_changes',
  sql: `
CREATE TABLE api_key_epoch (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  epoch     bigint NOT NULL CHECK (epoch >= 0)
);
INSERT INTO api_key_epoch (singleton, epoch) VALUES (true, 0);

CREATE FUNCTION announce_api_key_change(prefixes text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  next_epoch bigint;
BEGIN
  UPDATE api_key_epoch SET epoch = epoch + 1 RETURNING epoch INTO next_epoch;
  PERFORM pg_notify('api_key_changes', json_build_object(
    'epoch', next_epoch::text,
    'prefixes', CASE WHEN prefixes IS NOT NULL AND cardinality(prefixes) <= 100 THEN to_json(prefixes) END
  )::text);
END $$;

CREATE FUNCTION api_keys_updated() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  prefixes text[];
BEGIN
  SELECT array_agg(DISTINCT prefix) INTO prefixes
    FROM old_rows o JOIN new_rows n ON n.id = o.id
   CROSS JOIN LATERAL unnest(ARRAY[o.key_prefix, n.key_prefix]) AS prefix
   WHERE (o.account_id, o.name, o.key_prefix, o.key_hash, o.scopes, o.actor_type, o.final_decision,
          o.group_ids, o.expires_at, o.revoked_at, o.created_at)
         IS DISTINCT FROM
         (n.account_id, n.name, n.key_prefix, n.key_hash, n.scopes, n.actor_type, n.final_decision,
          n.group_ids, n.expires_at, n.revoked_at, n.created_at);
  IF prefixes IS NOT NULL THEN
    PERFORM announce_api_key_change(prefixes);
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION api_keys_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  prefixes text[];
BEGIN
  SELECT array_agg(key_prefix) INTO prefixes FROM old_rows;
  IF prefixes IS NOT NULL THEN
    PERFORM announce_api_key_change(prefixes);
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION api_keys_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM announce_api_key_change(NULL);
  RETURN NULL;
END $$;

CREATE TRIGGER api_keys_updated AFTER UPDATE ON api_keys
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION api_keys_updated();
CREATE TRIGGER api_keys_deleted AFTER DELETE ON api_keys
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION api_keys_deleted();
CREATE TRIGGER api_keys_truncated AFTER TRUNCATE ON api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION api_keys_truncated();
`,
};
