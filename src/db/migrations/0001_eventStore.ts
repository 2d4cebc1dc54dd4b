import type { Migration } from './index.js';

/**
 * The PostgreSQL event store. Ordering rests on two facts (docs/event-store.md):
 * - every row carries its writer's xid8, and feed readers only return rows whose xid is below the
 *   oldest running transaction (pg_snapshot_xmin), ordered by (transaction_id, global_position);
 * - es_append takes the stream's advisory lock before the transaction gets an xid, so per-stream
 *   revision order equals feed order.
 */
export const eventStoreMigration: Migration = {
  id: 1,
  name: 'event_store',
  sql: `
CREATE TABLE es_streams (
  stream_name text PRIMARY KEY,
  category    text NOT NULL,
  revision    bigint NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE es_events (
  global_position bigint GENERATED ALWAYS AS IDENTITY,
  transaction_id  xid8 NOT NULL DEFAULT pg_current_xact_id(),
  stream_name     text NOT NULL,
  category        text NOT NULL,
  stream_revision bigint NOT NULL,
  event_id        uuid NOT NULL,
  event_type      text NOT NULL,
  data            jsonb NOT NULL,
  metadata        jsonb NOT NULL DEFAULT '{}'::jsonb,
  recorded_at     timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (stream_name, stream_revision),
  UNIQUE (stream_name, event_id)
);
CREATE UNIQUE INDEX es_events_global_position ON es_events (global_position);
CREATE INDEX es_events_feed ON es_events (transaction_id, global_position);
CREATE INDEX es_events_category_feed ON es_events (category, transaction_id, global_position);

-- Appends events to one stream with EventStoreDB's expected-revision rules.
-- p_expected: 'any' | 'no_stream' | 'stream_exists' | '<revision>'.
-- Returns ok=false with actual_revision on a revision mismatch. Re-appending the same ids at the
-- same place returns the original result without writing (idempotent retries).
CREATE FUNCTION es_append(
  p_stream text, p_category text, p_expected text,
  p_ids uuid[], p_types text[], p_data jsonb[], p_meta jsonb[]
) RETURNS TABLE (ok boolean, next_revision bigint, last_position bigint, txid xid8, actual_revision bigint)
LANGUAGE plpgsql AS $fn$
DECLARE
  n           bigint := cardinality(p_ids);
  cur         bigint;
  exp_rev     bigint;
  found_ids   uuid[];
  first_rev   bigint;
  last_rev    bigint;
BEGIN
  -- The lock must come before the transaction's first write assigns its xid; see the note above.
  IF pg_current_xact_id_if_assigned() IS NOT NULL THEN
    RAISE EXCEPTION 'es_append must be the first write of its transaction' USING ERRCODE = 'ES001';
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended(p_stream, 0));

  SELECT s.revision INTO cur FROM es_streams s WHERE s.stream_name = p_stream;
  cur := coalesce(cur, -1);
  exp_rev := CASE p_expected
    WHEN 'any' THEN NULL WHEN 'stream_exists' THEN NULL
    WHEN 'no_stream' THEN -1
    ELSE p_expected::bigint END;

  SELECT array_agg(e.event_id ORDER BY e.stream_revision), min(e.stream_revision), max(e.stream_revision)
    INTO found_ids, first_rev, last_rev
    FROM es_events e WHERE e.stream_name = p_stream AND e.event_id = ANY (p_ids);

  IF found_ids IS NOT NULL THEN
    IF found_ids = p_ids AND last_rev - first_rev + 1 = n
       AND (exp_rev IS NULL OR first_rev = exp_rev + 1) THEN
      RETURN QUERY SELECT true, last_rev, e.global_position, e.transaction_id, cur
        FROM es_events e WHERE e.stream_name = p_stream AND e.stream_revision = last_rev;
      RETURN;
    END IF;
    IF exp_rev IS NULL OR exp_rev = cur THEN
      RAISE EXCEPTION 'append to % repeats only part of an earlier append''s event ids', p_stream
        USING ERRCODE = 'ES002';
    END IF;
  END IF;

  IF (p_expected = 'stream_exists' AND cur < 0) OR (exp_rev IS NOT NULL AND exp_rev <> cur) THEN
    RETURN QUERY SELECT false, cur, NULL::bigint, NULL::xid8, cur;
    RETURN;
  END IF;

  INSERT INTO es_streams AS s (stream_name, category, revision) VALUES (p_stream, p_category, cur + n)
    ON CONFLICT (stream_name) DO UPDATE SET revision = EXCLUDED.revision, updated_at = now();

  RETURN QUERY
  WITH inserted AS (
    INSERT INTO es_events (stream_name, category, stream_revision, event_id, event_type, data, metadata)
    SELECT p_stream, p_category, cur + t.ord, t.id, t.type, t.data, t.meta
      FROM unnest(p_ids, p_types, p_data, p_meta) WITH ORDINALITY AS t(id, type, data, meta, ord)
      ORDER BY t.ord
    RETURNING global_position
  )
  SELECT true, cur + n, max(i.global_position), pg_current_xact_id(), cur FROM inserted i;
  -- No pg_notify here: a committing NOTIFY takes a cluster-wide lock held through the WAL flush,
  -- which serializes concurrent appends. The adapter notifies after commit (FeedNotifier).
END;
$fn$;
`,
};
