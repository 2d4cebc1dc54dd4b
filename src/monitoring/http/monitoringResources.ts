import type { StoredAlert, StoredRun } from '../../../projections/monitoring/activityQueries.js';
import type { RunResult } from '../../../projections/monitoring/monitoringActivityRecords.js';
import { subjectFields } from '../../cases/http/caseResources.js';
import { apiScore, confidenceBand } from '../../screening/scoring/confidenceBand.js';
import type { KeyGrant } from '../../workspace/keyPolicy.js';
import { hasScope } from '../../workspace/keyPolicy.js';
import type { MonitoringResult } from '../monitoringEvents.js';
import type { MonitoringConfigState } from '../monitoringState.js';

/**
 * A configuration, its runs and its alerts as the API shows them (spec: MonitoringConfig,
 * MonitoringRun, MonitoringAlert), for the calling key. Pure: what needs the database (the group,
 * the decisions of the follow-up cases) comes in. The values of the guidance lists are ours:
 * docs/monitoring.md, "API".
 */

/** A human label per result, for `latest_result_label` and a run's `result_label`. */
export const RESULT_LABELS: Record<MonitoringResult | RunResult, string> = {
  not_checked: 'Not checked yet',
  running: 'Running',
  no_change: 'No change',
  new_matches: 'New matches',
  changed_matches: 'Changed matches',
  failed: 'Run failed',
  skipped: 'Skipped: sources missing or stale',
};

export interface ConfigContext {
  group: { id: string; name: string; slug: string } | undefined;
  /** Follow-up cases of the configuration whose decision is still `pending_decision`. */
  openFollowUpCaseCount: number;
}

/** The follow-up cases among `caseReferences` still open, by the decisions known. */
export function openFollowUpCases(
  caseReferences: readonly string[],
  decisions: ReadonlyMap<string, string>,
): string[] {
  return caseReferences.filter((reference) => decisions.get(reference) === 'pending_decision');
}

export function configGuidance(
  state: MonitoringConfigState,
  key: KeyGrant,
  openFollowUpCaseCount: number,
): { allowedActions: string[]; recommendedNextActions: string[] } {
  const allowedActions = hasScope(key, 'monitoring:write')
    ? ['update', state.status === 'active' ? 'pause' : 'resume']
    : [];
  const recommendedNextActions: string[] = [];
  if (openFollowUpCaseCount > 0) recommendedNextActions.push('review_follow_up_case');
  if (state.status === 'active' && (state.latestResult === 'skipped' || state.latestResult === 'failed')) {
    recommendedNextActions.push('wait_for_next_run');
  }
  return { allowedActions, recommendedNextActions };
}

export function monitoringConfigResource(
  state: MonitoringConfigState,
  key: KeyGrant,
  context: ConfigContext,
) {
  const { subject } = state;
  const guidance = configGuidance(state, key, context.openFollowUpCaseCount);
  return {
    monitoring_config_id: state.monitoringConfigId,
    group_id: state.groupId,
    owner_user_id: state.ownerUserId,
    status: state.status,
    check_types: state.checkTypes,
    latest_result: state.latestResult,
    created_at: state.createdAt,
    updated_at: state.updatedAt,
    subject_reference: subject.subjectReference,
    subject: subjectFields(subject),
    group: context.group
      ? { id: context.group.id, name: context.group.name, slug: context.group.slug }
      : null,
    collaborator_user_ids: state.collaboratorUserIds,
    metadata: state.metadata,
    last_checked_at: state.lastCheckedAt,
    last_change_detected_at: state.lastChangeDetectedAt,
    latest_result_label: RESULT_LABELS[state.latestResult],
    latest_result_summary: state.latestResultSummary,
    latest_run_id: state.latestRun?.runId ?? null,
    open_follow_up_case_count: context.openFollowUpCaseCount,
    allowed_actions: guidance.allowedActions,
    recommended_next_actions: guidance.recommendedNextActions,
  };
}

export function runResource({ groupId, record }: StoredRun) {
  return {
    monitoring_run_id: record.monitoring_run_id,
    monitoring_config_id: record.monitoring_config_id,
    group_id: groupId,
    status: record.status,
    check_types: record.check_types,
    source_snapshot_ids: record.source_snapshot_ids,
    source_snapshot_version: record.source_snapshot_version,
    started_at: record.started_at,
    completed_at: record.completed_at,
    result: record.result,
    result_label: RESULT_LABELS[record.result],
    result_summary: record.result_summary,
    match_count: record.match_count,
    new_match_count: record.new_match_count,
    changed_match_count: record.changed_match_count,
    unchanged_match_count: record.unchanged_match_count,
    created_case_reference: record.created_case_reference,
    error_message: record.error_message,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

/**
 * No public operation changes an alert (spec), so `allowed_actions` is empty. The next action is
 * the follow-up case's review while that case waits for a decision; an alert on its way into a
 * case waits for it; a resolved one without a case needs nothing.
 */
export function alertNextActions(
  record: StoredAlert['record'],
  decisions: ReadonlyMap<string, string>,
): string[] {
  switch (record.resolution_status) {
    case 'pending':
      return record.actionable ? ['wait_for_follow_up_case'] : [];
    case 'creating_follow_up_case':
      return ['wait_for_follow_up_case'];
    case 'follow_up_case_created':
      return record.created_case_reference &&
        decisions.get(record.created_case_reference) === 'pending_decision'
        ? ['review_follow_up_case']
        : [];
    case 'no_action_required':
      return [];
  }
}

export function alertResource({ groupId, record }: StoredAlert, decisions: ReadonlyMap<string, string>) {
  return {
    alert_id: record.alert_id,
    monitoring_config_id: record.monitoring_config_id,
    monitoring_run_id: record.monitoring_run_id,
    group_id: groupId,
    check_type: record.check_type,
    screening_type: record.screening_type,
    match_fingerprint: record.match_fingerprint,
    matched_entity_id: record.matched_entity_id,
    source: record.source,
    display_name: record.display_name,
    score: apiScore(record.raw_score),
    confidence_band: confidenceBand(record.raw_score),
    change_summary: record.change_summary,
    changes: record.changes,
    previous_snapshot: record.previous_snapshot as Record<string, unknown> | null,
    current_snapshot: record.current_snapshot as Record<string, unknown> | null,
    current_match: record.current_match,
    resolution_status: record.resolution_status,
    resolution_note: record.resolution_note,
    resolved_at: record.resolved_at,
    created_case_reference: record.created_case_reference,
    created_at: record.created_at,
    updated_at: record.updated_at,
    allowed_actions: [],
    recommended_next_actions: alertNextActions(record, decisions),
  };
}
