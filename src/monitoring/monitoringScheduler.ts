import type pg from 'pg';
import { v5 as uuidv5 } from 'uuid';
import { CASE_CATEGORY, type CaseCreated } from '../cases/caseEvents.js';
import type { Queryable } from '../db/sql.js';
import type { EventStore, RecordedEvent } from '../eventStore/eventStore.js';
import { type SnapshotBecameCurrent, SOURCE_DATASET_CATEGORY } from '../screening/snapshots/datasetStream.js';
import type { Clock } from '../shared/clock.js';
import { SUBJECT_CATEGORY } from '../subjects/subjectEvents.js';
import type { SubscriptionHandler } from '../subscriptions/handler.js';
import { MONITORING_CATEGORY, type MonitoringEvent, type RunTrigger } from './monitoringEvents.js';
import { monitoringRunId } from './monitoringReferences.js';
import { enrollSubject } from './monitoringService.js';

/**
 * The monitoring scheduler (docs/monitoring.md, "Run triggers"): a reactor on the feed that turns
 * facts into work. Rows are written through the runner's transaction, the one that moves its
 * checkpoint, so each trigger queues its run exactly once (a batch seen again inserts nothing:
 * run ids derive from the trigger).
 *
 * - MonitoringConfigCreated: the baseline run (not for a config created paused).
 * - MonitoringConfigUpdated: a resume, or new check types, runs the config again.
 * - CaseCreated with `monitoring.enable`: enrolls the subject in the case's group (an append to the
 *   config stream with ids derived from the case event, so a batch seen again changes nothing).
 * - SnapshotBecameCurrent (the `sourceDataset` streams): a sweep of that list version.
 * - SubjectUpdated: the subject's configurations run again with its new details.
 */
export const MONITORING_SCHEDULER_SUBSCRIPTION_ID = 'reactor:monitoring_scheduler';

const ENROLLMENT_NAMESPACE = '9d1e0b52-7a43-4f61-8c2e-3b5a6d7e8f90';

export interface QueuedRun {
  runId: string;
  monitoringConfigId: string;
  trigger: RunTrigger;
}

export function queuedRun(monitoringConfigId: string, trigger: RunTrigger, triggerKey: string): QueuedRun {
  return { runId: monitoringRunId(monitoringConfigId, triggerKey), monitoringConfigId, trigger };
}

/** The runs the config stream's events among `events` trigger, in feed order. */
export function runsOf(events: readonly RecordedEvent[]): QueuedRun[] {
  const runs: QueuedRun[] = [];
  for (const recorded of events) {
    if (recorded.category !== MONITORING_CATEGORY) continue;
    const id = recorded.streamName.slice(MONITORING_CATEGORY.length + 1);
    const event = { type: recorded.type, data: recorded.data } as MonitoringEvent;
    if (event.type === 'MonitoringConfigCreated' && event.data.status === 'active') {
      runs.push(queuedRun(id, { kind: 'enrollment' }, 'enrollment'));
    }
    if (event.type === 'MonitoringConfigUpdated') {
      const { changes } = event.data;
      if (changes.status === 'active') runs.push(queuedRun(id, { kind: 'resume' }, `resume:${recorded.id}`));
      else if (changes.checkTypes) {
        runs.push(queuedRun(id, { kind: 'check_types_changed' }, `check_types:${recorded.id}`));
      }
    }
  }
  return runs;
}

/**
 * The runs a change of a subject's details triggers: every configuration of the subject, in any
 * group of its account (read from `monitoring_configs`; a configuration enrolled a moment ago and
 * not there yet screens the subject as it is now at its baseline anyway).
 */
async function runsOfSubjectChanges(tx: Queryable, events: readonly RecordedEvent[]): Promise<QueuedRun[]> {
  const updates = events.filter(
    (event) => event.category === SUBJECT_CATEGORY && event.type === 'SubjectUpdated',
  );
  if (updates.length === 0) return [];
  const references = updates.map((event) => event.streamName.slice(SUBJECT_CATEGORY.length + 1));
  const { rows } = await tx.query<{ id: string; subject_reference: string }>(
    `SELECT monitoring_config_id AS id, subject_reference FROM monitoring_configs
      WHERE subject_reference = ANY($1::text[]) AND status = 'active'`,
    [references],
  );
  return updates.flatMap((event) => {
    const reference = event.streamName.slice(SUBJECT_CATEGORY.length + 1);
    return rows
      .filter((row) => row.subject_reference === reference)
      .map((row) => queuedRun(row.id, { kind: 'subject_changed' }, `subject:${event.id}`));
  });
}

export async function insertRuns(db: Queryable, runs: readonly QueuedRun[]): Promise<number> {
  if (runs.length === 0) return 0;
  const result = await db.query(
    `INSERT INTO monitoring_jobs (run_id, monitoring_config_id, trigger)
     SELECT r.run_id, r.monitoring_config_id, r.trigger
       FROM jsonb_to_recordset($1::jsonb) AS r(run_id text, monitoring_config_id text, trigger jsonb)
     ON CONFLICT (run_id) DO NOTHING`,
    [
      JSON.stringify(
        runs.map((run) => ({
          run_id: run.runId,
          monitoring_config_id: run.monitoringConfigId,
          trigger: run.trigger,
        })),
      ),
    ],
  );
  return result.rowCount ?? 0;
}

export async function insertSweeps(db: Queryable, events: readonly RecordedEvent[]): Promise<number> {
  const sweeps = events
    .filter((event) => event.category === SOURCE_DATASET_CATEGORY && event.type === 'SnapshotBecameCurrent')
    .map((event) => ({ data: event.data as SnapshotBecameCurrent['data'], position: event.position }))
    .map(({ data, position }) => ({
      snapshot_id: data.snapshotId,
      dataset: data.dataset,
      previous_snapshot_id: data.previousSnapshotId,
      position,
    }));
  if (sweeps.length === 0) return 0;
  const result = await db.query(
    `INSERT INTO monitoring_sweeps (snapshot_id, dataset, previous_snapshot_id, position)
     SELECT s.snapshot_id, s.dataset, s.previous_snapshot_id, s.position
       FROM jsonb_to_recordset($1::jsonb)
            AS s(snapshot_id text, dataset text, previous_snapshot_id text, position text)
     ON CONFLICT (snapshot_id) DO NOTHING`,
    [JSON.stringify(sweeps)],
  );
  return result.rowCount ?? 0;
}

/** The enrollments of cases created with `monitoring.enable` (follow-up cases never enroll). */
async function enrollFromCases(
  deps: { pool: pg.Pool; store: EventStore; clock: Clock },
  events: readonly RecordedEvent[],
): Promise<void> {
  for (const recorded of events) {
    if (recorded.category !== CASE_CATEGORY || recorded.type !== 'CaseCreated') continue;
    const data = recorded.data as CaseCreated['data'];
    if (!data.monitoring.enable || data.origin) continue;
    const outcome = await enrollSubject(
      deps,
      { accountId: data.accountId, actor: data.actor, visibleGroupIds: [data.groupId.toLowerCase()] },
      {
        subjectReference: data.subject.subjectReference,
        groupId: data.groupId,
        checkTypes: data.checks.map((check) => check.type),
        ownerUserId: data.monitoring.ownerUserId ?? data.ownerUserId,
        collaboratorUserIds: data.monitoring.collaboratorUserIds,
        status: undefined,
        metadata: undefined,
        enrolledFrom: { kind: 'case', caseReference: data.caseReference },
      },
      (index) => uuidv5(`${recorded.id}:enroll:${index}`, ENROLLMENT_NAMESPACE),
    );
    // POST /v1/cases checked the monitoring owner and collaborators against the group already; a
    // refusal now (a member removed since) must not stop the feed: the case records the request.
    // A conflict: the subject's configuration of this group was moved to another group meanwhile.
    if (!outcome.ok && !['unprocessable', 'not_found', 'conflict'].includes(outcome.rejection.code)) {
      throw new Error(
        `enrolling the subject of case ${data.caseReference} failed: ${outcome.rejection.message}`,
      );
    }
  }
}

/**
 * `onQueued` is told, inside the batch's transaction, that it queued runs or sweeps: the caller
 * rings its workers once the batch has committed (monitoringRunner.ts), and only then.
 */
export function monitoringSchedulerHandler(deps: {
  pool: pg.Pool;
  store: EventStore;
  clock: Clock;
  onQueued?: () => void;
}): SubscriptionHandler {
  return {
    subscriptionId: MONITORING_SCHEDULER_SUBSCRIPTION_ID,
    categories: [MONITORING_CATEGORY, CASE_CATEGORY, SOURCE_DATASET_CATEGORY, SUBJECT_CATEGORY],
    async handle(events, tx) {
      await enrollFromCases(deps, events);
      const runs = await insertRuns(tx, [...runsOf(events), ...(await runsOfSubjectChanges(tx, events))]);
      const sweeps = await insertSweeps(tx, events);
      if (runs + sweeps > 0) deps.onQueued?.();
    },
  };
}
