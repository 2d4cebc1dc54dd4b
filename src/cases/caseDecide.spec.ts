import { describe, expect, it } from 'vitest';
import {
  ALICE,
  addMaterial,
  BOB,
  CASE_REF,
  CLIENT,
  complete,
  createCase,
  decideCase,
  decideCheck,
  failCheck,
  found,
  GROUP_A,
  GROUP_B,
  NOW,
  OWNER,
  PEP,
  REVIEWER,
  review,
  run,
  SANCTIONS,
  start,
} from '../../test/support/caseBuilders.js';
import {
  type CaseCommand,
  type CaseDecision,
  caseDecisionBlockers,
  caseNotesRequirement,
  checkDecisionBlockers,
  checkNotesRequirement,
  decide,
  MAX_COLLABORATORS,
  materialTypeOf,
  queuedChecks,
} from './caseDecide.js';
import type { CaseEvent, FoundMatch } from './caseEvents.js';
import { findCheck } from './caseState.js';
import { checkId, checkReference, matchId } from './references.js';

/** The n-th other user id: a valid UUID. */
const user = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const CAROL = user(4);

const M1 = found(SANCTIONS, 'ofac:1');
const M2 = found(SANCTIONS, 'un:7', { rank: 2 });
const M3 = found(SANCTIONS, 'eu:3', { rank: 3 });

function events(decision: CaseDecision): CaseEvent[] {
  if (!decision.ok) throw new Error(`refused: ${decision.rejection.message}`);
  return decision.events;
}

const types = (decision: CaseDecision) => events(decision).map((event) => event.type);

/** A case with a sanctions check only. */
const created = () => run(null, createCase({}, ['sanctions']));
/** A case whose sanctions check completed with the given matches. */
const screened = (...matches: FoundMatch[]) => run(created(), start(SANCTIONS), complete(SANCTIONS, matches));
/** A case whose single check found nothing and was decided by the system (no_matches_found). */
const clean = () => screened();

describe('decide: CreateCase', () => {
  it('creates the case with what the command carries, at the command time', () => {
    const command = createCase();
    const [event, ...rest] = events(decide(command, null));
    expect(rest).toEqual([]);
    const { type: _type, now: _now, groupMemberIds: _members, ...data } = command;
    expect(event).toEqual({ type: 'CaseCreated', data: { ...data, occurredAt: NOW } });
  });

  it('refuses to create a case that exists: conflict', () => {
    const decision = decide(createCase(), created());
    expect(decision).toMatchObject({ ok: false, rejection: { code: 'conflict' } });
  });

  it('refuses an owner outside the case group: unprocessable, naming the group and the user', () => {
    const decision = decide(createCase({ groupMemberIds: [ALICE] }), null);
    expect(decision).toEqual({
      ok: false,
      rejection: {
        code: 'unprocessable',
        message: expect.any(String),
        details: { group_id: GROUP_A, non_member_user_ids: [OWNER] },
      },
    });
  });

  it('refuses collaborators and monitoring owner or collaborators outside the group, each named once', () => {
    const decision = decide(
      createCase({
        ownerUserId: null,
        collaboratorUserIds: [ALICE, CAROL],
        monitoring: { enable: true, ownerUserId: user(8), collaboratorUserIds: [CAROL, user(9)] },
      }),
      null,
    );
    expect(decision).toMatchObject({
      ok: false,
      rejection: { code: 'unprocessable', details: { non_member_user_ids: [CAROL, user(8), user(9)] } },
    });
  });

  it('accepts members whatever the case of their ids', () => {
    const decision = decide(createCase({ groupMemberIds: [OWNER.toUpperCase(), ALICE.toUpperCase()] }), null);
    expect(types(decision)).toEqual(['CaseCreated']);
  });

  it('queues one check per type, numbered from 1 in the order requested, with ids from the references', () => {
    const checks = queuedChecks(CASE_REF, ['pep', 'business_entity_risk', 'sanctions'], {
      reference: checkReference,
      id: checkId,
    });
    expect(checks).toEqual([
      { checkReference: 'ABC123456-1', checkId: checkId('ABC123456-1'), type: 'pep' },
      { checkReference: 'ABC123456-2', checkId: checkId('ABC123456-2'), type: 'business_entity_risk' },
      { checkReference: 'ABC123456-3', checkId: checkId('ABC123456-3'), type: 'sanctions' },
    ]);
  });
});

describe('decide: commands on a case that does not exist', () => {
  const commands: CaseCommand[] = [
    start(SANCTIONS),
    complete(SANCTIONS),
    failCheck(SANCTIONS),
    review(M1.matchId, 'confirmed_match'),
    decideCheck(SANCTIONS, 'pass'),
    decideCase('pass'),
    {
      type: 'AddMaterial',
      materialId: 'material_a',
      title: 't',
      note: 'n',
      url: null,
      attachments: [],
      actor: REVIEWER,
      now: NOW,
    },
    { type: 'ChangeGroup', groupId: GROUP_B, groupMemberIds: [], actor: REVIEWER, now: NOW },
    { type: 'ChangeOwner', ownerUserId: null, groupMemberIds: [], actor: REVIEWER, now: NOW },
    { type: 'AddCollaborators', userIds: [BOB], groupMemberIds: [BOB], actor: REVIEWER, now: NOW },
    { type: 'RemoveCollaborators', userIds: [BOB], actor: REVIEWER, now: NOW },
    { type: 'UpdateExternalReference', externalReference: 'x', actor: REVIEWER, now: NOW },
    { type: 'SaveDecisionDraft', decision: 'pass', notes: null, actor: REVIEWER, now: NOW },
    { type: 'SaveDecisionReason', reason: 'r', actor: REVIEWER, now: NOW },
  ];

  it.each(commands.map((command) => [command.type, command] as const))('%s: not_found', (_type, command) => {
    expect(decide(command, null)).toMatchObject({ ok: false, rejection: { code: 'not_found' } });
  });
});

describe('decide: the check runner', () => {
  it('starts a queued check, and again (a retry) while it runs', () => {
    expect(events(decide(start(SANCTIONS), created()))).toEqual([
      {
        type: 'CheckStarted',
        data: { checkReference: SANCTIONS, attempt: 1, worker: 'worker-1', occurredAt: NOW },
      },
    ]);
    expect(types(decide(start(SANCTIONS, 2), run(created(), start(SANCTIONS))))).toEqual(['CheckStarted']);
  });

  it('completes a running check with its matches', () => {
    const [event] = events(decide(complete(SANCTIONS, [M1]), run(created(), start(SANCTIONS))));
    expect(event).toMatchObject({
      type: 'CheckCompleted',
      data: { checkReference: SANCTIONS, matches: [M1], threshold: 0.7, occurredAt: NOW },
    });
  });

  it('fails a running check with its reason', () => {
    const [event] = events(decide(failCheck(SANCTIONS, 'no snapshot'), run(created(), start(SANCTIONS))));
    expect(event).toEqual({
      type: 'CheckFailed',
      data: { checkReference: SANCTIONS, attempt: 3, failureReason: 'no snapshot', occurredAt: NOW },
    });
  });

  it('refuses an unknown check: not_found', () => {
    expect(decide(start(`${CASE_REF}-7`), created())).toMatchObject({
      ok: false,
      rejection: { code: 'not_found' },
    });
  });

  const finished = {
    completed: () => screened(M1),
    failed: () => run(created(), start(SANCTIONS), failCheck(SANCTIONS)),
  };
  for (const [status, state] of Object.entries(finished)) {
    it.each([
      ['StartCheck', start(SANCTIONS, 2)],
      ['CompleteCheck', complete(SANCTIONS)],
      ['FailCheck', failCheck(SANCTIONS)],
    ])(`refuses %s on a ${status} check: conflict`, (_name, command) => {
      expect(decide(command, state())).toMatchObject({ ok: false, rejection: { code: 'conflict' } });
    });
  }
});

describe('decide: ReviewMatch', () => {
  it('refuses an unknown match: not_found', () => {
    expect(decide(review(matchId(SANCTIONS, 'nobody'), 'not_relevant'), screened(M1))).toMatchObject({
      ok: false,
      rejection: { code: 'not_found' },
    });
  });

  it('starts the review of the case with the first review action, once', () => {
    const first = decide(review(M1.matchId, 'confirmed_match', 'same DOB'), screened(M1, M2));
    expect(events(first)).toEqual([
      { type: 'CaseReviewStarted', data: { actor: REVIEWER, occurredAt: NOW } },
      {
        type: 'MatchReviewed',
        data: {
          checkReference: SANCTIONS,
          matchId: M1.matchId,
          reviewStatus: 'confirmed_match',
          previousStatus: 'pending_review',
          note: 'same DOB',
          withdrawsCheckDecision: null,
          actor: REVIEWER,
          occurredAt: NOW,
        },
      },
    ]);
    const after = run(screened(M1, M2), review(M1.matchId, 'confirmed_match'));
    expect(types(decide(review(M2.matchId, 'not_relevant'), after))).toEqual(['MatchReviewed']);
  });

  it('accepts any status after any other, pending_review included', () => {
    const confirmed = run(screened(M1), review(M1.matchId, 'confirmed_match'));
    const [event] = events(decide(review(M1.matchId, 'pending_review'), confirmed));
    expect(event).toMatchObject({
      type: 'MatchReviewed',
      data: { reviewStatus: 'pending_review', previousStatus: 'confirmed_match' },
    });
  });

  it('withdraws the check decision when the review changes, leaving an undecided case open', () => {
    const decided = run(screened(M1), review(M1.matchId, 'not_relevant'), decideCheck(SANCTIONS, 'pass'));
    const result = events(decide(review(M1.matchId, 'confirmed_match'), decided));
    expect(result.map((e) => e.type)).toEqual(['MatchReviewed', 'CheckDecisionWithdrawn']);
    expect(result[0]).toMatchObject({ data: { withdrawsCheckDecision: 'pass' } });
    expect(result[1]).toEqual({
      type: 'CheckDecisionWithdrawn',
      data: {
        checkReference: SANCTIONS,
        withdrawnDecision: 'pass',
        cause: expect.stringContaining(M1.matchId),
        occurredAt: NOW,
      },
    });
    expect(findCheck(run(decided, review(M1.matchId, 'confirmed_match')), SANCTIONS)?.decision).toBe(
      'pending_review',
    );
  });

  it('withdraws the check decision and reopens a decided case when the review changes', () => {
    const decided = run(
      screened(M1),
      review(M1.matchId, 'not_relevant'),
      decideCheck(SANCTIONS, 'pass'),
      decideCase('pass'),
    );
    const result = events(decide(review(M1.matchId, 'confirmed_match', 'new evidence'), decided));
    expect(result.map((e) => e.type)).toEqual(['MatchReviewed', 'CheckDecisionWithdrawn', 'CaseReopened']);
    expect(result[2]).toEqual({
      type: 'CaseReopened',
      data: { previousDecision: 'pass', cause: expect.any(String), actor: REVIEWER, occurredAt: NOW },
    });
    const after = run(decided, review(M1.matchId, 'confirmed_match', 'new evidence'));
    expect(after.decision).toBe('pending_decision');
  });

  it('withdraws nothing for a note-only review (same status)', () => {
    const decided = run(
      screened(M1),
      review(M1.matchId, 'not_relevant'),
      decideCheck(SANCTIONS, 'pass'),
      decideCase('pass'),
    );
    const result = events(decide(review(M1.matchId, 'not_relevant', 'checked again'), decided));
    expect(result).toEqual([
      expect.objectContaining({
        type: 'MatchReviewed',
        data: expect.objectContaining({
          previousStatus: 'not_relevant',
          note: 'checked again',
          withdrawsCheckDecision: null,
        }),
      }),
    ]);
  });

  it('withdraws nothing when the check has no recorded decision', () => {
    const reviewedOnce = run(screened(M1, M2), review(M1.matchId, 'confirmed_match'));
    expect(types(decide(review(M1.matchId, 'not_relevant'), reviewedOnce))).toEqual(['MatchReviewed']);
  });
});

describe('decide: DecideCheck', () => {
  it('refuses an unknown check: not_found', () => {
    expect(decide(decideCheck(`${CASE_REF}-5`, 'pass'), clean())).toMatchObject({
      ok: false,
      rejection: { code: 'not_found' },
    });
  });

  it.each([
    ['queued', () => created()],
    ['running', () => run(created(), start(SANCTIONS))],
  ])('refuses a %s check: conflict (retry once completed)', (status, state) => {
    expect(decide(decideCheck(SANCTIONS, 'pass'), state())).toEqual({
      ok: false,
      rejection: { code: 'conflict', message: expect.any(String), details: { lifecycle_status: status } },
    });
  });

  it('refuses a failed check: conflict, with the failure reason', () => {
    const state = run(created(), start(SANCTIONS), failCheck(SANCTIONS, 'no snapshot'));
    expect(decide(decideCheck(SANCTIONS, 'fail', 'n'), state)).toEqual({
      ok: false,
      rejection: {
        code: 'conflict',
        message: expect.any(String),
        details: { lifecycle_status: 'failed', failure_reason: 'no snapshot' },
      },
    });
  });

  it('refuses while matches are pending review: unprocessable, with the pending match ids', () => {
    const state = run(screened(M1, M2, M3), review(M2.matchId, 'not_relevant'));
    expect(decide(decideCheck(SANCTIONS, 'fail', 'notes'), state)).toEqual({
      ok: false,
      rejection: {
        code: 'unprocessable',
        message: expect.any(String),
        details: { pending_review_match_ids: [M1.matchId, M3.matchId] },
      },
    });
  });

  it('refuses a match set back to pending_review the same way', () => {
    const state = run(screened(M1), review(M1.matchId, 'not_relevant'), review(M1.matchId, 'pending_review'));
    expect(decide(decideCheck(SANCTIONS, 'pass'), state)).toMatchObject({
      ok: false,
      rejection: { code: 'unprocessable', details: { pending_review_match_ids: [M1.matchId] } },
    });
  });

  const notesRequired = {
    ok: false,
    rejection: { code: 'unprocessable', details: { fieldErrors: { decision_notes: [expect.any(String)] } } },
  };

  it.each(['conditional_pass', 'fail'] as const)('requires notes for %s, even with no match', (decision) => {
    expect(decide(decideCheck(SANCTIONS, decision), clean())).toMatchObject(notesRequired);
    expect(decide(decideCheck(SANCTIONS, decision, '   '), clean())).toMatchObject(notesRequired);
    expect(types(decide(decideCheck(SANCTIONS, decision, 'why'), clean()))).toContain(
      'CheckDecisionRecorded',
    );
  });

  it('accepts pass without notes when no match is confirmed', () => {
    expect(types(decide(decideCheck(SANCTIONS, 'pass'), clean()))).toContain('CheckDecisionRecorded');
    const dismissed = run(screened(M1), review(M1.matchId, 'not_relevant'));
    expect(types(decide(decideCheck(SANCTIONS, 'pass'), dismissed))).toContain('CheckDecisionRecorded');
  });

  it('requires notes for pass when a match is confirmed', () => {
    const state = run(
      screened(M1, M2),
      review(M1.matchId, 'confirmed_match'),
      review(M2.matchId, 'not_relevant'),
    );
    expect(decide(decideCheck(SANCTIONS, 'pass'), state)).toMatchObject(notesRequired);
    expect(types(decide(decideCheck(SANCTIONS, 'pass', 'false positive'), state))).toContain(
      'CheckDecisionRecorded',
    );
  });

  it('accepts a second confirmation, then requires notes for any decision', () => {
    const state = run(
      screened(M1, M2),
      review(M1.matchId, 'confirmed_match'),
      review(M2.matchId, 'confirmed_match'),
    );
    for (const decision of ['pass', 'conditional_pass', 'fail'] as const) {
      expect(decide(decideCheck(SANCTIONS, decision), state)).toMatchObject(notesRequired);
      const refusal = decide(decideCheck(SANCTIONS, decision), state);
      expect(!refusal.ok && refusal.rejection.message).toContain('one party');
      expect(types(decide(decideCheck(SANCTIONS, decision, 'one party on OFAC and UN'), state))).toContain(
        'CheckDecisionRecorded',
      );
    }
  });

  it('records the decision with the previous one, starting the review once', () => {
    const result = events(decide(decideCheck(SANCTIONS, 'pass'), clean()));
    expect(result).toEqual([
      { type: 'CaseReviewStarted', data: { actor: REVIEWER, occurredAt: NOW } },
      {
        type: 'CheckDecisionRecorded',
        data: {
          checkReference: SANCTIONS,
          decision: 'pass',
          previousDecision: 'no_matches_found',
          notes: null,
          actor: REVIEWER,
          occurredAt: NOW,
        },
      },
    ]);
    const signed = run(clean(), decideCheck(SANCTIONS, 'pass'));
    const again = events(decide(decideCheck(SANCTIONS, 'fail', 'new info'), signed));
    expect(again).toEqual([
      expect.objectContaining({
        type: 'CheckDecisionRecorded',
        data: expect.objectContaining({ decision: 'fail', previousDecision: 'pass' }),
      }),
    ]);
  });

  it('reopens a decided case when a check is re-decided differently', () => {
    const decided = run(clean(), decideCheck(SANCTIONS, 'pass'), decideCase('pass'));
    const result = events(decide(decideCheck(SANCTIONS, 'fail', 'adverse'), decided));
    expect(result.map((e) => e.type)).toEqual(['CheckDecisionRecorded', 'CaseReopened']);
    expect(result[1]).toMatchObject({ data: { previousDecision: 'pass', actor: REVIEWER } });
    expect(run(decided, decideCheck(SANCTIONS, 'fail', 'adverse')).decision).toBe('pending_decision');
  });

  it('does not reopen a decided case when a check found without matches is signed off', () => {
    const decided = run(clean(), decideCase('pass'));
    expect(types(decide(decideCheck(SANCTIONS, 'pass'), decided))).toEqual([
      'CaseReviewStarted',
      'CheckDecisionRecorded',
    ]);
  });

  it('does not reopen the case when the check decision is unchanged', () => {
    const decided = run(clean(), decideCheck(SANCTIONS, 'pass'), decideCase('pass'));
    expect(types(decide(decideCheck(SANCTIONS, 'pass', 'confirmed again'), decided))).toEqual([
      'CheckDecisionRecorded',
    ]);
  });
});

describe('checkDecisionBlockers and checkNotesRequirement', () => {
  it('has no blocker for a completed check whose matches are all reviewed', () => {
    const state = run(screened(M1), review(M1.matchId, 'confirmed_match'));
    expect(checkDecisionBlockers(findCheck(state, SANCTIONS)!)).toBeUndefined();
    expect(checkDecisionBlockers(findCheck(clean(), SANCTIONS)!)).toBeUndefined();
  });

  it('needs notes only where the rules say', () => {
    const check = findCheck(clean(), SANCTIONS)!;
    expect(checkNotesRequirement(check, 'pass')).toBeUndefined();
    expect(checkNotesRequirement(check, 'conditional_pass')).toEqual(expect.any(String));
    expect(checkNotesRequirement(check, 'fail')).toEqual(expect.any(String));
    const confirmed = findCheck(run(screened(M1), review(M1.matchId, 'confirmed_match')), SANCTIONS)!;
    expect(checkNotesRequirement(confirmed, 'pass')).toEqual(expect.any(String));
  });
});

describe('decide: DecideCase', () => {
  const twoChecks = () => run(null, createCase());

  it.each([
    ['queued', () => twoChecks()],
    ['running', () => run(twoChecks(), start(SANCTIONS), complete(SANCTIONS), start(PEP))],
  ])('refuses while a check is %s: conflict, naming it', (_status, state) => {
    const s = state();
    const unfinished = s.checks.filter((c) => c.lifecycleStatus !== 'completed').map((c) => c.checkReference);
    expect(decide(decideCase('fail', 'n'), s)).toEqual({
      ok: false,
      rejection: {
        code: 'conflict',
        message: expect.any(String),
        details: { running_check_references: unfinished },
      },
    });
  });

  const withFailed = () =>
    run(twoChecks(), start(SANCTIONS), complete(SANCTIONS), start(PEP), failCheck(PEP, 'no snapshot'));

  it.each([
    'pass',
    'conditional_pass',
  ] as const)('refuses %s with a failed check: unprocessable', (decision) => {
    expect(decide(decideCase(decision, 'notes'), withFailed())).toEqual({
      ok: false,
      rejection: {
        code: 'unprocessable',
        message: expect.any(String),
        details: { failed_check_references: [PEP] },
      },
    });
  });

  it('accepts fail with a failed check', () => {
    expect(types(decide(decideCase('fail', 'could not screen'), withFailed()))).toEqual([
      'CaseDecisionRecorded',
    ]);
  });

  it('refuses while a check is pending_review: unprocessable, with the check references', () => {
    const state = run(twoChecks(), complete(SANCTIONS, [M1]), complete(PEP));
    expect(decide(decideCase('fail', 'n'), state)).toEqual({
      ok: false,
      rejection: {
        code: 'unprocessable',
        message: expect.any(String),
        details: { pending_review_check_references: [SANCTIONS] },
      },
    });
    // Reviewed but not decided is still pending_review.
    expect(decide(decideCase('fail', 'n'), run(state, review(M1.matchId, 'not_relevant')))).toMatchObject({
      ok: false,
      rejection: { code: 'unprocessable', details: { pending_review_check_references: [SANCTIONS] } },
    });
  });

  it('refuses a check whose decision was withdrawn: unprocessable', () => {
    const state = run(
      screened(M1),
      review(M1.matchId, 'not_relevant'),
      decideCheck(SANCTIONS, 'pass'),
      review(M1.matchId, 'confirmed_match'),
    );
    expect(decide(decideCase('fail', 'n'), state)).toMatchObject({
      ok: false,
      rejection: { code: 'unprocessable', details: { pending_review_check_references: [SANCTIONS] } },
    });
  });

  const notesRequired = {
    ok: false,
    rejection: { code: 'unprocessable', details: { fieldErrors: { decision_notes: [expect.any(String)] } } },
  };

  it('accepts pass without notes when every check found nothing', () => {
    expect(events(decide(decideCase('pass'), clean()))).toEqual([
      {
        type: 'CaseDecisionRecorded',
        data: {
          decision: 'pass',
          previousDecision: 'pending_decision',
          notes: null,
          actor: CLIENT,
          occurredAt: NOW,
        },
      },
    ]);
  });

  it.each(['conditional_pass', 'fail'] as const)('requires notes for %s', (decision) => {
    expect(decide(decideCase(decision), clean())).toMatchObject(notesRequired);
    expect(decide(decideCase(decision, ' \n '), clean())).toMatchObject(notesRequired);
    expect(types(decide(decideCase(decision, 'why'), clean()))).toEqual(['CaseDecisionRecorded']);
  });

  it.each([
    'conditional_pass',
    'fail',
  ] as const)('requires notes for pass when a check was decided %s', (d) => {
    const state = run(clean(), decideCheck(SANCTIONS, d, 'adverse media'));
    expect(decide(decideCase('pass'), state)).toMatchObject(notesRequired);
    expect(types(decide(decideCase('pass', 'accepted risk'), state))).toEqual(['CaseDecisionRecorded']);
  });

  it('requires notes for pass when a match is confirmed', () => {
    const state = run(
      screened(M1),
      review(M1.matchId, 'confirmed_match'),
      decideCheck(SANCTIONS, 'pass', 'ok'),
    );
    expect(decide(decideCase('pass'), state)).toMatchObject(notesRequired);
  });

  it('accepts pass without notes when every match was dismissed and checks passed', () => {
    const state = run(screened(M1), review(M1.matchId, 'not_relevant'), decideCheck(SANCTIONS, 'pass'));
    expect(types(decide(decideCase('pass'), state))).toEqual(['CaseDecisionRecorded']);
  });

  it('records a changed decision with the previous one', () => {
    const decided = run(clean(), decideCase('pass'));
    expect(events(decide(decideCase('fail', 'reconsidered'), decided))[0]).toMatchObject({
      data: { decision: 'fail', previousDecision: 'pass', notes: 'reconsidered' },
    });
  });
});

describe('caseDecisionBlockers and caseNotesRequirement', () => {
  it('has no blocker once every check is completed and decided', () => {
    expect(caseDecisionBlockers(clean(), 'pass')).toBeUndefined();
  });

  it('needs no notes to pass a clean case, and notes otherwise', () => {
    expect(caseNotesRequirement(clean(), 'pass')).toBeUndefined();
    expect(caseNotesRequirement(clean(), 'fail')).toEqual(expect.any(String));
    expect(caseNotesRequirement(clean(), 'conditional_pass')).toEqual(expect.any(String));
  });
});

describe('decide: AddMaterial', () => {
  const add = (note: string | null, url: string | null, attachments = 0) =>
    addMaterial({
      title: 'Evidence',
      note,
      url,
      attachments: Array.from({ length: attachments }, (_, i) => ({
        attachmentId: `attachment_${i}`,
        filename: `f${i}.pdf`,
        contentType: 'application/pdf',
        byteSize: 10,
        sha256: '00'.repeat(32),
      })),
    });

  it.each([
    ['note', 'a note', null, 0],
    ['link', null, 'https://example.org/a', 0],
    ['mixed', 'a note', 'https://example.org/a', 0],
    ['file', 'a note', null, 1],
  ] as const)('types a material as %s', (type, note, url, attachments) => {
    expect(materialTypeOf({ note, url, attachments: new Array(attachments) })).toBe(type);
    expect(events(decide(add(note, url, attachments), clean()))[0]).toMatchObject({
      type: 'MaterialAdded',
      data: { type, title: 'Evidence', note, url, actor: REVIEWER, occurredAt: NOW },
    });
  });

  it('accepts a material on a decided case, without reopening it', () => {
    const decided = run(clean(), decideCase('pass'));
    expect(types(decide(add('late evidence', null), decided))).toEqual(['MaterialAdded']);
  });
});

describe('decide: workspace operations', () => {
  it('moves the case to another group whose members include its owner and collaborators', () => {
    const command: CaseCommand = {
      type: 'ChangeGroup',
      groupId: GROUP_B,
      groupMemberIds: [OWNER, ALICE],
      actor: REVIEWER,
      now: NOW,
    };
    expect(events(decide(command, created()))).toEqual([
      {
        type: 'CaseGroupChanged',
        data: { groupId: GROUP_B, previousGroupId: GROUP_A, actor: REVIEWER, occurredAt: NOW },
      },
    ]);
  });

  it('refuses a move when the owner or a collaborator is not in the new group', () => {
    const command: CaseCommand = {
      type: 'ChangeGroup',
      groupId: GROUP_B,
      groupMemberIds: [BOB],
      actor: REVIEWER,
      now: NOW,
    };
    expect(decide(command, created())).toMatchObject({
      ok: false,
      rejection: {
        code: 'unprocessable',
        details: { group_id: GROUP_B, non_member_user_ids: [OWNER, ALICE] },
      },
    });
  });

  it('assigns an owner who is a group member, and refuses one who is not', () => {
    const assign = (ownerUserId: string | null): CaseCommand => ({
      type: 'ChangeOwner',
      ownerUserId,
      groupMemberIds: [OWNER, ALICE, BOB],
      actor: REVIEWER,
      now: NOW,
    });
    expect(events(decide(assign(BOB), created()))).toEqual([
      {
        type: 'CaseOwnerChanged',
        data: { ownerUserId: BOB, previousOwnerUserId: OWNER, actor: REVIEWER, occurredAt: NOW },
      },
    ]);
    expect(decide(assign(CAROL), created())).toMatchObject({
      ok: false,
      rejection: { code: 'unprocessable', details: { non_member_user_ids: [CAROL] } },
    });
    expect(events(decide(assign(null), created()))[0]).toMatchObject({
      data: { ownerUserId: null, previousOwnerUserId: OWNER },
    });
  });

  it('adds only new collaborators, once each, and refuses non-members', () => {
    const add = (userIds: string[], members = [OWNER, ALICE, BOB, CAROL]): CaseCommand => ({
      type: 'AddCollaborators',
      userIds,
      groupMemberIds: members,
      actor: REVIEWER,
      now: NOW,
    });
    expect(events(decide(add([ALICE, BOB, BOB, CAROL]), created()))).toEqual([
      { type: 'CaseCollaboratorsAdded', data: { userIds: [BOB, CAROL], actor: REVIEWER, occurredAt: NOW } },
    ]);
    expect(decide(add([BOB, CAROL], [BOB]), created())).toMatchObject({
      ok: false,
      rejection: { code: 'unprocessable', details: { non_member_user_ids: [CAROL] } },
    });
  });

  it(`holds at most ${MAX_COLLABORATORS} collaborators`, () => {
    expect(MAX_COLLABORATORS).toBe(50);
    const members = Array.from({ length: 60 }, (_, i) => user(100 + i));
    const base = run(
      null,
      createCase({ ownerUserId: null, collaboratorUserIds: members.slice(0, 48), groupMemberIds: members }),
    );
    const add = (userIds: string[]): CaseCommand => ({
      type: 'AddCollaborators',
      userIds,
      groupMemberIds: members,
      actor: REVIEWER,
      now: NOW,
    });
    expect(types(decide(add(members.slice(48, 50)), base))).toEqual(['CaseCollaboratorsAdded']);
    expect(decide(add(members.slice(48, 51)), base)).toMatchObject({
      ok: false,
      rejection: { code: 'unprocessable' },
    });
  });

  it('removes only current collaborators', () => {
    const command: CaseCommand = {
      type: 'RemoveCollaborators',
      userIds: [ALICE, BOB, ALICE],
      actor: REVIEWER,
      now: NOW,
    };
    expect(events(decide(command, created()))).toEqual([
      { type: 'CaseCollaboratorsRemoved', data: { userIds: [ALICE], actor: REVIEWER, occurredAt: NOW } },
    ]);
  });

  it('updates the external reference with the previous one', () => {
    const command: CaseCommand = {
      type: 'UpdateExternalReference',
      externalReference: 'crm-9',
      actor: REVIEWER,
      now: NOW,
    };
    expect(events(decide(command, created()))).toEqual([
      {
        type: 'CaseExternalReferenceUpdated',
        data: {
          externalReference: 'crm-9',
          previousExternalReference: null,
          actor: REVIEWER,
          occurredAt: NOW,
        },
      },
    ]);
  });

  it('saves a draft and a reason without deciding the case', () => {
    const draft: CaseCommand = {
      type: 'SaveDecisionDraft',
      decision: 'fail',
      notes: 'n',
      actor: REVIEWER,
      now: NOW,
    };
    const reason: CaseCommand = { type: 'SaveDecisionReason', reason: 'r', actor: REVIEWER, now: NOW };
    expect(events(decide(draft, created()))).toEqual([
      {
        type: 'CaseDecisionDraftSaved',
        data: { decision: 'fail', notes: 'n', actor: REVIEWER, occurredAt: NOW },
      },
    ]);
    expect(events(decide(reason, created()))).toEqual([
      { type: 'CaseDecisionReasonSaved', data: { reason: 'r', actor: REVIEWER, occurredAt: NOW } },
    ]);
    expect(run(created(), draft, reason).decision).toBe('pending_decision');
  });

  describe('no-op commands give no events', () => {
    const noOps: [string, CaseCommand][] = [
      [
        'ChangeGroup to the same group',
        { type: 'ChangeGroup', groupId: GROUP_A, groupMemberIds: [], actor: REVIEWER, now: NOW },
      ],
      [
        'ChangeOwner to the same owner',
        { type: 'ChangeOwner', ownerUserId: OWNER, groupMemberIds: [], actor: REVIEWER, now: NOW },
      ],
      [
        'AddCollaborators already there',
        { type: 'AddCollaborators', userIds: [ALICE], groupMemberIds: [], actor: REVIEWER, now: NOW },
      ],
      [
        'RemoveCollaborators not there',
        { type: 'RemoveCollaborators', userIds: [BOB], actor: REVIEWER, now: NOW },
      ],
      [
        'UpdateExternalReference unchanged',
        { type: 'UpdateExternalReference', externalReference: null, actor: REVIEWER, now: NOW },
      ],
    ];
    it.each(noOps)('%s', (_name, command) => {
      expect(decide(command, created())).toEqual({ ok: true, events: [] });
    });
  });
});
