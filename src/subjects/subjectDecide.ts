import type { BirthDate } from '../cases/caseEvents.js';
import { accept, type Decision, reject } from '../eventSourcing/decision.js';
import { canonicalJson } from '../idempotency/fingerprint.js';
import type { EntityKind } from '../screening/model/listedEntity.js';
import { notFoundText } from '../shared/notFound.js';
import {
  type SubjectDetails,
  type SubjectEvent,
  type SubjectState,
  subjectDetailsOf,
} from './subjectEvents.js';

/**
 * The subject's rules (docs/cases.md, "Subjects"). A case screens a subject: created from the
 * details sent, or reused and brought up to them. What the caller did not send keeps its stored
 * value (or, for a new subject, its default).
 *
 * Visibility: a caller reads, reuses or changes a subject only when the subject belongs to a group
 * the caller can see; otherwise it is not found, exactly like a missing one. A subject belongs to the
 * group of the case that created it and of every case that used it since.
 */
export interface UseSubject {
  type: 'UseSubject';
  subjectReference: string;
  accountId: string;
  /** The caller named the subject by its reference: it must exist already, in the caller's account. */
  named: boolean;
  /** The group of the case that uses the subject: a new subject belongs to it, a reused one joins it. */
  groupId: string;
  /** The groups the caller can see (a key's groups): the subject must belong to one of them. */
  visibleGroupIds: readonly string[];
  /**
   * Only for a subject with no group facts (created before they were recorded): the groups of the
   * cases that used it, which it is taken to belong to and which its first reuse records.
   */
  groupsOfCases?: readonly string[] | undefined;
  sent: SentDetails;
  now: string;
}

/** Details as a caller sends them: absent (undefined) keeps the stored value; null clears it. */
export interface SentDetails {
  type?: EntityKind | undefined;
  name?: string | null | undefined;
  countries?: string[] | undefined;
  birthDate?: BirthDate | null | undefined;
  externalReference?: string | null | undefined;
  metadata?: Record<string, unknown> | undefined;
}

export type SubjectCommand = UseSubject;

export function decideSubject(command: SubjectCommand, state: SubjectState | null): Decision<SubjectEvent> {
  const { subjectReference, accountId, now } = command;
  const visible =
    state !== null && state.accountId === accountId && isVisible(command, groupsOf(command, state));
  // One answer for a missing subject, another account's and another group's: references cannot be probed.
  if (command.named && !visible) return reject('not_found', notFoundText('subject', subjectReference));
  if (state !== null && state.accountId !== accountId) {
    // A derived reference includes the account: this cannot happen unless the derivation changed.
    throw new Error(`Subject ${subjectReference} belongs to another account`);
  }
  if (state !== null && !visible) {
    // A derived reference (an external reference's, or a request's) held by a subject of groups the
    // caller cannot see: never matched, never changed. The caller tries its next candidate reference.
    return reject('conflict', `Subject ${subjectReference} belongs to groups the caller cannot see.`);
  }
  const groupId = command.groupId.toLowerCase();
  if (state === null) {
    if (!command.sent.name) return reject('unprocessable', 'A new subject needs a name.');
    return accept({
      type: 'SubjectCreated',
      data: {
        ...newDetails(command.sent, command.sent.name),
        subjectReference,
        accountId,
        groupId,
        occurredAt: now,
      },
    });
  }
  const sentReference = command.sent.externalReference;
  if (sentReference !== undefined && sentReference !== state.externalReference) {
    // A subject found by external reference is found under a reference derived from it: changing it
    // would leave the next case for the new external reference creating a second subject.
    return reject(
      'unprocessable',
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
  // A subject without group facts gets them recorded on its first reuse: the groups of its cases, then this one.
  const joined = [...new Set([...groupsOf(command, state), groupId])].filter(
    (id) => !state.groupIds.includes(id),
  );
  const events: SubjectEvent[] = joined.map((id) => ({
    type: 'SubjectUsedInGroup',
    data: { groupId: id, occurredAt: now },
  }));
  const details = reusedDetails(state, command.sent);
  if (!sameDetails(state, details)) {
    events.push({ type: 'SubjectUpdated', data: { ...subjectDetailsOf(details), occurredAt: now } });
  }
  return accept(...events);
}

/** The groups a subject belongs to: recorded on its stream, else (before group facts) its cases'. */
function groupsOf(command: UseSubject, state: SubjectState): string[] {
  const groups = state.groupIds.length > 0 ? state.groupIds : (command.groupsOfCases ?? []);
  return groups.map((id) => id.toLowerCase());
}

function isVisible(command: UseSubject, groups: readonly string[]): boolean {
  const visible = new Set(command.visibleGroupIds.map((id) => id.toLowerCase()));
  return groups.some((id) => visible.has(id));
}

function displayName(name: string): string {
  return name.replace(/\s+/g, ' ').trim();
}

function uniqueCountries(countries: readonly string[]): string[] {
  return [...new Set(countries)];
}

function newDetails(sent: SentDetails, name: string): SubjectDetails {
  return {
    type: sent.type ?? 'person',
    displayName: displayName(name),
    countries: uniqueCountries(sent.countries ?? []),
    birthDate: sent.birthDate ?? null,
    externalReference: sent.externalReference ?? null,
    metadata: sent.metadata ?? {},
  };
}

function reusedDetails(state: SubjectState, sent: SentDetails): SubjectDetails {
  return {
    type: sent.type ?? state.type,
    displayName: sent.name ? displayName(sent.name) : state.displayName,
    countries: sent.countries ? uniqueCountries(sent.countries) : state.countries,
    birthDate: sent.birthDate !== undefined ? sent.birthDate : state.birthDate,
    externalReference: state.externalReference,
    metadata: sent.metadata ?? state.metadata,
  };
}

/** Compared as canonical JSON: metadata sent with its keys in another order is the same metadata. */
function sameDetails(a: SubjectDetails, b: SubjectDetails): boolean {
  return canonicalJson(subjectDetailsOf(a)) === canonicalJson(subjectDetailsOf(b));
}
