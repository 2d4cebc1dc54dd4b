import type { Migration } from './index.js';

/**
 * The monitoring worker's work tables (docs/monitoring.md, "Runs"). The config streams stay the
 * record of what happened; these only say what is to be done, by whom, and when to try again.
 *
 * - `monitoring_jobs`: one row per run to make, keyed by the run id (derived from the config and the
 *   trigger, so a trigger seen twice queues one run). Queued by the `reactor:monitoring_scheduler`
 *   subscription inside its checkpoint transaction, by a sweep, or by the safety-net schedule;
 *   claimed under a lease with FOR UPDATE SKIP LOCKED, like check_jobs.
 * - `monitoring_sweeps`: one row per list version that became current: the delta re-screening of
 *   that version (which configs it can affect) is worked off here, outside any feed transaction.
 */
export const monitoringMigration: Migration = {
  id: 11,
  name: 'monitoring',
  sql: `
CREATE TABLE monitoring_jobs (
  run_id               text PRIMARY KEY,
  monitoring_config_id text NOT NULL,
  trigger              jsonb NOT NULL,
  status               text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done')),
  attempts             integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  lease_owner          text,
  lease_until          timestamptz,
  next_attempt_at      timestamptz NOT NULL DEFAULT now(),
  last_error           text,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT monitoring_jobs_running_leased CHECK (
    (status = 'running') = (lease_owner IS NOT NULL AND lease_until IS NOT NULL)
  )
);
CREATE INDEX monitoring_jobs_due ON monitoring_jobs (
  (CASE WHEN status = 'running' THEN lease_until ELSE next_attempt_at END), run_id
) WHERE status <> 'done';
CREATE INDEX monitoring_jobs_config ON monitoring_jobs (monitoring_config_id);

CREATE TABLE monitoring_sweeps (
  snapshot_id          text PRIMARY KEY,
  dataset              text NOT NULL,
  previous_snapshot_id text,
  -- The feed position of the SnapshotBecameCurrent event: the sweep waits for the read model of the
  -- configurations to reach it, so no run recorded before the list version is missed.
  position             text,
  status               text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done')),
  attempts             integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  lease_owner          text,
  lease_until          timestamptz,
  next_attempt_at      timestamptz NOT NULL DEFAULT now(),
  last_error           text,
  stats                jsonb,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX monitoring_sweeps_due ON monitoring_sweeps (next_attempt_at) WHERE status <> 'done';
`,
};
