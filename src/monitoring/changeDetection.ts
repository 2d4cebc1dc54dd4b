import type { FoundMatch, ReviewStatus } from '../cases/caseEvents.js';
import type { CheckType } from '../screening/checkTypes.js';
import type { ListedEntity } from '../screening/model/listedEntity.js';
import {
  changeSummary,
  factChanges,
  MATERIAL_FIELDS,
  type MaterialField,
  materialFactsOf,
} from './materialChanges.js';
import type { AlertKind, FieldChange, Observation, RunCounts } from './monitoringEvents.js';
import { matchFingerprint } from './monitoringReferences.js';

/**
 * What changed for one configuration between what it had observed and what a run finds
 * (docs/monitoring.md, "Change detection" and "Resolution policy"). Pure: the run gathers the
 * facts (matches, the parties it no longer matches, the reviews), this decides.
 */

/** A party the run found at or above the threshold. */
export interface FoundParty {
  checkType: CheckType;
  entity: ListedEntity;
  snapshotId: string | null;
  score: number;
  match: FoundMatch;
}

/** What became of an observed party the run did not find at or above the threshold. */
export type Unfound =
  /** Its dataset was not screened (check type dropped, dataset retired or excluded): left as it is. */
  | { kind: 'not_screened' }
  /** The current list no longer holds it (for this check type): a delisting. */
  | { kind: 'delisted' }
  /** Still listed, scored below the threshold. */
  | { kind: 'below_threshold'; entity: ListedEntity; snapshotId: string | null; score: number };

export interface ChangeInput {
  /** The config's observations before the run, by fingerprint. */
  observed: Readonly<Record<string, Observation>>;
  /** Matches presented in the subject's cases in the group, as observations of the party then. */
  presented: ReadonlyMap<string, Observation>;
  /** The latest review of each fingerprint in those cases (`confirmed_match` wins over the others). */
  reviews: ReadonlyMap<string, ReviewStatus>;
  found: readonly FoundParty[];
  /** For every observed fingerprint not in `found`. */
  unfound: ReadonlyMap<string, Unfound>;
}

export interface DetectedAlert {
  kind: AlertKind;
  fingerprint: string;
  checkType: CheckType;
  entityId: string;
  displayName: string;
  source: Observation['source'];
  score: number | null;
  changeSummary: string;
  changes: FieldChange[];
  previous: Observation | null;
  current: Observation | null;
  currentMatch: FoundMatch | null;
  /** Null when a reviewer should look; otherwise why no action is needed (resolution_note). */
  noActionNote: string | null;
}

export interface ChangeOutcome {
  alerts: DetectedAlert[];
  counts: RunCounts;
  result: 'no_change' | 'new_matches' | 'changed_matches';
  /** Every observation after the run. */
  observations: Observation[];
}

export function detectChanges(input: ChangeInput): ChangeOutcome {
  const alerts: DetectedAlert[] = [];
  const after = new Map<string, Observation>(Object.entries(input.observed));
  let unchanged = 0;

  for (const party of input.found) {
    const fingerprint = matchFingerprint(party.checkType, party.entity.id);
    const current = observationOf(party.checkType, party.entity, party.snapshotId, party.score, true);
    const previous = input.observed[fingerprint] ?? input.presented.get(fingerprint) ?? null;
    after.set(fingerprint, current);
    if (!previous) {
      alerts.push(
        alert('new_match', current, null, party.match, [], `New match: ${describe(current)}.`, null),
      );
      continue;
    }
    const changes = factChanges(previous.facts, current.facts);
    const relisted = !previous.listed;
    const crossedUp = !previous.aboveThreshold;
    const notRelevant = input.reviews.get(fingerprint) === 'not_relevant';
    if (changes.length === 0 && !relisted && (!crossedUp || notRelevant)) {
      unchanged++;
      continue;
    }
    const listing = relisted ? [{ field: 'listed', previous: 'delisted', current: 'listed' }] : [];
    const scoreChange =
      crossedUp && changes.length === 0 && !relisted
        ? [{ field: 'score', previous: formatScore(previous.score), current: formatScore(current.score) }]
        : [];
    const all = [...listing, ...changes, ...scoreChange];
    alerts.push(alert('changed_match', current, previous, party.match, all, summarize(current, all), null));
  }

  const foundFingerprints = new Set(
    input.found.map((party) => matchFingerprint(party.checkType, party.entity.id)),
  );
  for (const [fingerprint, previous] of Object.entries(input.observed)) {
    if (foundFingerprints.has(fingerprint)) continue;
    const fate = input.unfound.get(fingerprint) ?? { kind: 'not_screened' };
    const notRelevant = input.reviews.get(fingerprint) === 'not_relevant';
    if (fate.kind === 'not_screened') continue;
    if (fate.kind === 'delisted') {
      if (!previous.listed) continue;
      const current: Observation = { ...previous, listed: false, score: null, aboveThreshold: false };
      after.set(fingerprint, current);
      const changes = [{ field: 'listed', previous: 'listed', current: 'delisted' }];
      const note = notRelevant
        ? 'The listed party was removed from the list, and the match had been reviewed not relevant: nothing to review.'
        : null;
      alerts.push(
        alert('changed_match', current, previous, null, changes, summarize(current, changes), note),
      );
      continue;
    }
    const current = observationOf(previous.checkType, fate.entity, fate.snapshotId, fate.score, false);
    after.set(fingerprint, current);
    const changes = factChanges(previous.facts, current.facts);
    const crossedDown = previous.aboveThreshold;
    if (changes.length === 0 && (!crossedDown || notRelevant)) continue;
    if (changes.length === 0) {
      const scoreChange = [
        { field: 'score', previous: formatScore(previous.score), current: formatScore(fate.score) },
      ];
      const note =
        'The match now scores below the threshold and nothing material changed: nothing to review.';
      alerts.push(
        alert('changed_match', current, previous, null, scoreChange, summarize(current, scoreChange), note),
      );
      continue;
    }
    // Below the threshold now, but the party itself changed: a reviewer decides whether it still matters.
    if (crossedDown || notRelevant) {
      alerts.push(
        alert('changed_match', current, previous, null, changes, summarize(current, changes), null),
      );
    }
  }

  const newCount = alerts.filter((a) => a.kind === 'new_match').length;
  const changedCount = alerts.length - newCount;
  return {
    alerts,
    counts: {
      matchCount: input.found.length,
      newMatchCount: newCount,
      changedMatchCount: changedCount,
      unchangedMatchCount: unchanged,
    },
    result: newCount > 0 ? 'new_matches' : changedCount > 0 ? 'changed_matches' : 'no_change',
    observations: [...after.values()].sort((a, b) => a.fingerprint.localeCompare(b.fingerprint)),
  };
}

function alert(
  kind: AlertKind,
  current: Observation,
  previous: Observation | null,
  currentMatch: FoundMatch | null,
  changes: FieldChange[],
  changeSummary: string,
  noActionNote: string | null,
): DetectedAlert {
  return {
    kind,
    fingerprint: current.fingerprint,
    checkType: current.checkType,
    entityId: current.entityId,
    displayName: current.displayName,
    source: current.source,
    score: current.score,
    changeSummary,
    changes,
    previous,
    current,
    currentMatch,
    noActionNote,
  };
}

export function observationOf(
  checkType: CheckType,
  entity: ListedEntity,
  snapshotId: string | null,
  score: number | null,
  aboveThreshold: boolean,
): Observation {
  return {
    fingerprint: matchFingerprint(checkType, entity.id),
    checkType,
    entityId: entity.id,
    displayName:
      entity.names.find((name) => name.kind === 'primary')?.full ?? entity.names[0]?.full ?? entity.id,
    source: { name: entity.sources[0]?.name ?? null, recordReference: entity.sourceRecordRef || null },
    facts: materialFactsOf(entity),
    score,
    aboveThreshold,
    listed: true,
    snapshotId,
  };
}

function describe(observation: Observation): string {
  const source = observation.source.name ? ` on ${observation.source.name}` : '';
  return `${observation.displayName}${source} (${observation.checkType})`;
}

const formatScore = (score: number | null) => (score === null ? null : String(Math.round(score * 100)));

/** One sentence: what changed for which party (materialChanges.ts words the material fields). */
export function summarize(current: Observation, changes: readonly FieldChange[]): string {
  const delisted = changes.some((change) => change.field === 'listed' && change.current === 'delisted');
  const material = changes.filter((change): change is MaterialChange => isMaterial(change.field));
  const extra = changes.flatMap((change) => {
    if (change.field === 'listed' && change.current === 'listed') return ['listed again'];
    if (change.field === 'score') return [`score moved from ${change.previous} to ${change.current}`];
    return [];
  });
  const sentence = changeSummary(material, { displayName: describe(current), delisted });
  if (extra.length === 0) return `Changed match: ${sentence}`;
  const body =
    material.length === 0 && !delisted
      ? sentence.replace(/no material change\.$/, '')
      : `${sentence.slice(0, -1)}; `;
  return `Changed match: ${body}${extra.join('; ')}.`;
}

type MaterialChange = Parameters<typeof changeSummary>[0][number];
const isMaterial = (field: string): field is MaterialField =>
  (MATERIAL_FIELDS as readonly string[]).includes(field);
