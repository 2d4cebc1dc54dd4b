import { describe, expect, it } from 'vitest';
import {
  ALICE,
  addCollaborators,
  addMaterial,
  BOB,
  CASE_REF,
  CLIENT,
  caseCreated,
  caseDecided,
  caseReopened,
  changeGroup,
  changeOwner,
  checkCompleted,
  checkDecided,
  checkDecisionWithdrawn,
  checkFailed,
  checkStarted,
  complete,
  createCase,
  decideCase,
  decideCheck,
  failCheck,
  found,
  GROUP_A,
  GROUP_B,
  matchReviewed,
  NOW,
  OWNER,
  PEP,
  REVIEWER,
  removeCollaborators,
  review,
  reviewStarted,
  SANCTIONS,
  saveDecisionDraft,
  saveDecisionReason,
  start,
  updateExternalReference,
} from '../../test/support/caseBuilders.js';
import { deciderSpecification } from '../../test/support/deciderSpecification.js';
import {
  type CaseCommand,
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
import { type CaseState, evolve, findCheck, foldCase } from './caseState.js';
import { checkId, checkReference, matchId } from './references.js';

const given = deciderSpecification({ decide, evolve, initialState: () => null });

/** The n-th other user id: a valid UUID. */
const user = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const CAROL = user(4);

const M1 = found(SANCTIONS, 'ofac:1');
const M2 = found(SANCTIONS, 'un:7', { rank: 2 });
const M3 = found(SANCTIONS, 'eu:3', { rank: 3 });

// ---- histories -------------------------------------------------------------------------------

/** A case with a sanctions check only. */
const created = caseCreated({}, ['sanctions']);
/** Its sanctions check ran and found these matches. */
const screened = (...matches: FoundMatch[]): CaseEvent[] => [
  created,
  checkStarted(SANCTIONS),
  checkCompleted(SANCTIONS, matches),
];
/** Its single check found nothing, so the system decided it (no_matches_found). */
const clean = screened();
/** A reviewer signed off the check that found nothing. */
const signedOff = checkDecided(SANCTIONS, 'pass', null, { previousDecision: 'no_matches_found' });
/** M1 was dismissed, the check passed, and the case passed. */
const decidedAfterDismissal = [
  ...screened(M1),
  reviewStarted(),
  matchReviewed(M1.matchId, 'not_relevant'),
  checkDecided(SANCTIONS, 'pass'),
  caseDecided('pass'),
];

/** The case once `events` are folded: what a decision leaves behind, beyond its events. */
function caseAfter(...events: CaseEvent[]): CaseState {
  const state = foldCase(events);
  if (state === null) throw new Error('no case');
  return state;
}

/** The rejection of a decision that needs notes: a field error on decision_notes. */
const NOTES_REQUIRED = { fieldErrors: { decision_notes: [expect.any(String)] } };

describe('decide: CreateCase', () => {
  it('creates the case with what the command carries, at the command time', () => {
    given([]).when(createCase()).then([caseCreated()]);
  });

  it('refuses to create a case that exists: conflict', () => {
    given([created])
      .when(createCase())
      .thenRejects('conflict', /already exists/);
  });

  it('refuses an owner outside the case group: unprocessable, naming the group and the user', () => {
    const rejection = given([])
      .when(createCase({ groupMemberIds: [ALICE] }))
      .thenRejects('unprocessable');
    expect(rejection.details).toEqual({ group_id: GROUP_A, non_member_user_ids: [OWNER] });
  });

  it('refuses collaborators and monitoring owner or collaborators outside the group, each named once', () => {
    given([])
      .when(
        createCase({
          ownerUserId: null,
          collaboratorUserIds: [ALICE, CAROL],
          monitoring: { enable: true, ownerUserId: user(8), collaboratorUserIds: [CAROL, user(9)] },
        }),
      )
      .thenRejects('unprocessable', undefined, { non_member_user_ids: [CAROL, user(8), user(9)] });
  });

  it('accepts members whatever the case of their ids', () => {
    // An id with letters: OWNER's and ALICE's are all digits, the same in either case.
    const owner = 'abcdef01-2345-4678-9abc-def012345678';
    given([])
      .when(createCase({ ownerUserId: owner, groupMemberIds: [owner.toUpperCase(), ALICE] }))
      .then([caseCreated({ ownerUserId: owner })]);
  });
});

describe('queuedChecks', () => {
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
    addMaterial(),
    changeGroup(GROUP_B, []),
    changeOwner(null, []),
    addCollaborators([BOB], [BOB]),
    removeCollaborators([BOB]),
    updateExternalReference('x'),
    saveDecisionDraft('pass'),
    saveDecisionReason('r'),
  ];

  it.each(commands.map((command) => [command.type, command] as const))('%s: not_found', (_type, command) => {
    given([]).when(command).thenRejects('not_found');
  });
});

describe('decide: the check runner', () => {
  it('starts a queued check, and again (a retry) while it runs', () => {
    given([created])
      .when(start(SANCTIONS))
      .then([
        {
          type: 'CheckStarted',
          data: { checkReference: SANCTIONS, attempt: 1, worker: 'worker-1', occurredAt: NOW },
        },
      ]);
    given([created, checkStarted(SANCTIONS)])
      .when(start(SANCTIONS, 2))
      .then([checkStarted(SANCTIONS, 2)]);
  });

  it.each([
    ['running', [created, checkStarted(SANCTIONS)]],
    ['queued (its start not recorded)', [created]],
  ])('completes a %s check with its matches', (_status, history) => {
    given(history)
      .when(complete(SANCTIONS, [M1]))
      .then([checkCompleted(SANCTIONS, [M1])]);
  });

  it('fails a running check with its reason', () => {
    given([created, checkStarted(SANCTIONS)])
      .when(failCheck(SANCTIONS, 'no snapshot'))
      .then([
        {
          type: 'CheckFailed',
          data: { checkReference: SANCTIONS, attempt: 3, failureReason: 'no snapshot', occurredAt: NOW },
        },
      ]);
  });

  it('refuses an unknown check: not_found', () => {
    given([created])
      .when(start(`${CASE_REF}-7`))
      .thenRejects('not_found');
  });

  const finished = {
    completed: screened(M1),
    failed: [created, checkStarted(SANCTIONS), checkFailed(SANCTIONS)],
  };
  for (const [status, history] of Object.entries(finished)) {
    it.each([
      ['StartCheck', start(SANCTIONS, 2)],
      ['CompleteCheck', complete(SANCTIONS)],
      ['FailCheck', failCheck(SANCTIONS)],
    ])(`refuses %s on a ${status} check: conflict`, (_name, command) => {
      given(history).when(command).thenRejects('conflict');
    });
  }
});

describe('decide: ReviewMatch', () => {
  it('refuses an unknown match: not_found', () => {
    given(screened(M1))
      .when(review(matchId(SANCTIONS, 'nobody'), 'not_relevant'))
      .thenRejects('not_found');
  });

  it('starts the review of the case with the first review action, once', () => {
    given(screened(M1, M2))
      .when(review(M1.matchId, 'confirmed_match', 'same DOB'))
      .then([
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
    given([...screened(M1, M2), reviewStarted(), matchReviewed(M1.matchId, 'confirmed_match')])
      .when(review(M2.matchId, 'not_relevant'))
      .then([matchReviewed(M2.matchId, 'not_relevant')]);
  });

  it('accepts any status after any other, pending_review included', () => {
    given([...screened(M1), reviewStarted(), matchReviewed(M1.matchId, 'confirmed_match')])
      .when(review(M1.matchId, 'pending_review'))
      .then([matchReviewed(M1.matchId, 'pending_review', null, { previousStatus: 'confirmed_match' })]);
  });

  it('withdraws the check decision when the review changes, leaving an undecided case open', () => {
    const checkPassed = [
      ...screened(M1),
      reviewStarted(),
      matchReviewed(M1.matchId, 'not_relevant'),
      checkDecided(SANCTIONS, 'pass'),
    ];
    given(checkPassed)
      .when(review(M1.matchId, 'confirmed_match'))
      .then((events) => {
        expect(events).toEqual([
          matchReviewed(M1.matchId, 'confirmed_match', null, {
            previousStatus: 'not_relevant',
            withdrawsCheckDecision: 'pass',
          }),
          checkDecisionWithdrawn(SANCTIONS, 'pass', expect.stringContaining(M1.matchId)),
        ]);
        expect(findCheck(caseAfter(...checkPassed, ...events), SANCTIONS)?.decision).toBe('pending_review');
      });
  });

  it('withdraws the check decision and reopens a decided case when the review changes', () => {
    given(decidedAfterDismissal)
      .when(review(M1.matchId, 'confirmed_match', 'new evidence'))
      .then((events) => {
        expect(events).toEqual([
          matchReviewed(M1.matchId, 'confirmed_match', 'new evidence', {
            previousStatus: 'not_relevant',
            withdrawsCheckDecision: 'pass',
          }),
          checkDecisionWithdrawn(SANCTIONS, 'pass', expect.stringContaining(M1.matchId)),
          caseReopened('pass', expect.any(String)),
        ]);
        expect(caseAfter(...decidedAfterDismissal, ...events).decision).toBe('pending_decision');
      });
  });

  it('withdraws nothing for a note-only review (same status)', () => {
    given(decidedAfterDismissal)
      .when(review(M1.matchId, 'not_relevant', 'checked again'))
      .then([matchReviewed(M1.matchId, 'not_relevant', 'checked again', { previousStatus: 'not_relevant' })]);
  });

  it('withdraws nothing when the check has no recorded decision', () => {
    given([...screened(M1, M2), reviewStarted(), matchReviewed(M1.matchId, 'confirmed_match')])
      .when(review(M1.matchId, 'not_relevant'))
      .then([matchReviewed(M1.matchId, 'not_relevant', null, { previousStatus: 'confirmed_match' })]);
  });
});

describe('decide: DecideCheck', () => {
  it('refuses an unknown check: not_found', () => {
    given(clean)
      .when(decideCheck(`${CASE_REF}-5`, 'pass'))
      .thenRejects('not_found');
  });

  it.each([
    ['queued', [created]],
    ['running', [created, checkStarted(SANCTIONS)]],
  ])('refuses a %s check: conflict (retry once completed)', (status, history) => {
    const rejection = given(history).when(decideCheck(SANCTIONS, 'pass')).thenRejects('conflict');
    expect(rejection.details).toEqual({ lifecycle_status: status });
  });

  it('refuses a failed check: conflict, with the failure reason', () => {
    const rejection = given([created, checkStarted(SANCTIONS), checkFailed(SANCTIONS, 'no snapshot')])
      .when(decideCheck(SANCTIONS, 'fail', 'n'))
      .thenRejects('conflict');
    expect(rejection.details).toEqual({ lifecycle_status: 'failed', failure_reason: 'no snapshot' });
  });

  it('refuses while matches are pending review: unprocessable, with the pending match ids', () => {
    const rejection = given([
      ...screened(M1, M2, M3),
      reviewStarted(),
      matchReviewed(M2.matchId, 'not_relevant'),
    ])
      .when(decideCheck(SANCTIONS, 'fail', 'notes'))
      .thenRejects('unprocessable');
    expect(rejection.details).toEqual({ pending_review_match_ids: [M1.matchId, M3.matchId] });
  });

  it('refuses a match set back to pending_review the same way', () => {
    given([
      ...screened(M1),
      reviewStarted(),
      matchReviewed(M1.matchId, 'not_relevant'),
      matchReviewed(M1.matchId, 'pending_review', null, { previousStatus: 'not_relevant' }),
    ])
      .when(decideCheck(SANCTIONS, 'pass'))
      .thenRejects('unprocessable', undefined, { pending_review_match_ids: [M1.matchId] });
  });

  it.each(['conditional_pass', 'fail'] as const)('requires notes for %s, even with no match', (decision) => {
    given(clean)
      .when(decideCheck(SANCTIONS, decision))
      .thenRejects('unprocessable', undefined, NOTES_REQUIRED);
    given(clean)
      .when(decideCheck(SANCTIONS, decision, '   '))
      .thenRejects('unprocessable', undefined, NOTES_REQUIRED);
    given(clean)
      .when(decideCheck(SANCTIONS, decision, 'why'))
      .then([
        reviewStarted(),
        checkDecided(SANCTIONS, decision, 'why', { previousDecision: 'no_matches_found' }),
      ]);
  });

  it('accepts pass without notes when no match is confirmed', () => {
    given(clean).when(decideCheck(SANCTIONS, 'pass')).then([reviewStarted(), signedOff]);
    given([...screened(M1), reviewStarted(), matchReviewed(M1.matchId, 'not_relevant')])
      .when(decideCheck(SANCTIONS, 'pass'))
      .then([checkDecided(SANCTIONS, 'pass')]);
  });

  it('requires notes for pass when a match is confirmed', () => {
    const oneConfirmed = [
      ...screened(M1, M2),
      reviewStarted(),
      matchReviewed(M1.matchId, 'confirmed_match'),
      matchReviewed(M2.matchId, 'not_relevant'),
    ];
    given(oneConfirmed)
      .when(decideCheck(SANCTIONS, 'pass'))
      .thenRejects('unprocessable', undefined, NOTES_REQUIRED);
    given(oneConfirmed)
      .when(decideCheck(SANCTIONS, 'pass', 'false positive'))
      .then([checkDecided(SANCTIONS, 'pass', 'false positive')]);
  });

  it('accepts a second confirmation, then requires notes for any decision', () => {
    const firstConfirmed = [
      ...screened(M1, M2),
      reviewStarted(),
      matchReviewed(M1.matchId, 'confirmed_match'),
    ];
    given(firstConfirmed)
      .when(review(M2.matchId, 'confirmed_match'))
      .then([matchReviewed(M2.matchId, 'confirmed_match')]);
    const bothConfirmed = [...firstConfirmed, matchReviewed(M2.matchId, 'confirmed_match')];
    for (const decision of ['pass', 'conditional_pass', 'fail'] as const) {
      given(bothConfirmed)
        .when(decideCheck(SANCTIONS, decision))
        .thenRejects('unprocessable', /one party/, NOTES_REQUIRED);
      given(bothConfirmed)
        .when(decideCheck(SANCTIONS, decision, 'one party on OFAC and UN'))
        .then([checkDecided(SANCTIONS, decision, 'one party on OFAC and UN')]);
    }
  });

  it('records the decision with the previous one, starting the review once', () => {
    given(clean)
      .when(decideCheck(SANCTIONS, 'pass'))
      .then([
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
    given([...clean, reviewStarted(), signedOff])
      .when(decideCheck(SANCTIONS, 'fail', 'new info'))
      .then([checkDecided(SANCTIONS, 'fail', 'new info', { previousDecision: 'pass' })]);
  });

  it('reopens a decided case when a check is re-decided differently', () => {
    const decided = [...clean, reviewStarted(), signedOff, caseDecided('pass')];
    given(decided)
      .when(decideCheck(SANCTIONS, 'fail', 'adverse'))
      .then((events) => {
        expect(events).toEqual([
          checkDecided(SANCTIONS, 'fail', 'adverse', { previousDecision: 'pass' }),
          caseReopened('pass', expect.any(String)),
        ]);
        expect(caseAfter(...decided, ...events).decision).toBe('pending_decision');
      });
  });

  it('does not reopen a decided case when a check found without matches is signed off', () => {
    given([...clean, caseDecided('pass')])
      .when(decideCheck(SANCTIONS, 'pass'))
      .then([reviewStarted(), signedOff]);
  });

  it('does not reopen the case when the check decision is unchanged', () => {
    given([...clean, reviewStarted(), signedOff, caseDecided('pass')])
      .when(decideCheck(SANCTIONS, 'pass', 'confirmed again'))
      .then([checkDecided(SANCTIONS, 'pass', 'confirmed again', { previousDecision: 'pass' })]);
  });
});

describe('checkDecisionBlockers and checkNotesRequirement', () => {
  const sanctionsCheck = (...events: CaseEvent[]) => findCheck(caseAfter(...events), SANCTIONS)!;
  const confirmed = [...screened(M1), reviewStarted(), matchReviewed(M1.matchId, 'confirmed_match')];

  it('has no blocker for a completed check whose matches are all reviewed', () => {
    expect(checkDecisionBlockers(sanctionsCheck(...confirmed))).toBeUndefined();
    expect(checkDecisionBlockers(sanctionsCheck(...clean))).toBeUndefined();
  });

  it('needs notes only where the rules say', () => {
    const check = sanctionsCheck(...clean);
    expect(checkNotesRequirement(check, 'pass')).toBeUndefined();
    expect(checkNotesRequirement(check, 'conditional_pass')).toEqual(expect.any(String));
    expect(checkNotesRequirement(check, 'fail')).toEqual(expect.any(String));
    expect(checkNotesRequirement(sanctionsCheck(...confirmed), 'pass')).toEqual(expect.any(String));
  });
});

describe('decide: DecideCase', () => {
  /** A case with a sanctions and a pep check. */
  const twoChecks = caseCreated();

  it.each([
    ['queued', [twoChecks], [SANCTIONS, PEP]],
    ['running', [twoChecks, checkStarted(SANCTIONS), checkCompleted(SANCTIONS), checkStarted(PEP)], [PEP]],
  ])('refuses while a check is %s: conflict, naming it', (_status, history, unfinished) => {
    const rejection = given(history).when(decideCase('fail', 'n')).thenRejects('conflict');
    expect(rejection.details).toEqual({ running_check_references: unfinished });
  });

  const withFailed = [
    twoChecks,
    checkStarted(SANCTIONS),
    checkCompleted(SANCTIONS),
    checkStarted(PEP),
    checkFailed(PEP, 'no snapshot'),
  ];

  it.each([
    'pass',
    'conditional_pass',
  ] as const)('refuses %s with a failed check: unprocessable', (decision) => {
    const rejection = given(withFailed).when(decideCase(decision, 'notes')).thenRejects('unprocessable');
    expect(rejection.details).toEqual({ failed_check_references: [PEP] });
  });

  it('accepts fail with a failed check', () => {
    given(withFailed)
      .when(decideCase('fail', 'could not screen'))
      .then([caseDecided('fail', 'could not screen')]);
  });

  it('refuses while a check is pending_review: unprocessable, with the check references', () => {
    const matchPending = [twoChecks, checkCompleted(SANCTIONS, [M1]), checkCompleted(PEP)];
    const rejection = given(matchPending).when(decideCase('fail', 'n')).thenRejects('unprocessable');
    expect(rejection.details).toEqual({ pending_review_check_references: [SANCTIONS] });
    // Reviewed but not decided is still pending_review.
    given([...matchPending, reviewStarted(), matchReviewed(M1.matchId, 'not_relevant')])
      .when(decideCase('fail', 'n'))
      .thenRejects('unprocessable', undefined, { pending_review_check_references: [SANCTIONS] });
  });

  it('refuses a check whose decision was withdrawn: unprocessable', () => {
    given([
      ...screened(M1),
      reviewStarted(),
      matchReviewed(M1.matchId, 'not_relevant'),
      checkDecided(SANCTIONS, 'pass'),
      matchReviewed(M1.matchId, 'confirmed_match', null, {
        previousStatus: 'not_relevant',
        withdrawsCheckDecision: 'pass',
      }),
      checkDecisionWithdrawn(
        SANCTIONS,
        'pass',
        `match ${M1.matchId} review changed from not_relevant to confirmed_match`,
      ),
    ])
      .when(decideCase('fail', 'n'))
      .thenRejects('unprocessable', undefined, { pending_review_check_references: [SANCTIONS] });
  });

  it('accepts pass without notes when every check found nothing', () => {
    given(clean)
      .when(decideCase('pass'))
      .then([
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
    given(clean).when(decideCase(decision)).thenRejects('unprocessable', undefined, NOTES_REQUIRED);
    given(clean).when(decideCase(decision, ' \n ')).thenRejects('unprocessable', undefined, NOTES_REQUIRED);
    given(clean)
      .when(decideCase(decision, 'why'))
      .then([caseDecided(decision, 'why')]);
  });

  it.each([
    'conditional_pass',
    'fail',
  ] as const)('requires notes for pass when a check was decided %s', (d) => {
    const checkDecidedAdversely = [
      ...clean,
      reviewStarted(),
      checkDecided(SANCTIONS, d, 'adverse media', { previousDecision: 'no_matches_found' }),
    ];
    given(checkDecidedAdversely)
      .when(decideCase('pass'))
      .thenRejects('unprocessable', undefined, NOTES_REQUIRED);
    given(checkDecidedAdversely)
      .when(decideCase('pass', 'accepted risk'))
      .then([caseDecided('pass', 'accepted risk')]);
  });

  it('requires notes for pass when a match is confirmed', () => {
    given([
      ...screened(M1),
      reviewStarted(),
      matchReviewed(M1.matchId, 'confirmed_match'),
      checkDecided(SANCTIONS, 'pass', 'ok'),
    ])
      .when(decideCase('pass'))
      .thenRejects('unprocessable', undefined, NOTES_REQUIRED);
  });

  it('accepts pass without notes when every match was dismissed and checks passed', () => {
    given([
      ...screened(M1),
      reviewStarted(),
      matchReviewed(M1.matchId, 'not_relevant'),
      checkDecided(SANCTIONS, 'pass'),
    ])
      .when(decideCase('pass'))
      .then([caseDecided('pass')]);
  });

  it('records a changed decision with the previous one', () => {
    given([...clean, caseDecided('pass')])
      .when(decideCase('fail', 'reconsidered'))
      .then([caseDecided('fail', 'reconsidered', { previousDecision: 'pass' })]);
  });
});

describe('caseDecisionBlockers and caseNotesRequirement', () => {
  it('has no blocker once every check is completed and decided', () => {
    expect(caseDecisionBlockers(caseAfter(...clean), 'pass')).toBeUndefined();
  });

  it('needs no notes to pass a clean case, and notes otherwise', () => {
    expect(caseNotesRequirement(caseAfter(...clean), 'pass')).toBeUndefined();
    expect(caseNotesRequirement(caseAfter(...clean), 'fail')).toEqual(expect.any(String));
    expect(caseNotesRequirement(caseAfter(...clean), 'conditional_pass')).toEqual(expect.any(String));
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
    given(clean)
      .when(add(note, url, attachments))
      .then((events) =>
        expect(events).toMatchObject([
          {
            type: 'MaterialAdded',
            data: { type, title: 'Evidence', note, url, actor: REVIEWER, occurredAt: NOW },
          },
        ]),
      );
  });

  it('accepts a material on a decided case, without reopening it', () => {
    given([...clean, caseDecided('pass')])
      .when(add('late evidence', null))
      .then((events) => expect(events.map((event) => event.type)).toEqual(['MaterialAdded']));
  });
});

describe('decide: workspace operations', () => {
  it('moves the case to another group whose members include its owner and collaborators', () => {
    given([created])
      .when(changeGroup(GROUP_B, [OWNER, ALICE]))
      .then([
        {
          type: 'CaseGroupChanged',
          data: { groupId: GROUP_B, previousGroupId: GROUP_A, actor: REVIEWER, occurredAt: NOW },
        },
      ]);
  });

  it('refuses a move when the owner or a collaborator is not in the new group', () => {
    given([created])
      .when(changeGroup(GROUP_B, [BOB]))
      .thenRejects('unprocessable', undefined, { group_id: GROUP_B, non_member_user_ids: [OWNER, ALICE] });
  });

  it('assigns an owner who is a group member, and refuses one who is not', () => {
    given([created])
      .when(changeOwner(BOB))
      .then([
        {
          type: 'CaseOwnerChanged',
          data: { ownerUserId: BOB, previousOwnerUserId: OWNER, actor: REVIEWER, occurredAt: NOW },
        },
      ]);
    given([created])
      .when(changeOwner(CAROL))
      .thenRejects('unprocessable', undefined, { non_member_user_ids: [CAROL] });
    given([created])
      .when(changeOwner(null))
      .then([
        {
          type: 'CaseOwnerChanged',
          data: { ownerUserId: null, previousOwnerUserId: OWNER, actor: REVIEWER, occurredAt: NOW },
        },
      ]);
  });

  it('adds only new collaborators, once each, and refuses non-members', () => {
    given([created])
      .when(addCollaborators([ALICE, BOB, BOB, CAROL], [OWNER, ALICE, BOB, CAROL]))
      .then([
        { type: 'CaseCollaboratorsAdded', data: { userIds: [BOB, CAROL], actor: REVIEWER, occurredAt: NOW } },
      ]);
    given([created])
      .when(addCollaborators([BOB, CAROL], [BOB]))
      .thenRejects('unprocessable', undefined, { non_member_user_ids: [CAROL] });
  });

  it(`holds at most ${MAX_COLLABORATORS} collaborators`, () => {
    expect(MAX_COLLABORATORS).toBe(50);
    const members = Array.from({ length: 60 }, (_, i) => user(100 + i));
    const with48 = [caseCreated({ ownerUserId: null, collaboratorUserIds: members.slice(0, 48) })];
    given(with48)
      .when(addCollaborators(members.slice(48, 50), members))
      .then([
        {
          type: 'CaseCollaboratorsAdded',
          data: { userIds: members.slice(48, 50), actor: REVIEWER, occurredAt: NOW },
        },
      ]);
    given(with48)
      .when(addCollaborators(members.slice(48, 51), members))
      .thenRejects('unprocessable', /at most 50 collaborators/);
  });

  it('removes only current collaborators', () => {
    given([created])
      .when(removeCollaborators([ALICE, BOB, ALICE]))
      .then([
        { type: 'CaseCollaboratorsRemoved', data: { userIds: [ALICE], actor: REVIEWER, occurredAt: NOW } },
      ]);
  });

  it('updates the external reference with the previous one', () => {
    given([caseCreated({ externalReference: 'crm-1' }, ['sanctions'])])
      .when(updateExternalReference('crm-9'))
      .then([
        {
          type: 'CaseExternalReferenceUpdated',
          data: {
            externalReference: 'crm-9',
            previousExternalReference: 'crm-1',
            actor: REVIEWER,
            occurredAt: NOW,
          },
        },
      ]);
  });

  it('saves a draft and a reason without deciding the case', () => {
    const draftSaved: CaseEvent = {
      type: 'CaseDecisionDraftSaved',
      data: { decision: 'fail', notes: 'n', actor: REVIEWER, occurredAt: NOW },
    };
    const reasonSaved: CaseEvent = {
      type: 'CaseDecisionReasonSaved',
      data: { reason: 'r', actor: REVIEWER, occurredAt: NOW },
    };
    given([created]).when(saveDecisionDraft('fail', 'n')).then([draftSaved]);
    given([created]).when(saveDecisionReason('r')).then([reasonSaved]);
    expect(caseAfter(created, draftSaved, reasonSaved).decision).toBe('pending_decision');
  });

  describe('no-op commands give no events', () => {
    const noOps: [string, CaseCommand][] = [
      ['ChangeGroup to the same group', changeGroup(GROUP_A, [])],
      ['ChangeOwner to the same owner', changeOwner(OWNER, [])],
      ['AddCollaborators already there', addCollaborators([ALICE], [])],
      ['RemoveCollaborators not there', removeCollaborators([BOB])],
      ['UpdateExternalReference unchanged', updateExternalReference(null)],
    ];
    it.each(noOps)('%s', (_name, command) => {
      given([created]).when(command).thenNothingHappens();
    });
  });
});
