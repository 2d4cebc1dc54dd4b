import type { FoundMatch, SnapshotUsed } from '../cases/caseEvents.js';
import type { CaseState, CheckState } from '../cases/caseState.js';
import { findProfile } from '../screening/scoring/profiles.js';
import type { ReadySnapshot } from '../screening/snapshots/snapshotStore.js';
import { type Clock, systemClock } from '../shared/clock.js';
import type { IndexManager } from './indexManager.js';
import { foundMatchesOf, planCheck, screeningSubjectOf } from './screeningPlan.js';

/**
 * Screening one check, in two steps so that the check is marked running only once it can really
 * be screened: `prepare` (the profile, the sources' availability, an index holding the snapshots,
 * which may mean waiting for a build) either refuses the check for good or returns `run`, the
 * search itself (synchronous, milliseconds).
 */
export interface ScreeningRequest {
  state: CaseState;
  check: CheckState;
  /** Aborted when the worker stops or loses its lease: stop waiting. */
  signal: AbortSignal;
}

export interface ScreeningResult {
  screeningProfileId: string;
  threshold: number;
  snapshots: SnapshotUsed[];
  matches: FoundMatch[];
}

export type ScreeningPreparation =
  /** The check cannot be screened, and trying again will not change that now: it fails at once. */
  { kind: 'refused'; failureReason: string } | { kind: 'ready'; run(): ScreeningResult };

/** Throws on transient trouble (database, index build): the runner retries with backoff. */
export type CheckScreener = (request: ScreeningRequest) => Promise<ScreeningPreparation>;

export function createCheckScreener(options: {
  indexManager: IndexManager;
  staleAfterMs: number;
  now?: Clock;
}): CheckScreener {
  const { indexManager, staleAfterMs } = options;
  const now = options.now ?? systemClock;
  return async ({ state, check, signal }) => {
    const profile = findProfile(state.screeningProfileId);
    if (!profile) {
      return {
        kind: 'refused',
        failureReason: `unknown_screening_profile: no screening profile "${state.screeningProfileId}"`,
      };
    }
    const planOn = (current: ReadySnapshot[]) =>
      planCheck({ checkType: check.type, profile, current, now: now(), staleAfterMs });
    let current = await indexManager.currentSnapshots();
    let plan = planOn(current);
    if (!plan.ok) {
      // A refusal is final for the check: make sure it does not rest on a reading taken just before
      // a fresh list was loaded.
      current = await indexManager.currentSnapshots({ fresh: true });
      plan = planOn(current);
      if (!plan.ok) return { kind: 'refused', failureReason: plan.failureReason };
    }
    const loaded = await indexManager.indexFor(
      current,
      plan.snapshots.map((snapshot) => snapshot.id),
      signal,
    );
    return {
      kind: 'ready',
      run() {
        // No limit here: candidates are bounded by the index (CANDIDATE_NAMES), and matches of
        // snapshots not searched are dropped before the profile's maximum is applied.
        const matches = loaded.index.search(screeningSubjectOf(state.subject), {
          profile,
          checkTypes: [check.type],
          limit: Number.MAX_SAFE_INTEGER,
        });
        return {
          screeningProfileId: profile.id,
          threshold: profile.threshold,
          snapshots: plan.snapshots,
          matches: foundMatchesOf(check.checkReference, matches, plan.snapshots, profile.maxMatches),
        };
      },
    };
  };
}
