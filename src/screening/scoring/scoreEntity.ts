import { type AlignedPart, alignedScore, compareNames } from '../matching/nameAlignment.js';
import { type PreparedName, prepareNames } from '../matching/preparedName.js';
import type { Fuzziness } from '../matching/tokenSimilarity.js';
import type {
  EntityIdentifier,
  EntityKind,
  ListedEntity,
  NameKind,
  PartialDateRange,
} from '../model/listedEntity.js';
import { type BirthDateComparison, compareBirthDates } from './birthDates.js';
import { type CountryComparison, compareCountries } from './countries.js';
import { compareIdentifiers, type IdentifierComparison } from './identifiers.js';
import type { ScreeningSubject } from './query.js';
import { SCORE_WEIGHTS } from './scoreWeights.js';
import { type FeatureName, featureScore, scoreFeatures } from './scoringFeatures.js';

/**
 * Scoring one listed party against a subject: the best of its names, then birth date, country and
 * identifier evidence (scoreWeights.ts). Pure: the index calls `scoreEntity` for every candidate
 * and `explainMatch` only for the few that reach the threshold.
 */

/**
 * What scoring reads of a listed party: its kind, the evidence fields and its names, prepared.
 * A ListedEntity with prepared names is one (prepareEntity); the screening index rebuilds one from
 * its compact arrays for each candidate, with only the names it found evidence for.
 */
export interface ScoringEntity {
  kind: EntityKind;
  birthDates: readonly PartialDateRange[];
  countries: readonly string[];
  identifiers: readonly EntityIdentifier[];
  names: readonly PreparedName[];
}

export function prepareEntity(entity: ListedEntity): ScoringEntity {
  return {
    kind: entity.kind,
    birthDates: entity.birthDates,
    countries: entity.countries,
    identifiers: entity.identifiers,
    names: prepareNames(entity.names, entity.kind),
  };
}

/** A subject with its name prepared for each kind of party it is compared with. */
export class PreparedSubject {
  private readonly names = new Map<EntityKind, readonly PreparedName[]>();

  constructor(readonly subject: ScreeningSubject) {}

  /**
   * The subject's name read as the subject's kind, or, for a subject of unknown kind, as the kind
   * of the party it is compared with: "SMITH, John" is read as a person's name against persons and
   * as a company's against companies. First the name, then its other readings (readingNames).
   */
  namesFor(listedKind: EntityKind): readonly PreparedName[] {
    const kind = this.subject.kind === 'unknown' ? listedKind : this.subject.kind;
    let names = this.names.get(kind);
    if (!names) {
      names = prepareNames([{ full: this.subject.name, kind: 'primary' }], kind);
      this.names.set(kind, names);
    }
    return names;
  }
}

/** The best name of a party for a subject. */
export interface NameMatch {
  /** Its score, after the weak-alias discount. */
  nameScore: number;
  /** Index into the candidate's `names`. */
  nameIndex: number;
}

export interface EntityScore extends NameMatch {
  score: number;
}

interface Evidence {
  birthDate: BirthDateComparison;
  country: CountryComparison;
  identifier: IdentifierComparison;
}

function gatherEvidence(subject: ScreeningSubject, entity: Omit<ScoringEntity, 'names'>): Evidence {
  return {
    birthDate: compareBirthDates(subject.birthDate, entity.birthDates),
    country: compareCountries(subject.countries, entity.countries),
    identifier: compareIdentifiers(subject.identifiers, entity.identifiers),
  };
}

function nameKindFactor(kind: NameKind): number {
  return kind === 'weak' ? SCORE_WEIGHTS.weakAlias : 1;
}

/** The best of the party's names for the subject: names alone, no other evidence. */
export function scoreNames(
  subject: PreparedSubject,
  kind: EntityKind,
  names: readonly PreparedName[],
  fuzziness: Fuzziness,
): NameMatch {
  const queries = subject.namesFor(kind);
  let nameScore = 0;
  let nameIndex = 0;
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    const factor = nameKindFactor(name.kind);
    // A weak alias cannot beat the best name so far unless it could score above it.
    if (factor <= nameScore) continue;
    for (const query of queries) {
      const score = alignedScore(query, name, fuzziness) * factor;
      if (score > nameScore) {
        nameScore = score;
        nameIndex = i;
        if (score === 1) return { nameScore, nameIndex };
      }
    }
  }
  return { nameScore, nameIndex };
}

/** The party's score: its best name (computed here unless given) and the other evidence. */
export function scoreEntity(
  subject: PreparedSubject,
  candidate: ScoringEntity,
  fuzziness: Fuzziness,
  names: NameMatch = scoreNames(subject, candidate.kind, candidate.names, fuzziness),
): EntityScore {
  return {
    ...names,
    score: featureScore({ subject: subject.subject, entity: candidate, nameScore: names.nameScore }),
  };
}

/**
 * - identifier: an identifier agrees (whatever the name);
 * - exact_name: every part of a name matches literally or as a known spelling variant;
 * - partial_name: the parts that match are exact, but one side has parts the other lacks
 *   (a missing middle name, an extra patronymic, a legal form);
 * - transliterated_name: the name meets across scripts (Cyrillic, Arabic, Chinese ...);
 * - fuzzy_name: typos, phonetic spellings, glued or split parts, initials, nicknames, acronyms,
 *   a disguised name read undisguised;
 * - weak_alias: the best name is a weak alias (evidence to weigh, never enough on its own).
 */
export type MatchType =
  | 'identifier'
  | 'exact_name'
  | 'partial_name'
  | 'transliterated_name'
  | 'fuzzy_name'
  | 'weak_alias';

/** Agreement of one subject field with the record; `partially_agreed` for near birth dates and partial names. */
export type FieldStatus = 'agreed' | 'partially_agreed' | 'disagreed' | 'missing';

export interface FieldSupport {
  status: FieldStatus;
  subject: unknown;
  record: unknown;
  detail?: string;
}

export interface FeatureContribution {
  feature: FeatureName;
  /** What it added to (or took from) the score. */
  value: number;
  detail: string;
}

/** The API's free-form `reason` of a match. */
export interface MatchReason {
  summary: string;
  /** Features that raised the score, largest first. */
  scored: FeatureContribution[];
  /** Features that lowered it. */
  penalised: FeatureContribution[];
  name: {
    score: number;
    subject_name: string;
    matched_name: string;
    matched_name_kind: NameKind;
    alignment: { subject: string | null; record: string | null; kind: string; score: number }[];
  };
}

export interface MatchExplanation {
  score: number;
  matchType: MatchType;
  matchedName: string;
  reason: MatchReason;
  supportingFields: Record<'name' | 'type' | 'birth_date' | 'countries' | 'identifiers', FieldSupport>;
}

const EXACT_KINDS = new Set(['exact', 'spelling', 'legal_family']);
const UNMATCHED_KINDS = new Set(['conflict', 'extra_query', 'extra_candidate']);
const BIRTH_DATE_STATUS: Record<BirthDateComparison['outcome'], FieldStatus> = {
  exact: 'agreed',
  month: 'agreed',
  year: 'agreed',
  swapped: 'partially_agreed',
  near: 'partially_agreed',
  day_conflict: 'disagreed',
  year_conflict: 'disagreed',
  missing: 'missing',
};
const OUTCOME_STATUS: Record<'agree' | 'conflict' | 'missing', FieldStatus> = {
  agree: 'agreed',
  conflict: 'disagreed',
  missing: 'missing',
};

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** The reading of the subject's name that scores best against the party's name. */
function bestReading(
  queries: readonly PreparedName[],
  name: PreparedName,
  fuzziness: Fuzziness,
): PreparedName {
  let best = queries[0]!;
  let bestScore = -1;
  for (const query of queries) {
    const score = queries.length === 1 ? 0 : alignedScore(query, name, fuzziness);
    if (score > bestScore) {
      best = query;
      bestScore = score;
    }
  }
  return best;
}

/** Everything a reviewer needs to see why a party matched: score, type, reason, supporting fields. */
export function explainMatch(
  subject: PreparedSubject,
  candidate: ScoringEntity,
  fuzziness: Fuzziness,
  scored: EntityScore = scoreEntity(subject, candidate, fuzziness),
): MatchExplanation {
  const name = candidate.names[scored.nameIndex]!;
  const readings = subject.namesFor(candidate.kind);
  const query = bestReading(readings, name, fuzziness);
  const { alignment } = compareNames(query, name, fuzziness);
  const evidence = gatherEvidence(subject.subject, candidate);
  const matchType = matchTypeOf(
    subject.subject.name,
    evidence,
    name,
    alignment,
    scored.nameScore,
    query !== readings[0],
  );

  const contributions: FeatureContribution[] = scoreFeatures({
    subject: subject.subject,
    entity: candidate,
    nameScore: scored.nameScore,
  }).map((outcome) => ({
    feature: outcome.feature,
    value: round(outcome.value),
    detail:
      outcome.feature === 'name'
        ? `${describeNameKind(name.kind)} "${name.full}" ${outcome.detail}`
        : outcome.detail,
  }));
  const positive = contributions.filter((c) => c.value > 0).sort((a, b) => b.value - a.value);
  const negative = contributions.filter((c) => c.value < 0).sort((a, b) => a.value - b.value);

  return {
    score: round(scored.score),
    matchType,
    matchedName: name.full,
    reason: {
      summary: [...positive, ...negative].map((c) => c.detail).join('; '),
      scored: positive,
      penalised: negative,
      name: {
        score: round(scored.nameScore),
        subject_name: subject.subject.name,
        matched_name: name.full,
        matched_name_kind: name.kind,
        alignment: alignment.map((part) => ({
          subject: part.query,
          record: part.candidate,
          kind: part.kind,
          score: round(part.score),
        })),
      },
    },
    supportingFields: {
      name: {
        status: nameStatus(matchType, scored.nameScore),
        subject: subject.subject.name,
        record: name.full,
        detail: matchType,
      },
      type: {
        status: subject.subject.kind === 'unknown' || candidate.kind === 'unknown' ? 'missing' : 'agreed',
        subject: subject.subject.kind,
        record: candidate.kind,
      },
      birth_date: {
        status: BIRTH_DATE_STATUS[evidence.birthDate.outcome],
        subject: evidence.birthDate.subject,
        record: candidate.birthDates.map((d) => (d.to ? `${d.from}/${d.to}` : d.from)),
        detail: evidence.birthDate.outcome,
      },
      countries: {
        status: OUTCOME_STATUS[evidence.country.outcome],
        subject: evidence.country.subject,
        record: evidence.country.record,
      },
      identifiers: {
        status: OUTCOME_STATUS[evidence.identifier.outcome],
        subject: subject.subject.identifiers.map((id) => `${id.scheme}:${id.value}`),
        record: candidate.identifiers.map((id) => `${id.scheme}:${id.value}`),
      },
    },
  };
}

/** An exact name agrees; one at least half-matching partly agrees; less (a renamed vessel found by its IMO) disagrees. */
function nameStatus(matchType: MatchType, nameScore: number): FieldStatus {
  if (matchType === 'exact_name') return 'agreed';
  return nameScore >= 0.5 ? 'partially_agreed' : 'disagreed';
}

function describeNameKind(kind: NameKind): string {
  switch (kind) {
    case 'primary':
      return 'listed name';
    case 'alias':
      return 'alias';
    case 'weak':
      return 'weak alias';
    case 'previous':
      return 'former name';
  }
}

const LATIN_OR_ASCII = /^[\p{Script=Latin}\p{N}\p{P}\p{Z}\p{S}]*$/u;

function matchTypeOf(
  subjectName: string,
  evidence: Evidence,
  name: PreparedName,
  alignment: readonly AlignedPart[],
  nameScore: number,
  subjectReadOtherwise: boolean,
): MatchType {
  if (evidence.identifier.outcome === 'agree' && nameScore < 0.9) return 'identifier';
  if (name.kind === 'weak') return 'weak_alias';
  const matched = alignment.filter((part) => !UNMATCHED_KINDS.has(part.kind));
  const crossScript = !LATIN_OR_ASCII.test(name.full) || !LATIN_OR_ASCII.test(subjectName);
  if (crossScript || matched.some((part) => part.kind === 'script')) return 'transliterated_name';
  // The subject's name met the party's only once undisguised ("nituP rimidalV", "Ig0r Sech1n").
  if (subjectReadOtherwise) return 'fuzzy_name';
  const exactParts = matched.every((part) => EXACT_KINDS.has(part.kind));
  const leftovers = matched.length < alignment.length;
  if (exactParts && !leftovers) return 'exact_name';
  if (exactParts) return 'partial_name';
  return 'fuzzy_name';
}
