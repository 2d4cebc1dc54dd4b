import { describe, expect, it } from 'vitest';
import {
  ACCOUNT as ACCOUNT_A,
  OTHER_ACCOUNT as ACCOUNT_B,
  subjectDetails as details,
  GROUP_A,
  GROUP_B,
  KEY_ID as KEY,
  OTHER_KEY_ID as OTHER_KEY,
  NOW as T0,
} from '../../test/support/caseBuilders.js';
import {
  evolveSubject,
  foldSubject,
  SUBJECT_REFERENCE,
  type SubjectEvent,
  subjectReferenceFor,
  subjectStreamName,
} from './subjectEvents.js';

const T1 = '2026-06-09T11:00:00.000Z';

const request = (idempotencyKey: string, apiKeyId = KEY) => ({ apiKeyId, idempotencyKey });

describe('subjectReferenceFor', () => {
  it('derives sub_<24 hex>', () => {
    expect(subjectReferenceFor({ accountId: ACCOUNT_A, externalReference: 'crm-42' }, request('a'))).toMatch(
      SUBJECT_REFERENCE,
    );
    expect(subjectReferenceFor({ accountId: ACCOUNT_A, externalReference: null }, request('a'))).toMatch(
      SUBJECT_REFERENCE,
    );
  });

  it('gives an external reference the same subject in the account, whatever the request', () => {
    const first = subjectReferenceFor(
      { accountId: ACCOUNT_A, externalReference: 'crm-42' },
      request('idem-1'),
    );
    const second = subjectReferenceFor(
      { accountId: ACCOUNT_A, externalReference: 'crm-42' },
      request('idem-2', OTHER_KEY),
    );
    expect(second).toBe(first);
    expect(
      subjectReferenceFor({ accountId: ACCOUNT_A, externalReference: 'crm-43' }, request('idem-1')),
    ).not.toBe(first);
  });

  it('gives the same external reference another subject in another account', () => {
    expect(
      subjectReferenceFor({ accountId: ACCOUNT_B, externalReference: 'crm-42' }, request('idem-1')),
    ).not.toBe(subjectReferenceFor({ accountId: ACCOUNT_A, externalReference: 'crm-42' }, request('idem-1')));
  });

  it('derives a subject without external reference from the request: the same on a retry', () => {
    const input = { accountId: ACCOUNT_A, externalReference: null };
    const first = subjectReferenceFor(input, request('idem-1'));
    expect(subjectReferenceFor(input, request('idem-1'))).toBe(first);
    expect(subjectReferenceFor(input, request('idem-1', KEY.toUpperCase()))).toBe(first);
    expect(subjectReferenceFor(input, request('idem-2'))).not.toBe(first);
    expect(subjectReferenceFor(input, request('idem-1', OTHER_KEY))).not.toBe(first);
  });

  it('numbers further candidates for a reference, candidate 0 being the reference derived before candidates', () => {
    const input = { accountId: ACCOUNT_A, externalReference: 'crm-42' };
    const first = subjectReferenceFor(input, request('idem-1'));
    expect(subjectReferenceFor(input, request('idem-1'), 0)).toBe(first);
    const second = subjectReferenceFor(input, request('idem-2', OTHER_KEY), 1);
    expect(second).toMatch(SUBJECT_REFERENCE);
    expect(second).not.toBe(first);
    expect(subjectReferenceFor(input, request('idem-1'), 1)).toBe(second);
    expect(subjectReferenceFor(input, request('idem-1'), 2)).not.toBe(second);
  });

  it('names the stream subject-<reference>', () => {
    expect(subjectStreamName('sub_0123456789abcdef01234567')).toBe('subject-sub_0123456789abcdef01234567');
  });
});

describe('evolveSubject and foldSubject', () => {
  it('folds a creation and an update into the latest details', () => {
    const events: SubjectEvent[] = [
      {
        type: 'SubjectCreated',
        data: {
          ...details(),
          subjectReference: 'sub_000000000000000000000001',
          accountId: ACCOUNT_A,
          groupId: GROUP_A,
          occurredAt: T0,
        },
      },
      {
        type: 'SubjectUpdated',
        data: { ...details({ displayName: 'V. Yanukovych', countries: [] }), occurredAt: T1 },
      },
    ];
    expect(foldSubject(events)).toEqual({
      ...details({ displayName: 'V. Yanukovych', countries: [] }),
      subjectReference: 'sub_000000000000000000000001',
      accountId: ACCOUNT_A,
      groupIds: [GROUP_A],
      createdAt: T0,
      updatedAt: T1,
      revision: 1,
    });
    expect(foldSubject(events)).toEqual(foldSubject([...events]));
  });

  it('gives a subject the group it was created in and each group it was used in since, once each', () => {
    const state = foldSubject([
      {
        type: 'SubjectCreated',
        data: {
          ...details(),
          subjectReference: 'sub_000000000000000000000001',
          accountId: ACCOUNT_A,
          groupId: GROUP_A,
          occurredAt: T0,
        },
      },
      { type: 'SubjectUsedInGroup', data: { groupId: GROUP_B.toUpperCase(), occurredAt: T1 } },
      { type: 'SubjectUsedInGroup', data: { groupId: GROUP_B, occurredAt: T1 } },
    ]);
    expect(state?.groupIds).toEqual([GROUP_A, GROUP_B]);
    expect(state?.revision).toBe(2);
    // Joining a group changes no detail.
    expect(state?.updatedAt).toBe(T0);
  });

  it('gives a subject created before group facts no groups', () => {
    const state = foldSubject([
      {
        type: 'SubjectCreated',
        data: {
          ...details(),
          subjectReference: 'sub_000000000000000000000001',
          accountId: ACCOUNT_A,
          occurredAt: T0,
        },
      },
    ]);
    expect(state?.groupIds).toEqual([]);
    expect(state).not.toHaveProperty('groupId');
  });

  it('is null without events, and refuses an update before the creation', () => {
    expect(foldSubject([])).toBeNull();
    expect(() =>
      evolveSubject(null, { type: 'SubjectUpdated', data: { ...details(), occurredAt: T1 } }),
    ).toThrow(/before SubjectCreated/);
  });
});
