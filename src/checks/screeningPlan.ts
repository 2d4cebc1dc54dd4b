import type { CaseSubject, FoundMatch, SnapshotUsed } from '../cases/caseEvents.js';
import { matchId } from '../cases/references.js';
import type { CheckType } from '../screening/checkTypes.js';
import type { ScreeningMatch } from '../screening/index/screeningIndex.js';
import type { EntityIdentifier } from '../screening/model/listedEntity.js';
import type { ScreeningProfile } from '../screening/scoring/profiles.js';
import type { ScreeningSubject } from '../screening/scoring/query.js';
import { subjectCountryOf } from '../screening/scoring/subjectInput.js';
import type { ReadySnapshot } from '../screening/snapshots/snapshotStore.js';
import { availabilityOf } from '../screening/snapshots/sourceAvailability.js';
import { formatDuration } from '../screening/snapshots/staleness.js';

/**
 * The pure parts of screening one check (docs/check-runner.md): the case's subject as the matcher
 * reads it, which snapshots a check may be screened against (or why it cannot be screened), and
 * the matches as the case records them.
 */

/** At most this many identifiers are read from a subject's metadata. */
export const MAX_SUBJECT_IDENTIFIERS = 20;

/**
 * The subject snapshot of a case as a ScreeningSubject. The API's subject has no identifiers field;
 * a caller can pass them as `subject.metadata.identifiers`: an array of `{scheme, value}` objects
 * (`{"scheme": "imo", "value": "9123456"}`; `country` optional). Other shapes are ignored, as are
 * items without a non-empty string value; a scheme is lower-cased, and `other` when absent.
 */
export function screeningSubjectOf(subject: CaseSubject): ScreeningSubject {
  const countries = [
    ...new Set(subject.countries.map(subjectCountryOf).filter((code) => code !== undefined)),
  ];
  return {
    name: subject.displayName,
    kind: subject.type,
    ...(subject.birthDate && { birthDate: { ...subject.birthDate } }),
    countries,
    identifiers: identifiersFromMetadata(subject.metadata),
  };
}

export function identifiersFromMetadata(
  metadata: Record<string, unknown> | null | undefined,
): EntityIdentifier[] {
  const list = metadata?.identifiers;
  if (!Array.isArray(list)) return [];
  const identifiers: EntityIdentifier[] = [];
  for (const item of list) {
    if (identifiers.length === MAX_SUBJECT_IDENTIFIERS) break;
    if (typeof item !== 'object' || item === null) continue;
    const { scheme, value, country } = item as Record<string, unknown>;
    if (typeof value !== 'string' || value.trim() === '') continue;
    const schemeText =
      typeof scheme === 'string' && /^[a-z_]+$/i.test(scheme.trim()) ? scheme.trim() : 'other';
    const countryCode = typeof country === 'string' ? subjectCountryOf(country) : undefined;
    identifiers.push({
      scheme: schemeText.toLowerCase(),
      value: value.trim(),
      ...(countryCode && { country: countryCode }),
    });
  }
  return identifiers;
}

export type CheckPlan =
  | { ok: true; snapshots: SnapshotUsed[] }
  | { ok: false; failureReason: string; staleDatasets: string[] };

/**
 * The snapshots a check of this type is screened against: the current snapshots that provide the
 * type (hold entities with one of its topics) and, for a profile restricted to some datasets, are
 * of one of them. The check can run only when at least one such snapshot exists and none of them is
 * stale: the availability rule of the sources (`availabilityOf`, docs/screening-sources.md), the
 * one POST /v1/cases applies when the case is created, applied again when the check runs. Otherwise
 * the failure reason starts with `source_unavailable:` and names the stale datasets.
 */
export function planCheck(input: {
  checkType: CheckType;
  profile: ScreeningProfile;
  current: readonly ReadySnapshot[];
  now: Date;
  staleAfterMs: number;
}): CheckPlan {
  const { checkType, profile, current, now, staleAfterMs } = input;
  const [availability] = availabilityOf(current, [checkType], now, staleAfterMs, profile.datasets);
  if (availability!.available) return { ok: true, snapshots: availability!.snapshots };
  const stale = availability!.staleSnapshots.map(
    (ref) => current.find((snapshot) => snapshot.id === ref.id)!,
  );
  if (stale.length > 0) {
    const named = stale.map((snapshot) => {
      const dated = snapshot.publishedAt
        ? `published ${snapshot.publishedAt.toISOString().slice(0, 10)}`
        : 'no publication date';
      return `${snapshot.dataset} (version ${snapshot.version}, ${dated})`;
    });
    return {
      ok: false,
      failureReason: `source_unavailable: ${checkType} sources older than ${formatDuration(staleAfterMs)}: ${named.join(', ')}`,
      staleDatasets: stale.map((snapshot) => snapshot.dataset),
    };
  }
  const scope = profile.datasets
    ? ` among the datasets of screening profile ${profile.id} (${profile.datasets.join(', ')})`
    : '';
  return {
    ok: false,
    failureReason: `source_unavailable: no current source list provides ${checkType} screening${scope}`,
    staleDatasets: [],
  };
}

/** The name the publisher lists the party under. */
function primaryName(match: ScreeningMatch): string {
  return match.entity.names.find((name) => name.kind === 'primary')?.full ?? match.explanation.matchedName;
}

/**
 * The matches a check records, best first, ranked from 1: only parties of the snapshots searched
 * (an index built earlier may hold others), at most `maxMatches`.
 */
export function foundMatchesOf(
  checkReference: string,
  matches: readonly ScreeningMatch[],
  searched: readonly SnapshotUsed[],
  maxMatches: number,
): FoundMatch[] {
  const snapshotIds = new Set(searched.map((snapshot) => snapshot.id));
  return matches
    .filter((match) => match.snapshotId !== null && snapshotIds.has(match.snapshotId))
    .slice(0, maxMatches)
    .map((match, index) => ({
      matchId: matchId(checkReference, match.entity.id),
      rank: index + 1,
      displayName: primaryName(match),
      score: match.explanation.score,
      matchedEntityId: match.entity.id,
      matchType: match.explanation.matchType,
      reason: { ...match.explanation.reason },
      sources: match.entity.sources.map(({ name, url, dataset, priority }) => ({
        name,
        url,
        dataset,
        priority,
      })),
      sourceRecordRef: match.entity.sourceRecordRef || null,
      sourceSnapshotId: match.snapshotId,
      supportingFields: { ...match.explanation.supportingFields },
      topics: [...match.entity.topics],
      datasets: [...match.entity.datasets],
    }));
}
