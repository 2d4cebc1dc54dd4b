import { createHash } from 'node:crypto';
import type { BirthDate } from '../cases/caseEvents.js';
import type { EntityKind } from '../screening/model/listedEntity.js';

/**
 * A subject is the party a caller screens, kept apart from its cases: one subject, any number of
 * cases (and later monitoring). Its stream is `subject-<subject_reference>`; subjects belong to an
 * account and are visible to every key of it (docs/cases.md, "Subjects").
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
  data: SubjectDetails & { subjectReference: string; accountId: string; occurredAt: string };
};

/** The caller sent newer details with a reused subject; what changed is recorded whole. */
export type SubjectUpdated = {
  type: 'SubjectUpdated';
  data: SubjectDetails & { occurredAt: string };
};

export type SubjectEvent = SubjectCreated | SubjectUpdated;

function referenceFrom(parts: readonly unknown[]): string {
  return `sub_${createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 24)}`;
}

/**
 * A subject with an external reference has the reference derived from it (and the account), so a
 * second case for the same external party finds the same subject without a lookup table; one without
 * gets a reference derived from the request that created it, the same on a retry.
 */
export function subjectReferenceFor(
  input: { accountId: string; externalReference: string | null },
  request: { apiKeyId: string; idempotencyKey: string },
): string {
  return input.externalReference !== null
    ? referenceFrom(['subject', 'external', input.accountId, input.externalReference])
    : referenceFrom(['subject', 'request', request.apiKeyId.toLowerCase(), request.idempotencyKey]);
}

export interface SubjectState extends SubjectDetails {
  subjectReference: string;
  accountId: string;
  createdAt: string;
  updatedAt: string;
  revision: number;
}

export function evolveSubject(state: SubjectState | null, event: SubjectEvent): SubjectState {
  if (event.type === 'SubjectCreated') {
    const { occurredAt, ...rest } = event.data;
    return { ...rest, createdAt: occurredAt, updatedAt: occurredAt, revision: 0 };
  }
  if (state === null) throw new Error('SubjectUpdated before SubjectCreated');
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
