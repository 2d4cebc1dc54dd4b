import { describe, expect, it } from 'vitest';
import {
  ACCOUNT,
  ALICE,
  at,
  BOB,
  CASE_REF,
  CLIENT,
  caseCreated,
  found,
  GROUP_A,
  GROUP_B,
  OWNER,
  PEP,
  REVIEWER,
  SANCTIONS,
} from '../../test/support/caseBuilders.js';
import type {
  CaseEvent,
  CheckCompleted,
  FinalDecision,
  FoundMatch,
  MaterialAdded,
  ReviewStatus,
} from './caseEvents.js';
import { type CaseState, evolve, findCheck, findMatch, foldCase, type MaybeCase } from './caseState.js';
import { checkId, matchId } from './references.js';

/** The case caseCreated makes here: with an external reference, notes and metadata. */
const created = () =>
  caseCreated({ externalReference: 'onboarding-7', notes: 'New customer', metadata: { channel: 'web' } });

const started = (check: string, attempt: number, m: number): CaseEvent => ({
  type: 'CheckStarted',
  data: { checkReference: check, attempt, worker: `worker-${attempt}`, occurredAt: at(m) },
});

function completed(check: string, matches: FoundMatch[], m: number, attempt = 1): CheckCompleted {
  return {
    type: 'CheckCompleted',
    data: {
      checkReference: check,
      attempt,
      screeningProfileId: 'strict',
      threshold: 0.75,
      snapshots: [{ id: 'snap-1', dataset: 'us_ofac_sdn', version: 3 }],
      matches,
      occurredAt: at(m),
    },
  };
}

const failed = (check: string, reason: string, m: number, attempt = 3): CaseEvent => ({
  type: 'CheckFailed',
  data: { checkReference: check, attempt, failureReason: reason, occurredAt: at(m) },
});

const reviewed = (
  check: string,
  match: string,
  status: ReviewStatus,
  m: number,
  note: string | null = null,
  previousStatus: ReviewStatus = 'pending_review',
): CaseEvent => ({
  type: 'MatchReviewed',
  data: {
    checkReference: check,
    matchId: match,
    reviewStatus: status,
    previousStatus,
    note,
    withdrawsCheckDecision: null,
    actor: REVIEWER,
    occurredAt: at(m),
  },
});

const checkDecided = (check: string, decision: FinalDecision, m: number, notes: string | null = null) =>
  ({
    type: 'CheckDecisionRecorded',
    data: {
      checkReference: check,
      decision,
      previousDecision: 'pending_review',
      notes,
      actor: REVIEWER,
      occurredAt: at(m),
    },
  }) satisfies CaseEvent;

const caseDecided = (decision: FinalDecision, m: number, notes: string | null = null) =>
  ({
    type: 'CaseDecisionRecorded',
    data: { decision, previousDecision: 'pending_decision', notes, actor: CLIENT, occurredAt: at(m) },
  }) satisfies CaseEvent;

function material(id: string, m: number, fields: Partial<MaterialAdded['data']> = {}): MaterialAdded {
  return {
    type: 'MaterialAdded',
    data: {
      materialId: id,
      type: 'note',
      title: 'Call notes',
      note: 'Spoke to the customer',
      url: null,
      attachments: [],
      actor: REVIEWER,
      occurredAt: at(m),
      ...fields,
    },
  };
}

function fold(...events: CaseEvent[]): CaseState {
  const state = foldCase(events);
  if (state === null) throw new Error('no case');
  return state;
}

const MATCH_1 = found(SANCTIONS, 'ofac:1');
const MATCH_2 = found(SANCTIONS, 'un:7', { rank: 2, score: 0.8 });

describe('evolve: creation', () => {
  it('creates the case pending_decision at revision 0, with one queued check per requested type', () => {
    const event = created();
    const state = fold(event);
    expect(state).toMatchObject({
      caseReference: CASE_REF,
      accountId: ACCOUNT,
      groupId: GROUP_A,
      subject: event.data.subject,
      ownerUserId: OWNER,
      collaboratorUserIds: [ALICE],
      externalReference: 'onboarding-7',
      notes: 'New customer',
      metadata: { channel: 'web' },
      screeningProfileId: 'default',
      decision: 'pending_decision',
      decisionNotes: null,
      resolvedBy: null,
      resolvedAt: null,
      decisionDraft: null,
      decisionReason: null,
      reviewStarted: false,
      materials: [],
      createdBy: CLIENT,
      createdAt: at(0),
      updatedAt: at(0),
      revision: 0,
    });
    expect(state.checks.map((c) => [c.checkReference, c.checkId, c.type])).toEqual([
      [SANCTIONS, checkId(SANCTIONS), 'sanctions'],
      [PEP, checkId(PEP), 'pep'],
    ]);
    for (const check of state.checks) {
      expect(check).toMatchObject({
        lifecycleStatus: 'queued',
        decision: 'pending_review',
        decisionNotes: null,
        decidedAt: null,
        decidedBy: null,
        attempts: 0,
        startedAt: null,
        checkedAt: null,
        failureReason: null,
        screeningProfileId: 'default',
        threshold: null,
        snapshots: [],
        matches: [],
        createdAt: at(0),
        updatedAt: at(0),
      });
    }
  });

  it('refuses any other event before the case exists', () => {
    expect(() => evolve(null, started(SANCTIONS, 1, 1))).toThrow(/CheckStarted before CaseCreated/);
  });
});

describe('evolve: revision and time', () => {
  it('counts one revision per event and takes updatedAt from the latest event', () => {
    const state = fold(created(), started(SANCTIONS, 1, 1), started(PEP, 1, 2), completed(PEP, [], 5));
    expect(state.revision).toBe(3);
    expect(state.updatedAt).toBe(at(5));
    expect(state.createdAt).toBe(at(0));
  });

  it('does not change the state it is given', () => {
    const before = fold(created(), started(SANCTIONS, 1, 1));
    const snapshot = structuredClone(before);
    evolve(before, completed(SANCTIONS, [MATCH_1], 2));
    expect(before).toEqual(snapshot);
  });
});

describe('evolve: check lifecycle', () => {
  it('marks a started check running with its attempt, keeping the first start time on a retry', () => {
    const once = fold(created(), started(SANCTIONS, 1, 1));
    expect(findCheck(once, SANCTIONS)).toMatchObject({
      lifecycleStatus: 'running',
      attempts: 1,
      startedAt: at(1),
      updatedAt: at(1),
    });
    const retried = evolve(once, started(SANCTIONS, 2, 4))!;
    expect(findCheck(retried, SANCTIONS)).toMatchObject({ attempts: 2, startedAt: at(1), updatedAt: at(4) });
    expect(findCheck(retried, PEP)?.lifecycleStatus).toBe('queued');
  });

  it('completes a check without matches as no_matches_found', () => {
    const state = fold(created(), started(SANCTIONS, 1, 1), completed(SANCTIONS, [], 3, 2));
    expect(findCheck(state, SANCTIONS)).toMatchObject({
      lifecycleStatus: 'completed',
      decision: 'no_matches_found',
      attempts: 2,
      checkedAt: at(3),
      startedAt: at(1),
      failureReason: null,
      screeningProfileId: 'strict',
      threshold: 0.75,
      snapshots: [{ id: 'snap-1', dataset: 'us_ofac_sdn', version: 3 }],
      matches: [],
    });
  });

  it('completes a check with matches as pending_review, each match pending and unreviewed', () => {
    const state = fold(created(), started(SANCTIONS, 1, 1), completed(SANCTIONS, [MATCH_1, MATCH_2], 3));
    const check = findCheck(state, SANCTIONS)!;
    expect(check.decision).toBe('pending_review');
    expect(check.matches).toEqual([
      { ...MATCH_1, reviewStatus: 'pending_review', review: null, createdAt: at(3) },
      { ...MATCH_2, reviewStatus: 'pending_review', review: null, createdAt: at(3) },
    ]);
  });

  it('fails a check with its reason, leaving it undecided (never "no matches")', () => {
    const state = fold(created(), started(SANCTIONS, 1, 1), failed(SANCTIONS, 'snapshot stale', 9));
    expect(findCheck(state, SANCTIONS)).toMatchObject({
      lifecycleStatus: 'failed',
      decision: 'pending_review',
      failureReason: 'snapshot stale',
      attempts: 3,
      checkedAt: at(9),
      matches: [],
    });
  });
});

describe('evolve: reviews and decisions', () => {
  const screened = [created(), completed(SANCTIONS, [MATCH_1, MATCH_2], 2), completed(PEP, [], 2)];

  it('records a review on its match only, with the reviewer, note and time', () => {
    const state = fold(...screened, reviewed(SANCTIONS, MATCH_1.matchId, 'confirmed_match', 4, 'same DOB'));
    const check = findCheck(state, SANCTIONS)!;
    expect(check.matches[0]).toMatchObject({
      reviewStatus: 'confirmed_match',
      review: { status: 'confirmed_match', note: 'same DOB', actor: REVIEWER, reviewedAt: at(4) },
    });
    expect(check.matches[1]).toMatchObject({ reviewStatus: 'pending_review', review: null });
    expect(check.updatedAt).toBe(at(4));
    // A review is not a decision.
    expect(check.decision).toBe('pending_review');
  });

  it('keeps only the latest review of a match', () => {
    const state = fold(
      ...screened,
      reviewed(SANCTIONS, MATCH_1.matchId, 'confirmed_match', 4, 'first'),
      reviewed(SANCTIONS, MATCH_1.matchId, 'not_relevant', 6, 'second', 'confirmed_match'),
    );
    expect(findMatch(state, MATCH_1.matchId)?.match).toMatchObject({
      reviewStatus: 'not_relevant',
      review: { status: 'not_relevant', note: 'second', reviewedAt: at(6) },
    });
  });

  it('records a check decision with notes, time and actor, and a withdrawal takes it back', () => {
    const decided = fold(
      ...screened,
      reviewed(SANCTIONS, MATCH_1.matchId, 'not_relevant', 4),
      reviewed(SANCTIONS, MATCH_2.matchId, 'not_relevant', 4),
      checkDecided(SANCTIONS, 'pass', 5, 'both dismissed'),
    );
    expect(findCheck(decided, SANCTIONS)).toMatchObject({
      decision: 'pass',
      decisionNotes: 'both dismissed',
      decidedAt: at(5),
      decidedBy: REVIEWER,
      updatedAt: at(5),
    });
    const withdrawn = evolve(decided, {
      type: 'CheckDecisionWithdrawn',
      data: {
        checkReference: SANCTIONS,
        withdrawnDecision: 'pass',
        cause: 'review changed',
        occurredAt: at(7),
      },
    })!;
    expect(findCheck(withdrawn, SANCTIONS)).toMatchObject({
      decision: 'pending_review',
      decisionNotes: null,
      decidedAt: null,
      decidedBy: null,
      updatedAt: at(7),
    });
  });

  it('marks the review started', () => {
    const state = fold(...screened, {
      type: 'CaseReviewStarted',
      data: { actor: REVIEWER, occurredAt: at(3) },
    });
    expect(state.reviewStarted).toBe(true);
  });

  it('records the case decision, clearing the draft, and a reopening takes it back', () => {
    const draft = fold(...screened, {
      type: 'CaseDecisionDraftSaved',
      data: { decision: 'fail', notes: 'probably', actor: REVIEWER, occurredAt: at(8) },
    });
    expect(draft.decisionDraft).toEqual({
      decision: 'fail',
      notes: 'probably',
      actor: REVIEWER,
      savedAt: at(8),
    });
    expect(draft.decision).toBe('pending_decision');

    const decided = evolve(draft, caseDecided('fail', 9, 'confirmed sanctioned'))!;
    expect(decided).toMatchObject({
      decision: 'fail',
      decisionNotes: 'confirmed sanctioned',
      resolvedBy: CLIENT,
      resolvedAt: at(9),
      decisionDraft: null,
    });

    const reopened = evolve(decided, {
      type: 'CaseReopened',
      data: {
        previousDecision: 'fail',
        cause: 'check decision changed',
        actor: REVIEWER,
        occurredAt: at(10),
      },
    })!;
    expect(reopened).toMatchObject({
      decision: 'pending_decision',
      decisionNotes: null,
      resolvedBy: null,
      resolvedAt: null,
      updatedAt: at(10),
    });
  });

  it('saves the decision reason apart from the decision', () => {
    const state = fold(created(), {
      type: 'CaseDecisionReasonSaved',
      data: { reason: 'Adverse media only', actor: REVIEWER, occurredAt: at(2) },
    });
    expect(state.decisionReason).toBe('Adverse media only');
    expect(state.decision).toBe('pending_decision');
  });
});

describe('evolve: materials and workspace fields', () => {
  it('appends materials in order', () => {
    const attachment = {
      attachmentId: 'attachment_000000000000000000000001',
      filename: 'passport.pdf',
      contentType: 'application/pdf',
      byteSize: 1024,
      sha256: 'ab'.repeat(32),
    };
    const state = fold(
      created(),
      material('material_a', 1),
      material('material_b', 2, { type: 'file', note: null, attachments: [attachment] }),
    );
    expect(state.materials).toEqual([
      {
        materialId: 'material_a',
        type: 'note',
        title: 'Call notes',
        note: 'Spoke to the customer',
        url: null,
        attachments: [],
        actor: REVIEWER,
        createdAt: at(1),
      },
      expect.objectContaining({ materialId: 'material_b', type: 'file', attachments: [attachment] }),
    ]);
  });

  it('changes the group, the owner and the external reference', () => {
    const state = fold(
      created(),
      {
        type: 'CaseGroupChanged',
        data: { groupId: GROUP_B, previousGroupId: GROUP_A, actor: REVIEWER, occurredAt: at(1) },
      },
      {
        type: 'CaseOwnerChanged',
        data: { ownerUserId: null, previousOwnerUserId: OWNER, actor: REVIEWER, occurredAt: at(2) },
      },
      {
        type: 'CaseExternalReferenceUpdated',
        data: {
          externalReference: 'onboarding-8',
          previousExternalReference: 'onboarding-7',
          actor: REVIEWER,
          occurredAt: at(3),
        },
      },
    );
    expect(state).toMatchObject({ groupId: GROUP_B, ownerUserId: null, externalReference: 'onboarding-8' });
  });

  it('adds collaborators once each and removes them', () => {
    const added = fold(created(), {
      type: 'CaseCollaboratorsAdded',
      data: { userIds: [ALICE, BOB], actor: REVIEWER, occurredAt: at(1) },
    });
    expect(added.collaboratorUserIds).toEqual([ALICE, BOB]);
    const removed = evolve(added, {
      type: 'CaseCollaboratorsRemoved',
      data: { userIds: [ALICE], actor: REVIEWER, occurredAt: at(2) },
    })!;
    expect(removed.collaboratorUserIds).toEqual([BOB]);
  });
});

describe('foldCase', () => {
  const history: CaseEvent[] = [
    created(),
    started(SANCTIONS, 1, 1),
    completed(SANCTIONS, [MATCH_1], 2),
    failed(PEP, 'source unavailable', 3),
    reviewed(SANCTIONS, MATCH_1.matchId, 'not_relevant', 4),
    checkDecided(SANCTIONS, 'pass', 5),
    material('material_a', 6),
  ];

  it('gives the same state for the same events', () => {
    expect(foldCase(history)).toEqual(foldCase([...history]));
  });

  it('catches up from a state read earlier to the state of the whole stream', () => {
    const early: MaybeCase = foldCase(history.slice(0, 3));
    expect(foldCase(history.slice(3), early)).toEqual(foldCase(history));
    expect(foldCase(history)?.revision).toBe(history.length - 1);
  });

  it('is null without events', () => {
    expect(foldCase([])).toBeNull();
  });
});

describe('findCheck and findMatch', () => {
  const state = fold(created(), completed(SANCTIONS, [MATCH_1], 1), completed(PEP, [], 1));

  it('finds a check by reference, or nothing', () => {
    expect(findCheck(state, PEP)?.type).toBe('pep');
    expect(findCheck(state, `${CASE_REF}-9`)).toBeUndefined();
  });

  it('finds a match with its check, or nothing', () => {
    const hit = findMatch(state, MATCH_1.matchId);
    expect(hit?.check.checkReference).toBe(SANCTIONS);
    expect(hit?.match.matchedEntityId).toBe('ofac:1');
    expect(findMatch(state, matchId(PEP, 'ofac:1'))).toBeUndefined();
  });
});
