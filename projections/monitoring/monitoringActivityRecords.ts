import type { FoundMatch, SnapshotUsed } from '../../src/cases/caseEvents.js';
import { foundMatchFields } from '../../src/cases/http/caseResources.js';
import type {
  MonitoringAlertRaised,
  MonitoringRunStarted,
  Observation,
  ResolutionStatus,
} from '../../src/monitoring/monitoringEvents.js';
import type { CheckType } from '../../src/screening/checkTypes.js';
import { apiScore } from '../../src/screening/scoring/confidenceBand.js';

/**
 * The records the `monitoring_activity` projection stores per run and per alert: the spec's
 * MonitoringRun and MonitoringAlert fields that the events fix, in the API's snake_case, so a GET
 * only adds what depends on the present (the group, the labels, the guidance; monitoringResources.ts).
 * Pure functions of the events: a rebuild writes the same records.
 */

export type RunStatus = 'running' | 'completed' | 'failed' | 'skipped';
export type RunResult = 'running' | 'no_change' | 'new_matches' | 'changed_matches' | 'failed' | 'skipped';

export interface RunRecord {
  monitoring_run_id: string;
  monitoring_config_id: string;
  status: RunStatus;
  check_types: CheckType[];
  source_snapshot_ids: string[];
  source_snapshot_version: string | null;
  started_at: string;
  completed_at: string | null;
  result: RunResult;
  result_summary: string | null;
  match_count: number;
  new_match_count: number;
  changed_match_count: number;
  unchanged_match_count: number;
  created_case_reference: string | null;
  error_message: string | null;
  created_at: string;
  updated_at: string;
}

export interface SnapshotObject {
  match_fingerprint: string;
  check_type: CheckType;
  matched_entity_id: string;
  display_name: string;
  source: { name: string | null; record_reference: string | null };
  names: string[];
  birth_dates: string[];
  nationalities: string[];
  countries: string[];
  programs: string[];
  topics: string[];
  identifiers: string[];
  entity_kind: string;
  /** 0 to 100, as the alert's `score`; null when the party was not scored (delisted). */
  score: number | null;
  above_threshold: boolean;
  listed: boolean;
  source_snapshot_id: string | null;
}

export interface AlertRecord {
  alert_id: string;
  monitoring_config_id: string;
  monitoring_run_id: string;
  /** Not in the spec's resource: what the policy said (new or changed match, needs review or not). */
  kind: MonitoringAlertRaised['data']['kind'];
  actionable: boolean;
  check_type: CheckType;
  screening_type: CheckType;
  match_fingerprint: string;
  matched_entity_id: string | null;
  source: { name: string | null; record_reference: string | null };
  display_name: string;
  /** The event's 0-to-1 score: `score` and `confidence_band` derive from it in the resource. */
  raw_score: number | null;
  change_summary: string;
  changes: { field: string; previous: string[] | string | null; current: string[] | string | null }[];
  previous_snapshot: SnapshotObject | null;
  current_snapshot: SnapshotObject | null;
  current_match: Record<string, unknown> | null;
  resolution_status: ResolutionStatus;
  resolution_note: string | null;
  resolved_at: string | null;
  created_case_reference: string | null;
  created_at: string;
  updated_at: string;
}

export function startedRun(
  monitoringConfigId: string,
  data: Pick<MonitoringRunStarted['data'], 'runId' | 'checkTypes' | 'occurredAt'>,
): RunRecord {
  return {
    monitoring_run_id: data.runId,
    monitoring_config_id: monitoringConfigId,
    status: 'running',
    check_types: data.checkTypes,
    source_snapshot_ids: [],
    source_snapshot_version: null,
    started_at: data.occurredAt,
    completed_at: null,
    result: 'running',
    result_summary: null,
    match_count: 0,
    new_match_count: 0,
    changed_match_count: 0,
    unchanged_match_count: 0,
    created_case_reference: null,
    error_message: null,
    created_at: data.occurredAt,
    updated_at: data.occurredAt,
  };
}

/**
 * The list versions a run used, as one string: `<dataset>@<version>` per snapshot, by dataset,
 * comma-separated (docs/monitoring.md, "API"); null when the run screened nothing.
 */
export function snapshotVersion(snapshots: readonly SnapshotUsed[]): string | null {
  if (snapshots.length === 0) return null;
  return [...snapshots]
    .sort((a, b) => a.dataset.localeCompare(b.dataset) || a.id.localeCompare(b.id))
    .map((snapshot) => `${snapshot.dataset}@${snapshot.version}`)
    .join(',');
}

export function snapshotObject(observation: Observation | null): SnapshotObject | null {
  if (!observation) return null;
  const { facts } = observation;
  return {
    match_fingerprint: observation.fingerprint,
    check_type: observation.checkType,
    matched_entity_id: observation.entityId,
    display_name: observation.displayName,
    source: { name: observation.source.name, record_reference: observation.source.recordReference },
    names: facts.names,
    birth_dates: facts.birth_dates,
    nationalities: facts.nationalities,
    countries: facts.countries,
    programs: facts.programs,
    topics: facts.topics,
    identifiers: facts.identifiers,
    entity_kind: facts.kind[0] ?? '',
    score: apiScore(observation.score),
    above_threshold: observation.aboveThreshold,
    listed: observation.listed,
    source_snapshot_id: observation.snapshotId,
  };
}

/** The match as a case's Match resource shows it, without the review a case match has. */
export function currentMatchObject(match: FoundMatch | null): Record<string, unknown> | null {
  if (!match) return null;
  return {
    ...foundMatchFields(match),
    topics: match.topics,
    datasets: match.datasets,
  };
}

export function raisedAlert(monitoringConfigId: string, data: MonitoringAlertRaised['data']): AlertRecord {
  return {
    alert_id: data.alertId,
    monitoring_config_id: monitoringConfigId,
    monitoring_run_id: data.runId,
    kind: data.kind,
    actionable: data.actionable,
    check_type: data.checkType,
    screening_type: data.checkType,
    match_fingerprint: data.fingerprint,
    matched_entity_id: data.entityId,
    source: { name: data.source.name, record_reference: data.source.recordReference },
    display_name: data.displayName,
    raw_score: data.score,
    change_summary: data.changeSummary,
    changes: data.changes.map((change) => ({
      field: change.field,
      previous: change.previous,
      current: change.current,
    })),
    previous_snapshot: snapshotObject(data.previous),
    current_snapshot: snapshotObject(data.current),
    current_match: currentMatchObject(data.currentMatch),
    resolution_status: 'pending',
    resolution_note: null,
    resolved_at: null,
    created_case_reference: null,
    created_at: data.occurredAt,
    updated_at: data.occurredAt,
  };
}

/** The resolution note of an alert that went into a follow-up case. */
export function followUpNote(caseReference: string): string {
  return `Follow-up case ${caseReference} was opened for review.`;
}
