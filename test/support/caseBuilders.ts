import { type CaseCommand, decide, queuedChecks } from '../../src/cases/caseDecide.js';
import type {
  Actor,
  CaseCreated,
  CaseEvent,
  CaseSubject,
  FinalDecision,
  FoundMatch,
  ReviewStatus,
} from '../../src/cases/caseEvents.js';
import { type CaseState, foldCase, type MaybeCase } from '../../src/cases/caseState.js';
import { checkId, checkReference, matchId } from '../../src/cases/references.js';
import type { CheckType } from '../../src/screening/checkTypes.js';
import type { SubjectDetails } from '../../src/subjects/subjectEvents.js';
import { type KeyGrant, SCOPES } from '../../src/workspace/keyPolicy.js';

/**
 * The builders the case domain specs share: one case (ABC123456, a sanctions and a pep check) in
 * one account and group, its people and keys, the commands the check runner and reviewers send,
 * and the events those commands append (for the histories decider specs start from). Every
 * builder takes the fields a spec needs otherwise.
 */

export const CASE_REF = 'ABC123456';
export const SANCTIONS = checkReference(CASE_REF, 1);
export const PEP = checkReference(CASE_REF, 2);
export const ACCOUNT = '11111111-1111-4111-8111-111111111111';
export const OTHER_ACCOUNT = '22222222-2222-4222-8222-222222222222';
export const GROUP_A = '6f1c2a9e-8a4b-4c1e-9f3e-0a1b2c3d4e5f';
export const GROUP_B = '0b0c0d0e-1111-4222-8333-444455556666';
export const OWNER = '22222222-2222-4222-8222-222222222222';
export const ALICE = '33333333-3333-4333-8333-333333333333';
export const BOB = '44444444-4444-4444-8444-444444444444';
/** The id of the API key acting as CLIENT. */
export const KEY_ID = '55555555-5555-4555-8555-555555555555';
export const OTHER_KEY_ID = '66666666-6666-4666-8666-666666666666';
export const SUBJECT_REF = 'sub_0123456789abcdef01234567';

/** Minute `m` of the test day (10:00 UTC onwards), as a command's `now` or an event's occurredAt. */
export const at = (m: number) => `2026-06-09T10:${String(m).padStart(2, '0')}:00.000Z`;
export const NOW = at(0);

export const CLIENT: Actor = { type: 'api_client', id: KEY_ID, displayName: 'CRM' };
export const REVIEWER: Actor = { type: 'human', id: ALICE, displayName: 'Alice Reviewer' };

/** An API key's grant: an API client with every scope and the final-decision permission, in GROUP_A. */
export function key(fields: Partial<KeyGrant> = {}): KeyGrant {
  return {
    scopes: [...SCOPES],
    actorType: 'api_client',
    finalDecision: true,
    groupIds: [GROUP_A],
    ...fields,
  };
}

/** A person's details as a subject holds them. */
export function subjectDetails(fields: Partial<SubjectDetails> = {}): SubjectDetails {
  return {
    type: 'person',
    displayName: 'Viktor Yanukovych',
    countries: ['UA'],
    birthDate: { year: 1950, month: 7, day: 9 },
    externalReference: 'crm-42',
    metadata: { segment: 'private' },
    ...fields,
  };
}

/** The subject snapshot a case screens: SUBJECT_REF with subjectDetails. */
export function caseSubject(fields: Partial<CaseSubject> = {}): CaseSubject {
  return { subjectReference: SUBJECT_REF, ...subjectDetails(), ...fields };
}

export type CreateCaseCommand = Extract<CaseCommand, { type: 'CreateCase' }>;
type CaseData = Omit<CaseCreated['data'], 'occurredAt'>;

/** What a new case holds: owner OWNER, collaborator ALICE, in GROUP_A, one queued check per type. */
function caseData(fields: Partial<CaseData>, types: readonly CheckType[]): CaseData {
  const caseReference = fields.caseReference ?? CASE_REF;
  return {
    caseReference,
    accountId: ACCOUNT,
    groupId: GROUP_A,
    subject: caseSubject(),
    ownerUserId: OWNER,
    collaboratorUserIds: [ALICE],
    externalReference: null,
    notes: null,
    metadata: {},
    screeningProfileId: 'default',
    checks: queuedChecks(caseReference, types, { reference: checkReference, id: checkId }),
    monitoring: { enable: false, ownerUserId: null, collaboratorUserIds: [] },
    actor: CLIENT,
    ...fields,
  };
}

/** A CreateCase command by CLIENT at NOW; OWNER, ALICE and BOB are members of the case group. */
export function createCase(
  fields: Partial<CreateCaseCommand> = {},
  types: readonly CheckType[] = ['sanctions', 'pep'],
): CreateCaseCommand {
  return { type: 'CreateCase', now: NOW, groupMemberIds: [OWNER, ALICE, BOB], ...caseData(fields, types) };
}

/** The CaseCreated event of the case createCase makes, at NOW. */
export function caseCreated(
  fields: Partial<CaseCreated['data']> = {},
  types: readonly CheckType[] = ['sanctions', 'pep'],
): CaseCreated {
  return { type: 'CaseCreated', data: { ...caseData(fields, types), occurredAt: NOW, ...fields } };
}

/** A match the check runner found for `check`, ranked first with score 0.9 on a sanctions list. */
export function found(check: string, entityId: string, fields: Partial<FoundMatch> = {}): FoundMatch {
  return {
    matchId: matchId(check, entityId),
    rank: 1,
    displayName: 'Viktor Yanukovych',
    score: 0.9,
    matchedEntityId: entityId,
    matchType: 'name',
    reason: {},
    sources: [],
    sourceRecordRef: null,
    sourceSnapshotId: 'snap-1',
    supportingFields: {},
    topics: ['sanction'],
    datasets: ['us_ofac_sdn'],
    ...fields,
  };
}

type Command<T extends CaseCommand['type']> = Extract<CaseCommand, { type: T }>;
type CaseEventOf<T extends CaseEvent['type']> = Extract<CaseEvent, { type: T }>;
type CaseEventData<T extends CaseEvent['type']> = CaseEventOf<T>['data'];

export const start = (
  check: string,
  attempt = 1,
  fields: Partial<Command<'StartCheck'>> = {},
): CaseCommand => ({
  type: 'StartCheck',
  checkReference: check,
  attempt,
  worker: 'worker-1',
  now: NOW,
  ...fields,
});

/** What a completion of `check` carries: attempt 1 with the default profile and one snapshot. */
function completion(
  check: string,
  matches: FoundMatch[],
): Omit<CaseEventData<'CheckCompleted'>, 'occurredAt'> {
  return {
    checkReference: check,
    attempt: 1,
    screeningProfileId: 'default',
    threshold: 0.7,
    snapshots: [{ id: 'snap-1', dataset: 'us_ofac_sdn', version: 1 }],
    matches,
  };
}

export const complete = (
  check: string,
  matches: FoundMatch[] = [],
  fields: Partial<Command<'CompleteCheck'>> = {},
): CaseCommand => ({ type: 'CompleteCheck', ...completion(check, matches), now: NOW, ...fields });

export const failCheck = (
  check: string,
  failureReason = 'source snapshot stale',
  fields: Partial<Command<'FailCheck'>> = {},
): CaseCommand => ({
  type: 'FailCheck',
  checkReference: check,
  attempt: 3,
  failureReason,
  now: NOW,
  ...fields,
});

export const review = (
  match: string,
  reviewStatus: ReviewStatus,
  note: string | null = null,
  fields: Partial<Command<'ReviewMatch'>> = {},
): CaseCommand => ({
  type: 'ReviewMatch',
  matchId: match,
  reviewStatus,
  note,
  actor: REVIEWER,
  now: NOW,
  ...fields,
});

export const decideCheck = (
  check: string,
  decision: FinalDecision,
  notes: string | null = null,
  fields: Partial<Command<'DecideCheck'>> = {},
): CaseCommand => ({
  type: 'DecideCheck',
  checkReference: check,
  decision,
  notes,
  actor: REVIEWER,
  now: NOW,
  ...fields,
});

export const decideCase = (
  decision: FinalDecision,
  notes: string | null = null,
  fields: Partial<Command<'DecideCase'>> = {},
): CaseCommand => ({
  type: 'DecideCase',
  decision,
  notes,
  actor: CLIENT,
  now: NOW,
  ...fields,
});

/** A note and link material by REVIEWER at NOW, unless told otherwise. */
export const addMaterial = (fields: Partial<Command<'AddMaterial'>> = {}): CaseCommand => ({
  type: 'AddMaterial',
  materialId: 'material_0123456789abcdef01234567',
  title: 'Registry extract',
  note: 'Director since 2019',
  url: 'https://example.org/extract',
  attachments: [],
  actor: REVIEWER,
  now: NOW,
  ...fields,
});

// The workspace operations, by REVIEWER at NOW; `groupMemberIds` are the members of the group.

export const changeGroup = (groupId: string, groupMemberIds: readonly string[]): CaseCommand => ({
  type: 'ChangeGroup',
  groupId,
  groupMemberIds,
  actor: REVIEWER,
  now: NOW,
});

export const changeOwner = (
  ownerUserId: string | null,
  groupMemberIds: readonly string[] = [OWNER, ALICE, BOB],
): CaseCommand => ({ type: 'ChangeOwner', ownerUserId, groupMemberIds, actor: REVIEWER, now: NOW });

export const addCollaborators = (
  userIds: string[],
  groupMemberIds: readonly string[] = [OWNER, ALICE, BOB],
): CaseCommand => ({ type: 'AddCollaborators', userIds, groupMemberIds, actor: REVIEWER, now: NOW });

export const removeCollaborators = (userIds: string[]): CaseCommand => ({
  type: 'RemoveCollaborators',
  userIds,
  actor: REVIEWER,
  now: NOW,
});

export const updateExternalReference = (externalReference: string | null): CaseCommand => ({
  type: 'UpdateExternalReference',
  externalReference,
  actor: REVIEWER,
  now: NOW,
});

export const saveDecisionDraft = (decision: FinalDecision, notes: string | null = null): CaseCommand => ({
  type: 'SaveDecisionDraft',
  decision,
  notes,
  actor: REVIEWER,
  now: NOW,
});

export const saveDecisionReason = (reason: string): CaseCommand => ({
  type: 'SaveDecisionReason',
  reason,
  actor: REVIEWER,
  now: NOW,
});

// ---- events: what the commands above append, each at NOW by the same actor -------------------

export const checkStarted = (
  check: string,
  attempt = 1,
  fields: Partial<CaseEventData<'CheckStarted'>> = {},
): CaseEventOf<'CheckStarted'> => ({
  type: 'CheckStarted',
  data: { checkReference: check, attempt, worker: 'worker-1', occurredAt: NOW, ...fields },
});

export const checkCompleted = (
  check: string,
  matches: FoundMatch[] = [],
  fields: Partial<CaseEventData<'CheckCompleted'>> = {},
): CaseEventOf<'CheckCompleted'> => ({
  type: 'CheckCompleted',
  data: { ...completion(check, matches), occurredAt: NOW, ...fields },
});

export const checkFailed = (
  check: string,
  failureReason = 'source snapshot stale',
  fields: Partial<CaseEventData<'CheckFailed'>> = {},
): CaseEventOf<'CheckFailed'> => ({
  type: 'CheckFailed',
  data: { checkReference: check, attempt: 3, failureReason, occurredAt: NOW, ...fields },
});

/** The first review action on a case starts its review, by REVIEWER. */
export const reviewStarted = (): CaseEventOf<'CaseReviewStarted'> => ({
  type: 'CaseReviewStarted',
  data: { actor: REVIEWER, occurredAt: NOW },
});

/** REVIEWER reviewed a match that was pending review, withdrawing no decision. */
export const matchReviewed = (
  match: string,
  reviewStatus: ReviewStatus,
  note: string | null = null,
  fields: Partial<CaseEventData<'MatchReviewed'>> = {},
): CaseEventOf<'MatchReviewed'> => ({
  type: 'MatchReviewed',
  data: {
    // A match id begins with the reference of its check.
    checkReference: match.slice(0, match.lastIndexOf('.')),
    matchId: match,
    reviewStatus,
    previousStatus: 'pending_review',
    note,
    withdrawsCheckDecision: null,
    actor: REVIEWER,
    occurredAt: NOW,
    ...fields,
  },
});

/** REVIEWER decided a check that was pending review. */
export const checkDecided = (
  check: string,
  decision: FinalDecision,
  notes: string | null = null,
  fields: Partial<CaseEventData<'CheckDecisionRecorded'>> = {},
): CaseEventOf<'CheckDecisionRecorded'> => ({
  type: 'CheckDecisionRecorded',
  data: {
    checkReference: check,
    decision,
    previousDecision: 'pending_review',
    notes,
    actor: REVIEWER,
    occurredAt: NOW,
    ...fields,
  },
});

/** A changed review took back the check's decision: `cause` says which. */
export const checkDecisionWithdrawn = (
  check: string,
  withdrawnDecision: FinalDecision,
  cause: string,
): CaseEventOf<'CheckDecisionWithdrawn'> => ({
  type: 'CheckDecisionWithdrawn',
  data: { checkReference: check, withdrawnDecision, cause, occurredAt: NOW },
});

/** CLIENT decided the case, which was pending its decision. */
export const caseDecided = (
  decision: FinalDecision,
  notes: string | null = null,
  fields: Partial<CaseEventData<'CaseDecisionRecorded'>> = {},
): CaseEventOf<'CaseDecisionRecorded'> => ({
  type: 'CaseDecisionRecorded',
  data: { decision, previousDecision: 'pending_decision', notes, actor: CLIENT, occurredAt: NOW, ...fields },
});

/** A decided case whose evidence changed is reopened by the one who changed it (REVIEWER). */
export const caseReopened = (
  previousDecision: FinalDecision,
  cause: string,
): CaseEventOf<'CaseReopened'> => ({
  type: 'CaseReopened',
  data: { previousDecision, cause, actor: REVIEWER, occurredAt: NOW },
});

/** Runs commands from `state`, each of which must be accepted, and folds the events they decide. */
export function run(state: MaybeCase, ...commands: CaseCommand[]): CaseState {
  let current = state;
  for (const command of commands) {
    const decision = decide(command, current);
    if (!decision.ok) throw new Error(`${command.type} refused: ${decision.rejection.message}`);
    current = foldCase(decision.events, current);
  }
  if (current === null) throw new Error('no case');
  return current;
}
