import { accept as acceptEvents, type Decision, type Rejection, reject } from '../eventSourcing/decision.js';
import type {
  Actor,
  CaseCreated,
  CaseEvent,
  CheckCompleted,
  CheckDecision,
  FinalDecision,
  MaterialAttachment,
  MaterialType,
  QueuedCheck,
  ReviewStatus,
} from './caseEvents.js';
import { type CaseState, type CheckState, findCheck, findMatch, type MaybeCase } from './caseState.js';

/**
 * The case's rules: `decide(command, state)` says which events a command appends, or why it is
 * refused. Pure: the caller loads the state from the stream, passes what it looked up (group
 * members) and the time, and appends the events with the stream revision it read. Every "not
 * shown" rule of the spec that concerns a case is decided here (docs/cases.md, "Rules").
 */

export type CaseDecision = Decision<CaseEvent>;

interface Stamped {
  /** ISO time of the command; becomes the events' occurredAt. */
  now: string;
}

export type CaseCommand = Stamped &
  (
    | ({ type: 'CreateCase'; groupMemberIds: readonly string[] } & Omit<CaseCreated['data'], 'occurredAt'>)
    | ({
        /** A follow-up case of a monitoring run: created with its checks already completed by the run. */
        type: 'OpenFollowUpCase';
        groupMemberIds: readonly string[];
        completed: Omit<CheckCompleted['data'], 'occurredAt'>[];
      } & Omit<CaseCreated['data'], 'occurredAt'>)
    | { type: 'StartCheck'; checkReference: string; attempt: number; worker: string }
    | ({ type: 'CompleteCheck' } & Omit<CheckCompleted['data'], 'occurredAt'>)
    | { type: 'FailCheck'; checkReference: string; attempt: number; failureReason: string }
    | { type: 'ReviewMatch'; matchId: string; reviewStatus: ReviewStatus; note: string | null; actor: Actor }
    | {
        type: 'DecideCheck';
        checkReference: string;
        decision: FinalDecision;
        notes: string | null;
        actor: Actor;
      }
    | { type: 'DecideCase'; decision: FinalDecision; notes: string | null; actor: Actor }
    | {
        type: 'AddMaterial';
        materialId: string;
        title: string;
        note: string | null;
        url: string | null;
        attachments: MaterialAttachment[];
        actor: Actor;
      }
    | { type: 'ChangeGroup'; groupId: string; groupMemberIds: readonly string[]; actor: Actor }
    | { type: 'ChangeOwner'; ownerUserId: string | null; groupMemberIds: readonly string[]; actor: Actor }
    | { type: 'AddCollaborators'; userIds: string[]; groupMemberIds: readonly string[]; actor: Actor }
    | { type: 'RemoveCollaborators'; userIds: string[]; actor: Actor }
    | { type: 'UpdateExternalReference'; externalReference: string | null; actor: Actor }
    | { type: 'SaveDecisionDraft'; decision: FinalDecision; notes: string | null; actor: Actor }
    | { type: 'SaveDecisionReason'; reason: string; actor: Actor }
  );

const accept = (...events: CaseEvent[]): CaseDecision => acceptEvents(...events);

const FINAL: ReadonlySet<string> = new Set(['pass', 'conditional_pass', 'fail']);

export function isFinal(decision: string): decision is FinalDecision {
  return FINAL.has(decision);
}

export function decide(command: CaseCommand, state: MaybeCase): CaseDecision {
  if (command.type === 'CreateCase') return createCase(command, state);
  if (command.type === 'OpenFollowUpCase') return openFollowUpCase(command, state);
  if (state === null) return reject('not_found', 'No such case.');
  switch (command.type) {
    case 'StartCheck':
      return startCheck(command, state);
    case 'CompleteCheck':
      return completeCheck(command, state);
    case 'FailCheck':
      return failCheck(command, state);
    case 'ReviewMatch':
      return reviewMatch(command, state);
    case 'DecideCheck':
      return decideCheck(command, state);
    case 'DecideCase':
      return decideCase(command, state);
    case 'AddMaterial':
      return addMaterial(command);
    case 'ChangeGroup':
      return changeGroup(command, state);
    case 'ChangeOwner':
      return changeOwner(command, state);
    case 'AddCollaborators':
      return addCollaborators(command, state);
    case 'RemoveCollaborators':
      return removeCollaborators(command, state);
    case 'UpdateExternalReference':
      return updateExternalReference(command, state);
    case 'SaveDecisionDraft':
      return accept({
        type: 'CaseDecisionDraftSaved',
        data: {
          decision: command.decision,
          notes: command.notes,
          actor: command.actor,
          occurredAt: command.now,
        },
      });
    case 'SaveDecisionReason':
      return accept({
        type: 'CaseDecisionReasonSaved',
        data: { reason: command.reason, actor: command.actor, occurredAt: command.now },
      });
  }
}

// ---- creation ------------------------------------------------------------------------------

/** The case, then each check completed with the matches the monitoring run found (attempt 0: no worker ran it). */
function openFollowUpCase(
  command: Extract<CaseCommand, { type: 'OpenFollowUpCase' }>,
  state: MaybeCase,
): CaseDecision {
  const { completed, ...creation } = command;
  const created = createCase({ ...creation, type: 'CreateCase' }, state);
  if (!created.ok) return created;
  return accept(
    ...created.events,
    ...completed.map(
      (data): CaseEvent => ({ type: 'CheckCompleted', data: { ...data, occurredAt: command.now } }),
    ),
  );
}

function createCase(command: Extract<CaseCommand, { type: 'CreateCase' }>, state: MaybeCase): CaseDecision {
  if (state !== null) return reject('conflict', `Case ${state.caseReference} already exists.`);
  const { type: _type, now, groupMemberIds, ...data } = command;
  const outsiders = notMembers(
    [
      ...(data.ownerUserId ? [data.ownerUserId] : []),
      ...data.collaboratorUserIds,
      ...(data.monitoring.ownerUserId ? [data.monitoring.ownerUserId] : []),
      ...data.monitoring.collaboratorUserIds,
    ],
    groupMemberIds,
  );
  if (outsiders.length > 0) {
    return reject('unprocessable', 'The owner and collaborators must be members of the case group.', {
      group_id: data.groupId,
      non_member_user_ids: outsiders,
    });
  }
  return accept({ type: 'CaseCreated', data: { ...data, occurredAt: now } });
}

export function notMembers(userIds: readonly string[], members: readonly string[]): string[] {
  const known = new Set(members.map((id) => id.toLowerCase()));
  return [...new Set(userIds.filter((id) => !known.has(id.toLowerCase())))];
}

/** The checks a new case queues: one per requested type, numbered from 1. */
export function queuedChecks(
  caseReference: string,
  types: readonly QueuedCheck['type'][],
  ids: { reference(caseReference: string, ordinal: number): string; id(checkReference: string): string },
): QueuedCheck[] {
  return types.map((type, index) => {
    const reference = ids.reference(caseReference, index + 1);
    return { checkReference: reference, checkId: ids.id(reference), type };
  });
}

// ---- check execution (the check runner) ----------------------------------------------------

function runnableCheck(state: CaseState, checkReference: string): CheckState | CaseDecision {
  const check = findCheck(state, checkReference);
  if (!check) return reject('not_found', `No check ${checkReference} on case ${state.caseReference}.`);
  if (check.lifecycleStatus === 'completed' || check.lifecycleStatus === 'failed') {
    return reject(
      'conflict',
      `Check ${checkReference} has already ${check.lifecycleStatus === 'completed' ? 'completed' : 'failed'}.`,
    );
  }
  return check;
}

function isDecision(value: CheckState | CaseDecision): value is CaseDecision {
  return 'ok' in value;
}

function startCheck(command: Extract<CaseCommand, { type: 'StartCheck' }>, state: CaseState): CaseDecision {
  const check = runnableCheck(state, command.checkReference);
  if (isDecision(check)) return check;
  return accept({
    type: 'CheckStarted',
    data: {
      checkReference: command.checkReference,
      attempt: command.attempt,
      worker: command.worker,
      occurredAt: command.now,
    },
  });
}

function completeCheck(
  command: Extract<CaseCommand, { type: 'CompleteCheck' }>,
  state: CaseState,
): CaseDecision {
  const check = runnableCheck(state, command.checkReference);
  if (isDecision(check)) return check;
  const { type: _type, now, ...data } = command;
  return accept({ type: 'CheckCompleted', data: { ...data, occurredAt: now } });
}

function failCheck(command: Extract<CaseCommand, { type: 'FailCheck' }>, state: CaseState): CaseDecision {
  const check = runnableCheck(state, command.checkReference);
  if (isDecision(check)) return check;
  return accept({
    type: 'CheckFailed',
    data: {
      checkReference: command.checkReference,
      attempt: command.attempt,
      failureReason: command.failureReason,
      occurredAt: command.now,
    },
  });
}

// ---- review and decisions ------------------------------------------------------------------

/** The first review action on a case starts its review: a case event of its own. */
function reviewStart(state: CaseState, actor: Actor, now: string): CaseEvent[] {
  return state.reviewStarted ? [] : [{ type: 'CaseReviewStarted', data: { actor, occurredAt: now } }];
}

/** A decided case whose evidence changes must be decided again. */
function reopening(state: CaseState, cause: string, actor: Actor, now: string): CaseEvent[] {
  return isFinal(state.decision)
    ? [{ type: 'CaseReopened', data: { previousDecision: state.decision, cause, actor, occurredAt: now } }]
    : [];
}

function reviewMatch(command: Extract<CaseCommand, { type: 'ReviewMatch' }>, state: CaseState): CaseDecision {
  const found = findMatch(state, command.matchId);
  if (!found) return reject('not_found', `No match ${command.matchId}.`);
  const { check, match } = found;
  const changed = match.reviewStatus !== command.reviewStatus;
  // A decision rests on the reviews it saw: a changed review withdraws it (and reopens the case).
  const withdraws = changed && isFinal(check.decision) ? check.decision : null;
  const events: CaseEvent[] = [
    ...reviewStart(state, command.actor, command.now),
    {
      type: 'MatchReviewed',
      data: {
        checkReference: check.checkReference,
        matchId: command.matchId,
        reviewStatus: command.reviewStatus,
        previousStatus: match.reviewStatus,
        note: command.note,
        withdrawsCheckDecision: withdraws,
        actor: command.actor,
        occurredAt: command.now,
      },
    },
  ];
  if (withdraws) {
    const cause = `match ${command.matchId} review changed from ${match.reviewStatus} to ${command.reviewStatus}`;
    events.push(
      {
        type: 'CheckDecisionWithdrawn',
        data: {
          checkReference: check.checkReference,
          withdrawnDecision: withdraws,
          cause,
          occurredAt: command.now,
        },
      },
      ...reopening(state, cause, command.actor, command.now),
    );
  }
  return accept(...events);
}

/** Why a check cannot be decided now, with the status it is refused with. */
export function checkDecisionBlockers(check: CheckState): Rejection | undefined {
  if (check.lifecycleStatus === 'queued' || check.lifecycleStatus === 'running') {
    return {
      code: 'conflict',
      message: `Check ${check.checkReference} is still ${check.lifecycleStatus}; decide it once it has completed.`,
      details: { lifecycle_status: check.lifecycleStatus },
    };
  }
  if (check.lifecycleStatus === 'failed') {
    return {
      code: 'conflict',
      message: `Check ${check.checkReference} failed (${check.failureReason}); a failed check is not a check without matches and cannot be decided.`,
      details: { lifecycle_status: 'failed', failure_reason: check.failureReason },
    };
  }
  const pending = check.matches.filter((match) => match.reviewStatus === 'pending_review');
  if (pending.length > 0) {
    return {
      code: 'unprocessable',
      message: `Review every potential match of check ${check.checkReference} before deciding it: ${pending.length} still pending review.`,
      details: { pending_review_match_ids: pending.map((match) => match.matchId) },
    };
  }
  return undefined;
}

/** Why decision notes are needed for this check decision, if they are. */
export function checkNotesRequirement(check: CheckState, decision: FinalDecision): string | undefined {
  if (decision !== 'pass') return `a ${decision} decision needs decision notes saying why`;
  const confirmed = check.matches.filter((match) => match.reviewStatus === 'confirmed_match');
  if (confirmed.length > 0) return 'passing a check with a confirmed match needs decision notes saying why';
  return undefined;
}

/**
 * Missing notes are a field problem, reported as validation failures are (`details.fieldErrors`),
 * so one parser reads every 400 and 422 a caller can fix by changing a field.
 */
function notesRequired(why: string): CaseDecision {
  const message = `Decision notes are required: ${why}.`;
  return reject('unprocessable', message, { fieldErrors: { decision_notes: [message] } });
}

function decideCheck(command: Extract<CaseCommand, { type: 'DecideCheck' }>, state: CaseState): CaseDecision {
  const check = findCheck(state, command.checkReference);
  if (!check) return reject('not_found', `No check ${command.checkReference}.`);
  const blocker = checkDecisionBlockers(check);
  if (blocker) return reject(blocker.code, blocker.message, blocker.details);
  const confirmed = check.matches.filter((match) => match.reviewStatus === 'confirmed_match');
  const needsNotes =
    confirmed.length > 1
      ? 'more than one match is confirmed: decision notes must say whether they are one party (the same person or business on several lists) or distinct ones'
      : checkNotesRequirement(check, command.decision);
  if (needsNotes && !command.notes?.trim()) return notesRequired(needsNotes);
  // Changing a recorded decision changes the evidence of a decided case; signing off a check the
  // system found without matches does not.
  const changed = isFinal(check.decision) && check.decision !== command.decision;
  return accept(
    ...reviewStart(state, command.actor, command.now),
    {
      type: 'CheckDecisionRecorded',
      data: {
        checkReference: command.checkReference,
        decision: command.decision,
        previousDecision: check.decision,
        notes: command.notes,
        actor: command.actor,
        occurredAt: command.now,
      },
    },
    ...(changed
      ? reopening(
          state,
          `check ${command.checkReference} decision changed from ${check.decision} to ${command.decision}`,
          command.actor,
          command.now,
        )
      : []),
  );
}

/** Why the case cannot be decided now (every check must be completed and decided), if so. */
export function caseDecisionBlockers(state: CaseState, decision: FinalDecision): Rejection | undefined {
  const unfinished = state.checks.filter(
    (c) => c.lifecycleStatus === 'queued' || c.lifecycleStatus === 'running',
  );
  if (unfinished.length > 0) {
    return {
      code: 'conflict',
      message: 'Checks of the case are still running; decide the case once they have completed.',
      details: { running_check_references: unfinished.map((c) => c.checkReference) },
    };
  }
  const failed = state.checks.filter((c) => c.lifecycleStatus === 'failed');
  if (failed.length > 0 && decision !== 'fail') {
    return {
      code: 'unprocessable',
      message:
        'A check of the case failed: its screening did not happen, so the case can only be decided fail.',
      details: { failed_check_references: failed.map((c) => c.checkReference) },
    };
  }
  const undecided = state.checks.filter(
    (c) => c.lifecycleStatus === 'completed' && c.decision === 'pending_review',
  );
  if (undecided.length > 0) {
    return {
      code: 'unprocessable',
      message: 'Decide every check with potential matches before deciding the case.',
      details: { pending_review_check_references: undecided.map((c) => c.checkReference) },
    };
  }
  return undefined;
}

/** Why decision notes are needed for this case decision, if they are. */
export function caseNotesRequirement(state: CaseState, decision: FinalDecision): string | undefined {
  if (decision !== 'pass') return `a ${decision} decision needs decision notes saying why`;
  const adverse = state.checks.filter((c) => c.decision === 'fail' || c.decision === 'conditional_pass');
  if (adverse.length > 0)
    return 'passing a case with a check decided fail or conditional_pass needs decision notes';
  const confirmed = state.checks.some((c) => c.matches.some((m) => m.reviewStatus === 'confirmed_match'));
  if (confirmed) return 'passing a case with a confirmed match needs decision notes';
  return undefined;
}

function decideCase(command: Extract<CaseCommand, { type: 'DecideCase' }>, state: CaseState): CaseDecision {
  const blocker = caseDecisionBlockers(state, command.decision);
  if (blocker) return reject(blocker.code, blocker.message, blocker.details);
  const needsNotes = caseNotesRequirement(state, command.decision);
  if (needsNotes && !command.notes?.trim()) return notesRequired(needsNotes);
  return accept({
    type: 'CaseDecisionRecorded',
    data: {
      decision: command.decision,
      previousDecision: state.decision,
      notes: command.notes,
      actor: command.actor,
      occurredAt: command.now,
    },
  });
}

// ---- materials -----------------------------------------------------------------------------

export function materialTypeOf(material: {
  note: string | null;
  url: string | null;
  attachments: unknown[];
}): MaterialType {
  if (material.attachments.length > 0) return 'file';
  if (material.note && material.url) return 'mixed';
  return material.url ? 'link' : 'note';
}

function addMaterial(command: Extract<CaseCommand, { type: 'AddMaterial' }>): CaseDecision {
  return accept({
    type: 'MaterialAdded',
    data: {
      materialId: command.materialId,
      type: materialTypeOf(command),
      title: command.title,
      note: command.note,
      url: command.url,
      attachments: command.attachments,
      actor: command.actor,
      occurredAt: command.now,
    },
  });
}

// ---- assignment (workspace operations) -----------------------------------------------------

function changeGroup(command: Extract<CaseCommand, { type: 'ChangeGroup' }>, state: CaseState): CaseDecision {
  if (command.groupId === state.groupId) return accept();
  const outsiders = notMembers(
    [...(state.ownerUserId ? [state.ownerUserId] : []), ...state.collaboratorUserIds],
    command.groupMemberIds,
  );
  if (outsiders.length > 0) {
    return reject('unprocessable', 'The case owner and collaborators must be members of the new group.', {
      group_id: command.groupId,
      non_member_user_ids: outsiders,
    });
  }
  return accept({
    type: 'CaseGroupChanged',
    data: {
      groupId: command.groupId,
      previousGroupId: state.groupId,
      actor: command.actor,
      occurredAt: command.now,
    },
  });
}

function changeOwner(command: Extract<CaseCommand, { type: 'ChangeOwner' }>, state: CaseState): CaseDecision {
  if (command.ownerUserId === state.ownerUserId) return accept();
  if (command.ownerUserId && notMembers([command.ownerUserId], command.groupMemberIds).length > 0) {
    return reject('unprocessable', 'The owner must be a member of the case group.', {
      non_member_user_ids: [command.ownerUserId],
    });
  }
  return accept({
    type: 'CaseOwnerChanged',
    data: {
      ownerUserId: command.ownerUserId,
      previousOwnerUserId: state.ownerUserId,
      actor: command.actor,
      occurredAt: command.now,
    },
  });
}

function addCollaborators(
  command: Extract<CaseCommand, { type: 'AddCollaborators' }>,
  state: CaseState,
): CaseDecision {
  const added = [...new Set(command.userIds)].filter((id) => !state.collaboratorUserIds.includes(id));
  if (added.length === 0) return accept();
  const outsiders = notMembers(added, command.groupMemberIds);
  if (outsiders.length > 0) {
    return reject('unprocessable', 'Collaborators must be members of the case group.', {
      non_member_user_ids: outsiders,
    });
  }
  if (state.collaboratorUserIds.length + added.length > MAX_COLLABORATORS) {
    return reject('unprocessable', `A case has at most ${MAX_COLLABORATORS} collaborators.`);
  }
  return accept({
    type: 'CaseCollaboratorsAdded',
    data: { userIds: added, actor: command.actor, occurredAt: command.now },
  });
}

/** The spec's limit on collaborator_user_ids. */
export const MAX_COLLABORATORS = 50;

function removeCollaborators(
  command: Extract<CaseCommand, { type: 'RemoveCollaborators' }>,
  state: CaseState,
): CaseDecision {
  const removed = [...new Set(command.userIds)].filter((id) => state.collaboratorUserIds.includes(id));
  if (removed.length === 0) return accept();
  return accept({
    type: 'CaseCollaboratorsRemoved',
    data: { userIds: removed, actor: command.actor, occurredAt: command.now },
  });
}

function updateExternalReference(
  command: Extract<CaseCommand, { type: 'UpdateExternalReference' }>,
  state: CaseState,
): CaseDecision {
  if (command.externalReference === state.externalReference) return accept();
  return accept({
    type: 'CaseExternalReferenceUpdated',
    data: {
      externalReference: command.externalReference,
      previousExternalReference: state.externalReference,
      actor: command.actor,
      occurredAt: command.now,
    },
  });
}

export type { CheckDecision };
