import type { Actor, BirthDate, FoundMatch, SnapshotUsed } from '../cases/caseEvents.js';
import type { CheckType } from '../screening/checkTypes.js';
import type { EntityKind } from '../screening/model/listedEntity.js';
import type { MaterialFacts } from './materialChanges.js';

export type { MaterialFacts };

/**
 * Ongoing monitoring of one subject in one group (docs/monitoring.md): the stream
 * `monitoringConfig-<monitoring_config_id>` holds the configuration, every run, the alerts a run
 * raised and how they were resolved. Events are facts; what a run found is recorded whole (the
 * subject as screened, the list versions, the matches observed), so an auditor can replay why an
 * alert was or was not raised without the lists at hand.
 */

export const MONITORING_CATEGORY = 'monitoringConfig';

export const MONITORING_CONFIG_ID = /^mon_[a-f0-9]+$/;

export const MONITORING_STATUSES = ['active', 'paused'] as const;
export type MonitoringStatus = (typeof MONITORING_STATUSES)[number];

export const MONITORING_RESULTS = [
  'not_checked',
  'no_change',
  'new_matches',
  'changed_matches',
  'failed',
  'skipped',
] as const;
export type MonitoringResult = (typeof MONITORING_RESULTS)[number];

/** The subject as a run screened it (the config shows the last one). */
export interface MonitoredSubject {
  subjectReference: string;
  type: EntityKind;
  displayName: string;
  countries: string[];
  birthDate: BirthDate | null;
  externalReference: string | null;
  /** What the matcher reads besides the fields above (`metadata.identifiers`). */
  metadata: Record<string, unknown>;
}

/** Where an enrollment came from: the API, a case created with `monitoring.enable`, or an operator. */
export type EnrolledFrom = { kind: 'api' } | { kind: 'case'; caseReference: string } | { kind: 'operator' };

/**
 * What a run triggers on (docs/monitoring.md, "Run triggers"): the baseline at enrollment, a new
 * list version of a dataset the config's check types use, a resume, a change of check types, the
 * safety-net schedule, or an operator's request.
 */
export type RunTrigger =
  | { kind: 'enrollment' }
  | { kind: 'snapshot'; snapshotIds: string[] }
  | { kind: 'resume' }
  | { kind: 'check_types_changed' }
  | { kind: 'schedule' }
  | { kind: 'subject_changed' }
  /**
   * `casescreen monitoring rerun`: runs even when the config is paused (the CLI asks the operator
   * to say so). The reason and the time of the request go into the run's start, for auditors.
   */
  | { kind: 'operator'; reason?: string | null; requestedAt?: string };

/**
 * A (check type, listed party) pair the config has observed: presented to reviewers in a case of
 * the subject in the group, or found by a run. Kept with the party's facts as last seen, so the next
 * run can say what changed.
 */
export interface Observation {
  fingerprint: string;
  checkType: CheckType;
  entityId: string;
  displayName: string;
  source: { name: string | null; recordReference: string | null };
  facts: MaterialFacts;
  /** The score of the last run, 0 to 1 (null when the party was not scored: delisted). */
  score: number | null;
  /** Whether that score reached the threshold of the config's profile. */
  aboveThreshold: boolean;
  /** False once the party left the list (delisted): it stays observed, so a relisting alerts. */
  listed: boolean;
  snapshotId: string | null;
}

/** A material field (materialChanges.ts), or `listed` (a delisting, a relisting) or `score` (the threshold crossed). */
export interface FieldChange {
  field: string;
  previous: string[] | string | null;
  current: string[] | string | null;
}

export type AlertKind = 'new_match' | 'changed_match';

export const RESOLUTION_STATUSES = [
  'pending',
  'creating_follow_up_case',
  'no_action_required',
  'follow_up_case_created',
] as const;
export type ResolutionStatus = (typeof RESOLUTION_STATUSES)[number];

interface Event<T extends string, D> {
  type: T;
  data: D;
}

export type MonitoringConfigCreated = Event<
  'MonitoringConfigCreated',
  {
    monitoringConfigId: string;
    accountId: string;
    groupId: string;
    subject: MonitoredSubject;
    checkTypes: CheckType[];
    ownerUserId: string | null;
    collaboratorUserIds: string[];
    status: MonitoringStatus;
    metadata: Record<string, unknown>;
    screeningProfileId: string;
    enrolledFrom: EnrolledFrom;
    actor: Actor;
    occurredAt: string;
  }
>;

/** The configuration fields a request changed, and only those. */
export interface ConfigChanges {
  checkTypes?: CheckType[];
  groupId?: string;
  ownerUserId?: string | null;
  collaboratorUserIds?: string[];
  status?: MonitoringStatus;
  metadata?: Record<string, unknown>;
}

export type MonitoringConfigUpdated = Event<
  'MonitoringConfigUpdated',
  { changes: ConfigChanges; actor: Actor; occurredAt: string }
>;

export type MonitoringRunStarted = Event<
  'MonitoringRunStarted',
  { runId: string; trigger: RunTrigger; checkTypes: CheckType[]; occurredAt: string }
>;

export interface RunCounts {
  matchCount: number;
  newMatchCount: number;
  changedMatchCount: number;
  unchangedMatchCount: number;
}

export type MonitoringRunCompleted = Event<
  'MonitoringRunCompleted',
  {
    runId: string;
    subject: MonitoredSubject;
    screeningProfileId: string;
    threshold: number;
    snapshots: SnapshotUsed[];
    result: 'no_change' | 'new_matches' | 'changed_matches';
    resultSummary: string;
    counts: RunCounts;
    /** The matches at or above the threshold, best first, as a follow-up case would hold them. */
    matches: { checkType: CheckType; match: FoundMatch }[];
    /** Every observation after the run: the ones found now and the earlier ones kept. */
    observations: Observation[];
    occurredAt: string;
  }
>;

/** The run could not screen: sources missing or stale. Runs again when a fresh snapshot arrives. */
export type MonitoringRunSkipped = Event<
  'MonitoringRunSkipped',
  { runId: string; reason: string; staleDatasets: string[]; occurredAt: string }
>;

export type MonitoringRunFailed = Event<
  'MonitoringRunFailed',
  { runId: string; errorMessage: string; occurredAt: string }
>;

export type MonitoringAlertRaised = Event<
  'MonitoringAlertRaised',
  {
    alertId: string;
    runId: string;
    kind: AlertKind;
    checkType: CheckType;
    fingerprint: string;
    entityId: string;
    displayName: string;
    source: { name: string | null; recordReference: string | null };
    /** 0 to 1, null when the party was not scored (delisted). */
    score: number | null;
    changeSummary: string;
    changes: FieldChange[];
    previous: Observation | null;
    current: Observation | null;
    /** The match as the run found it (null for a delisting or a party now below the threshold). */
    currentMatch: FoundMatch | null;
    /** Whether the alert needs a reviewer (policy, docs/monitoring.md). */
    actionable: boolean;
    occurredAt: string;
  }
>;

export type MonitoringAlertResolved = Event<
  'MonitoringAlertResolved',
  { alertId: string; resolution: 'no_action_required'; note: string; occurredAt: string }
>;

/** The run's actionable alerts go into one follow-up case, being created. */
export type FollowUpCaseRequested = Event<
  'FollowUpCaseRequested',
  { runId: string; alertIds: string[]; occurredAt: string }
>;

export type FollowUpCaseCreated = Event<
  'FollowUpCaseCreated',
  { runId: string; alertIds: string[]; caseReference: string; occurredAt: string }
>;

export type MonitoringEvent =
  | MonitoringConfigCreated
  | MonitoringConfigUpdated
  | MonitoringRunStarted
  | MonitoringRunCompleted
  | MonitoringRunSkipped
  | MonitoringRunFailed
  | MonitoringAlertRaised
  | MonitoringAlertResolved
  | FollowUpCaseRequested
  | FollowUpCaseCreated;

export type MonitoringEventType = MonitoringEvent['type'];

export const MONITORING_EVENT_TYPES: readonly MonitoringEventType[] = [
  'MonitoringConfigCreated',
  'MonitoringConfigUpdated',
  'MonitoringRunStarted',
  'MonitoringRunCompleted',
  'MonitoringRunSkipped',
  'MonitoringRunFailed',
  'MonitoringAlertRaised',
  'MonitoringAlertResolved',
  'FollowUpCaseRequested',
  'FollowUpCaseCreated',
];
