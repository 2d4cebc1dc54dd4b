import type { ReviewStatus, SnapshotUsed } from '../cases/caseEvents.js';
import { foundMatchesOf, planCheck, screeningSubjectOf } from '../checks/screeningPlan.js';
import type { ScreeningIndex } from '../screening/index/screeningIndex.js';
import type { ScreeningProfile } from '../screening/scoring/profiles.js';
import type { ReadySnapshot } from '../screening/snapshots/snapshotStore.js';
import {
  type DetectedAlert,
  detectChanges,
  type FoundParty,
  observationOf,
  type Unfound,
} from './changeDetection.js';
import type { MonitoredSubject, MonitoringEvent, Observation, RunTrigger } from './monitoringEvents.js';
import { alertId, matchFingerprint } from './monitoringReferences.js';
import type { MonitoringConfigState } from './monitoringState.js';

/**
 * One monitoring run, decided on what the worker gathered (docs/monitoring.md, "Runs"): the events
 * it records. A run whose sources are missing or stale is skipped, never read as "no change".
 */

export interface RunPlan {
  ok: true;
  snapshots: SnapshotUsed[];
}

export type RunSources = RunPlan | { ok: false; reason: string; staleDatasets: string[] };

/** The snapshots every check type of the config is screened against, or why the run is skipped. */
export function planRun(input: {
  config: MonitoringConfigState;
  profile: ScreeningProfile;
  current: readonly ReadySnapshot[];
  now: Date;
  staleAfterMs: number;
}): RunSources {
  const snapshots = new Map<string, SnapshotUsed>();
  for (const checkType of input.config.checkTypes) {
    const plan = planCheck({ checkType, ...input });
    if (!plan.ok) return { ok: false, reason: plan.failureReason, staleDatasets: plan.staleDatasets };
    for (const snapshot of plan.snapshots) snapshots.set(snapshot.id, snapshot);
  }
  return { ok: true, snapshots: [...snapshots.values()].sort((a, b) => a.dataset.localeCompare(b.dataset)) };
}

/** What the subject's cases in the config's group have shown reviewers. */
export interface CaseEvidence {
  /** Observations of the parties as they were presented (for comparison), by fingerprint. */
  presented: ReadonlyMap<string, Observation>;
  reviews: ReadonlyMap<string, ReviewStatus>;
  /** Presented in a case, in a list version no longer stored: counted as seen as the party is now. */
  seenWithoutFacts: ReadonlySet<string>;
}

export interface RunInput {
  config: MonitoringConfigState;
  subject: MonitoredSubject;
  runId: string;
  trigger: RunTrigger;
  profile: ScreeningProfile;
  sources: RunSources;
  /** An index holding every planned snapshot (required when the sources are ok). */
  index: ScreeningIndex | undefined;
  evidence: CaseEvidence;
  now: string;
}

export function evaluateRun(input: RunInput): MonitoringEvent[] {
  const { config, runId, now } = input;
  const started: MonitoringEvent = {
    type: 'MonitoringRunStarted',
    data: { runId, trigger: input.trigger, checkTypes: config.checkTypes, occurredAt: now },
  };
  if (!input.sources.ok) {
    const { reason, staleDatasets } = input.sources;
    return [
      started,
      { type: 'MonitoringRunSkipped', data: { runId, reason, staleDatasets, occurredAt: now } },
    ];
  }
  if (!input.index) throw new Error(`run ${runId}: no screening index`);
  const { snapshots } = input.sources;
  const searched = findParties(input.index, input, snapshots);
  const followed = followObserved(input.index, input, snapshots, searched);
  const found = [...searched, ...followed.stillMatching];
  const { unfound } = followed;
  const presented = new Map(input.evidence.presented);
  for (const party of found) {
    const fingerprint = matchFingerprint(party.checkType, party.entity.id);
    if (input.evidence.seenWithoutFacts.has(fingerprint) && !presented.has(fingerprint)) {
      presented.set(
        fingerprint,
        observationOf(party.checkType, party.entity, party.snapshotId, party.score, true),
      );
    }
  }
  const outcome = detectChanges({
    observed: config.observations,
    presented,
    reviews: input.evidence.reviews,
    found,
    unfound,
  });
  const summary = resultSummary(outcome.counts, snapshots);
  const events: MonitoringEvent[] = [
    started,
    {
      type: 'MonitoringRunCompleted',
      data: {
        runId,
        subject: input.subject,
        screeningProfileId: input.profile.id,
        threshold: input.profile.threshold,
        snapshots,
        result: outcome.result,
        resultSummary: summary,
        counts: outcome.counts,
        matches: found.map((party) => ({ checkType: party.checkType, match: party.match })),
        observations: outcome.observations,
        occurredAt: now,
      },
    },
  ];
  const raised = outcome.alerts.map((alert) => ({ alert, id: alertId(runId, alert.fingerprint) }));
  for (const { alert, id } of raised) events.push(alertRaised(id, runId, alert, now));
  for (const { alert, id } of raised) {
    if (alert.noActionNote !== null) {
      events.push({
        type: 'MonitoringAlertResolved',
        data: { alertId: id, resolution: 'no_action_required', note: alert.noActionNote, occurredAt: now },
      });
    }
  }
  const actionable = raised.filter(({ alert }) => alert.noActionNote === null).map(({ id }) => id);
  if (actionable.length > 0) {
    events.push({ type: 'FollowUpCaseRequested', data: { runId, alertIds: actionable, occurredAt: now } });
  }
  return events;
}

function alertRaised(id: string, runId: string, alert: DetectedAlert, now: string): MonitoringEvent {
  return {
    type: 'MonitoringAlertRaised',
    data: {
      alertId: id,
      runId,
      kind: alert.kind,
      checkType: alert.checkType,
      fingerprint: alert.fingerprint,
      entityId: alert.entityId,
      displayName: alert.displayName,
      source: alert.source,
      score: alert.score,
      changeSummary: alert.changeSummary,
      changes: alert.changes,
      previous: alert.previous,
      current: alert.current,
      currentMatch: alert.currentMatch,
      actionable: alert.noActionNote === null,
      occurredAt: now,
    },
  };
}

/** The matches of each check type at or above the threshold, among the planned snapshots. */
function findParties(
  index: ScreeningIndex,
  input: RunInput,
  snapshots: readonly SnapshotUsed[],
): FoundParty[] {
  const subject = screeningSubjectOf(input.subject);
  const found: FoundParty[] = [];
  for (const checkType of input.config.checkTypes) {
    const matches = index.search(subject, {
      profile: input.profile,
      checkTypes: [checkType],
      limit: Number.MAX_SAFE_INTEGER,
    });
    const planned = new Set(snapshots.map((snapshot) => snapshot.id));
    const kept = matches.filter((match) => match.snapshotId !== null && planned.has(match.snapshotId));
    const recorded = foundMatchesOf(input.runId, kept, snapshots, input.profile.maxMatches);
    recorded.forEach((match, i) => {
      const party = kept[i]!;
      found.push({
        checkType,
        entity: party.entity,
        snapshotId: party.snapshotId,
        score: match.score,
        match,
      });
    });
  }
  return found;
}

/**
 * What became of every observed party the search did not return: scored on its own over all its
 * names, so a party the candidate search passed over (or the profile's maximum cut) is still
 * followed and, when it still reaches the threshold, still a match; delisted when the current list
 * of its dataset no longer holds it for the check type; not screened when its dataset or check type
 * is no longer part of the run.
 */
function followObserved(
  index: ScreeningIndex,
  input: RunInput,
  snapshots: readonly SnapshotUsed[],
  found: readonly FoundParty[],
): { unfound: Map<string, Unfound>; stillMatching: FoundParty[] } {
  const planned = new Set(snapshots.map((snapshot) => snapshot.id));
  const stillMatching: FoundParty[] = [];
  const subject = screeningSubjectOf(input.subject);
  const foundIds = new Set(found.map((party) => `${party.checkType}\n${party.entity.id}`));
  const screenedDatasets = new Set(snapshots.map((snapshot) => snapshot.dataset));
  const unfound = new Map<string, Unfound>();
  for (const observation of Object.values(input.config.observations)) {
    if (foundIds.has(`${observation.checkType}\n${observation.entityId}`)) continue;
    const dataset = observation.entityId.slice(0, observation.entityId.indexOf(':'));
    if (!input.config.checkTypes.includes(observation.checkType) || !screenedDatasets.has(dataset)) {
      unfound.set(observation.fingerprint, { kind: 'not_screened' });
      continue;
    }
    const scored = index.scoreParty(subject, observation.entityId, input.profile);
    if (!scored || !scored.checkTypes.includes(observation.checkType)) {
      unfound.set(observation.fingerprint, { kind: 'delisted' });
      continue;
    }
    if (scored.snapshotId === null || !planned.has(scored.snapshotId)) {
      unfound.set(observation.fingerprint, { kind: 'not_screened' });
      continue;
    }
    if (scored.explanation.score >= input.profile.threshold) {
      const rank = found.filter((party) => party.checkType === observation.checkType).length + 1;
      const [match] = foundMatchesOf(input.runId, [scored], snapshots, 1);
      stillMatching.push({
        checkType: observation.checkType,
        entity: scored.entity,
        snapshotId: scored.snapshotId,
        score: match!.score,
        match: {
          ...match!,
          rank: rank + stillMatching.filter((p) => p.checkType === observation.checkType).length,
        },
      });
      continue;
    }
    unfound.set(observation.fingerprint, {
      kind: 'below_threshold',
      entity: scored.entity,
      snapshotId: scored.snapshotId,
      score: scored.explanation.score,
    });
  }
  return { unfound, stillMatching };
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 'es'}`;
}

export function resultSummary(
  counts: { matchCount: number; newMatchCount: number; changedMatchCount: number },
  snapshots: readonly SnapshotUsed[],
): string {
  const lists = snapshots.map((snapshot) => `${snapshot.dataset} v${snapshot.version}`).join(', ');
  const changes =
    counts.newMatchCount + counts.changedMatchCount === 0
      ? 'no change'
      : [
          ...(counts.newMatchCount ? [`${counts.newMatchCount} new`] : []),
          ...(counts.changedMatchCount ? [`${counts.changedMatchCount} changed`] : []),
        ].join(', ');
  return `${plural(counts.matchCount, 'match')}, ${changes}, against ${lists}.`;
}
