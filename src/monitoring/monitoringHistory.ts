import type { Actor, SnapshotUsed } from '../cases/caseEvents.js';
import type { StoredEvent } from '../eventSourcing/commandHandler.js';
import type {
  ConfigChanges,
  EnrolledFrom,
  MonitoringEvent,
  MonitoringEventType,
  RunTrigger,
} from './monitoringEvents.js';

/**
 * The audit history of a monitoring configuration (`casescreen monitoring history`): each event of
 * the stream with a one-line summary that names what an auditor follows: the run, the list versions
 * it used or was triggered by, the alerts and their resolution, the follow-up case. Pure: the
 * versions of the snapshots a trigger names by id come in (`snapshotLabels`).
 */

export type StoredMonitoringEvent = StoredEvent<MonitoringEvent>;

export interface MonitoringHistoryEntry {
  revision: number;
  eventId: string;
  recordedAt: string;
  occurredAt: string;
  type: MonitoringEventType;
  /** The run the event belongs to, if any. */
  runId: string | null;
  summary: string;
  /** The event's data as stored. */
  data: MonitoringEvent['data'];
}

/** `snap_...` -> `un_sc_sanctions@2`, for the snapshots still stored. */
export type SnapshotLabels = ReadonlyMap<string, string>;

export function historyEntry(
  stored: StoredMonitoringEvent,
  snapshotLabels: SnapshotLabels = new Map(),
): MonitoringHistoryEntry {
  const { event } = stored;
  return {
    revision: stored.revision,
    eventId: stored.id,
    recordedAt: stored.recordedAt.toISOString(),
    occurredAt: event.data.occurredAt,
    type: event.type,
    runId: 'runId' in event.data ? event.data.runId : null,
    summary: eventSummary(event, snapshotLabels),
    data: event.data,
  };
}

/**
 * The snapshots the events name by id only (a run's trigger, an alert's listing): the caller looks
 * up their versions.
 */
export function snapshotIdsNamed(events: readonly MonitoringEvent[]): string[] {
  const ids = new Set<string>();
  for (const event of events) {
    if (event.type === 'MonitoringRunStarted' && event.data.trigger.kind === 'snapshot') {
      for (const id of event.data.trigger.snapshotIds) ids.add(id);
    }
    if (event.type === 'MonitoringAlertRaised') {
      const id = event.data.current?.snapshotId ?? event.data.previous?.snapshotId;
      if (id) ids.add(id);
    }
  }
  return [...ids];
}

export function eventSummary(event: MonitoringEvent, snapshotLabels: SnapshotLabels = new Map()): string {
  switch (event.type) {
    case 'MonitoringConfigCreated': {
      const d = event.data;
      return (
        `Enrolled ${d.subject.displayName} (${d.subject.subjectReference}) in group ${d.groupId}: ` +
        `${d.checkTypes.join(', ')}, ${d.status}, owner ${d.ownerUserId ?? 'none'}; ` +
        `${enrolledFromText(d.enrolledFrom)}, by ${actorText(d.actor)}`
      );
    }
    case 'MonitoringConfigUpdated':
      return `Updated by ${actorText(event.data.actor)}: ${changesText(event.data.changes)}`;
    case 'MonitoringRunStarted':
      return `Run ${event.data.runId} started (${triggerText(event.data.trigger, snapshotLabels)}) for ${event.data.checkTypes.join(', ')}`;
    case 'MonitoringRunCompleted': {
      const { runId, result, resultSummary, counts, snapshots } = event.data;
      return (
        `Run ${runId} completed: ${result} (${resultSummary.replace(/\.$/, '')}); lists ${snapshotsText(snapshots)}; ` +
        `${counts.matchCount} match(es): ${counts.newMatchCount} new, ${counts.changedMatchCount} changed, ${counts.unchangedMatchCount} unchanged`
      );
    }
    case 'MonitoringRunSkipped': {
      const { runId, reason, staleDatasets } = event.data;
      const stale = staleDatasets.length > 0 ? ` (stale: ${staleDatasets.join(', ')})` : '';
      return `Run ${runId} skipped: ${reason}${stale}`;
    }
    case 'MonitoringRunFailed':
      return `Run ${event.data.runId} failed: ${oneLine(event.data.errorMessage)}`;
    case 'MonitoringAlertRaised': {
      const d = event.data;
      const kind = d.kind === 'new_match' ? 'new match' : 'changed match';
      const review = d.actionable ? 'needs review' : 'no review needed';
      const listVersion = d.current?.snapshotId ?? d.previous?.snapshotId;
      const version = listVersion ? `, list ${snapshotLabels.get(listVersion) ?? listVersion}` : '';
      return (
        `Alert ${d.alertId} in run ${d.runId} (${kind}, ${review}): ${d.displayName} ` +
        `[${d.entityId}${version}]: ${oneLine(d.changeSummary)}`
      );
    }
    case 'MonitoringAlertResolved':
      return `Alert ${event.data.alertId} resolved: no action required (${oneLine(event.data.note)})`;
    case 'FollowUpCaseRequested':
      return `Run ${event.data.runId} requested a follow-up case for alert(s) ${event.data.alertIds.join(', ')}`;
    case 'FollowUpCaseCreated':
      return `Follow-up case ${event.data.caseReference} opened for run ${event.data.runId}: alert(s) ${event.data.alertIds.join(', ')}`;
  }
}

/** What made a run, in words (also the trigger column of `monitoring runs` and `show`). */
export function triggerText(trigger: RunTrigger, snapshotLabels: SnapshotLabels = new Map()): string {
  switch (trigger.kind) {
    case 'enrollment':
      return 'baseline at enrollment';
    case 'snapshot': {
      const versions = trigger.snapshotIds.map((id) => {
        const label = snapshotLabels.get(id);
        return label ? `${label} (${id})` : id;
      });
      return `new list version ${versions.join(', ')}`;
    }
    case 'resume':
      return 'resumed';
    case 'check_types_changed':
      return 'check types changed';
    case 'schedule':
      return 'safety-net schedule';
    case 'subject_changed':
      return "the subject's details changed";
    case 'operator': {
      const reason = trigger.reason ? `: "${oneLine(trigger.reason)}"` : '';
      const at = trigger.requestedAt ? ` at ${trigger.requestedAt}` : '';
      return `operator rerun${at}${reason}`;
    }
  }
}

/** `un_sc_sanctions@2 (snap_...)`, by dataset; `none` when the run screened nothing. */
export function snapshotsText(snapshots: readonly SnapshotUsed[]): string {
  if (snapshots.length === 0) return 'none';
  return [...snapshots]
    .sort((a, b) => a.dataset.localeCompare(b.dataset))
    .map((snapshot) => `${snapshot.dataset}@${snapshot.version} (${snapshot.id})`)
    .join(', ');
}

/** Where an enrollment came from, in words. */
export function enrolledFromText(from: EnrolledFrom): string {
  switch (from.kind) {
    case 'api':
      return 'through the API';
    case 'case':
      return `from case ${from.caseReference}`;
    case 'operator':
      return 'by an operator';
  }
}

function changesText(changes: ConfigChanges): string {
  const parts: string[] = [];
  if (changes.status) parts.push(`status ${changes.status}`);
  if (changes.checkTypes) parts.push(`check types ${changes.checkTypes.join(', ')}`);
  if (changes.groupId) parts.push(`moved to group ${changes.groupId}`);
  if (changes.ownerUserId !== undefined) parts.push(`owner ${changes.ownerUserId ?? 'none'}`);
  if (changes.collaboratorUserIds) {
    parts.push(
      `collaborators ${changes.collaboratorUserIds.length > 0 ? changes.collaboratorUserIds.join(', ') : 'none'}`,
    );
  }
  if (changes.metadata) parts.push('metadata replaced');
  return parts.length > 0 ? parts.join('; ') : 'nothing';
}

function actorText(actor: Actor): string {
  const id = actor.id ? `${actor.type}:${actor.id}` : actor.type;
  return actor.displayName && actor.type !== 'system' ? `${id} (${actor.displayName})` : id;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
