import type { StoredAlert, StoredRun } from '../../../projections/monitoring/activityQueries.js';
import type { MonitoringHistoryEntry } from '../../monitoring/monitoringHistory.js';
import { enrolledFromText, snapshotsText, triggerText } from '../../monitoring/monitoringHistory.js';
import type {
  ActivityLag,
  ConfigOverview,
  ConfigSummary,
  MonitoringJobView,
  SweepView,
} from '../../monitoring/monitoringOperations.js';
import { formatTable } from '../table.js';

/** What `casescreen monitoring ...` print, as pure functions of the operations' answers. */

const dash = (value: string | null | undefined) => value ?? '-';

function oneLine(text: string, max = 200): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: replacing them is the point
  const flat = text.replace(/[\u0000-\u001f\u007f\s]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function configsTable(configs: readonly ConfigSummary[]): string {
  if (configs.length === 0) return 'No monitoring configurations\n';
  return formatTable(
    ['ID', 'SUBJECT', 'NAME', 'GROUP', 'STATUS', 'LATEST RESULT', 'LAST CHECKED', 'OPEN FOLLOW-UPS'],
    configs.map((config) => [
      config.monitoringConfigId,
      config.subjectReference,
      oneLine(config.subjectName, 40),
      config.groupName ? oneLine(config.groupName, 30) : config.groupId,
      config.status,
      config.latestResult,
      dash(config.lastCheckedAt),
      String(config.openFollowUpCaseReferences.length),
    ]),
  );
}

function jobLine(job: MonitoringJobView): string {
  const parts = [job.runId, job.status, triggerText(job.trigger), `attempts ${job.attempts}`];
  if (job.status === 'running') parts.push(`leased by ${dash(job.leaseOwner)} until ${dash(job.leaseUntil)}`);
  if (job.status === 'queued') parts.push(`next attempt ${job.nextAttemptAt}`);
  if (job.lastError) parts.push(`last error: ${oneLine(job.lastError)}`);
  if (job.status === 'done') parts.push(`finished ${job.updatedAt}`);
  return parts.join('  ');
}

/** `monitoring show`: the configuration, one fact a line; its latest run; its work in the queue. */
export function overviewText(overview: ConfigOverview): string {
  const { config, latestRun } = overview;
  const lines = [`Monitoring configuration ${config.monitoringConfigId} (revision ${config.revision})`];
  const row = (label: string, value: string, indent = '  ') =>
    lines.push(`${indent}${`${label}:`.padEnd(26)}${value}`);
  row('Subject', `${config.subjectName} (${config.subjectReference})`);
  row('Account', config.accountId);
  row('Group', config.groupName ? `${config.groupName} (${config.groupId})` : config.groupId);
  row('Status', config.status);
  row('Check types', config.checkTypes.join(', '));
  row('Owner', dash(config.ownerUserId));
  row(
    'Collaborators',
    config.collaboratorUserIds.length > 0 ? config.collaboratorUserIds.join(', ') : 'none',
  );
  row('Enrolled', `${config.createdAt}, ${enrolledFromText(config.enrolledFrom)}`);
  row('Latest result', config.latestResult);
  row('Last checked', dash(config.lastCheckedAt));
  row('Last change detected', dash(config.lastChangeDetectedAt));
  row('Runs', String(config.runCount));
  row('Open alerts', config.openAlertIds.length > 0 ? config.openAlertIds.join(', ') : 'none');
  row(
    'Follow-up cases',
    config.followUpCaseReferences.length > 0
      ? `${config.followUpCaseReferences.join(', ')} (${config.openFollowUpCaseReferences.length} open)`
      : 'none',
  );
  if (latestRun) {
    lines.push(`  Latest run ${latestRun.runId}:`);
    const runRow = (label: string, value: string) => row(label, value, '    ');
    runRow('Trigger', triggerText(latestRun.trigger));
    runRow(
      'Status',
      `${latestRun.status}${latestRun.status === 'completed' ? ` (${latestRun.result})` : ''}`,
    );
    runRow('Started', latestRun.startedAt);
    runRow('Finished', dash(latestRun.completedAt));
    if (latestRun.resultSummary !== null) {
      runRow(
        latestRun.status === 'skipped' ? 'Why skipped' : 'Summary',
        oneLine(latestRun.resultSummary, 500),
      );
    }
    if (latestRun.status === 'skipped') {
      runRow(
        'Stale datasets',
        latestRun.staleDatasets.length > 0
          ? latestRun.staleDatasets.join(', ')
          : 'none (no current list provides a check type)',
      );
    }
    if (latestRun.status === 'completed') runRow('Lists', snapshotsText(latestRun.snapshots));
    if (latestRun.counts) {
      const c = latestRun.counts;
      runRow(
        'Matches',
        `${c.matchCount} (${c.newMatchCount} new, ${c.changedMatchCount} changed, ${c.unchangedMatchCount} unchanged)`,
      );
    }
    if (latestRun.alertIds.length > 0) runRow('Alerts', latestRun.alertIds.join(', '));
    if (latestRun.followUpCaseReference) runRow('Follow-up case', latestRun.followUpCaseReference);
  } else lines.push('  Latest run: none yet');
  lines.push(`  Pending work:${overview.pendingJobs.length === 0 ? ' none' : ''}`);
  for (const job of overview.pendingJobs) lines.push(`    ${jobLine(job)}`);
  if (overview.jobsNotRun.length > 0) {
    lines.push('  Finished without a run:');
    for (const job of overview.jobsNotRun) lines.push(`    ${jobLine(job)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** A line when the runs and alerts lists lag the config stream (no `work` process keeping up). */
export function lagNote(lag: ActivityLag): string {
  if (lag.appliedRevision >= lag.streamRevision) return '';
  return (
    `note: the monitoring_activity read model has applied revision ${lag.appliedRevision} of the ` +
    `configuration's ${lag.streamRevision}: later runs and alerts are not listed yet ` +
    '(is a `work` process running? see `projections status`)\n'
  );
}

export function runsTable(runs: readonly StoredRun[]): string {
  if (runs.length === 0) return 'No runs\n';
  return formatTable(
    ['RUN', 'STARTED', 'STATUS', 'RESULT', 'LISTS', 'MATCHES N/C/U', 'FOLLOW-UP', 'SUMMARY'],
    runs.map(({ record }) => [
      record.monitoring_run_id,
      record.started_at,
      record.status,
      record.result,
      dash(record.source_snapshot_version),
      `${record.match_count} ${record.new_match_count}/${record.changed_match_count}/${record.unchanged_match_count}`,
      dash(record.created_case_reference),
      oneLine(record.result_summary ?? '-', 120),
    ]),
  );
}

export function alertsTable(alerts: readonly StoredAlert[]): string {
  if (alerts.length === 0) return 'No alerts\n';
  return formatTable(
    ['ALERT', 'RUN', 'CREATED', 'KIND', 'PARTY', 'RESOLUTION', 'CASE', 'CHANGE'],
    alerts.map(({ record }) => [
      record.alert_id,
      record.monitoring_run_id,
      record.created_at,
      `${record.kind}${record.actionable ? '' : ' (no review)'}`,
      `${oneLine(record.display_name, 40)} [${dash(record.matched_entity_id)}]`,
      record.resolution_status,
      dash(record.created_case_reference),
      oneLine(record.change_summary, 120),
    ]),
  );
}

export function sweepsTable(sweeps: readonly SweepView[]): string {
  if (sweeps.length === 0) return 'No sweeps\n';
  const version = (dataset: string, id: string | null, v: number | null) =>
    id === null ? '-' : v === null ? id : `${dataset}@${v}`;
  return formatTable(
    [
      'SNAPSHOT',
      'LIST VERSION',
      'AFTER',
      'STATUS',
      'ADDED/CHANGED/REMOVED',
      'CONFIGS QUEUED',
      'MS',
      'ATTEMPTS',
      'LAST ERROR',
    ],
    sweeps.map((sweep) => [
      sweep.snapshotId,
      version(sweep.dataset, sweep.snapshotId, sweep.version),
      version(sweep.dataset, sweep.previousSnapshotId, sweep.previousVersion),
      sweep.status,
      sweep.stats ? `${sweep.stats.added}/${sweep.stats.changed}/${sweep.stats.removed}` : '-',
      sweep.stats ? String(sweep.stats.queued) : '-',
      sweep.stats ? String(sweep.stats.ms) : '-',
      String(sweep.attempts),
      sweep.lastError ? oneLine(sweep.lastError, 120) : '-',
    ]),
  );
}

export function historyTable(entries: readonly MonitoringHistoryEntry[]): string {
  return formatTable(
    ['REV', 'RECORDED AT', 'TYPE', 'SUMMARY'],
    entries.map((entry) => [
      String(entry.revision),
      entry.recordedAt,
      entry.type,
      oneLine(entry.summary, 1000),
    ]),
  );
}
