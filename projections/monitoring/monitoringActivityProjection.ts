import pg from 'pg';
import type { RecordedEvent } from '../../src/eventStore/eventStore.js';
import { MONITORING_CATEGORY, type MonitoringEvent } from '../../src/monitoring/monitoringEvents.js';
import { monitoringStream } from '../../src/monitoring/monitoringStream.js';
import type { ProjectionDefinition, VersionTables } from '../projection.js';
import {
  type AlertRecord,
  followUpNote,
  type RunRecord,
  raisedAlert,
  snapshotVersion,
  startedRun,
} from './monitoringActivityRecords.js';

type Table = 'monitoring_runs' | 'monitoring_alerts' | 'monitoring_activity_streams';

/**
 * The runs and alerts of every monitoring configuration (GET .../runs and .../alerts): one row per
 * run and one per alert, each with its record (monitoringActivityRecords.ts), and one row per
 * configuration in `monitoring_activity_streams` holding the stream revision applied last, the
 * guard that makes a replayed batch change nothing, with the configuration's account and group.
 *
 * Runs and alerts are listed under their configuration, whose group decides who sees them: a
 * configuration moved to another group (MonitoringConfigUpdated with `groupId`) moves the group of
 * its rows too, so the rows can be filtered by group alone.
 */
export const monitoringActivityProjection: ProjectionDefinition<Table> = {
  name: 'monitoring_activity',
  version: 1,
  categories: [MONITORING_CATEGORY],
  tables: ['monitoring_runs', 'monitoring_alerts', 'monitoring_activity_streams'],

  ddl: (tables) => {
    const q = (name: string) => pg.escapeIdentifier(name);
    const runs = tables.monitoring_runs;
    const alerts = tables.monitoring_alerts;
    const streams = tables.monitoring_activity_streams;
    return `
CREATE TABLE ${q(streams)} (
  monitoring_config_id text PRIMARY KEY,
  account_id           uuid NOT NULL,
  group_id             uuid NOT NULL,
  subject_reference    text NOT NULL,
  revision             bigint NOT NULL
);
CREATE TABLE ${q(runs)} (
  monitoring_run_id      text PRIMARY KEY,
  monitoring_config_id   text NOT NULL,
  account_id             uuid NOT NULL,
  group_id               uuid NOT NULL,
  status                 text NOT NULL,
  result                 text NOT NULL,
  started_at             timestamptz NOT NULL,
  created_case_reference text,
  record                 jsonb NOT NULL
);
CREATE INDEX ${q(`${runs}_config`)} ON ${q(runs)} (monitoring_config_id, started_at DESC, monitoring_run_id DESC);
CREATE TABLE ${q(alerts)} (
  alert_id               text PRIMARY KEY,
  monitoring_config_id   text NOT NULL,
  monitoring_run_id      text NOT NULL,
  account_id             uuid NOT NULL,
  group_id               uuid NOT NULL,
  resolution_status      text NOT NULL,
  created_at             timestamptz NOT NULL,
  created_case_reference text,
  record                 jsonb NOT NULL
);
CREATE INDEX ${q(`${alerts}_config`)} ON ${q(alerts)} (monitoring_config_id, created_at DESC, alert_id DESC);
CREATE INDEX ${q(`${alerts}_run`)} ON ${q(alerts)} (monitoring_run_id);`;
  },

  async handle(events, tx, tables) {
    const byStream = eventsByStream(events);
    if (byStream.size === 0) return;
    const batch = await loadBatch(tx, tables, byStream);

    for (const [configId, streamEvents] of byStream) {
      let stream = batch.streams.get(configId);
      for (const recorded of streamEvents) {
        const revision = Number(recorded.revision);
        const applied = stream?.revision ?? -1;
        if (revision <= applied) continue;
        if (revision !== applied + 1) {
          throw new Error(
            `monitoring_activity: ${recorded.streamName} revision ${revision} follows stored revision ${applied}; an event is missing`,
          );
        }
        const event = monitoringStream.toEvent(recorded);
        if (event.type === 'MonitoringConfigCreated') {
          stream = {
            accountId: event.data.accountId,
            groupId: event.data.groupId,
            subjectReference: event.data.subject.subjectReference,
            revision,
            moved: false,
            changed: true,
          };
          batch.streams.set(configId, stream);
          continue;
        }
        if (!stream)
          throw new Error(`monitoring_activity: ${recorded.streamName} has no MonitoringConfigCreated`);
        stream.revision = revision;
        stream.changed = true;
        apply(configId, event, stream, batch);
      }
    }
    await writeBatch(tx, tables, batch);
  },
};

interface StreamRow {
  accountId: string;
  groupId: string;
  subjectReference: string;
  revision: number;
  /** Its group changed in this batch: its stored rows move with it. */
  moved: boolean;
  changed: boolean;
}

interface Batch {
  streams: Map<string, StreamRow>;
  /** Rows read or made by this batch, by id; `touched` are written back. */
  runs: Map<string, RunRecord>;
  alerts: Map<string, AlertRecord>;
  touchedRuns: Set<string>;
  touchedAlerts: Set<string>;
}

function apply(configId: string, event: MonitoringEvent, stream: StreamRow, batch: Batch): void {
  const run = (runId: string, at: string): RunRecord => {
    // A run recorded without its start (never written so today) starts when it ends, as the fold has it.
    const record = batch.runs.get(runId) ?? startedRun(configId, { runId, checkTypes: [], occurredAt: at });
    batch.runs.set(runId, record);
    batch.touchedRuns.add(runId);
    return record;
  };
  const alert = (alertId: string): AlertRecord | undefined => {
    const record = batch.alerts.get(alertId);
    if (record) batch.touchedAlerts.add(alertId);
    return record;
  };
  switch (event.type) {
    case 'MonitoringConfigCreated':
      return;
    case 'MonitoringConfigUpdated':
      if (event.data.changes.groupId && event.data.changes.groupId !== stream.groupId) {
        stream.groupId = event.data.changes.groupId;
        stream.moved = true;
      }
      return;
    case 'MonitoringRunStarted':
      batch.runs.set(event.data.runId, startedRun(configId, event.data));
      batch.touchedRuns.add(event.data.runId);
      return;
    case 'MonitoringRunCompleted': {
      const d = event.data;
      Object.assign(run(d.runId, d.occurredAt), {
        status: 'completed',
        result: d.result,
        result_summary: d.resultSummary,
        source_snapshot_ids: d.snapshots.map((snapshot) => snapshot.id),
        source_snapshot_version: snapshotVersion(d.snapshots),
        match_count: d.counts.matchCount,
        new_match_count: d.counts.newMatchCount,
        changed_match_count: d.counts.changedMatchCount,
        unchanged_match_count: d.counts.unchangedMatchCount,
        completed_at: d.occurredAt,
        updated_at: d.occurredAt,
      } satisfies Partial<RunRecord>);
      return;
    }
    case 'MonitoringRunSkipped':
      Object.assign(run(event.data.runId, event.data.occurredAt), {
        status: 'skipped',
        result: 'skipped',
        result_summary: event.data.reason,
        completed_at: event.data.occurredAt,
        updated_at: event.data.occurredAt,
      } satisfies Partial<RunRecord>);
      return;
    case 'MonitoringRunFailed':
      Object.assign(run(event.data.runId, event.data.occurredAt), {
        status: 'failed',
        result: 'failed',
        result_summary: event.data.errorMessage,
        error_message: event.data.errorMessage,
        completed_at: event.data.occurredAt,
        updated_at: event.data.occurredAt,
      } satisfies Partial<RunRecord>);
      return;
    case 'MonitoringAlertRaised':
      batch.alerts.set(event.data.alertId, raisedAlert(configId, event.data));
      batch.touchedAlerts.add(event.data.alertId);
      return;
    case 'MonitoringAlertResolved': {
      const record = alert(event.data.alertId);
      if (record) {
        Object.assign(record, {
          resolution_status: event.data.resolution,
          resolution_note: event.data.note,
          resolved_at: event.data.occurredAt,
          updated_at: event.data.occurredAt,
        } satisfies Partial<AlertRecord>);
      }
      return;
    }
    case 'FollowUpCaseRequested':
      for (const id of event.data.alertIds) {
        const record = alert(id);
        if (record) {
          record.resolution_status = 'creating_follow_up_case';
          record.updated_at = event.data.occurredAt;
        }
      }
      return;
    case 'FollowUpCaseCreated': {
      const { caseReference, occurredAt } = event.data;
      for (const id of event.data.alertIds) {
        const record = alert(id);
        if (record) {
          Object.assign(record, {
            resolution_status: 'follow_up_case_created',
            resolution_note: followUpNote(caseReference),
            resolved_at: occurredAt,
            created_case_reference: caseReference,
            updated_at: occurredAt,
          } satisfies Partial<AlertRecord>);
        }
      }
      const record = batch.runs.get(event.data.runId);
      if (record) {
        batch.touchedRuns.add(event.data.runId);
        record.created_case_reference = caseReference;
        record.updated_at = occurredAt;
      }
      return;
    }
  }
}

function eventsByStream(events: readonly RecordedEvent[]): Map<string, RecordedEvent[]> {
  const byStream = new Map<string, RecordedEvent[]>();
  for (const event of events) {
    if (event.category !== MONITORING_CATEGORY) continue;
    const id = event.streamName.slice(MONITORING_CATEGORY.length + 1);
    const list = byStream.get(id);
    if (list) list.push(event);
    else byStream.set(id, [event]);
  }
  return byStream;
}

/** The guard rows of the batch's configurations, and the runs and alerts its events name. */
async function loadBatch(
  tx: pg.PoolClient,
  tables: VersionTables<Table>,
  byStream: Map<string, RecordedEvent[]>,
): Promise<Batch> {
  const q = (name: string) => pg.escapeIdentifier(name);
  const runIds = new Set<string>();
  const alertIds = new Set<string>();
  for (const events of byStream.values()) {
    for (const event of events) {
      const data = event.data as { runId?: unknown; alertId?: unknown; alertIds?: unknown };
      if (typeof data.runId === 'string') runIds.add(data.runId);
      if (typeof data.alertId === 'string') alertIds.add(data.alertId);
      if (Array.isArray(data.alertIds)) for (const id of data.alertIds) alertIds.add(String(id));
    }
  }
  // One client: the three reads run one after the other anyway.
  const streams = await tx.query<{
    monitoring_config_id: string;
    account_id: string;
    group_id: string;
    subject_reference: string;
    revision: string;
  }>(`SELECT * FROM ${q(tables.monitoring_activity_streams)} WHERE monitoring_config_id = ANY($1::text[])`, [
    [...byStream.keys()],
  ]);
  const runs = await tx.query<{ record: RunRecord }>(
    `SELECT record FROM ${q(tables.monitoring_runs)} WHERE monitoring_run_id = ANY($1::text[])`,
    [[...runIds]],
  );
  const alerts = await tx.query<{ record: AlertRecord }>(
    `SELECT record FROM ${q(tables.monitoring_alerts)} WHERE alert_id = ANY($1::text[])`,
    [[...alertIds]],
  );
  return {
    streams: new Map(
      streams.rows.map((row) => [
        row.monitoring_config_id,
        {
          accountId: row.account_id,
          groupId: row.group_id,
          subjectReference: row.subject_reference,
          revision: Number(row.revision),
          moved: false,
          changed: false,
        },
      ]),
    ),
    runs: new Map(runs.rows.map((row) => [row.record.monitoring_run_id, row.record])),
    alerts: new Map(alerts.rows.map((row) => [row.record.alert_id, row.record])),
    touchedRuns: new Set(),
    touchedAlerts: new Set(),
  };
}

async function writeBatch(tx: pg.PoolClient, tables: VersionTables<Table>, batch: Batch): Promise<void> {
  const q = (name: string) => pg.escapeIdentifier(name);
  const changed = [...batch.streams].filter(([, stream]) => stream.changed);
  if (changed.length === 0) return;
  await tx.query(
    `INSERT INTO ${q(tables.monitoring_activity_streams)} AS s
       (monitoring_config_id, account_id, group_id, subject_reference, revision)
     SELECT * FROM unnest($1::text[], $2::uuid[], $3::uuid[], $4::text[], $5::bigint[])
     ON CONFLICT (monitoring_config_id) DO UPDATE
       SET group_id = EXCLUDED.group_id, revision = EXCLUDED.revision
       WHERE s.revision < EXCLUDED.revision`,
    [
      changed.map(([id]) => id),
      changed.map(([, s]) => s.accountId),
      changed.map(([, s]) => s.groupId),
      changed.map(([, s]) => s.subjectReference),
      changed.map(([, s]) => String(s.revision)),
    ],
  );

  const moved = changed.filter(([, stream]) => stream.moved);
  if (moved.length > 0) {
    for (const table of [tables.monitoring_runs, tables.monitoring_alerts]) {
      await tx.query(
        `UPDATE ${q(table)} t SET group_id = m.group_id
           FROM unnest($1::text[], $2::uuid[]) AS m(monitoring_config_id, group_id)
          WHERE t.monitoring_config_id = m.monitoring_config_id AND t.group_id <> m.group_id`,
        [moved.map(([id]) => id), moved.map(([, s]) => s.groupId)],
      );
    }
  }

  const streamOf = (configId: string) => {
    const stream = batch.streams.get(configId);
    if (!stream) throw new Error(`monitoring_activity: no configuration ${configId} for a run or alert`);
    return stream;
  };
  const runs = [...batch.touchedRuns].map((id) => batch.runs.get(id)!);
  if (runs.length > 0) {
    await tx.query(
      `INSERT INTO ${q(tables.monitoring_runs)}
         (monitoring_run_id, monitoring_config_id, account_id, group_id, status, result, started_at,
          created_case_reference, record)
       SELECT * FROM unnest($1::text[], $2::text[], $3::uuid[], $4::uuid[], $5::text[], $6::text[],
                            $7::timestamptz[], $8::text[], $9::jsonb[])
       ON CONFLICT (monitoring_run_id) DO UPDATE
         SET group_id = EXCLUDED.group_id, status = EXCLUDED.status, result = EXCLUDED.result,
             started_at = EXCLUDED.started_at, created_case_reference = EXCLUDED.created_case_reference,
             record = EXCLUDED.record`,
      [
        runs.map((r) => r.monitoring_run_id),
        runs.map((r) => r.monitoring_config_id),
        runs.map((r) => streamOf(r.monitoring_config_id).accountId),
        runs.map((r) => streamOf(r.monitoring_config_id).groupId),
        runs.map((r) => r.status),
        runs.map((r) => r.result),
        runs.map((r) => r.started_at),
        runs.map((r) => r.created_case_reference),
        runs.map((r) => JSON.stringify(r)),
      ],
    );
  }
  const alerts = [...batch.touchedAlerts].map((id) => batch.alerts.get(id)!);
  if (alerts.length > 0) {
    await tx.query(
      `INSERT INTO ${q(tables.monitoring_alerts)}
         (alert_id, monitoring_config_id, monitoring_run_id, account_id, group_id, resolution_status,
          created_at, created_case_reference, record)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::uuid[], $5::uuid[], $6::text[],
                            $7::timestamptz[], $8::text[], $9::jsonb[])
       ON CONFLICT (alert_id) DO UPDATE
         SET group_id = EXCLUDED.group_id, resolution_status = EXCLUDED.resolution_status,
             created_case_reference = EXCLUDED.created_case_reference, record = EXCLUDED.record`,
      [
        alerts.map((a) => a.alert_id),
        alerts.map((a) => a.monitoring_config_id),
        alerts.map((a) => a.monitoring_run_id),
        alerts.map((a) => streamOf(a.monitoring_config_id).accountId),
        alerts.map((a) => streamOf(a.monitoring_config_id).groupId),
        alerts.map((a) => a.resolution_status),
        alerts.map((a) => a.created_at),
        alerts.map((a) => a.created_case_reference),
        alerts.map((a) => JSON.stringify(a)),
      ],
    );
  }
}
