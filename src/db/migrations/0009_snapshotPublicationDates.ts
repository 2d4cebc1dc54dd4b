import type { Migration } from './index.js';

/**
 * Freshness you can trust (docs/screening-sources.md, "Staleness"):
 * - every snapshot made ready from now on has a publication date: staleness is measured from the
 *   publisher's date, never from the load time, so a years-old list loaded today is not fresh. The
 *   check is NOT VALID: ready snapshots loaded before it may lack the date, and being immutable
 *   they keep lacking it; the staleness rule treats them as stale, of unknown age, until a dated
 *   list of the dataset is loaded.
 * - `missing_files`: the companion files a partial load went ahead without (`--allow-partial`,
 *   an OFAC CSV set without alt.csv, ...), so that the snapshot says what it lacks. Empty for a
 *   complete load and for every snapshot loaded before this migration.
 */
export const snapshotPublicationDatesMigration: Migration = {
  id: 9,
  name: 'snapshot_publication_dates',
  sql: `
ALTER TABLE source_snapshots ADD COLUMN missing_files text[] NOT NULL DEFAULT '{}';
ALTER TABLE source_snapshots ADD CONSTRAINT source_snapshots_ready_published
  CHECK (status <> 'ready' OR published_at IS NOT NULL) NOT VALID;
`,
};
