import type { Migration } from './index.js';

/**
 * The check runner's work table (docs/check-runner.md). One row per queued check, inserted by the
 * `reactor:check_scheduler` subscription in the same transaction as its checkpoint, so each check of
 * a CaseCreated event gets exactly one row. Workers claim due rows with FOR UPDATE SKIP LOCKED and
 * hold them under a lease: a row is due when it is `queued` and its `next_attempt_at` has come, or
 * `running` and its lease has expired (its worker died). The case stream stays the record of what
 * happened to a check; this table only says who works on it and when to try again.
 */
export const checkJobsMigration: Migration = {
  id: 7,
  name: 'check_jobs',
  sql: `
CREATE TABLE check_jobs (
  check_reference text PRIMARY KEY CHECK (check_reference ~ '^[A-Z]{3}[0-9]{6}-[0-9]+$'),
  case_reference  text NOT NULL CHECK (case_reference ~ '^[A-Z]{3}[0-9]{6}$'),
  account_id      text NOT NULL,
  check_type      text NOT NULL CHECK (check_type IN ('sanctions', 'pep', 'business_entity_risk')),
  status          text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done')),
  attempts        integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  lease_owner     text,
  lease_until     timestamptz,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_error      text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT check_jobs_running_leased CHECK (
    (status = 'running') = (lease_owner IS NOT NULL AND lease_until IS NOT NULL)
  )
);

-- Claiming: the unfinished rows by the time they are due (a queued row's next attempt, a running
-- row's lease end); the claim query orders by this very expression, so it reads the index in order.
CREATE INDEX check_jobs_due ON check_jobs (
  (CASE WHEN status = 'running' THEN lease_until ELSE next_attempt_at END), check_reference
) WHERE status <> 'done';

CREATE INDEX check_jobs_case ON check_jobs (case_reference);
`,
};
