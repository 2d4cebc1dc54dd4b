import { groupsOfSubjectCases } from '../../projections/cases/queries.js';
import { type EventIds, inStreamTurn, outliveRace } from '../eventSourcing/commandHandler.js';
import { type Outcome, type Rejection, reject } from '../eventSourcing/decision.js';
import { type NewEvent, type ReadStreamResult, WrongExpectedVersionError } from '../eventStore/eventStore.js';
import type { CheckType } from '../screening/checkTypes.js';
import { findProfile, listProfiles, type ScreeningProfile } from '../screening/scoring/profiles.js';
import type { ReadySnapshot } from '../screening/snapshots/snapshotStore.js';
import { availabilityOf } from '../screening/snapshots/sourceAvailability.js';
import { notFoundText } from '../shared/notFound.js';
import { decideSubject, type SentDetails, type UseSubject } from '../subjects/subjectDecide.js';
import {
  evolveSubject,
  SUBJECT_REFERENCE,
  type SubjectEvent,
  type SubjectState,
  subjectDetailsOf,
  subjectReferenceFor,
} from '../subjects/subjectEvents.js';
import { subjectCommandHandler } from '../subjects/subjectStream.js';
import type { ApiKeyRecord } from '../workspace/apiKeys.js';
import { canSeeGroup } from '../workspace/keyPolicy.js';
import { findGroupForKey, type Group, listGroupsForKey } from '../workspace/workspaceStore.js';
import { keyRequester } from './caseAccess.js';
import { readForCaseCreation } from './caseCreationReads.js';
import { type CaseCommand, decide, queuedChecks } from './caseDecide.js';
import type { CaseSubject } from './caseEvents.js';
import type { CaseServiceDeps } from './caseService.js';
import type { CaseState, MaybeCase } from './caseState.js';
import { caseCommandHandler, caseStream, type LoadedCase, loadCase } from './caseStream.js';
import { candidateCaseReference, checkId, checkReference } from './references.js';

/**
 * Creating a case (spec: POST /v1/cases; docs/cases.md, "Endpoints"). Every refusal is found before
 * anything is written (profile, group, subject, membership, sources); then the subject is created or
 * updated (event index 0) and the case created under the first free candidate reference (event
 * index 1 on).
 */

export interface CreateCaseInput {
  subject: SentDetails & {
    /** `existing`: screen a stored subject as it is; `create_or_reuse`: create it or bring it up to the details sent. */
    mode: 'create_or_reuse' | 'existing';
    subjectReference: string | null;
  };
  case: {
    groupId: string | null;
    ownerUserId: string | null;
    collaboratorUserIds: string[];
    externalReference: string | null;
    notes: string | null;
    metadata: Record<string, unknown>;
  };
  checks: { types: CheckType[]; screeningProfileId: string | null };
  monitoring: { enable: boolean; ownerUserId: string | null; collaboratorUserIds: string[] };
}

export interface CreateCaseDeps extends CaseServiceDeps {
  /** A source snapshot older than this refuses new checks. */
  sourceStaleAfterMs: number;
}

/** The request that creates the case: its references and event ids derive from the key and the Idempotency-Key. */
export interface CreatingRequest {
  key: ApiKeyRecord;
  idempotencyKey: string;
  /** A retry that took over an attempt that crashed: it answers with that attempt's case, if it got that far. */
  recovered: boolean;
  eventId: EventIds;
}

/** Candidate references tried before giving up; a collision is about one in 17 billion per try. */
const MAX_REFERENCE_ATTEMPTS = 20;

export async function createCase(
  deps: CreateCaseDeps,
  request: CreatingRequest,
  input: CreateCaseInput,
): Promise<Outcome<CaseState>> {
  const now = deps.clock().toISOString();
  const { key } = request;
  const profile = findProfile(input.checks.screeningProfileId);
  if (!profile) {
    const known = listProfiles().map((p) => p.id);
    return reject('unprocessable', `Unknown screening profile "${input.checks.screeningProfileId}".`, {
      fieldErrors: {
        'checks.screening_profile_id': [`Unknown screening profile; known: ${known.join(', ')}.`],
      },
      known_profile_ids: known,
    });
  }
  if (request.recovered) {
    const own = await findOwnCase(deps, request);
    if (own) return { ok: true, value: own };
  }

  // A group named but outside the key's scope is not found, exactly like a missing one.
  if (input.case.groupId && !canSeeGroup(key, input.case.groupId)) {
    return { ok: false, rejection: groupNotFound(input.case.groupId) };
  }
  const subject = useSubject(request, input.subject, now);
  if ('code' in subject) return { ok: false, rejection: subject };
  const userIds = [
    ...(input.case.ownerUserId ? [input.case.ownerUserId] : []),
    ...input.case.collaboratorUserIds,
    ...(input.monitoring.ownerUserId ? [input.monitoring.ownerUserId] : []),
    ...input.monitoring.collaboratorUserIds,
  ];
  const firstCaseReference = candidateCaseReference(key.id, request.idempotencyKey, 0);
  const reads = await readForCaseCreation(deps.pool, deps.store, {
    key,
    groupId: input.case.groupId,
    userIds,
    firstSubjectStream: subjectCommandHandler.streamName(subject.referenceAt(0)),
    firstCaseStream: caseCommandHandler.streamName(firstCaseReference),
  });
  const group = reads.group ?? groupRejection(input.case.groupId);
  if ('code' in group) return { ok: false, rejection: group };

  // The subject as this case will screen it, decided on the subject as read now: a refusal leaves nothing behind.
  const subjectAt = subject.in(group.id);
  const previewed = await previewSubject(deps, subjectAt, subjectEventIds(request), 0, reads.firstSubject);
  if ('code' in previewed) return { ok: false, rejection: previewed };

  const command = (caseReference: string, subject: SubjectState): CaseCommand => ({
    type: 'CreateCase',
    now,
    groupMemberIds: reads.groupMemberIds,
    caseReference,
    accountId: key.accountId,
    groupId: group.id,
    subject: caseSubject(subject),
    ownerUserId: input.case.ownerUserId,
    collaboratorUserIds: input.case.collaboratorUserIds,
    externalReference: input.case.externalReference,
    notes: input.case.notes,
    metadata: input.case.metadata,
    screeningProfileId: profile.id,
    checks: queuedChecks(caseReference, input.checks.types, { reference: checkReference, id: checkId }),
    monitoring: {
      enable: input.monitoring.enable,
      ownerUserId: input.monitoring.ownerUserId,
      collaboratorUserIds: input.monitoring.collaboratorUserIds,
    },
    actor: keyRequester(key).actor,
  });

  // The case's rules (membership) on a dry run, so a refused case leaves no subject behind.
  const dryRun = decide(command(firstCaseReference, previewed.preview), null);
  if (!dryRun.ok) return dryRun;
  const sources = requireSources(deps, reads.currentSnapshots, input.checks.types, profile, new Date(now));
  if (sources) return { ok: false, rejection: sources };

  // Requests of this process on one subject take turns, as commands on one stream do
  // (commandHandler.ts): simultaneous creations for one subject then race only other processes.
  return inStreamTurn(subjectCommandHandler.streamName(previewed.command.subjectReference), () =>
    writeSubjectAndCase(deps, request, {
      subjectAt,
      previewed,
      command,
      firstCaseTaken: reads.firstCaseTaken,
    }),
  );
}

/** The case an earlier attempt of this request created, as that attempt left it: its candidates in order, until a free one. */
async function findOwnCase(deps: CreateCaseDeps, request: CreatingRequest): Promise<CaseState | undefined> {
  for (let attempt = 0; attempt < MAX_REFERENCE_ATTEMPTS; attempt++) {
    const loaded = await loadCase(
      deps.store,
      candidateCaseReference(request.key.id, request.idempotencyKey, attempt),
    );
    if (loaded.state === null) return undefined;
    const own = ownCaseIn(loaded, request);
    if (own) return own;
  }
  return undefined;
}

/** The case as this request's earlier attempt left it, when that attempt wrote the loaded stream. */
function ownCaseIn(loaded: LoadedCase, request: CreatingRequest): CaseState | undefined {
  return caseCommandHandler.asLeftBy(loaded, caseEventIds(request)) ?? undefined;
}

/** The case's events take ids 1 and up of the request's; the subject's first event takes id 0. */
const caseEventIds =
  (request: CreatingRequest): EventIds =>
  (index) =>
    request.eventId(1 + index);

/** The subject's events: the first takes id 0, later ones ids from `LATER_SUBJECT_EVENT_IDS` on. */
const subjectEventIds =
  (request: CreatingRequest): EventIds =>
  (index) =>
    request.eventId(index === 0 ? 0 : LATER_SUBJECT_EVENT_IDS + index);

/**
 * `case.group_id` when given (not found unless the key can see it), else the key's default group:
 * the account's default group when the key can see it, else the key's first group by name. Also the
 * rule of `group_id` on POST /v1/monitoring-configs.
 */
export async function resolveGroup(
  deps: Pick<CreateCaseDeps, 'pool'>,
  key: ApiKeyRecord,
  groupId: string | null,
): Promise<Group | Rejection> {
  if (groupId) return (await findGroupForKey(deps.pool, key, groupId)) ?? groupNotFound(groupId);
  // Default group first, then by name: the order GET /v1/groups shows.
  const [first] = await listGroupsForKey(deps.pool, key);
  return first ?? groupRejection(null);
}

/** Why no group was found: the named one is not found, or the key sees no group at all. */
function groupRejection(groupId: string | null): Rejection {
  return groupId
    ? groupNotFound(groupId)
    : reject('forbidden', 'This API key has access to no group.').rejection;
}

function groupNotFound(groupId: string): Rejection {
  return reject('not_found', notFoundText('group', groupId)).rejection;
}

/** The subject command on a candidate reference (the named subject's whatever the candidate). */
type SubjectCommandAt = (candidate: number) => UseSubject;

/** Candidate subject references tried: each one skipped is held by a subject of groups the key cannot see. */
const MAX_SUBJECT_CANDIDATES = 20;

/**
 * Subject events after the first take ids from here on: the case's events have ids 1 and up, as
 * they had when a subject appended one event at most, so a retry of a request made before still
 * finds its case.
 */
const LATER_SUBJECT_EVENT_IDS = 1000;

/**
 * Not found when a subject reference is malformed; otherwise the subject command, for the key's
 * visible groups and the case's group.
 */
function useSubject(
  request: CreatingRequest,
  sent: CreateCaseInput['subject'],
  now: string,
): SubjectToUse | Rejection {
  const named = sent.subjectReference;
  // A malformed reference names no subject; reading it would not even make a stream name.
  if (named !== null && !SUBJECT_REFERENCE.test(named))
    return reject('not_found', notFoundText('subject', named)).rejection;
  const { mode, subjectReference: _reference, ...details } = sent;
  const referenceAt = (candidate: number) =>
    named ??
    subjectReferenceFor(
      { accountId: request.key.accountId, externalReference: sent.externalReference ?? null },
      { apiKeyId: request.key.id, idempotencyKey: request.idempotencyKey },
      candidate,
    );
  return {
    referenceAt,
    in: (groupId) => (candidate) => ({
      type: 'UseSubject',
      subjectReference: referenceAt(candidate),
      accountId: request.key.accountId,
      named: named !== null,
      groupId,
      visibleGroupIds: request.key.groupIds,
      // `existing` screens the stored subject as it is.
      sent: mode === 'existing' ? {} : details,
      now,
    }),
  };
}

/** The subject a request names or describes, by candidate reference. */
interface SubjectToUse {
  referenceAt(candidate: number): string;
  /** The subject command for a case of `groupId`. */
  in(groupId: string): SubjectCommandAt;
}

interface PreviewedSubject {
  candidate: number;
  command: UseSubject;
  /** The subject as the command would leave it. */
  preview: SubjectState;
  /** The stream revision the preview was decided on (-1n: no stream yet). */
  revision: bigint;
  /** What the command appends: none when it changes nothing or an earlier attempt appended it. */
  events: SubjectEvent[];
}

/**
 * The first candidate from `from` whose subject the key may use (or that is free), with the subject
 * as the command would leave it; nothing is written. A candidate held by a subject the key cannot see
 * is passed over: create_or_reuse never matches another group's subject.
 */
async function previewSubject(
  deps: CreateCaseDeps,
  subjectAt: SubjectCommandAt,
  ownEventIds: EventIds,
  from: number,
  /** The stream of candidate `from`, when it was read already. */
  read?: ReadStreamResult,
): Promise<PreviewedSubject | Rejection> {
  for (let candidate = from; candidate < MAX_SUBJECT_CANDIDATES; candidate++) {
    const base = subjectAt(candidate);
    const stored =
      candidate === from && read
        ? subjectCommandHandler.folded(read)
        : await subjectCommandHandler.load(deps.store, base.subjectReference);
    // An earlier attempt of this request wrote this subject: it is this request's, as it left it
    // (the command handler answers "applied before" the same way), whatever the key's groups are now.
    const asLeft = subjectCommandHandler.asLeftBy(stored, ownEventIds);
    if (asLeft) return { candidate, command: base, preview: asLeft, revision: stored.revision, events: [] };
    const command = await withGroupsOfCases(deps, base, stored.state);
    const decision = decideSubject(command, stored.state);
    if (decision.ok) {
      const preview = decision.events.reduce<SubjectState | null>(evolveSubject, stored.state);
      if (!preview) throw new Error(`Subject ${command.subjectReference} decided into no subject`);
      return { candidate, command, preview, revision: stored.revision, events: decision.events };
    }
    if (decision.rejection.code !== 'conflict' || command.named) return decision.rejection;
  }
  // Only when this many other groups' subjects hold the external reference: a clear 409, not a 500.
  return reject(
    'conflict',
    'This external_reference is in use by too many other subjects; send a different one.',
  ).rejection;
}

/** A subject stored before subjects recorded their groups belongs to the groups of its cases. */
async function withGroupsOfCases(
  deps: CreateCaseDeps,
  command: UseSubject,
  state: SubjectState | null,
): Promise<UseSubject> {
  if (state === null || state.groupIds.length > 0 || state.accountId !== command.accountId) return command;
  const groupsOfCases = await groupsOfSubjectCases(deps.pool, {
    accountId: command.accountId,
    subjectReference: command.subjectReference,
  });
  return { ...command, groupsOfCases };
}

/**
 * Writes the previewed subject's events and the case under the first free candidate reference, in
 * one append (one transaction on PostgreSQL). A candidate found taken is either this request's own
 * case, written by an earlier attempt (answered as that attempt left it), or another case's: the next
 * candidate is tried. A subject changed meanwhile is decided again on its newer state.
 */
async function writeSubjectAndCase(
  deps: CreateCaseDeps,
  request: CreatingRequest,
  plan: {
    subjectAt: SubjectCommandAt;
    previewed: PreviewedSubject;
    command: (caseReference: string, subject: SubjectState) => CaseCommand;
    /** Whether the first candidate case stream exists, when that was read already. */
    firstCaseTaken: boolean | undefined;
  },
): Promise<Outcome<CaseState>> {
  let subject = plan.previewed;
  let attempt = 0;
  let races = 0;
  let taken = plan.firstCaseTaken;
  while (attempt < MAX_REFERENCE_ATTEMPTS) {
    const caseReference = candidateCaseReference(request.key.id, request.idempotencyKey, attempt);
    // Known free: write. Otherwise read it: free after all, this request's own, or another case's.
    if (taken !== false) {
      const loaded = await loadCase(deps.store, caseReference);
      if (loaded.state !== null) {
        const own = ownCaseIn(loaded, request);
        if (own) return { ok: true, value: own };
        attempt++;
        taken = undefined;
        continue;
      }
    }
    const decision = decide(plan.command(caseReference, subject.preview), null);
    if (!decision.ok) return decision;
    const subjectStream = subjectCommandHandler.streamName(subject.command.subjectReference);
    const caseStreamName = caseCommandHandler.streamName(caseReference);
    try {
      await deps.store.appendToStreams([
        ...(subject.events.length > 0
          ? [
              {
                streamName: subjectStream,
                events: toNewEvents(subject.events, subjectEventIds(request)),
                expectedRevision: subject.revision === -1n ? ('no_stream' as const) : subject.revision,
              },
            ]
          : []),
        {
          streamName: caseStreamName,
          events: toNewEvents(decision.events, caseEventIds(request)),
          expectedRevision: 'no_stream',
        },
      ]);
    } catch (error) {
      // Past the races a request outlives, the error itself is the answer: 503, retry (errorHandling.ts).
      await outliveRace(error, ++races);
      if (error instanceof WrongExpectedVersionError && error.streamName === caseStreamName) {
        // Another request created a case here meanwhile: look at it again (it may be this request's).
        taken = true;
        continue;
      }
      const again = await previewSubject(deps, plan.subjectAt, subjectEventIds(request), subject.candidate);
      if ('code' in again) return { ok: false, rejection: again };
      subject = again;
      taken = undefined;
      continue;
    }
    const state = decision.events.reduce<MaybeCase>(caseStream.evolve, null);
    if (!state) throw new Error(`CreateCase on ${caseReference} left no case`);
    return { ok: true, value: state };
  }
  throw new Error(`No free case reference after ${MAX_REFERENCE_ATTEMPTS} candidates`);
}

function toNewEvents(events: readonly { type: string; data: unknown }[], eventId: EventIds): NewEvent[] {
  return events.map((event, index) => ({ id: eventId(index), type: event.type, data: event.data }));
}

/** A rejection `source_unavailable` unless every requested check type has current, fresh sources. */
function requireSources(
  deps: CreateCaseDeps,
  current: readonly ReadySnapshot[],
  types: readonly CheckType[],
  profile: ScreeningProfile,
  now: Date,
): Rejection | undefined {
  const availability = availabilityOf(current, types, now, deps.sourceStaleAfterMs, profile.datasets);
  const unavailable = availability.filter((type) => !type.available);
  if (unavailable.length === 0) return undefined;
  const names = unavailable.map((type) => type.checkType);
  return reject(
    'source_unavailable',
    `The screening sources for ${names.join(', ')} are missing or stale; no case was created. Retry once the sources are current.`,
    {
      check_types: names,
      unavailable: unavailable.map((type) => ({
        check_type: type.checkType,
        reason: type.staleSnapshots.length > 0 ? 'stale' : 'missing',
        stale_datasets: type.staleSnapshots.map((snapshot) => ({
          dataset: snapshot.dataset,
          snapshot_id: snapshot.id,
          version: snapshot.version,
        })),
      })),
      stale_after_ms: deps.sourceStaleAfterMs,
    },
  ).rejection;
}

function caseSubject(subject: SubjectState): CaseSubject {
  return { subjectReference: subject.subjectReference, ...subjectDetailsOf(subject) };
}
