import type { IdempotencyContext } from '../api/idempotentExecution.js';
import type { Queryable } from '../db/sql.js';
import type { CheckType } from '../screening/checkTypes.js';
import { findProfile, listProfiles, type ScreeningProfile } from '../screening/scoring/profiles.js';
import { sourceAvailability } from '../screening/snapshots/sourceAvailability.js';
import { ApiError } from '../server/errors.js';
import {
  decideSubject,
  evolveSubject,
  SUBJECT_REFERENCE,
  type SubjectDetails,
  type SubjectEvent,
  type SubjectState,
  subjectReferenceFor,
} from '../subjects/subjectEvents.js';
import { loadSubject, runSubjectCommand } from '../subjects/subjectRepository.js';
import type { ApiKeyRecord } from '../workspace/apiKeys.js';
import { findGroupForKey, type Group, listGroupsForKey } from '../workspace/workspaceStore.js';
import { type CaseCommand, decide, queuedChecks } from './caseDecide.js';
import type { CaseSubject } from './caseEvents.js';
import type { CaseState } from './caseState.js';
import { loadCase, runCaseCommand } from './caseStream.js';
import { keyActor, rejectionError } from './http/caseCommandSupport.js';
import type { CreateCaseRequest, SubjectRequest } from './http/caseRequestSchemas.js';
import type { CaseRouteDependencies } from './http/caseRouteDependencies.js';
import { candidateCaseReference, checkId, checkReference } from './references.js';

/**
 * POST /v1/cases (docs/cases.md, "Endpoints"): every refusal is found before anything is written
 * (profile, group, subject, membership, sources), then the subject is created or updated (event
 * index 0) and the case created under the first free candidate reference (event index 1).
 */

/** Candidate references tried before giving up; a collision is about one in 17 billion per try. */
const MAX_REFERENCE_ATTEMPTS = 20;

type Idempotency = Pick<IdempotencyContext, 'key' | 'recovered' | 'eventId'>;

export async function createCase(
  deps: CaseRouteDependencies,
  key: ApiKeyRecord,
  body: CreateCaseRequest,
  idempotency: Idempotency,
): Promise<CaseState> {
  const now = new Date();
  const profile = findProfile(body.checks.screening_profile_id);
  if (!profile) {
    const known = listProfiles().map((p) => p.id);
    throw ApiError.unprocessableEntity(`Unknown screening profile "${body.checks.screening_profile_id}".`, {
      fieldErrors: {
        'checks.screening_profile_id': [`Unknown screening profile; known: ${known.join(', ')}.`],
      },
      known_profile_ids: known,
    });
  }
  // A retry that took over a crashed attempt answers with that attempt's case, if it got that far.
  if (idempotency.recovered) {
    const own = await findOwnCase(deps, key, idempotency);
    if (own) return own;
  }

  const group = await resolveGroup(deps.pool, key, body.case.group_id);
  const userIds = [
    ...(body.case.owner_user_id ? [body.case.owner_user_id] : []),
    ...body.case.collaborator_user_ids,
    ...(body.monitoring.owner_user_id ? [body.monitoring.owner_user_id] : []),
    ...body.monitoring.collaborator_user_ids,
  ];
  const groupMemberIds = await groupMembersAmong(deps.pool, group.id, userIds);
  const subjectPlan = await planSubject(deps, key, idempotency.key, body.subject, now.toISOString());

  const command = (caseReference: string, subject: SubjectState): CaseCommand => ({
    type: 'CreateCase',
    now: now.toISOString(),
    groupMemberIds,
    caseReference,
    accountId: key.accountId,
    groupId: group.id,
    subject: caseSubject(subject),
    ownerUserId: body.case.owner_user_id ?? null,
    collaboratorUserIds: body.case.collaborator_user_ids,
    externalReference: body.case.external_reference ?? null,
    notes: body.case.notes ?? null,
    metadata: body.case.metadata,
    screeningProfileId: profile.id,
    checks: queuedChecks(caseReference, body.checks.types, { reference: checkReference, id: checkId }),
    monitoring: {
      enable: body.monitoring.enable,
      ownerUserId: body.monitoring.owner_user_id ?? null,
      collaboratorUserIds: body.monitoring.collaborator_user_ids,
    },
    actor: keyActor(key),
  });

  // The domain's rules (membership) on a dry run, so a refused case leaves no subject behind.
  const dryRun = decide(
    command(candidateCaseReference(key.id, idempotency.key, 0), subjectPlan.preview),
    null,
  );
  if (!dryRun.ok) throw rejectionError(dryRun.rejection, () => ApiError.notFound());
  await requireSources(deps, body.checks.types, profile, now);

  const subject = subjectPlan.decide
    ? (await runSubjectCommand(deps.store, subjectPlan.reference, subjectPlan.decide, idempotency.eventId))
        .state
    : subjectPlan.preview;

  for (let attempt = 0; attempt < MAX_REFERENCE_ATTEMPTS; attempt++) {
    const caseReference = candidateCaseReference(key.id, idempotency.key, attempt);
    const outcome = await runCaseCommand(deps.store, caseReference, command(caseReference, subject), (i) =>
      idempotency.eventId(1 + i),
    );
    if (outcome.ok) return outcome.state;
    // Another case holds this candidate: try the next one.
    if (outcome.rejection.code === 'conflict') continue;
    throw rejectionError(outcome.rejection, () => ApiError.notFound());
  }
  throw new Error(`No free case reference after ${MAX_REFERENCE_ATTEMPTS} candidates`);
}

/** The case an earlier attempt of this request created: its candidates in order, until a free one. */
async function findOwnCase(
  deps: CaseRouteDependencies,
  key: ApiKeyRecord,
  idempotency: Idempotency,
): Promise<CaseState | undefined> {
  const ownId = idempotency.eventId(1).toLowerCase();
  for (let attempt = 0; attempt < MAX_REFERENCE_ATTEMPTS; attempt++) {
    const loaded = await loadCase(deps.store, candidateCaseReference(key.id, idempotency.key, attempt));
    if (loaded.state === null) return undefined;
    if (loaded.events.some((event) => event.id === ownId)) return loaded.state;
  }
  return undefined;
}

/**
 * `case.group_id` when given (404 unless the key can see it), else the key's default group: the
 * account's default group when the key can see it, else the key's first group by name.
 */
async function resolveGroup(
  db: Queryable,
  key: ApiKeyRecord,
  groupId: string | null | undefined,
): Promise<Group> {
  if (groupId) {
    const group = await findGroupForKey(db, key, groupId);
    if (!group) throw ApiError.notFound(`Group ${groupId} not found.`);
    return group;
  }
  // Default group first, then by name: the order GET /v1/groups shows.
  const [first] = await listGroupsForKey(db, key);
  if (!first) throw ApiError.forbidden('This API key has access to no group.');
  return first;
}

/** Those of `userIds` that are members of the group. */
async function groupMembersAmong(
  db: Queryable,
  groupId: string,
  userIds: readonly string[],
): Promise<string[]> {
  if (userIds.length === 0) return [];
  const { rows } = await db.query<{ user_id: string }>(
    'SELECT user_id FROM group_memberships WHERE group_id = $1 AND user_id = ANY($2::uuid[])',
    [groupId, [...new Set(userIds)]],
  );
  return rows.map((row) => row.user_id);
}

/** 503 `source_unavailable` unless every requested check type has current, fresh sources. */
async function requireSources(
  deps: CaseRouteDependencies,
  types: readonly CheckType[],
  profile: ScreeningProfile,
  now: Date,
) {
  const availability = await sourceAvailability(
    deps.pool,
    types,
    now,
    deps.sourceStaleAfterMs,
    profile.datasets,
  );
  const unavailable = availability.filter((type) => !type.available);
  if (unavailable.length === 0) return;
  const names = unavailable.map((type) => type.checkType);
  throw ApiError.sourceUnavailable(
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
  );
}

// ---- the subject ----------------------------------------------------------------------------

interface SubjectPlan {
  reference: string;
  /** The subject as the case will screen it (as read now, with this request's changes). */
  preview: SubjectState;
  /** The change to append; absent when the stored subject is screened as it is (`existing`). */
  decide?: (state: SubjectState | null) => SubjectEvent[];
}

const subjectNotFound = (reference: string) => ApiError.notFound(`Subject ${reference} not found.`);

/**
 * Which subject the request screens and what it changes (docs/cases.md, "Subjects"), decided on the
 * subject as read now, before anything is written: a refusal (404, 422) leaves nothing behind.
 */
async function planSubject(
  deps: CaseRouteDependencies,
  key: ApiKeyRecord,
  idempotencyKey: string,
  input: SubjectRequest,
  now: string,
): Promise<SubjectPlan> {
  const named = input.subject_reference ?? null;
  const reference =
    named ??
    subjectReferenceFor(
      { accountId: key.accountId, externalReference: input.external_reference ?? null },
      { apiKeyId: key.id, idempotencyKey },
    );
  // A malformed reference names no subject; reading it would not even make a stream name.
  if (named !== null && !SUBJECT_REFERENCE.test(named)) throw subjectNotFound(named);
  const loaded = await loadSubject(deps.store, reference);

  if (input.mode === 'existing') {
    if (!ownSubject(loaded.state, key)) throw subjectNotFound(reference);
    return { reference, preview: loaded.state };
  }
  const decideChange = (state: SubjectState | null): SubjectEvent[] => {
    if (named !== null && !ownSubject(state, key)) throw subjectNotFound(reference);
    if (state !== null && state.accountId !== key.accountId) {
      // A derived reference includes the account: this cannot happen unless the derivation changed.
      throw new Error(`Subject ${reference} belongs to another account`);
    }
    const details = state === null ? newDetails(input) : reusedDetails(state, input);
    const events = decideSubject(state, {
      subjectReference: reference,
      accountId: key.accountId,
      details,
      now,
    });
    // One event at most, at index 0: the case's events start at index 1.
    if (events.length > 1) throw new Error('A subject change is at most one event');
    return events;
  };
  const preview = decideChange(loaded.state).reduce<SubjectState | null>(evolveSubject, loaded.state);
  return { reference, preview: preview!, decide: decideChange };
}

function ownSubject(state: SubjectState | null, key: ApiKeyRecord): state is SubjectState {
  return state !== null && state.accountId === key.accountId;
}

function displayName(name: string): string {
  return name.replace(/\s+/g, ' ').trim();
}

function uniqueCountries(countries: readonly string[]): string[] {
  return [...new Set(countries)];
}

function newDetails(input: SubjectRequest): SubjectDetails {
  // The schema requires a name whenever no subject_reference is given; a named subject exists.
  if (!input.name) throw new Error('A new subject needs a name');
  return {
    type: input.type ?? 'person',
    displayName: displayName(input.name),
    countries: uniqueCountries(input.countries ?? []),
    birthDate: input.birth_date ?? null,
    externalReference: input.external_reference ?? null,
    metadata: input.metadata ?? {},
  };
}

/**
 * A reused subject takes the details sent and keeps the others. Its external reference is fixed:
 * a subject found by external reference is found under a reference derived from it, so changing it
 * would leave the next case for the new external reference creating a second subject.
 */
function reusedDetails(state: SubjectState, input: SubjectRequest): SubjectDetails {
  if (input.external_reference !== undefined && input.external_reference !== state.externalReference) {
    throw ApiError.unprocessableEntity(
      "A subject's external reference cannot be changed: it is how the subject is found again.",
      {
        fieldErrors: {
          'subject.external_reference': [
            `Subject ${state.subjectReference} has external reference ${JSON.stringify(state.externalReference)}.`,
          ],
        },
        subject_reference: state.subjectReference,
        external_reference: state.externalReference,
      },
    );
  }
  return {
    type: input.type ?? state.type,
    displayName: input.name ? displayName(input.name) : state.displayName,
    countries: input.countries ? uniqueCountries(input.countries) : state.countries,
    birthDate: input.birth_date !== undefined ? input.birth_date : state.birthDate,
    externalReference: state.externalReference,
    metadata: input.metadata ?? state.metadata,
  };
}

function caseSubject(subject: SubjectState): CaseSubject {
  return {
    subjectReference: subject.subjectReference,
    type: subject.type,
    displayName: subject.displayName,
    countries: subject.countries,
    birthDate: subject.birthDate,
    externalReference: subject.externalReference,
    metadata: subject.metadata,
  };
}
