import type pg from 'pg';
import { caseDecisions } from '../../projections/cases/queries.js';
import {
  listAlerts,
  listRuns,
  type StoredAlert,
  type StoredRun,
} from '../../projections/monitoring/activityQueries.js';
import type { SnapshotUsed } from '../cases/caseEvents.js';
import type { Queryable } from '../db/sql.js';
import { type Outcome, reject } from '../eventSourcing/decision.js';
import type { EventStore } from '../eventStore/eventStore.js';
import type { CheckType } from '../screening/checkTypes.js';
import type { Clock } from '../shared/clock.js';
import { notFoundText } from '../shared/notFound.js';
import type {
  EnrolledFrom,
  MonitoringEvent,
  MonitoringResult,
  MonitoringStatus,
  ResolutionStatus,
  RunCounts,
  RunTrigger,
} from './monitoringEvents.js';
import {
  historyEntry,
  type MonitoringHistoryEntry,
  type SnapshotLabels,
  snapshotIdsNamed,
} from './monitoringHistory.js';
import { readMonitoringConfig } from './monitoringReadModel.js';
import { insertRuns, queuedRun } from './monitoringScheduler.js';
import type { MonitoringConfigState } from './monitoringState.js';
import { monitoringCommandHandler } from './monitoringStream.js';
import type { SweepStats } from './sweep.js';

/**
 * The operator's view of monitoring and its one lever (`casescreen monitoring ...`,
 * docs/monitoring.md, "Operations"): configurations across accounts, what a configuration's latest
 * run found or why it was skipped, the work queued for it, its runs, alerts and audit history, the
 * sweeps of list versions, and an operator run. Functions only: the CLI formats what they answer.
 *
 * Operators see every account; nothing here checks a key's groups. What is read from the config
 * stream (show, history, the lag of the run and alert lists) is current; the list of configurations,
 * runs and alerts come from the read models, which a `work` process keeps up.
 */

export interface OperationsDeps {
  pool: pg.Pool;
  store: EventStore;
}

export const DEFAULT_OPERATOR_LIST = 50;
export const MAX_OPERATOR_LIST = 1000;

const notFound = (id: string) => reject('not_found', notFoundText('monitoringConfig', id));

/** A configuration in a line's worth of facts. */
export interface ConfigSummary {
  monitoringConfigId: string;
  accountId: string;
  groupId: string;
  /** null when the group is gone from the workspace tables. */
  groupName: string | null;
  subjectReference: string;
  subjectName: string;
  status: MonitoringStatus;
  checkTypes: CheckType[];
  latestResult: MonitoringResult;
  latestResultSummary: string | null;
  lastCheckedAt: string | null;
  lastChangeDetectedAt: string | null;
  latestRunId: string | null;
  followUpCaseReferences: string[];
  /** Follow-up cases still `pending_decision` in case_views. */
  openFollowUpCaseReferences: string[];
  createdAt: string;
  updatedAt: string;
  revision: number;
}

export interface OperatorConfigFilter {
  accountId?: string;
  status?: MonitoringStatus;
  latestResult?: MonitoringResult;
  subjectReference?: string;
  limit: number;
}

/**
 * Configurations newest first, of one account or all. Rows are selected from `monitoring_configs`
 * and each is shown caught up with its stream (the API's list does the same); one whose latest
 * state no longer fits the filters is left out.
 */
export async function listConfigsForOperator(
  deps: OperationsDeps,
  filter: OperatorConfigFilter,
): Promise<ConfigSummary[]> {
  const { rows } = await deps.pool.query<{ id: string }>(
    `SELECT monitoring_config_id AS id FROM monitoring_configs
      WHERE ($1::uuid IS NULL OR account_id = $1)
        AND ($2::text IS NULL OR status = $2)
        AND ($3::text IS NULL OR latest_result = $3)
        AND ($4::text IS NULL OR subject_reference = $4)
      ORDER BY created_at DESC, monitoring_config_id DESC
      LIMIT $5`,
    [
      filter.accountId ?? null,
      filter.status ?? null,
      filter.latestResult ?? null,
      filter.subjectReference ?? null,
      filter.limit,
    ],
  );
  const states = (
    await Promise.all(rows.map((row) => readMonitoringConfig(deps.pool, deps.store, row.id)))
  ).filter(
    (state): state is MonitoringConfigState =>
      state !== undefined &&
      (filter.accountId === undefined || state.accountId.toLowerCase() === filter.accountId.toLowerCase()) &&
      (filter.status === undefined || state.status === filter.status) &&
      (filter.latestResult === undefined || state.latestResult === filter.latestResult) &&
      (filter.subjectReference === undefined || state.subject.subjectReference === filter.subjectReference),
  );
  return summaries(deps.pool, states);
}

async function summaries(db: Queryable, states: readonly MonitoringConfigState[]): Promise<ConfigSummary[]> {
  if (states.length === 0) return [];
  const groupIds = [...new Set(states.map((state) => state.groupId.toLowerCase()))];
  const { rows } = await db.query<{ id: string; name: string }>(
    'SELECT id, name FROM groups WHERE id = ANY($1::uuid[])',
    [groupIds],
  );
  const groupNames = new Map(rows.map((row) => [row.id.toLowerCase(), row.name]));
  const decisions = await caseDecisions(
    db,
    states.flatMap((state) => state.followUpCaseReferences),
  );
  return states.map((state) => ({
    monitoringConfigId: state.monitoringConfigId,
    accountId: state.accountId,
    groupId: state.groupId,
    groupName: groupNames.get(state.groupId.toLowerCase()) ?? null,
    subjectReference: state.subject.subjectReference,
    subjectName: state.subject.displayName,
    status: state.status,
    checkTypes: state.checkTypes,
    latestResult: state.latestResult,
    latestResultSummary: state.latestResultSummary,
    lastCheckedAt: state.lastCheckedAt,
    lastChangeDetectedAt: state.lastChangeDetectedAt,
    latestRunId: state.latestRun?.runId ?? null,
    followUpCaseReferences: state.followUpCaseReferences,
    openFollowUpCaseReferences: state.followUpCaseReferences.filter(
      (reference) => decisions.get(reference) === 'pending_decision',
    ),
    createdAt: state.createdAt,
    updatedAt: state.updatedAt,
    revision: state.revision,
  }));
}

/** A run as its events on the config stream tell it. */
export interface RunOverview {
  runId: string;
  trigger: RunTrigger;
  status: 'running' | 'completed' | 'skipped' | 'failed';
  result: string;
  resultSummary: string | null;
  startedAt: string;
  completedAt: string | null;
  /** The list versions the run screened against (none when skipped or failed). */
  snapshots: SnapshotUsed[];
  /** A skipped run: the datasets whose current version was too old (empty when a list was missing). */
  staleDatasets: string[];
  counts: RunCounts | null;
  errorMessage: string | null;
  alertIds: string[];
  followUpCaseReference: string | null;
}

/** A row of `monitoring_jobs`: a run to make, being made, or finished. */
export interface MonitoringJobView {
  runId: string;
  trigger: RunTrigger;
  status: 'queued' | 'running' | 'done';
  attempts: number;
  /** The last retry's cause, or why a finished job made no run (a paused configuration). */
  lastError: string | null;
  nextAttemptAt: string;
  leaseOwner: string | null;
  leaseUntil: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ConfigOverview {
  config: ConfigSummary & {
    ownerUserId: string | null;
    collaboratorUserIds: string[];
    enrolledFrom: EnrolledFrom;
    screeningProfileId: string;
    metadata: Record<string, unknown>;
    runCount: number;
    /** Alerts not resolved yet (pending, or on their way into a follow-up case). */
    openAlertIds: string[];
  };
  latestRun: RunOverview | null;
  /** Queued and running jobs of the configuration, oldest first. */
  pendingJobs: MonitoringJobView[];
  /** Finished jobs that made no run (their run id never started on the stream), newest first. */
  jobsNotRun: MonitoringJobView[];
}

const JOBS_NOT_RUN_SHOWN = 5;

/** `monitoring show`: the configuration from its stream, its latest run, and its work in the queue. */
export async function getConfigOverview(
  deps: OperationsDeps,
  monitoringConfigId: string,
): Promise<ConfigOverview | undefined> {
  const loaded = await monitoringCommandHandler.load(deps.store, monitoringConfigId);
  const state = loaded.state;
  if (!state) return undefined;
  const events = loaded.events.map((stored) => stored.event);
  const [summary] = await summaries(deps.pool, [state]);
  const jobs = await jobsOf(deps.pool, monitoringConfigId);
  const started = new Set(
    events.flatMap((event) => (event.type === 'MonitoringRunStarted' ? [event.data.runId] : [])),
  );
  return {
    config: {
      ...summary!,
      ownerUserId: state.ownerUserId,
      collaboratorUserIds: state.collaboratorUserIds,
      enrolledFrom: state.enrolledFrom,
      screeningProfileId: state.screeningProfileId,
      metadata: state.metadata,
      runCount: state.runCount,
      openAlertIds: Object.keys(state.openAlerts),
    },
    latestRun: state.latestRun ? runOverview(events, state.latestRun.runId) : null,
    pendingJobs: jobs.filter((job) => job.status !== 'done'),
    jobsNotRun: jobs
      .filter((job) => job.status === 'done' && !started.has(job.runId))
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
      .slice(0, JOBS_NOT_RUN_SHOWN),
  };
}

/** The run `runId` as the stream's events record it. */
export function runOverview(events: readonly MonitoringEvent[], runId: string): RunOverview | null {
  let run: RunOverview | null = null;
  for (const event of events) {
    if (!('runId' in event.data) || event.data.runId !== runId) continue;
    switch (event.type) {
      case 'MonitoringRunStarted':
        run = {
          runId,
          trigger: event.data.trigger,
          status: 'running',
          result: 'running',
          resultSummary: null,
          startedAt: event.data.occurredAt,
          completedAt: null,
          snapshots: [],
          staleDatasets: [],
          counts: null,
          errorMessage: null,
          alertIds: [],
          followUpCaseReference: null,
        };
        break;
      case 'MonitoringRunCompleted':
        if (run) {
          Object.assign(run, {
            status: 'completed',
            result: event.data.result,
            resultSummary: event.data.resultSummary,
            completedAt: event.data.occurredAt,
            snapshots: event.data.snapshots,
            counts: event.data.counts,
          });
        }
        break;
      case 'MonitoringRunSkipped':
        if (run) {
          Object.assign(run, {
            status: 'skipped',
            result: 'skipped',
            resultSummary: event.data.reason,
            completedAt: event.data.occurredAt,
            staleDatasets: event.data.staleDatasets,
          });
        }
        break;
      case 'MonitoringRunFailed':
        if (run) {
          Object.assign(run, {
            status: 'failed',
            result: 'failed',
            resultSummary: event.data.errorMessage,
            errorMessage: event.data.errorMessage,
            completedAt: event.data.occurredAt,
          });
        }
        break;
      case 'MonitoringAlertRaised':
        run?.alertIds.push(event.data.alertId);
        break;
      case 'FollowUpCaseCreated':
        if (run) run.followUpCaseReference = event.data.caseReference;
        break;
      default:
        break;
    }
  }
  return run;
}

async function jobsOf(db: Queryable, monitoringConfigId: string): Promise<MonitoringJobView[]> {
  const { rows } = await db.query<{
    run_id: string;
    trigger: RunTrigger;
    status: MonitoringJobView['status'];
    attempts: number;
    last_error: string | null;
    next_attempt_at: Date;
    lease_owner: string | null;
    lease_until: Date | null;
    created_at: Date;
    updated_at: Date;
  }>(
    `SELECT run_id, trigger, status, attempts, last_error, next_attempt_at, lease_owner, lease_until,
            created_at, updated_at
       FROM monitoring_jobs WHERE monitoring_config_id = $1 ORDER BY created_at, run_id`,
    [monitoringConfigId],
  );
  return rows.map((row) => ({
    runId: row.run_id,
    trigger: row.trigger,
    status: row.status,
    attempts: row.attempts,
    lastError: row.last_error,
    nextAttemptAt: row.next_attempt_at.toISOString(),
    leaseOwner: row.lease_owner,
    leaseUntil: row.lease_until?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  }));
}

/**
 * How far `monitoring_activity` (the runs and alerts lists) lags the config stream: the revision
 * it applied last (-1: none yet) against the stream's.
 */
export interface ActivityLag {
  streamRevision: number;
  appliedRevision: number;
}

async function activityLag(db: Queryable, state: MonitoringConfigState): Promise<ActivityLag> {
  const { rows } = await db.query<{ revision: string }>(
    'SELECT revision FROM monitoring_activity_streams WHERE monitoring_config_id = $1',
    [state.monitoringConfigId],
  );
  return { streamRevision: state.revision, appliedRevision: rows[0] ? Number(rows[0].revision) : -1 };
}

export async function listConfigRuns(
  deps: OperationsDeps,
  monitoringConfigId: string,
  limit: number,
): Promise<Outcome<{ config: MonitoringConfigState; runs: StoredRun[]; lag: ActivityLag }>> {
  const config = await readMonitoringConfig(deps.pool, deps.store, monitoringConfigId);
  if (!config) return notFound(monitoringConfigId);
  const runs = await listRuns(deps.pool, monitoringConfigId, limit);
  return { ok: true, value: { config, runs, lag: await activityLag(deps.pool, config) } };
}

export async function listConfigAlerts(
  deps: OperationsDeps,
  monitoringConfigId: string,
  options: { resolutionStatus?: ResolutionStatus; limit: number },
): Promise<Outcome<{ config: MonitoringConfigState; alerts: StoredAlert[]; lag: ActivityLag }>> {
  const config = await readMonitoringConfig(deps.pool, deps.store, monitoringConfigId);
  if (!config) return notFound(monitoringConfigId);
  const alerts = await listAlerts(deps.pool, monitoringConfigId, options);
  return { ok: true, value: { config, alerts, lag: await activityLag(deps.pool, config) } };
}

export interface OperatorRunInput {
  monitoringConfigId: string;
  reason: string | null;
  /** A paused configuration gets no runs unless the operator says so. */
  evenIfPaused: boolean;
}

export interface QueuedOperatorRun {
  runId: string;
  monitoringConfigId: string;
  trigger: RunTrigger;
  status: MonitoringStatus;
  /** False when this trigger key had queued the run already (a retried invocation). */
  queued: boolean;
}

/**
 * Queues a run of the configuration now (trigger `operator`), for a `work` process to make. The
 * run id derives from the caller's trigger key: one key, one run, however often it is sent (the
 * CLI makes a fresh key per invocation). A paused configuration is refused (`conflict`, details
 * `{status: 'paused'}`) unless `evenIfPaused`: the run worker makes operator runs of paused
 * configurations, since an operator asked for exactly that.
 */
export async function queueOperatorRun(
  deps: OperationsDeps & { clock: Clock },
  input: OperatorRunInput,
  triggerKey: string,
): Promise<Outcome<QueuedOperatorRun>> {
  const config = await readMonitoringConfig(deps.pool, deps.store, input.monitoringConfigId);
  if (!config) return notFound(input.monitoringConfigId);
  if (config.status === 'paused' && !input.evenIfPaused) {
    return reject('conflict', `Monitoring configuration ${config.monitoringConfigId} is paused.`, {
      status: 'paused',
    });
  }
  const trigger: RunTrigger = {
    kind: 'operator',
    reason: input.reason,
    requestedAt: deps.clock().toISOString(),
  };
  const run = queuedRun(config.monitoringConfigId, trigger, `operator:${triggerKey}`);
  const queued = await insertRuns(deps.pool, [run]);
  return {
    ok: true,
    value: {
      runId: run.runId,
      monitoringConfigId: config.monitoringConfigId,
      trigger,
      status: config.status,
      queued: queued === 1,
    },
  };
}

export interface SweepView {
  snapshotId: string;
  dataset: string;
  /** The list version of the snapshot (null when it is no longer stored). */
  version: number | null;
  previousSnapshotId: string | null;
  previousVersion: number | null;
  status: 'queued' | 'running' | 'done';
  attempts: number;
  lastError: string | null;
  /** Set once done. */
  stats: SweepStats | null;
  createdAt: string;
  updatedAt: string;
}

/** The sweeps of list versions that became current, newest first. */
export async function listSweeps(db: Queryable, limit: number): Promise<SweepView[]> {
  const { rows } = await db.query<{
    snapshot_id: string;
    dataset: string;
    version: number | null;
    previous_snapshot_id: string | null;
    previous_version: number | null;
    status: SweepView['status'];
    attempts: number;
    last_error: string | null;
    stats: SweepStats | null;
    created_at: Date;
    updated_at: Date;
  }>(
    `SELECT s.snapshot_id, s.dataset, cur.version, s.previous_snapshot_id, prev.version AS previous_version,
            s.status, s.attempts, s.last_error, s.stats, s.created_at, s.updated_at
       FROM monitoring_sweeps s
       LEFT JOIN source_snapshots cur ON cur.id = s.snapshot_id
       LEFT JOIN source_snapshots prev ON prev.id = s.previous_snapshot_id
      ORDER BY s.created_at DESC, s.snapshot_id DESC
      LIMIT $1`,
    [limit],
  );
  return rows.map((row) => ({
    snapshotId: row.snapshot_id,
    dataset: row.dataset,
    version: row.version,
    previousSnapshotId: row.previous_snapshot_id,
    previousVersion: row.previous_version,
    status: row.status,
    attempts: row.attempts,
    lastError: row.last_error,
    stats: row.stats,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  }));
}

/** `monitoring history`: every event of the config stream, in order, with its summary. */
export async function configHistory(
  deps: OperationsDeps,
  monitoringConfigId: string,
): Promise<MonitoringHistoryEntry[] | undefined> {
  const loaded = await monitoringCommandHandler.load(deps.store, monitoringConfigId);
  if (loaded.events.length === 0) return undefined;
  const labels = await snapshotLabels(
    deps.pool,
    snapshotIdsNamed(loaded.events.map((stored) => stored.event)),
  );
  return loaded.events.map((stored) => historyEntry(stored, labels));
}

/** `dataset@version` of the snapshots still stored among `ids`. */
async function snapshotLabels(db: Queryable, ids: readonly string[]): Promise<SnapshotLabels> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ id: string; dataset: string; version: number | null }>(
    'SELECT id, dataset, version FROM source_snapshots WHERE id = ANY($1::text[])',
    [[...ids]],
  );
  return new Map(rows.map((row) => [row.id, `${row.dataset}@${row.version ?? '?'}`]));
}
