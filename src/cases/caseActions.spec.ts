import { describe, expect, it } from 'vitest';
import {
  SANCTIONS as C1,
  PEP as C2,
  complete,
  createCase,
  decideCase,
  decideCheck,
  failCheck,
  found,
  key,
  review,
  run,
  start,
} from '../../test/support/caseBuilders.js';
import type { CheckType } from '../screening/checkTypes.js';
import { type KeyGrant, SCOPES, type Scope } from '../workspace/keyPolicy.js';
import { caseGuidance, checkBlockingItems, checkGuidance, requiresHumanReview } from './caseActions.js';
import { type CaseState, findCheck } from './caseState.js';

const CLIENT = key();
const CLIENT_WITHOUT_FINAL = key({ finalDecision: false });
const AGENT = key({ actorType: 'agent', finalDecision: false });
/** An agent row edited by hand to carry the permission: still never offered the final decision. */
const AGENT_WITH_FINAL = key({ actorType: 'agent', finalDecision: true });
const without = (...missing: Scope[]) => key({ scopes: SCOPES.filter((s) => !missing.includes(s)) });
const NO_SCOPES = key({ scopes: [] });

const M1 = found(C1, 'ofac:1');
const M2 = found(C1, 'un:2');
const P1 = found(C2, 'pep:1');

const created = (types: CheckType[] = ['sanctions']): CaseState => run(null, createCase({}, types));

/** The states of a one-check (sanctions) case. */
const STATES = {
  queued: () => created(),
  running: () => run(created(), start(C1)),
  failed: () => run(created(), start(C1), failCheck(C1)),
  pendingMatches: () => run(created(), complete(C1, [M1, M2])),
  reviewedUndecided: () =>
    run(
      created(),
      complete(C1, [M1, M2]),
      review(M1.matchId, 'not_relevant'),
      review(M2.matchId, 'not_relevant'),
    ),
  confirmedUndecided: () =>
    run(
      created(),
      complete(C1, [M1, M2]),
      review(M1.matchId, 'confirmed_match'),
      review(M2.matchId, 'not_relevant'),
    ),
  multipleConfirmed: () =>
    run(
      created(),
      complete(C1, [M1, M2]),
      review(M1.matchId, 'confirmed_match'),
      review(M2.matchId, 'confirmed_match'),
    ),
  noMatches: () => run(created(), complete(C1)),
  dismissedAndPassed: () =>
    run(
      created(),
      complete(C1, [M1, M2]),
      review(M1.matchId, 'not_relevant'),
      review(M2.matchId, 'not_relevant'),
      decideCheck(C1, 'pass'),
    ),
  caseDecided: () => run(created(), complete(C1), decideCase('pass')),
};

const allowed = (state: CaseState, k: KeyGrant) => [...caseGuidance(state, k).allowedActions].sort();
const recommended = (state: CaseState, k: KeyGrant) => caseGuidance(state, k).recommendedNextActions;

describe('caseGuidance: allowed_actions', () => {
  it.each([
    ['queued', STATES.queued, ['add_material']],
    ['running', STATES.running, ['add_material']],
    ['pending matches', STATES.pendingMatches, ['add_material', 'review_matches']],
    ['reviewed but undecided', STATES.reviewedUndecided, ['add_material', 'decide_check', 'review_matches']],
    [
      'no matches (decided by the system)',
      STATES.noMatches,
      ['add_material', 'decide_check', 'record_case_decision'],
    ],
    [
      'matches dismissed, check passed',
      STATES.dismissedAndPassed,
      ['add_material', 'decide_check', 'record_case_decision', 'review_matches'],
    ],
    [
      'case decided (a new decision may replace it)',
      STATES.caseDecided,
      ['add_material', 'decide_check', 'record_case_decision'],
    ],
  ] as const)('for a permitted API client, %s: %j', (_name, state, expected) => {
    expect(allowed(state(), CLIENT)).toEqual([...expected].sort());
  });

  it('never offers decide_check on a failed check', () => {
    expect(caseGuidance(STATES.failed(), CLIENT).allowedActions).not.toContain('decide_check');
    expect(checkGuidance(findCheck(STATES.failed(), C1)!, CLIENT).allowedActions).not.toContain(
      'decide_check',
    );
  });

  it('offers record_case_decision only to an API client with the scope and the permission', () => {
    const state = STATES.noMatches();
    expect(caseGuidance(state, CLIENT).allowedActions).toContain('record_case_decision');
    for (const k of [CLIENT_WITHOUT_FINAL, AGENT, AGENT_WITH_FINAL, without('case_decisions:write')]) {
      expect(caseGuidance(state, k).allowedActions).not.toContain('record_case_decision');
    }
  });

  it('needs the scope of each action', () => {
    const state = STATES.reviewedUndecided();
    expect(allowed(state, without('materials:write'))).toEqual(['decide_check', 'review_matches']);
    expect(allowed(state, without('matches:review'))).toEqual(['add_material', 'decide_check']);
    expect(allowed(state, without('checks:decide'))).toEqual(['add_material', 'review_matches']);
    expect(allowed(state, NO_SCOPES)).toEqual([]);
  });

  it('gives agents the evidence-gathering actions, never a decision', () => {
    expect(allowed(STATES.reviewedUndecided(), AGENT)).toEqual(['add_material', 'review_matches']);
    const check = findCheck(STATES.reviewedUndecided(), C1)!;
    expect(checkGuidance(check, AGENT).allowedActions).not.toContain('decide_check');
  });

  it('offers decide_check on the case when any one check can be decided', () => {
    const state = run(created(['sanctions', 'pep']), complete(C1), start(C2));
    expect(caseGuidance(state, CLIENT).allowedActions).toContain('decide_check');
    expect(caseGuidance(state, CLIENT).allowedActions).not.toContain('record_case_decision');
  });
});

describe('caseGuidance: recommended_next_actions', () => {
  it('waits for queued and running checks; nothing to escalate yet', () => {
    expect(recommended(STATES.queued(), CLIENT)).toEqual(['wait_for_checks']);
    expect(recommended(STATES.running(), CLIENT)).toEqual(['wait_for_checks']);
    expect(recommended(STATES.queued(), AGENT)).toEqual(['wait_for_checks']);
    expect(recommended(STATES.running(), AGENT)).toEqual(['wait_for_checks']);
    expect(recommended(STATES.queued(), AGENT)[0]).toBe('wait_for_checks');
    expect(recommended(STATES.queued(), AGENT)).not.toContain('record_case_decision');
  });

  it('investigates a failed check first, never offering to decide it', () => {
    for (const k of [CLIENT, AGENT]) {
      const actions = recommended(STATES.failed(), k);
      expect(actions[0]).toBe('investigate_failed_check');
      expect(actions).not.toContain('decide_check');
    }
  });

  it('reviews pending matches; an agent then escalates', () => {
    expect(recommended(STATES.pendingMatches(), CLIENT)).toEqual(['review_matches']);
    expect(recommended(STATES.pendingMatches(), CLIENT_WITHOUT_FINAL)).toEqual(['review_matches']);
    expect(recommended(STATES.pendingMatches(), AGENT)).toEqual(['review_matches', 'escalate_to_human']);
  });

  it('decides a reviewed check; an agent, which may not, escalates it', () => {
    expect(recommended(STATES.reviewedUndecided(), CLIENT)).toEqual(['decide_check']);
    expect(recommended(STATES.reviewedUndecided(), AGENT)).toEqual(['escalate_to_human']);
    expect(recommended(STATES.confirmedUndecided(), AGENT)).toEqual(['escalate_to_human']);
    const check = findCheck(STATES.reviewedUndecided(), C1)!;
    expect(checkGuidance(check, AGENT).recommendedNextActions).toEqual(['escalate_to_human']);
  });

  it('adds material when a check has more than one confirmed match, until it is decided', () => {
    expect(recommended(STATES.multipleConfirmed(), CLIENT)).toEqual(['decide_check', 'add_material']);
    expect(recommended(STATES.confirmedUndecided(), CLIENT)).toEqual(['decide_check']);
    const decided = run(STATES.multipleConfirmed(), decideCheck(C1, 'fail', 'one party on two lists'));
    expect(recommended(decided, CLIENT)).toEqual(['record_case_decision']);
  });

  it('records the case decision once every check is decided, for a key that may', () => {
    expect(recommended(STATES.noMatches(), CLIENT)).toEqual(['record_case_decision']);
    expect(recommended(STATES.dismissedAndPassed(), CLIENT)).toEqual(['record_case_decision']);
  });

  it('escalates instead where the key may not record the final decision', () => {
    for (const k of [
      CLIENT_WITHOUT_FINAL,
      AGENT,
      AGENT_WITH_FINAL,
      without('case_decisions:write'),
      NO_SCOPES,
    ]) {
      expect(recommended(STATES.noMatches(), k)).toEqual(['escalate_to_human']);
    }
  });

  it('never recommends record_case_decision to an agent, in any state', () => {
    for (const state of Object.values(STATES)) {
      expect(recommended(state(), AGENT)).not.toContain('record_case_decision');
      expect(recommended(state(), AGENT_WITH_FINAL)).not.toContain('record_case_decision');
    }
  });

  it('recommends nothing more once the case is decided and clear', () => {
    expect(recommended(STATES.caseDecided(), CLIENT)).toEqual([]);
    expect(recommended(STATES.caseDecided(), AGENT)).toEqual([]);
  });

  it('asks for the check decision again after a changed review reopened the case', () => {
    const state = run(
      created(),
      complete(C1, [M1]),
      review(M1.matchId, 'confirmed_match'),
      decideCheck(C1, 'fail', 'notes'),
      decideCase('fail', 'notes'),
      review(M1.matchId, 'not_relevant'),
    );
    // The review withdrew the check decision and reopened the case.
    expect(state.decision).toBe('pending_decision');
    expect(recommended(state, CLIENT)).toEqual(['decide_check']);
  });

  it('lists each action once across checks', () => {
    const state = run(created(['sanctions', 'pep']), complete(C1, [M1]), complete(C2, [P1]));
    expect(recommended(state, CLIENT)).toEqual(['review_matches']);
  });
});

describe('caseGuidance: recommendation order', () => {
  it('lists the actions in the vocabulary order, whichever check each comes from', () => {
    // Check 1 has pending matches, check 2 failed: the failure is investigated first.
    const state = run(created(['sanctions', 'pep']), complete(C1, [M1]), start(C2), failCheck(C2));
    expect(recommended(state, CLIENT)).toEqual(['investigate_failed_check', 'review_matches']);
  });
});

describe('checkGuidance', () => {
  it('recommends per check and escalates for an agent when a person is needed', () => {
    const check = findCheck(STATES.pendingMatches(), C1)!;
    expect(checkGuidance(check, CLIENT)).toEqual({
      allowedActions: ['review_matches', 'add_material'],
      recommendedNextActions: ['review_matches'],
    });
    expect(checkGuidance(check, AGENT).recommendedNextActions).toEqual([
      'review_matches',
      'escalate_to_human',
    ]);
  });

  it('offers decide_check on a decided check (a decision may be changed)', () => {
    const check = findCheck(STATES.dismissedAndPassed(), C1)!;
    expect(checkGuidance(check, CLIENT)).toEqual({
      allowedActions: ['review_matches', 'decide_check', 'add_material'],
      recommendedNextActions: [],
    });
  });

  it('investigates a failed check, and an agent escalates it', () => {
    const check = findCheck(STATES.failed(), C1)!;
    expect(checkGuidance(check, CLIENT).recommendedNextActions).toEqual(['investigate_failed_check']);
    expect(checkGuidance(check, AGENT).recommendedNextActions).toEqual([
      'investigate_failed_check',
      'escalate_to_human',
    ]);
  });
});

describe('requiresHumanReview', () => {
  it.each([
    ['a check is queued', STATES.queued],
    ['a check is running', STATES.running],
    ['a check failed', STATES.failed],
    ['matches are pending review', STATES.pendingMatches],
    ['a match is confirmed', STATES.confirmedUndecided],
    [
      'a match is confirmed and the check passed',
      () => run(STATES.confirmedUndecided(), decideCheck(C1, 'pass', 'notes')),
    ],
    [
      'a check without matches was decided fail',
      () => run(STATES.noMatches(), decideCheck(C1, 'fail', 'notes')),
    ],
    [
      'a check without matches was decided conditional_pass',
      () => run(STATES.noMatches(), decideCheck(C1, 'conditional_pass', 'notes')),
    ],
    [
      'dismissed matches, check decided fail',
      () => run(STATES.reviewedUndecided(), decideCheck(C1, 'fail', 'notes')),
    ],
    ['one check clean, the other still queued', () => run(created(['sanctions', 'pep']), complete(C1))],
  ])('is true when %s', (_name, state) => {
    expect(requiresHumanReview(state())).toBe(true);
  });

  it.each([
    ['every check found no match', () => run(created(['sanctions', 'pep']), complete(C1), complete(C2))],
    ['every match was dismissed as not relevant', STATES.reviewedUndecided],
    ['every match was dismissed and the check passed', STATES.dismissedAndPassed],
    ['the clean case was decided', STATES.caseDecided],
  ])('is false when %s', (_name, state) => {
    expect(requiresHumanReview(state())).toBe(false);
  });
});

describe('checkBlockingItems', () => {
  it('names an unfinished or failed check', () => {
    expect(checkBlockingItems(findCheck(STATES.queued(), C1)!)).toEqual(['check_queued']);
    expect(checkBlockingItems(findCheck(STATES.running(), C1)!)).toEqual(['check_running']);
    expect(checkBlockingItems(findCheck(STATES.failed(), C1)!)).toEqual(['check_failed']);
  });

  it('names each match still pending review', () => {
    expect(checkBlockingItems(findCheck(STATES.pendingMatches(), C1)!)).toEqual([
      `match_pending_review:${M1.matchId}`,
      `match_pending_review:${M2.matchId}`,
    ]);
    const one = run(STATES.pendingMatches(), review(M1.matchId, 'confirmed_match'));
    expect(checkBlockingItems(findCheck(one, C1)!)).toEqual([`match_pending_review:${M2.matchId}`]);
  });

  it('is empty once every match is reviewed or there was none', () => {
    expect(checkBlockingItems(findCheck(STATES.reviewedUndecided(), C1)!)).toEqual([]);
    expect(checkBlockingItems(findCheck(STATES.noMatches(), C1)!)).toEqual([]);
  });
});
