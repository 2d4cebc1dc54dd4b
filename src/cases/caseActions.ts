import { canDecideChecks, canRecordFinalDecision, hasScope, type KeyGrant } from '../workspace/keyPolicy.js';
import { caseDecisionBlockers, checkDecisionBlockers, isFinal } from './caseDecide.js';
import type { CaseState, CheckState } from './caseState.js';

/**
 * The automation guidance a case and each check carry (docs/cases.md, "Actions"): what the calling
 * key may do now (`allowed_actions`), the safest next steps in order (`recommended_next_actions`),
 * and whether the case must not be cleared without a person (`requires_human_review`). Computed from
 * the state and the key at read time, never stored: the same case reads differently to an agent.
 */

/** Values of `allowed_actions`. */
export type AllowedAction = 'add_material' | 'review_matches' | 'decide_check' | 'record_case_decision';

/** Values of `recommended_next_actions`, in the order they are recommended. */
export type RecommendedAction =
  | 'wait_for_checks'
  | 'investigate_failed_check'
  | 'review_matches'
  | 'decide_check'
  | 'add_material'
  | 'escalate_to_human'
  | 'record_case_decision';

export interface Guidance {
  allowedActions: AllowedAction[];
  recommendedNextActions: RecommendedAction[];
}

function pendingMatches(check: CheckState): number {
  return check.matches.filter((match) => match.reviewStatus === 'pending_review').length;
}

function confirmedMatches(check: CheckState): number {
  return check.matches.filter((match) => match.reviewStatus === 'confirmed_match').length;
}

function decidable(check: CheckState): boolean {
  return checkDecisionBlockers(check) === undefined;
}

function awaitsDecision(check: CheckState): boolean {
  return decidable(check) && check.decision === 'pending_review';
}

/** What holds a check's decision up: `check_queued`, `check_running`, `check_failed`, `match_pending_review:<id>`. */
export function checkBlockingItems(check: CheckState): string[] {
  if (check.lifecycleStatus !== 'completed') return [`check_${check.lifecycleStatus}`];
  return check.matches
    .filter((m) => m.reviewStatus === 'pending_review')
    .map((m) => `match_pending_review:${m.matchId}`);
}

export function checkGuidance(check: CheckState, key: KeyGrant): Guidance {
  const allowed: AllowedAction[] = [];
  if (hasScope(key, 'matches:review') && check.matches.length > 0) allowed.push('review_matches');
  if (canDecideChecks(key) && decidable(check)) allowed.push('decide_check');
  if (hasScope(key, 'materials:write')) allowed.push('add_material');

  const recommended: RecommendedAction[] = [];
  if (check.lifecycleStatus === 'queued' || check.lifecycleStatus === 'running')
    recommended.push('wait_for_checks');
  else if (check.lifecycleStatus === 'failed') recommended.push('investigate_failed_check');
  else {
    if (pendingMatches(check) > 0) recommended.push('review_matches');
    // An agent may not decide a check: a reviewed check waits for a person.
    else if (check.decision === 'pending_review')
      recommended.push(key.actorType === 'agent' ? 'escalate_to_human' : 'decide_check');
    // Several confirmed matches may be one party on several lists or distinct parties: evidence decides.
    if (confirmedMatches(check) > 1 && !isFinal(check.decision)) recommended.push('add_material');
  }
  if (key.actorType === 'agent' && needsHuman(check) && recommended.length > 0)
    recommended.push('escalate_to_human');
  return { allowedActions: allowed, recommendedNextActions: inOrder(recommended) };
}

function checksRunning(state: CaseState): boolean {
  return state.checks.some(
    (check) => check.lifecycleStatus === 'queued' || check.lifecycleStatus === 'running',
  );
}

function needsHuman(check: CheckState): boolean {
  return (
    check.lifecycleStatus === 'failed' ||
    check.matches.some((m) => m.reviewStatus !== 'not_relevant') ||
    check.decision === 'fail' ||
    check.decision === 'conditional_pass'
  );
}

/**
 * The case must not be auto-cleared: a check has not completed or failed, a match is pending or
 * confirmed, or a check was decided fail or conditional_pass. Only a case whose every check
 * completed with no match, or with every match dismissed as not relevant, may be cleared by
 * automation.
 */
export function requiresHumanReview(state: CaseState): boolean {
  return state.checks.some((check) => check.lifecycleStatus !== 'completed' || needsHuman(check));
}

export function caseGuidance(state: CaseState, key: KeyGrant): Guidance {
  const allowed: AllowedAction[] = [];
  if (hasScope(key, 'materials:write')) allowed.push('add_material');
  if (hasScope(key, 'matches:review') && state.checks.some((c) => c.matches.length > 0))
    allowed.push('review_matches');
  if (canDecideChecks(key) && state.checks.some(decidable)) allowed.push('decide_check');
  const decisionOpen = caseDecisionBlockers(state, 'fail') === undefined;
  if (canRecordFinalDecision(key) && decisionOpen) allowed.push('record_case_decision');

  const recommended: RecommendedAction[] = [];
  for (const check of state.checks) {
    for (const action of checkGuidance(check, key).recommendedNextActions) {
      if (action !== 'escalate_to_human') recommended.push(action);
    }
  }
  if (state.decision === 'pending_decision' && decisionOpen) {
    // An agent gathers evidence and escalates; the final decision is a person's or a permitted client's.
    if (key.actorType === 'agent' || !canRecordFinalDecision(key)) recommended.push('escalate_to_human');
    else recommended.push('record_case_decision');
  } else if (
    key.actorType === 'agent' &&
    !checksRunning(state) &&
    ((requiresHumanReview(state) && recommended.length > 0) || state.checks.some(awaitsDecision))
  ) {
    // Nothing is up for review while checks still run: escalation comes when there is. A check
    // that awaits its decision always needs a person, as an agent may not decide it.
    recommended.push('escalate_to_human');
  }
  return { allowedActions: allowed, recommendedNextActions: inOrder(recommended) };
}

/** The order the vocabulary is recommended in (docs/cases.md), whatever check each action came from. */
const RECOMMENDATION_ORDER: readonly RecommendedAction[] = [
  'wait_for_checks',
  'investigate_failed_check',
  'review_matches',
  'decide_check',
  'add_material',
  'escalate_to_human',
  'record_case_decision',
];

function inOrder(actions: readonly RecommendedAction[]): RecommendedAction[] {
  return RECOMMENDATION_ORDER.filter((action) => actions.includes(action));
}
