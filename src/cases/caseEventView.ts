import type { Actor, CaseEvent } from './caseEvents.js';

/**
 * The case-event API's view of a case stream (spec: CaseEvent). An allowlist maps each workflow
 * event to its CaseEventType; internal audit-only events (a worker starting a check, a check
 * decision withdrawn as a consequence) are left out. Which operation produces each type is
 * documented in docs/cases.md, "Case events".
 */

export const PUBLIC_CASE_EVENT_TYPES = [
  'case_created',
  'case_review_started',
  'case_reopened',
  'case_group_changed',
  'case_owner_changed',
  'case_collaborators_added',
  'case_collaborators_removed',
  'case_external_reference_updated',
  'case_reference_added',
  'case_attachment_added',
  'comment_added',
  'check_completed',
  'check_failed',
  'match_disposition_recorded',
  'check_decision_recorded',
  'case_decision_recorded',
  'case_decision_draft_saved',
  'case_decision_reason_saved',
] as const;

export type PublicCaseEventType = (typeof PUBLIC_CASE_EVENT_TYPES)[number];

export interface ActorResource {
  type: Actor['type'];
  id: string | null;
  display_name: string | null;
}

export function actorResource(actor: Actor): ActorResource {
  return { type: actor.type, id: actor.id, display_name: actor.displayName };
}

export interface CaseEventResource {
  event_id: string;
  event_type: PublicCaseEventType;
  object_type: 'case';
  object_reference: string;
  case_reference: string;
  group_id: string;
  actor: ActorResource;
  summary: string;
  payload: Record<string, unknown>;
  occurred_at: string;
  created_at: string;
  comment: string | null;
}

/** The part of a stored event the view reads. */
export interface StoredCaseEvent {
  id: string;
  revision: number;
  recordedAt: Date;
  event: CaseEvent;
}

interface Visible {
  type: PublicCaseEventType;
  actor: Actor;
  summary: string;
  payload: Record<string, unknown>;
  comment: string | null;
}

const SYSTEM: Actor = { type: 'system', id: null, displayName: 'Case screening service' };

/** The allowlist: the visible form of an event, or undefined for an audit-only one. */
export function visibleForm(event: CaseEvent): Visible | undefined {
  switch (event.type) {
    case 'CaseCreated': {
      const d = event.data;
      return {
        type: 'case_created',
        actor: d.actor,
        summary: `Case ${d.caseReference} created for ${d.subject.displayName} with ${d.checks.map((c) => c.type).join(', ')} checks`,
        payload: {
          subject_reference: d.subject.subjectReference,
          subject_name: d.subject.displayName,
          check_references: d.checks.map((c) => c.checkReference),
          check_types: d.checks.map((c) => c.type),
          screening_profile_id: d.screeningProfileId,
          monitoring_requested: d.monitoring.enable,
        },
        comment: d.notes,
      };
    }
    case 'CheckCompleted': {
      const d = event.data;
      const top = d.matches.reduce((best, m) => Math.max(best, m.score), 0);
      return {
        type: 'check_completed',
        actor: SYSTEM,
        summary: `Check ${d.checkReference} completed with ${d.matches.length === 0 ? 'no matches' : `${d.matches.length} potential match${d.matches.length === 1 ? '' : 'es'}`}`,
        payload: {
          check_reference: d.checkReference,
          match_count: d.matches.length,
          top_score: d.matches.length > 0 ? top : null,
          decision: d.matches.length === 0 ? 'no_matches_found' : 'pending_review',
          source_snapshot_ids: d.snapshots.map((s) => s.id),
        },
        comment: null,
      };
    }
    case 'CheckFailed':
      return {
        type: 'check_failed',
        actor: SYSTEM,
        summary: `Check ${event.data.checkReference} failed: ${event.data.failureReason}`,
        payload: {
          check_reference: event.data.checkReference,
          failure_reason: event.data.failureReason,
          attempts: event.data.attempt,
        },
        comment: null,
      };
    case 'MatchReviewed': {
      const d = event.data;
      return {
        type: 'match_disposition_recorded',
        actor: d.actor,
        summary: `Match ${d.matchId} of check ${d.checkReference} reviewed as ${d.reviewStatus}`,
        payload: {
          check_reference: d.checkReference,
          match_id: d.matchId,
          review_status: d.reviewStatus,
          previous_review_status: d.previousStatus,
          withdrawn_check_decision: d.withdrawsCheckDecision,
        },
        comment: d.note,
      };
    }
    case 'CheckDecisionRecorded': {
      const d = event.data;
      return {
        type: 'check_decision_recorded',
        actor: d.actor,
        summary: `Check ${d.checkReference} decided ${d.decision}`,
        payload: {
          check_reference: d.checkReference,
          decision: d.decision,
          previous_decision: d.previousDecision,
        },
        comment: d.notes,
      };
    }
    case 'CaseDecisionRecorded': {
      const d = event.data;
      return {
        type: 'case_decision_recorded',
        actor: d.actor,
        summary: `Case decided ${d.decision}`,
        payload: { decision: d.decision, previous_decision: d.previousDecision },
        comment: d.notes,
      };
    }
    case 'CaseReviewStarted':
      return {
        type: 'case_review_started',
        actor: event.data.actor,
        summary: 'Review of the case started',
        payload: {},
        comment: null,
      };
    case 'CaseReopened':
      return {
        type: 'case_reopened',
        actor: event.data.actor,
        summary: `Case reopened: ${event.data.cause}`,
        payload: { previous_decision: event.data.previousDecision, cause: event.data.cause },
        comment: null,
      };
    case 'MaterialAdded': {
      const d = event.data;
      const type =
        d.type === 'file'
          ? 'case_attachment_added'
          : d.type === 'note'
            ? 'comment_added'
            : 'case_reference_added';
      return {
        type,
        actor: d.actor,
        summary: `Material "${d.title}" added`,
        payload: {
          material_id: d.materialId,
          material_type: d.type,
          title: d.title,
          url: d.url,
          attachments: d.attachments.map((a) => ({
            attachment_id: a.attachmentId,
            filename: a.filename,
            content_type: a.contentType,
            byte_size: a.byteSize,
          })),
        },
        comment: d.note,
      };
    }
    case 'CaseGroupChanged':
      return {
        type: 'case_group_changed',
        actor: event.data.actor,
        summary: 'Case moved to another group',
        payload: { group_id: event.data.groupId, previous_group_id: event.data.previousGroupId },
        comment: null,
      };
    case 'CaseOwnerChanged':
      return {
        type: 'case_owner_changed',
        actor: event.data.actor,
        summary: event.data.ownerUserId ? 'Case owner changed' : 'Case owner removed',
        payload: {
          owner_user_id: event.data.ownerUserId,
          previous_owner_user_id: event.data.previousOwnerUserId,
        },
        comment: null,
      };
    case 'CaseCollaboratorsAdded':
      return {
        type: 'case_collaborators_added',
        actor: event.data.actor,
        summary: `${event.data.userIds.length} collaborator(s) added`,
        payload: { user_ids: event.data.userIds },
        comment: null,
      };
    case 'CaseCollaboratorsRemoved':
      return {
        type: 'case_collaborators_removed',
        actor: event.data.actor,
        summary: `${event.data.userIds.length} collaborator(s) removed`,
        payload: { user_ids: event.data.userIds },
        comment: null,
      };
    case 'CaseExternalReferenceUpdated':
      return {
        type: 'case_external_reference_updated',
        actor: event.data.actor,
        summary: 'External reference updated',
        payload: {
          external_reference: event.data.externalReference,
          previous_external_reference: event.data.previousExternalReference,
        },
        comment: null,
      };
    case 'CaseDecisionDraftSaved':
      return {
        type: 'case_decision_draft_saved',
        actor: event.data.actor,
        summary: `Draft case decision saved: ${event.data.decision}`,
        payload: { decision: event.data.decision },
        comment: event.data.notes,
      };
    case 'CaseDecisionReasonSaved':
      return {
        type: 'case_decision_reason_saved',
        actor: event.data.actor,
        summary: 'Case decision reason saved',
        payload: {},
        comment: event.data.reason,
      };
    case 'CheckStarted':
    case 'CheckDecisionWithdrawn':
      return undefined;
  }
}

/**
 * The visible events of a case stream, oldest first, each with the group the case was in when it
 * happened. `events` is the whole stream in revision order (a case is a few dozen events).
 */
export function caseEventResources(
  events: readonly StoredCaseEvent[],
): (CaseEventResource & { revision: number })[] {
  const visible: (CaseEventResource & { revision: number })[] = [];
  let caseReference = '';
  let groupId = '';
  for (const stored of events) {
    const { event } = stored;
    if (event.type === 'CaseCreated') {
      caseReference = event.data.caseReference;
      groupId = event.data.groupId;
    }
    const form = visibleForm(event);
    if (form) {
      visible.push({
        revision: stored.revision,
        event_id: stored.id,
        event_type: form.type,
        object_type: 'case',
        object_reference: caseReference,
        case_reference: caseReference,
        group_id: groupId,
        actor: actorResource(form.actor),
        summary: form.summary,
        payload: form.payload,
        occurred_at: event.data.occurredAt,
        created_at: stored.recordedAt.toISOString(),
        comment: form.comment,
      });
    }
    // A group change is shown under the group the case was in; what follows is in the new one.
    if (event.type === 'CaseGroupChanged') groupId = event.data.groupId;
  }
  return visible;
}
