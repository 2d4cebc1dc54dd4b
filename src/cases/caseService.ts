import type pg from 'pg';
import { groupsOfSubjectCases } from '../../projections/cases/queries.js';
import type { EventIds } from '../eventSourcing/commandHandler.js';
import { type Outcome, type Rejection, reject } from '../eventSourcing/decision.js';
import type { EventStore } from '../eventStore/eventStore.js';
import type { Clock } from '../shared/clock.js';
import { notFoundText } from '../shared/notFound.js';
import { decideSubject } from '../subjects/subjectDecide.js';
import { subjectCommandHandler } from '../subjects/subjectStream.js';
import { findGroup, groupMembersAmong } from '../workspace/workspaceStore.js';
import { saveAttachmentFile } from './attachmentFiles.js';
import type { CaseRequester } from './caseAccess.js';
import { type CaseCommand, decide } from './caseDecide.js';
import type { Actor, CaseEvent, FinalDecision, MaterialAttachment, ReviewStatus } from './caseEvents.js';
import {
  type CaseState,
  type CheckState,
  findCheck,
  findMatch,
  type MatchState,
  type MaterialState,
} from './caseState.js';
import { caseCommandHandler, loadCase } from './caseStream.js';
import { attachmentId, caseReferenceOfCheck, caseReferenceOfMatch, materialId } from './references.js';

/**
 * The case workflow's use cases, one function each, called alike by the HTTP routes and the CLI.
 * Each takes who asks (a key or a user: `CaseRequester`), what they ask, and the ids of the events
 * it may append (from the request's Idempotency-Key, or fresh for a CLI run); the clock comes with
 * the dependencies. Each answers the case as the command left it, or the rejection that stopped it.
 * Creating a case is its own module (createCase.ts).
 */

export interface CaseServiceDeps {
  pool: pg.Pool;
  store: EventStore;
  clock: Clock;
}

/** What a use case did to the case: its state after, and the events it appended (none: nothing changed). */
export interface CaseChange {
  state: CaseState;
  appended: CaseEvent[];
  /** An earlier attempt of the same request had already done it. */
  alreadyApplied: boolean;
}

/** Builds the command for a case the requester may act on: lookups first, then the rules decide. */
type BuildCommand = (
  state: CaseState,
  now: string,
) => Promise<CaseCommand | Rejection> | CaseCommand | Rejection;

const noCase = (caseReference: string) => reject('not_found', notFoundText('case', caseReference));

/**
 * Runs a command on a case the requester may act on. The case is read first for what the command
 * needs (members of its group, say); the handler then reads it again, so the rules decide on the
 * state they append to.
 */
async function act(
  deps: CaseServiceDeps,
  requester: CaseRequester,
  caseReference: string,
  build: BuildCommand,
  ids: EventIds,
): Promise<Outcome<CaseChange>> {
  const { state } = await loadCase(deps.store, caseReference);
  if (!state) return noCase(caseReference);
  const refused = requester.refusal(state);
  if (refused) return { ok: false, rejection: refused };
  const command = await build(state, deps.clock().toISOString());
  if ('code' in command) return { ok: false, rejection: command };
  const outcome = await caseCommandHandler.handle(
    deps.store,
    caseReference,
    (current) => {
      if (!current) return noCase(caseReference);
      const refusal = requester.refusal(current);
      return refusal ? { ok: false, rejection: refusal } : decide(command, current);
    },
    ids,
  );
  if (!outcome.ok) return outcome;
  if (!outcome.state) throw new Error(`${command.type} on ${caseReference} left no case`);
  return {
    ok: true,
    value: { state: outcome.state, appended: outcome.appended, alreadyApplied: outcome.alreadyApplied },
  };
}

/** `id` as the case holds it when it holds it in another case (ids compare ignoring case), else `id`. */
function asHeld(id: string, held: readonly (string | null)[]): string {
  return held.find((candidate) => candidate?.toLowerCase() === id.toLowerCase()) ?? id;
}

export async function reviewMatch(
  deps: CaseServiceDeps,
  requester: CaseRequester,
  input: { matchId: string; reviewStatus: ReviewStatus; note: string | null },
  ids: EventIds,
): Promise<Outcome<CaseChange & { match: MatchState }>> {
  const notFound = reject('not_found', `no match ${input.matchId}`);
  const caseReference = caseReferenceOfMatch(input.matchId);
  if (!caseReference) return notFound;
  const outcome = await act(
    deps,
    requester,
    caseReference,
    (_state, now) => ({ type: 'ReviewMatch', now, ...input, actor: requester.actor }),
    ids,
  );
  if (!outcome.ok) return outcome;
  const found = findMatch(outcome.value.state, input.matchId);
  return found ? { ok: true, value: { ...outcome.value, match: found.match } } : notFound;
}

export async function decideCheck(
  deps: CaseServiceDeps,
  requester: CaseRequester,
  input: { checkReference: string; decision: FinalDecision; notes: string | null },
  ids: EventIds,
): Promise<Outcome<CaseChange & { check: CheckState }>> {
  const outcome = await act(
    deps,
    requester,
    caseReferenceOfCheck(input.checkReference),
    (_state, now) => ({ type: 'DecideCheck', now, ...input, actor: requester.actor }),
    ids,
  );
  if (!outcome.ok) return outcome;
  const check = findCheck(outcome.value.state, input.checkReference);
  return check
    ? { ok: true, value: { ...outcome.value, check } }
    : reject('not_found', `no check ${input.checkReference}`);
}

/** A case-wide note, link, or both; its id comes from the request's first event id. */
export async function addMaterial(
  deps: CaseServiceDeps,
  requester: CaseRequester,
  input: { caseReference: string; title: string; note: string | null; url: string | null },
  ids: EventIds,
): Promise<Outcome<CaseChange & { material: MaterialState }>> {
  return addMaterialWith(deps, requester, input.caseReference, ids, async (_state, _id) => ({
    title: input.title,
    note: input.note,
    url: input.url,
    attachments: [],
  }));
}

/**
 * A file material: the bytes are stored first, then the event that names them is appended. A crash
 * in between leaves a stored file no event names, which nothing reads.
 */
export async function attachFile(
  deps: CaseServiceDeps,
  requester: CaseRequester,
  input: {
    caseReference: string;
    title: string;
    note: string | null;
    file: { filename: string; contentType: string; content: Buffer };
  },
  ids: EventIds,
): Promise<Outcome<CaseChange & { material: MaterialState; attachment: MaterialAttachment }>> {
  let attachment: MaterialAttachment | undefined;
  const outcome = await addMaterialWith(deps, requester, input.caseReference, ids, async (state, id) => {
    const stored = await saveAttachmentFile(deps.pool, {
      attachmentId: attachmentId(id, 0),
      caseReference: state.caseReference,
      ...input.file,
    });
    attachment = {
      attachmentId: stored.attachmentId,
      filename: stored.filename,
      contentType: stored.contentType,
      byteSize: stored.byteSize,
      sha256: stored.sha256,
    };
    return { title: input.title, note: input.note, url: null, attachments: [attachment] };
  });
  if (!outcome.ok) return outcome;
  if (!attachment) throw new Error('attachFile added a material without its attachment');
  return { ok: true, value: { ...outcome.value, attachment } };
}

async function addMaterialWith(
  deps: CaseServiceDeps,
  requester: CaseRequester,
  caseReference: string,
  ids: EventIds,
  content: (
    state: CaseState,
    id: string,
  ) => Promise<{ title: string; note: string | null; url: string | null; attachments: MaterialAttachment[] }>,
): Promise<Outcome<CaseChange & { material: MaterialState }>> {
  const id = materialId(ids(0));
  const outcome = await act(
    deps,
    requester,
    caseReference,
    async (state, now) => ({
      type: 'AddMaterial',
      now,
      materialId: id,
      ...(await content(state, id)),
      actor: requester.actor,
    }),
    ids,
  );
  if (!outcome.ok) return outcome;
  const material = outcome.value.state.materials.find((candidate) => candidate.materialId === id);
  if (!material) throw new Error(`Material ${id} missing from case ${caseReference} after adding it`);
  return { ok: true, value: { ...outcome.value, material } };
}

/**
 * A use case that is one command on one case: `build` makes the command from what was asked and the
 * case as read, looking up what the rules need.
 */
function caseUseCase<Input extends { caseReference: string }>(
  build: (
    input: Input,
    state: CaseState,
    context: { deps: CaseServiceDeps; now: string; actor: Actor },
  ) => Promise<CaseCommand | Rejection> | CaseCommand | Rejection,
) {
  return (
    deps: CaseServiceDeps,
    requester: CaseRequester,
    input: Input,
    ids: EventIds,
  ): Promise<Outcome<CaseChange>> =>
    act(
      deps,
      requester,
      input.caseReference,
      (state, now) => build(input, state, { deps, now, actor: requester.actor }),
      ids,
    );
}

export const decideCase = caseUseCase<{
  caseReference: string;
  decision: FinalDecision;
  notes: string | null;
}>(({ decision, notes }, _state, { now, actor }) => ({ type: 'DecideCase', now, decision, notes, actor }));

/**
 * Moves the case to another group of its account, whose members must include the owner and
 * collaborators. The case's subject joins that group (SubjectUsedInGroup), as a case created there
 * would make it: the group's keys see the case, so they see its subject (docs/cases.md, "Subjects").
 */
export async function changeGroup(
  deps: CaseServiceDeps,
  requester: CaseRequester,
  input: { caseReference: string; groupId: string },
  ids: EventIds,
): Promise<Outcome<CaseChange>> {
  const moved = await moveCase(deps, requester, input, ids);
  if (!moved.ok) return moved;
  const { state } = moved.value;
  const subjectReference = state.subject.subjectReference;
  // A subject stored before subjects recorded their groups belongs to the groups of its cases.
  const groupsOfCases = [
    ...(await groupsOfSubjectCases(deps.pool, { accountId: state.accountId, subjectReference })),
    state.groupId,
  ];
  const joined = await subjectCommandHandler.handle(
    deps.store,
    subjectReference,
    (subject) =>
      subject === null
        ? { ok: true, events: [] }
        : decideSubject(
            {
              type: 'UseSubject',
              subjectReference,
              accountId: state.accountId,
              named: true,
              groupId: state.groupId,
              // The operator moved the case: every group of the subject (or of its cases) is theirs to see.
              visibleGroupIds: subject.groupIds.length > 0 ? subject.groupIds : groupsOfCases,
              groupsOfCases,
              sent: {},
              now: deps.clock().toISOString(),
            },
            subject,
          ),
    (index) => ids(SUBJECT_EVENT_IDS + index),
  );
  // The case has moved; a refusal here (a subject of another account) is answered as what it is,
  // and a retry of the same request finds the move applied and tries the join again.
  if (!joined.ok) return joined;
  return moved;
}

/** Subject events of a case move take ids from here on, apart from the case's. */
const SUBJECT_EVENT_IDS = 100;

const moveCase = caseUseCase<{ caseReference: string; groupId: string }>(
  async ({ groupId }, state, { deps, now, actor }) => {
    const group = await findGroup(deps.pool, groupId);
    if (!group) return reject('not_found', `no group ${groupId}`).rejection;
    if (group.accountId !== state.accountId) {
      return reject('unprocessable', `group ${groupId} is not a group of account ${state.accountId}`)
        .rejection;
    }
    const people = [...(state.ownerUserId ? [state.ownerUserId] : []), ...state.collaboratorUserIds];
    return {
      type: 'ChangeGroup',
      now,
      groupId: asHeld(group.id, [state.groupId]),
      groupMemberIds: await groupMembersAmong(deps.pool, group.id, people),
      actor,
    };
  },
);

/** Sets the owner (a member of the case group), or removes it with null. */
export const changeOwner = caseUseCase<{ caseReference: string; ownerUserId: string | null }>(
  async ({ ownerUserId }, state, { deps, now, actor }) => {
    const owner = ownerUserId && asHeld(ownerUserId.toLowerCase(), [state.ownerUserId]);
    return {
      type: 'ChangeOwner',
      now,
      ownerUserId: owner,
      groupMemberIds: owner ? await groupMembersAmong(deps.pool, state.groupId, [owner]) : [],
      actor,
    };
  },
);

/** Adds collaborators, members of the case group; those already there are skipped by the rules. */
export const addCollaborators = caseUseCase<{ caseReference: string; userIds: readonly string[] }>(
  async (input, state, { deps, now, actor }) => {
    const userIds = unique(input.userIds).map((id) => asHeld(id, state.collaboratorUserIds));
    return {
      type: 'AddCollaborators',
      now,
      userIds,
      groupMemberIds: await groupMembersAmong(deps.pool, state.groupId, userIds),
      actor,
    };
  },
);

export const removeCollaborators = caseUseCase<{ caseReference: string; userIds: readonly string[] }>(
  (input, state, { now, actor }) => {
    const named = unique(input.userIds);
    // The ids as the case holds them: the rule matches them exactly.
    const userIds = state.collaboratorUserIds.filter((id) => named.includes(id.toLowerCase()));
    return { type: 'RemoveCollaborators', now, userIds, actor };
  },
);

export const updateExternalReference = caseUseCase<{
  caseReference: string;
  externalReference: string | null;
}>(({ externalReference }, _state, { now, actor }) => ({
  type: 'UpdateExternalReference',
  now,
  externalReference,
  actor,
}));

/** A draft of the case decision; the case stays pending. */
export const saveDecisionDraft = caseUseCase<{
  caseReference: string;
  decision: FinalDecision;
  notes: string | null;
}>(({ decision, notes }, _state, { now, actor }) => ({
  type: 'SaveDecisionDraft',
  now,
  decision,
  notes,
  actor,
}));

export const saveDecisionReason = caseUseCase<{ caseReference: string; reason: string }>(
  ({ reason }, _state, { now, actor }) => ({ type: 'SaveDecisionReason', now, reason, actor }),
);

/** Ids each once, in the canonical (lower-case) form the workspace stores. */
function unique(ids: readonly string[]): string[] {
  return [...new Set(ids.map((id) => id.toLowerCase()))];
}
