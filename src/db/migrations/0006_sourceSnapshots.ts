import type { Migration } from './index.js';

/**
 * Versioned snapshots of the screening lists (docs/screening-sources.md).
 * - source_snapshots: one row per load attempt. `version` (1, 2, ... per dataset) is given only when
 *   the load succeeds, so the ready versions of a dataset have no gaps; failed and abandoned attempts
 *   stay as rows for the operator, without entities and without a version.
 * - source_snapshot_entities: the listed entities of a snapshot, as loaded (ListedEntity JSON).
 * - source_dataset_current: which ready snapshot each dataset screens against; switched in the same
 *   transaction that writes the new snapshot's entities, so nothing half-loaded is ever current.
 * - Triggers keep a ready snapshot immutable (its row and its entities) and let only ready snapshots
 *   of the same dataset become current: matches record the snapshot they came from, so what a
 *   snapshot id stands for must never change.
 */
export const sourceSnapshotsMigration: Migration = {
  id: 6,
  name: 'source_snapshots',
  sql: `
CREATE TABLE source_snapshots (
  id               text PRIMARY KEY CHECK (id ~ '^snap_[0-9a-f]{32}$'),
  dataset          text NOT NULL CHECK (dataset ~ '^[a-z0-9][a-z0-9_.-]{0,99}$'),
  format           text NOT NULL CHECK (length(format) BETWEEN 1 AND 100),
  status           text NOT NULL DEFAULT 'loading' CHECK (status IN ('loading', 'ready', 'failed')),
  version          integer CHECK (version > 0),
  base_snapshot_id text REFERENCES source_snapshots (id),
  content_hash     text NOT NULL CHECK (content_hash ~ '^[0-9a-f]{64}$'),
  published_at     timestamptz,
  started_at       timestamptz NOT NULL DEFAULT clock_timestamp(),
  loaded_at        timestamptz,
  entity_count     integer CHECK (entity_count >= 0),
  counts_by_kind   jsonb,
  counts_by_topic  jsonb,
  error            text,
  UNIQUE (id, dataset),
  UNIQUE (dataset, version),
  CONSTRAINT source_snapshots_ready_complete CHECK (
    (status = 'ready') = (version IS NOT NULL)
    AND (status <> 'ready' OR (loaded_at IS NOT NULL AND entity_count IS NOT NULL
                               AND counts_by_kind IS NOT NULL AND counts_by_topic IS NOT NULL))
  ),
  CONSTRAINT source_snapshots_failed_has_error CHECK (status <> 'failed' OR error IS NOT NULL)
);
CREATE INDEX source_snapshots_dataset_started ON source_snapshots (dataset, started_at);

CREATE TABLE source_snapshot_entities (
  snapshot_id text NOT NULL REFERENCES source_snapshots (id),
  entity_id   text NOT NULL CHECK (length(entity_id) > 0),
  entity      jsonb NOT NULL,
  PRIMARY KEY (snapshot_id, entity_id)
);

CREATE TABLE source_dataset_current (
  dataset     text PRIMARY KEY,
  snapshot_id text NOT NULL UNIQUE,
  updated_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
  FOREIGN KEY (snapshot_id, dataset) REFERENCES source_snapshots (id, dataset)
);

CREATE FUNCTION source_snapshots_immutable_when_ready() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status = 'ready' THEN
    RAISE EXCEPTION 'source snapshot % is ready and immutable', OLD.id USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END $$;
CREATE TRIGGER source_snapshots_immutable BEFORE UPDATE OR DELETE ON source_snapshots
  FOR EACH ROW EXECUTE FUNCTION source_snapshots_immutable_when_ready();

-- Statement-level with transition tables: one check per batch instead of one lookup per row.
CREATE FUNCTION source_snapshot_entities_immutable_when_ready() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ready_id text;
BEGIN
  SELECT s.id INTO ready_id
    FROM source_snapshots s
   WHERE s.status = 'ready' AND s.id IN (SELECT snapshot_id FROM changed_rows)
   LIMIT 1;
  IF ready_id IS NOT NULL THEN
    RAISE EXCEPTION 'entities of source snapshot % are immutable', ready_id USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER source_snapshot_entities_immutable_insert AFTER INSERT ON source_snapshot_entities
  REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION source_snapshot_entities_immutable_when_ready();
CREATE TRIGGER source_snapshot_entities_immutable_update AFTER UPDATE ON source_snapshot_entities
  REFERENCING OLD TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION source_snapshot_entities_immutable_when_ready();
CREATE TRIGGER source_snapshot_entities_immutable_delete AFTER DELETE ON source_snapshot_entities
  REFERENCING OLD TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION source_snapshot_entities_immutable_when_ready();

CREATE FUNCTION source_dataset_current_is_ready() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM source_snapshots WHERE id = NEW.snapshot_id AND status = 'ready') THEN
    RAISE EXCEPTION 'source snapshot % is not ready and cannot become current', NEW.snapshot_id
      USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER source_dataset_current_ready BEFORE INSERT OR UPDATE ON source_dataset_current
  FOR EACH ROW EXECUTE FUNCTION source_dataset_current_is_ready();
`,
};
