import type { SubjectDetails } from '../../subjects/subjectEvents.js';
import type { KeyGrant } from '../../workspace/keyPolicy.js';
import { caseGuidance, checkBlockingItems, checkGuidance, requiresHumanReview } from '../caseActions.js';
import type { Actor, FoundMatch } from '../caseEvents.js';
import { actorResource } from '../caseEventView.js';
import type { CaseState, CheckState, MatchState, MaterialState } from '../caseState.js';

/**
 * A case's state as the API shows it (spec: Case, Check, Match, CaseMaterial), for the calling key:
 * the guidance fields depend on who asks. Pure; the routes check the result against the schemas of
 * src/api/schemas/case.ts.
 */

/** `decided_by` and `resolved_by` are strings in the spec: `<actor type>:<actor id>` (docs/cases.md). */
export function actorLabel(actor: Actor | null): string | null {
  if (!actor) return null;
  return actor.id ? `${actor.type}:${actor.id}` : actor.type;
}

/** What a match found by screening shows, before any review (also a monitoring alert's `current_match`). */
export function foundMatchFields(match: FoundMatch) {
  return {
    match_id: match.matchId,
    rank: match.rank,
    display_name: match.displayName,
    score: match.score,
    matched_entity_id: match.matchedEntityId,
    match_type: match.matchType,
    reason: match.reason,
    sources: match.sources,
    source_record_ref: match.sourceRecordRef,
    source_snapshot_id: match.sourceSnapshotId,
    supporting_fields: match.supportingFields,
  };
}

/** The subject as screened, as cases and monitoring configurations show it (without its metadata). */
export function subjectFields(subject: SubjectDetails & { subjectReference: string }) {
  return {
    subject_reference: subject.subjectReference,
    type: subject.type,
    display_name: subject.displayName,
    countries: subject.countries,
    birth_date: subject.birthDate,
    external_reference: subject.externalReference,
  };
}

export function matchResource(match: MatchState) {
  return {
    ...foundMatchFields(match),
    review_status: match.reviewStatus,
    review: match.review
      ? {
          status: match.review.status,
          note: match.review.note,
          reviewed_by: actorResource(match.review.actor),
          reviewed_at: match.review.reviewedAt,
        }
      : {},
    created_at: match.createdAt,
  };
}

export function checkResource(state: CaseState, check: CheckState, key: KeyGrant) {
  const guidance = checkGuidance(check, key);
  const topScore = check.matches.reduce<number | null>(
    (best, m) => (best === null ? m.score : Math.max(best, m.score)),
    null,
  );
  return {
    check_reference: check.checkReference,
    id: check.checkId,
    type: check.type,
    lifecycle_status: check.lifecycleStatus,
    decision: check.decision,
    match_count: check.matches.length,
    top_score: topScore,
    case_reference: state.caseReference,
    subject_reference: state.subject.subjectReference,
    decision_notes: check.decisionNotes,
    decided_at: check.decidedAt,
    decided_by: actorLabel(check.decidedBy),
    checked_at: check.checkedAt,
    started_at: check.startedAt,
    created_at: check.createdAt,
    updated_at: check.updatedAt,
    failure_reason: check.failureReason,
    result_summary:
      check.lifecycleStatus === 'completed'
        ? {
            screening_profile_id: check.screeningProfileId,
            threshold: check.threshold,
            source_snapshots: check.snapshots,
            match_count: check.matches.length,
            top_score: topScore,
            attempts: check.attempts,
          }
        : { screening_profile_id: check.screeningProfileId, attempts: check.attempts },
    matches: check.matches.map(matchResource),
    blocking_items: checkBlockingItems(check),
    allowed_actions: guidance.allowedActions,
    recommended_next_actions: guidance.recommendedNextActions,
  };
}

export function materialResource(state: CaseState, material: MaterialState) {
  return {
    material_id: material.materialId,
    case_reference: state.caseReference,
    type: material.type,
    // Notes and links are complete when added; files arrive whole through the operator CLI.
    status: 'available' as const,
    title: material.title,
    attachments: material.attachments.map((attachment) => ({
      attachment_id: attachment.attachmentId,
      filename: attachment.filename,
      content_type: attachment.contentType,
      byte_size: attachment.byteSize,
      status: 'available' as const,
      finalized_at: material.createdAt,
      created_at: material.createdAt,
    })),
    created_at: material.createdAt,
    updated_at: material.createdAt,
    group_id: state.groupId,
    note: material.note,
    url: material.url,
    check_id: null,
    created_by_actor: actorResource(material.actor),
    finalized_at: material.createdAt,
  };
}

export function caseResource(state: CaseState, key: KeyGrant) {
  const guidance = caseGuidance(state, key);
  const { subject } = state;
  return {
    case_reference: state.caseReference,
    subject: {
      ...subjectFields(subject),
      metadata: subject.metadata,
    },
    group_id: state.groupId,
    owner_user_id: state.ownerUserId,
    collaborator_user_ids: state.collaboratorUserIds,
    decision: state.decision,
    decision_notes: state.decisionNotes,
    resolved_by: actorLabel(state.resolvedBy),
    resolved_at: state.resolvedAt,
    external_reference: state.externalReference,
    metadata: state.metadata,
    checks: state.checks.map((check) => checkResource(state, check, key)),
    materials: state.materials.map((material) => materialResource(state, material)),
    created_by_actor: actorResource(state.createdBy),
    created_at: state.createdAt,
    updated_at: state.updatedAt,
    allowed_actions: guidance.allowedActions,
    recommended_next_actions: guidance.recommendedNextActions,
    requires_human_review: requiresHumanReview(state),
  };
}
