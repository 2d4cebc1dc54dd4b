import { createHash } from 'node:crypto';
import type { BirthDate } from '../cases/caseEvents.js';
import type { EntityKind } from '../screening/model/listedEntity.js';

/**
 * A subject is the party a caller screens, kept apart from its cases: one subject, any number of
 * cases (and later monitoring). Its stream is `subject-<subject_reference>`. A subject belongs to an
 * account and, within it, to the groups of the cases it was used in: a key sees it only through one
 * of those groups (docs/cases.md, "Subjects").
 */

export const SUBJECT_CATEGORY = 'subject';

export function subjectStreamName(subjectReference: string): string {
  return `${SUBJECT_CATEGORY}-${subjectReference}`;
}

export const SUBJECT_REFERENCE = /^sub_[0-9a-f]{24}$/;

export interface SubjectDetails {
  type: EntityKind;
  displayName: string;
  countries: string[];
  birthDate: BirthDate | null;
  externalReference: string | null;
  metadata: Record<string, unknown>;
}

export type SubjectCreated = {
  type: 'SubjectCreated';
  data: SubjectDetails & {
    subjectReference: string;
    accountId: string;
    /** The group of the case that created the subject; absent on subjects created before group facts. */
    groupId?: string;
    occurredAt: string;
  };
};

/** A case of a group the subject did not belong to used it: the subject now belongs to that group too. */
export type SubjectUsedInGroup = {
  type: 'SubjectUsedInGroup';
  data: { groupId: string; occurredAt: string };
};

/** The caller sent newer details with a reused subject; what changed is recorded whole. */
export type SubjectUpdated = {
  type: 'SubjectUpdated';
  data: SubjectDetails & { occurredAt: string };
};

export type SubjectEvent = SubjectCreated | SubjectUpdated | SubjectUsedInGroup;

function referenceFrom(parts: readonly unknown[]): string {
  return `sub_${createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 24)}`;
}

/**
 * A subject with an external reference has the reference derived from it (and the account), so a
 * second case for the same external party finds the same subject without a lookup table; one without
 * gets a reference derived from the request that created it, the same on a retry.
 *
 * `candidate` numbers the references tried in turn: a derived reference held by a subject the key
 * cannot see (another group's) is skipped for the next one, so a key never matches another group's
 * subject and gets its own (docs/cases.md, "Subjects"). Candidate 0 is the reference derived before
 * candidates existed, so stored subjects are found where they are.
 */
export function subjectReferenceFor(
  input: { accountId: string; externalReference: string | null },
  request: { apiKeyId: string; idempotencyKey: string },
  candidate = 0,
): string {
  const parts =
    input.externalReference !== null
      ? ['subject', 'external', input.accountId, input.externalReference]
      : ['subject', 'request', request.apiKeyId.toLowerCase(), request.idempotencyKey];
  return referenceFrom(candidate === 0 ? parts : [...parts, candidate]);
}

export interface SubjectState extends SubjectDetails {
  subjectReference: string;
  accountId: string;
  /**
   * The groups the subject belongs to, lower case, in the order it joined them. Empty for a subject
   * created before group facts were recorded: its groups are those of its cases (docs/cases.md).
   */
  groupIds: string[];
  createdAt: string;
  updatedAt: string;
  revision: number;
}

export function evolveSubject(state: SubjectState | null, event: SubjectEvent): SubjectState {
  if (event.type === 'SubjectCreated') {
    const { occurredAt, groupId, ...rest } = event.data;
    return {
      ...rest,
      groupIds: groupId ? [groupId.toLowerCase()] : [],
      createdAt: occurredAt,
      updatedAt: occurredAt,
      revision: 0,
    };
  }
  if (state === null) throw new Error(`${event.type} before SubjectCreated`);
  if (event.type === 'SubjectUsedInGroup') {
    const groupId = event.data.groupId.toLowerCase();
    const groupIds = state.groupIds.includes(groupId) ? state.groupIds : [...state.groupIds, groupId];
    // The details did not change: `updatedAt` stays theirs.
    return { ...state, groupIds, revision: state.revision + 1 };
  }
  const { occurredAt, ...details } = event.data;
  return { ...state, ...details, updatedAt: occurredAt, revision: state.revision + 1 };
}

export function foldSubject(events: Iterable<SubjectEvent>): SubjectState | null {
  let state: SubjectState | null = null;
  for (const event of events) state = evolveSubject(state, event);
  return state;
}

/** The details alone, without the fields a state or an event adds (and nothing a caller passed along). */
export function subjectDetailsOf(details: SubjectDetails): SubjectDetails {
  return {
    type: details.type,
    displayName: details.displayName,
    countries: details.countries,
    birthDate: details.birthDate,
    externalReference: details.externalReference,
    metadata: details.metadata,
  };
}
