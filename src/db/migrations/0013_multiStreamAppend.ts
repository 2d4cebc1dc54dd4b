import type { Migration } from './index.js';

/**
 * Appends to several streams in one transaction (EventStore.appendToStreams): a case and the
 * subject it was opened for are written together or not at all.
 *
 * es_append's body moves to es_append_locked, which expects its caller to hold the stream's lock and
 * to have given the transaction no xid yet; es_append takes the one lock, es_append_all takes every
 * lock first (in one fixed order, so two multi-stream appends sharing streams cannot deadlock), so
 * the rule of migration 1 holds for each stream: its revision order is its feed order.
 *
 * A revision mismatch on any stream raises ES003, rolling back the streams before it; its detail is
 * JSON naming the stream and its actual revision.
 */
export const multiStreamAppendMigration: Migration = {
  id: 13,
  name: 'multi_stream_append',
  sql: `
CREATE FUNCTION es_append_locked(
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
        USING ERRCODE = 'ES002', DETAIL = p_stream;
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
END;
$fn$;

CREATE OR REPLACE FUNCTION es_append(
  p_stream text, p_category text, p_expected text,
  p_ids uuid[], p_types text[], p_data jsonb[], p_meta jsonb[]
) RETURNS TABLE (ok boolean, next_revision bigint, last_position bigint, txid xid8, actual_revision bigint)
LANGUAGE plpgsql AS $fn$
BEGIN
  -- The lock must come before the transaction's first write assigns its xid (migration 1).
  IF pg_current_xact_id_if_assigned() IS NOT NULL THEN
    RAISE EXCEPTION 'es_append must be the first write of its transaction' USING ERRCODE = 'ES001';
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended(p_stream, 0));
  RETURN QUERY SELECT * FROM es_append_locked(p_stream, p_category, p_expected, p_ids, p_types, p_data, p_meta);
END;
$fn$;

-- p_counts[k] events of the flattened p_ids/p_types/p_data/p_meta belong to p_streams[k], in order.
CREATE FUNCTION es_append_all(
  p_streams text[], p_categories text[], p_expected text[], p_counts int[],
  p_ids uuid[], p_types text[], p_data jsonb[], p_meta jsonb[]
) RETURNS TABLE (stream_index int, next_revision bigint, last_position bigint, txid xid8)
LANGUAGE plpgsql AS $fn$
DECLARE
  k        int;
  lo       int := 0;
  n        int;
  lock_key bigint;
  result   record;
BEGIN
  IF pg_current_xact_id_if_assigned() IS NOT NULL THEN
    RAISE EXCEPTION 'es_append_all must be the first write of its transaction' USING ERRCODE = 'ES001';
  END IF;
  IF cardinality(p_streams) <> (SELECT count(DISTINCT s) FROM unnest(p_streams) AS s) THEN
    RAISE EXCEPTION 'es_append_all appends to each stream once' USING ERRCODE = '22023';
  END IF;
  FOR lock_key IN SELECT DISTINCT hashtextextended(s, 0) FROM unnest(p_streams) AS s ORDER BY 1 LOOP
    PERFORM pg_advisory_xact_lock(lock_key);
  END LOOP;
  FOR k IN 1 .. cardinality(p_streams) LOOP
    n := p_counts[k];
    SELECT * INTO result FROM es_append_locked(p_streams[k], p_categories[k], p_expected[k],
      p_ids[lo + 1 : lo + n], p_types[lo + 1 : lo + n], p_data[lo + 1 : lo + n], p_meta[lo + 1 : lo + n]);
    IF NOT result.ok THEN
      RAISE EXCEPTION 'append to % expected revision % but the stream is at %',
          p_streams[k], p_expected[k], result.actual_revision
        USING ERRCODE = 'ES003',
              DETAIL = json_build_object('stream', p_streams[k],
                                         'actual_revision', result.actual_revision::text)::text;
    END IF;
    stream_index := k;
    next_revision := result.next_revision;
    last_position := result.last_position;
    txid := result.txid;
    RETURN NEXT;
    lo := lo + n;
  END LOOP;
END;
$fn$;
`,
};
