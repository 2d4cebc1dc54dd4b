import { describe, expect, it } from 'vitest';
import {
  ACCOUNT as ACCOUNT_A,
  OTHER_ACCOUNT as ACCOUNT_B,
  subjectDetails as details,
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

const created = (fields: Partial<SubjectDetails> = {}, accountId = ACCOUNT_A): SubjectEvent => ({
  type: 'SubjectCreated',
  data: { ...details(fields), subjectReference: REFERENCE, accountId, occurredAt: T0 },
});

describe('decideSubject', () => {
  it('creates a subject that does not exist, with the details sent', () => {
    given([])
      .when(use(sent(details())))
      .then([
        {
          type: 'SubjectCreated',
          data: { ...details(), subjectReference: REFERENCE, accountId: ACCOUNT_A, occurredAt: T1 },
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
