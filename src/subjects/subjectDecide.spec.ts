import { describe, expect, it } from 'vitest';
import {
  ACCOUNT as ACCOUNT_A,
  OTHER_ACCOUNT as ACCOUNT_B,
  subjectDetails as details,
  GROUP_A,
  GROUP_B,
  NOW as T0,
} from '../../test/support/caseBuilders.js';
import { deciderSpecification } from '../../test/support/deciderSpecification.js';
import { decideSubject, type SentDetails, type UseSubject } from './subjectDecide.js';
import { evolveSubject, type SubjectDetails, type SubjectEvent } from './subjectEvents.js';

const T1 = '2026-06-09T11:00:00.000Z';
const REFERENCE = 'sub_000000000000000000000001';

const given = deciderSpecification({
  decide: decideSubject,
  evolve: evolveSubject,
  initialState: () => null,
});

/** A case screens the subject, sending these details. */
function use(sent: SentDetails, fields: Partial<UseSubject> = {}): UseSubject {
  return {
    type: 'UseSubject',
    subjectReference: REFERENCE,
    accountId: ACCOUNT_A,
    named: false,
    groupId: GROUP_A,
    visibleGroupIds: [GROUP_A],
    sent,
    now: T1,
    ...fields,
  };
}

/** The details as a caller sends them. */
function sent(d: SubjectDetails): SentDetails {
  return {
    type: d.type,
    name: d.displayName,
    countries: d.countries,
    birthDate: d.birthDate,
    externalReference: d.externalReference,
    metadata: d.metadata,
  };
}

const created = (
  fields: Partial<SubjectDetails> = {},
  accountId = ACCOUNT_A,
  groupId: string | undefined = GROUP_A,
): SubjectEvent => ({
  type: 'SubjectCreated',
  data: { ...details(fields), subjectReference: REFERENCE, accountId, groupId, occurredAt: T0 },
});

/** A subject created before subjects recorded their groups. */
const createdWithoutGroup = (fields: Partial<SubjectDetails> = {}): SubjectEvent => ({
  type: 'SubjectCreated',
  data: { ...details(fields), subjectReference: REFERENCE, accountId: ACCOUNT_A, occurredAt: T0 },
});

const usedIn = (groupId: string, occurredAt = T1): SubjectEvent => ({
  type: 'SubjectUsedInGroup',
  data: { groupId, occurredAt },
});

describe('decideSubject', () => {
  it('creates a subject that does not exist, with the details sent', () => {
    given([])
      .when(use(sent(details())))
      .then([
        {
          type: 'SubjectCreated',
          data: {
            ...details(),
            subjectReference: REFERENCE,
            accountId: ACCOUNT_A,
            groupId: GROUP_A,
            occurredAt: T1,
          },
        },
      ]);
  });

  it('gives a new subject the defaults of what was not sent, its name with single spaces, each country once', () => {
    given([])
      .when(use({ name: '  Viktor   Yanukovych ', countries: ['UA', 'UA', 'RU'] }))
      .then([
        {
          type: 'SubjectCreated',
          data: {
            type: 'person',
            displayName: 'Viktor Yanukovych',
            countries: ['UA', 'RU'],
            birthDate: null,
            externalReference: null,
            metadata: {},
            subjectReference: REFERENCE,
            accountId: ACCOUNT_A,
            groupId: GROUP_A,
            occurredAt: T1,
          },
        },
      ]);
  });

  it('refuses to create a subject without a name', () => {
    given([])
      .when(use({ countries: ['UA'] }))
      .thenRejects('unprocessable', /needs a name/);
  });

  it('keeps only the subject details, not extra fields the caller passed', () => {
    given([])
      .when(use({ ...sent(details()), notes: 'not a subject field' } as SentDetails))
      .then(([event]) => expect(event?.data).not.toHaveProperty('notes'));
  });

  it('changes nothing when the details sent are the stored ones, or none are sent', () => {
    given([created()])
      .when(use(sent(details())))
      .thenNothingHappens();
    given([created()]).when(use({})).thenNothingHappens();
  });

  it('compares metadata whatever the order of its keys', () => {
    given([created({ metadata: { a: 1, b: 2 } })])
      .when(use({ metadata: { b: 2, a: 1 } }))
      .thenNothingHappens();
  });

  it.each([
    ['type', { type: 'company' }, { type: 'company' }],
    ['name', { name: 'Viktor F. Yanukovych' }, { displayName: 'Viktor F. Yanukovych' }],
    ['countries', { countries: ['UA', 'RU'] }, { countries: ['UA', 'RU'] }],
    ['birth date', { birthDate: { year: 1950 } }, { birthDate: { year: 1950 } }],
    ['metadata', { metadata: { segment: 'corporate' } }, { metadata: { segment: 'corporate' } }],
  ] as [
    string,
    SentDetails,
    Partial<SubjectDetails>,
  ][])('records the details whole when the %s differs, keeping what was not sent', (_field, change, changed) => {
    given([created()])
      .when(use(change))
      .then([{ type: 'SubjectUpdated', data: { ...details(changed), occurredAt: T1 } }]);
  });

  it('clears the birth date when null is sent', () => {
    given([created({ birthDate: { year: 1950 } })])
      .when(use({ birthDate: null }))
      .then([{ type: 'SubjectUpdated', data: { ...details({ birthDate: null }), occurredAt: T1 } }]);
  });

  it('after an update, the same details are a no-op again', () => {
    const update: SubjectEvent = {
      type: 'SubjectUpdated',
      data: { ...details({ countries: ['UA', 'RU'] }), occurredAt: T1 },
    };
    given([created(), update])
      .when(use({ countries: ['UA', 'RU'] }))
      .thenNothingHappens();
  });

  it("refuses to change a reused subject's external reference, naming the one it has", () => {
    given([created({ externalReference: 'crm-42' })])
      .when(use({ externalReference: 'crm-43' }))
      .thenRejects('unprocessable', /cannot be changed/, {
        fieldErrors: {
          'subject.external_reference': [`Subject ${REFERENCE} has external reference "crm-42".`],
        },
        subject_reference: REFERENCE,
        external_reference: 'crm-42',
      });
    given([created({ externalReference: 'crm-42' })])
      .when(use({ externalReference: null }))
      .thenRejects('unprocessable');
    given([created({ externalReference: 'crm-42' })])
      .when(use({ externalReference: 'crm-42' }))
      .thenNothingHappens();
  });

  it('finds a named subject only when it exists in the account', () => {
    given([])
      .when(use({}, { named: true }))
      .thenRejects('not_found', `Subject ${REFERENCE} was not found.`);
    given([created({}, ACCOUNT_B)])
      .when(use({}, { named: true }))
      .thenRejects('not_found');
    given([created()])
      .when(use({}, { named: true }))
      .thenNothingHappens();
  });
});

describe('decideSubject: a subject is used only through a group the caller can see', () => {
  const keyOfB = { groupId: GROUP_B, visibleGroupIds: [GROUP_B] };
  const keyOfBoth = { groupId: GROUP_B, visibleGroupIds: [GROUP_A, GROUP_B] };

  it('answers a named subject of another group exactly as a missing one, whatever is sent', () => {
    const missing = given([])
      .when(use({}, { named: true, ...keyOfB }))
      .thenRejects('not_found');
    for (const sentDetails of [{}, { metadata: { overwritten: true } }, { name: 'Someone Else' }]) {
      const hidden = given([created()])
        .when(use(sentDetails, { named: true, ...keyOfB }))
        .thenRejects('not_found');
      expect(hidden).toEqual(missing);
    }
  });

  it('never matches or changes a derived reference held by another group: the caller moves to its next candidate', () => {
    given([created()])
      .when(use({ metadata: { overwritten: true } }, keyOfB))
      .thenRejects('conflict', /cannot see/);
    given([created()])
      .when(use(sent(details()), keyOfB))
      .thenRejects('conflict');
  });

  it("lets a key that sees the subject's group reuse it in a case of its other group, which the subject joins", () => {
    given([created()])
      .when(use({}, { named: true, ...keyOfBoth }))
      .then([usedIn(GROUP_B)]);
    given([created()])
      .when(use({ metadata: { segment: 'corporate' } }, keyOfBoth))
      .then([
        usedIn(GROUP_B),
        {
          type: 'SubjectUpdated',
          data: { ...details({ metadata: { segment: 'corporate' } }), occurredAt: T1 },
        },
      ]);
  });

  it('lets every key of a group the subject joined use it, and records a group once', () => {
    given([created(), usedIn(GROUP_B)])
      .when(use({}, { named: true, ...keyOfB }))
      .thenNothingHappens();
    given([created(), usedIn(GROUP_B)])
      .when(use({}, { named: true }))
      .thenNothingHappens();
  });

  it('compares group ids whatever their case', () => {
    given([created()])
      .when(use({}, { named: true, visibleGroupIds: [GROUP_A.toUpperCase()] }))
      .thenNothingHappens();
  });

  it('creates a new subject in the group of the case', () => {
    given([])
      .when(use(sent(details()), keyOfB))
      .then(([event]) => expect(event?.data).toMatchObject({ groupId: GROUP_B }));
  });

  describe('a subject created before group facts belongs to the groups of its cases', () => {
    it("is used by a key of one of them, and records them with the case's group", () => {
      given([createdWithoutGroup()])
        .when(use({}, { named: true, ...keyOfBoth, groupsOfCases: [GROUP_A] }))
        .then([usedIn(GROUP_A), usedIn(GROUP_B)]);
      given([createdWithoutGroup()])
        .when(use({}, { named: true, groupsOfCases: [GROUP_A] }))
        .then([usedIn(GROUP_A)]);
    });

    it('is not found by a key of no such group, and not found at all without cases', () => {
      given([createdWithoutGroup()])
        .when(use({}, { named: true, ...keyOfB, groupsOfCases: [GROUP_A] }))
        .thenRejects('not_found', `Subject ${REFERENCE} was not found.`);
      given([createdWithoutGroup()])
        .when(use({ metadata: { overwritten: true } }, { ...keyOfB, groupsOfCases: [GROUP_A] }))
        .thenRejects('conflict');
      given([createdWithoutGroup()])
        .when(use({}, { named: true, groupsOfCases: [] }))
        .thenRejects('not_found');
    });

    it('once its groups are recorded, goes by them', () => {
      given([createdWithoutGroup(), usedIn(GROUP_A)])
        .when(use({}, { named: true, ...keyOfB, groupsOfCases: [GROUP_B] }))
        .thenRejects('not_found');
    });
  });
});
