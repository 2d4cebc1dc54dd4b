import type { CheckType } from '../screening/checkTypes.js';
import type { SubjectDetails } from '../subjects/subjectEvents.js';

/**
 * The domain events of a case, appended to its stream `case-<case_reference>`. They are the only
 * record: the read models, the case-event API and the audit history are all folds of them
 * (caseState.ts). Event data is stored as JSON; a field once written keeps its meaning forever,
 * so new facts get new fields or new event types, never a changed meaning.
 */

export const CASE_CATEGORY = 'case';

export function caseStreamName(caseReference: string): string {
  return `${CASE_CATEGORY}-${caseReference}`;
}

/** Who did something: the spec's Actor. API keys act as `api_client` or `agent`; operators as `human`. */
export interface Actor {
  type: 'human' | 'api_client' | 'agent' | 'system';
  id: string | null;
  displayName: string | null;
}

export const SYSTEM_ACTOR: Actor = { type: 'system', id: null, displayName: 'Case screening service' };

export interface BirthDate {
  year: number;
  month?: number;
  day?: number;
}

/** The subject as the case screens it: a snapshot taken when the case is created. */
export interface CaseSubject extends SubjectDetails {
  subjectReference: string;
}

export type CaseDecision = 'pending_decision' | 'pass' | 'conditional_pass' | 'fail';
export type FinalDecision = Exclude<CaseDecision, 'pending_decision'>;
export type CheckDecision = 'pending_review' | 'no_matches_found' | FinalDecision;
export type ReviewStatus = 'pending_review' | 'confirmed_match' | 'not_relevant';

export interface QueuedCheck {
  checkReference: string;
  checkId: string;
  type: CheckType;
}

export interface MatchSource {
  name: string;
  url: string | null;
  dataset: string | null;
  priority: number;
}

/** A candidate match as the check runner found it; its review lives in the case state. */
export interface FoundMatch {
  matchId: string;
  rank: number;
  displayName: string;
  score: number;
  matchedEntityId: string;
  matchType: string;
  reason: Record<string, unknown>;
  sources: MatchSource[];
  sourceRecordRef: string | null;
  sourceSnapshotId: string | null;
  supportingFields: Record<string, unknown>;
  topics: string[];
  datasets: string[];
}

export interface SnapshotUsed {
  id: string;
  dataset: string;
  version: number;
}

interface Event<T extends string, D> {
  type: T;
  data: D;
}

export type CaseCreated = Event<
  'CaseCreated',
  {
    caseReference: string;
    accountId: string;
    groupId: string;
    subject: CaseSubject;
    ownerUserId: string | null;
    collaboratorUserIds: string[];
    externalReference: string | null;
    notes: string | null;
    metadata: Record<string, unknown>;
    screeningProfileId: string;
    checks: QueuedCheck[];
    monitoring: { enable: boolean; ownerUserId: string | null; collaboratorUserIds: string[] };
    /** A follow-up case that monitoring opened (absent on a case opened by a request). */
    origin?: CaseOrigin;
    actor: Actor;
    occurredAt: string;
  }
>;

/** What opened a case other than a request: a monitoring run whose alerts need a reviewer. */
export interface CaseOrigin {
  kind: 'monitoring';
  monitoringConfigId: string;
  monitoringRunId: string;
  alertIds: string[];
}

/** A worker took the check: audit-only (not on the case-event API). */
export type CheckStarted = Event<
  'CheckStarted',
  { checkReference: string; attempt: number; worker: string; occurredAt: string }
>;

export type CheckCompleted = Event<
  'CheckCompleted',
  {
    checkReference: string;
    attempt: number;
    screeningProfileId: string;
    threshold: number;
    snapshots: SnapshotUsed[];
    matches: FoundMatch[];
    occurredAt: string;
  }
>;

export type CheckFailed = Event<
  'CheckFailed',
  { checkReference: string; attempt: number; failureReason: string; occurredAt: string }
>;

export type MatchReviewed = Event<
  'MatchReviewed',
  {
    checkReference: string;
    matchId: string;
    reviewStatus: ReviewStatus;
    previousStatus: ReviewStatus;
    note: string | null;
    /** The check decision this review withdrew (CheckDecisionWithdrawn follows), if any. */
    withdrawsCheckDecision: FinalDecision | null;
    actor: Actor;
    occurredAt: string;
  }
>;

export type CheckDecisionRecorded = Event<
  'CheckDecisionRecorded',
  {
    checkReference: string;
    decision: FinalDecision;
    previousDecision: CheckDecision;
    notes: string | null;
    actor: Actor;
    occurredAt: string;
  }
>;

/**
 * A check's recorded decision no longer stands because a review of its matches changed after it:
 * the check is back to `pending_review` until it is decided again.
 */
export type CheckDecisionWithdrawn = Event<
  'CheckDecisionWithdrawn',
  { checkReference: string; withdrawnDecision: FinalDecision; cause: string; occurredAt: string }
>;

export type CaseDecisionRecorded = Event<
  'CaseDecisionRecorded',
  {
    decision: FinalDecision;
    previousDecision: CaseDecision;
    notes: string | null;
    actor: Actor;
    occurredAt: string;
  }
>;

/** The first review action on a case (a match review or a check decision). */
export type CaseReviewStarted = Event<'CaseReviewStarted', { actor: Actor; occurredAt: string }>;

/** A decided case whose evidence changed: back to `pending_decision`. */
export type CaseReopened = Event<
  'CaseReopened',
  { previousDecision: FinalDecision; cause: string; actor: Actor; occurredAt: string }
>;

export type MaterialType = 'note' | 'link' | 'mixed' | 'file';

export interface MaterialAttachment {
  attachmentId: string;
  filename: string;
  contentType: string;
  byteSize: number;
  sha256: string;
}

export type MaterialAdded = Event<
  'MaterialAdded',
  {
    materialId: string;
    type: MaterialType;
    title: string;
    note: string | null;
    url: string | null;
    attachments: MaterialAttachment[];
    actor: Actor;
    occurredAt: string;
  }
>;

export type CaseGroupChanged = Event<
  'CaseGroupChanged',
  { groupId: string; previousGroupId: string; actor: Actor; occurredAt: string }
>;

export type CaseOwnerChanged = Event<
  'CaseOwnerChanged',
  { ownerUserId: string | null; previousOwnerUserId: string | null; actor: Actor; occurredAt: string }
>;

export type CaseCollaboratorsAdded = Event<
  'CaseCollaboratorsAdded',
  { userIds: string[]; actor: Actor; occurredAt: string }
>;

export type CaseCollaboratorsRemoved = Event<
  'CaseCollaboratorsRemoved',
  { userIds: string[]; actor: Actor; occurredAt: string }
>;

export type CaseExternalReferenceUpdated = Event<
  'CaseExternalReferenceUpdated',
  {
    externalReference: string | null;
    previousExternalReference: string | null;
    actor: Actor;
    occurredAt: string;
  }
>;

/** A reviewer's draft of the case decision, not yet recorded: the case stays `pending_decision`. */
export type CaseDecisionDraftSaved = Event<
  'CaseDecisionDraftSaved',
  { decision: FinalDecision; notes: string | null; actor: Actor; occurredAt: string }
>;

/** The reasoning behind the case decision, saved apart from the decision itself. */
export type CaseDecisionReasonSaved = Event<
  'CaseDecisionReasonSaved',
  { reason: string; actor: Actor; occurredAt: string }
>;

export type CaseEvent =
  | CaseCreated
  | CheckStarted
  | CheckCompleted
  | CheckFailed
  | MatchReviewed
  | CheckDecisionRecorded
  | CheckDecisionWithdrawn
  | CaseDecisionRecorded
  | CaseReviewStarted
  | CaseReopened
  | MaterialAdded
  | CaseGroupChanged
  | CaseOwnerChanged
  | CaseCollaboratorsAdded
  | CaseCollaboratorsRemoved
  | CaseExternalReferenceUpdated
  | CaseDecisionDraftSaved
  | CaseDecisionReasonSaved;

export type CaseEventType = CaseEvent['type'];

export const CASE_EVENT_TYPES: readonly CaseEventType[] = [
  'CaseCreated',
  'CheckStarted',
  'CheckCompleted',
  'CheckFailed',
  'MatchReviewed',
  'CheckDecisionRecorded',
  'CheckDecisionWithdrawn',
  'CaseDecisionRecorded',
  'CaseReviewStarted',
  'CaseReopened',
  'MaterialAdded',
  'CaseGroupChanged',
  'CaseOwnerChanged',
  'CaseCollaboratorsAdded',
  'CaseCollaboratorsRemoved',
  'CaseExternalReferenceUpdated',
  'CaseDecisionDraftSaved',
  'CaseDecisionReasonSaved',
];

export function isCaseEvent(event: { type: string }): event is CaseEvent {
  return (CASE_EVENT_TYPES as readonly string[]).includes(event.type);
}
