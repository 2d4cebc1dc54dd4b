import type { CheckType } from '../screening/checkTypes.js';
import type {
  Actor,
  CaseDecision,
  CaseEvent,
  CaseOrigin,
  CaseSubject,
  CheckDecision,
  FinalDecision,
  FoundMatch,
  MaterialAttachment,
  MaterialType,
  ReviewStatus,
  SnapshotUsed,
} from './caseEvents.js';

/**
 * A case as its events made it: `evolve` folds one event into the state. The command side decides
 * on it, the read model stores it, the audit history replays it to any point in time; all three use
 * this one fold, so they cannot disagree. Pure: no clock, no I/O; times come from the events.
 */

export type LifecycleStatus = 'queued' | 'running' | 'completed' | 'failed';

export interface MatchReview {
  status: ReviewStatus;
  note: string | null;
  actor: Actor;
  reviewedAt: string;
}

export interface MatchState extends FoundMatch {
  reviewStatus: ReviewStatus;
  /** The latest review, null until the first. */
  review: MatchReview | null;
  createdAt: string;
}

export interface CheckState {
  checkReference: string;
  checkId: string;
  type: CheckType;
  lifecycleStatus: LifecycleStatus;
  decision: CheckDecision;
  decisionNotes: string | null;
  decidedAt: string | null;
  decidedBy: Actor | null;
  attempts: number;
  startedAt: string | null;
  checkedAt: string | null;
  failureReason: string | null;
  screeningProfileId: string;
  threshold: number | null;
  snapshots: SnapshotUsed[];
  matches: MatchState[];
  createdAt: string;
  updatedAt: string;
}

export interface MaterialState {
  materialId: string;
  type: MaterialType;
  title: string;
  note: string | null;
  url: string | null;
  attachments: MaterialAttachment[];
  actor: Actor;
  createdAt: string;
}

export interface CaseState {
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
  monitoring: { enable: boolean; ownerUserId: string | null; collaboratorUserIds: string[] };
  /** Set on a follow-up case monitoring opened (optional: states stored before it lack the field). */
  origin?: CaseOrigin;
  decision: CaseDecision;
  decisionNotes: string | null;
  resolvedBy: Actor | null;
  resolvedAt: string | null;
  decisionDraft: { decision: FinalDecision; notes: string | null; actor: Actor; savedAt: string } | null;
  decisionReason: string | null;
  reviewStarted: boolean;
  checks: CheckState[];
  materials: MaterialState[];
  createdBy: Actor;
  createdAt: string;
  updatedAt: string;
  /** Stream revision of the last event folded in: -1 before the first. */
  revision: number;
}

/** The state before a case exists. */
export type MaybeCase = CaseState | null;

/** Folds events into a state, from nothing or from a state read earlier (catch-up on read). */
export function foldCase(events: Iterable<CaseEvent>, from: MaybeCase = null): MaybeCase {
  let state = from;
  for (const event of events) state = evolve(state, event);
  return state;
}

export function evolve(state: MaybeCase, event: CaseEvent): MaybeCase {
  if (event.type === 'CaseCreated') {
    const d = event.data;
    return {
      caseReference: d.caseReference,
      accountId: d.accountId,
      groupId: d.groupId,
      subject: d.subject,
      ownerUserId: d.ownerUserId,
      collaboratorUserIds: d.collaboratorUserIds,
      externalReference: d.externalReference,
      notes: d.notes,
      metadata: d.metadata,
      screeningProfileId: d.screeningProfileId,
      monitoring: d.monitoring,
      ...(d.origin && { origin: d.origin }),
      decision: 'pending_decision',
      decisionNotes: null,
      resolvedBy: null,
      resolvedAt: null,
      decisionDraft: null,
      decisionReason: null,
      reviewStarted: false,
      checks: d.checks.map((check) => ({
        checkReference: check.checkReference,
        checkId: check.checkId,
        type: check.type,
        lifecycleStatus: 'queued',
        decision: 'pending_review',
        decisionNotes: null,
        decidedAt: null,
        decidedBy: null,
        attempts: 0,
        startedAt: null,
        checkedAt: null,
        failureReason: null,
        screeningProfileId: d.screeningProfileId,
        threshold: null,
        snapshots: [],
        matches: [],
        createdAt: d.occurredAt,
        updatedAt: d.occurredAt,
      })),
      materials: [],
      createdBy: d.actor,
      createdAt: d.occurredAt,
      updatedAt: d.occurredAt,
      revision: 0,
    };
  }
  if (state === null) throw new Error(`${event.type} before CaseCreated`);
  const next: CaseState = { ...state, updatedAt: event.data.occurredAt, revision: state.revision + 1 };
  switch (event.type) {
    case 'CheckStarted': {
      const { checkReference, attempt, occurredAt } = event.data;
      return withCheck(next, checkReference, (check) => ({
        ...check,
        lifecycleStatus: 'running',
        attempts: attempt,
        startedAt: check.startedAt ?? occurredAt,
        updatedAt: occurredAt,
      }));
    }
    case 'CheckCompleted': {
      const d = event.data;
      return withCheck(next, d.checkReference, (check) => ({
        ...check,
        lifecycleStatus: 'completed',
        attempts: d.attempt,
        checkedAt: d.occurredAt,
        failureReason: null,
        screeningProfileId: d.screeningProfileId,
        threshold: d.threshold,
        snapshots: d.snapshots,
        // The system's decision: a completed check with no match needs no review.
        decision: d.matches.length === 0 ? 'no_matches_found' : 'pending_review',
        matches: d.matches.map((match) => ({
          ...match,
          reviewStatus: 'pending_review',
          review: null,
          createdAt: d.occurredAt,
        })),
        updatedAt: d.occurredAt,
      }));
    }
    case 'CheckFailed': {
      const d = event.data;
      return withCheck(next, d.checkReference, (check) => ({
        ...check,
        lifecycleStatus: 'failed',
        attempts: d.attempt,
        checkedAt: d.occurredAt,
        failureReason: d.failureReason,
        updatedAt: d.occurredAt,
      }));
    }
    case 'MatchReviewed': {
      const d = event.data;
      return withCheck(next, d.checkReference, (check) => ({
        ...check,
        matches: check.matches.map((match) =>
          match.matchId === d.matchId
            ? {
                ...match,
                reviewStatus: d.reviewStatus,
                review: { status: d.reviewStatus, note: d.note, actor: d.actor, reviewedAt: d.occurredAt },
              }
            : match,
        ),
        updatedAt: d.occurredAt,
      }));
    }
    case 'CheckDecisionRecorded': {
      const d = event.data;
      return withCheck(next, d.checkReference, (check) => ({
        ...check,
        decision: d.decision,
        decisionNotes: d.notes,
        decidedAt: d.occurredAt,
        decidedBy: d.actor,
        updatedAt: d.occurredAt,
      }));
    }
    case 'CheckDecisionWithdrawn': {
      const d = event.data;
      return withCheck(next, d.checkReference, (check) => ({
        ...check,
        decision: 'pending_review',
        decisionNotes: null,
        decidedAt: null,
        decidedBy: null,
        updatedAt: d.occurredAt,
      }));
    }
    case 'CaseDecisionRecorded': {
      const d = event.data;
      return {
        ...next,
        decision: d.decision,
        decisionNotes: d.notes,
        resolvedBy: d.actor,
        resolvedAt: d.occurredAt,
        decisionDraft: null,
      };
    }
    case 'CaseReviewStarted':
      return { ...next, reviewStarted: true };
    case 'CaseReopened':
      return {
        ...next,
        decision: 'pending_decision',
        decisionNotes: null,
        resolvedBy: null,
        resolvedAt: null,
      };
    case 'MaterialAdded': {
      const d = event.data;
      return {
        ...next,
        materials: [
          ...next.materials,
          {
            materialId: d.materialId,
            type: d.type,
            title: d.title,
            note: d.note,
            url: d.url,
            attachments: d.attachments,
            actor: d.actor,
            createdAt: d.occurredAt,
          },
        ],
      };
    }
    case 'CaseGroupChanged':
      return { ...next, groupId: event.data.groupId };
    case 'CaseOwnerChanged':
      return { ...next, ownerUserId: event.data.ownerUserId };
    case 'CaseCollaboratorsAdded':
      return {
        ...next,
        collaboratorUserIds: [
          ...next.collaboratorUserIds,
          ...event.data.userIds.filter((id) => !next.collaboratorUserIds.includes(id)),
        ],
      };
    case 'CaseCollaboratorsRemoved':
      return {
        ...next,
        collaboratorUserIds: next.collaboratorUserIds.filter((id) => !event.data.userIds.includes(id)),
      };
    case 'CaseExternalReferenceUpdated':
      return { ...next, externalReference: event.data.externalReference };
    case 'CaseDecisionDraftSaved': {
      const d = event.data;
      return {
        ...next,
        decisionDraft: { decision: d.decision, notes: d.notes, actor: d.actor, savedAt: d.occurredAt },
      };
    }
    case 'CaseDecisionReasonSaved':
      return { ...next, decisionReason: event.data.reason };
  }
}

function withCheck(
  state: CaseState,
  checkReference: string,
  change: (check: CheckState) => CheckState,
): CaseState {
  return {
    ...state,
    checks: state.checks.map((check) => (check.checkReference === checkReference ? change(check) : check)),
  };
}

export function findCheck(state: CaseState, checkReference: string): CheckState | undefined {
  return state.checks.find((check) => check.checkReference === checkReference);
}

export function findMatch(
  state: CaseState,
  matchId: string,
): { check: CheckState; match: MatchState } | undefined {
  for (const check of state.checks) {
    const match = check.matches.find((candidate) => candidate.matchId === matchId);
    if (match) return { check, match };
  }
  return undefined;
}
