import { type BirthDateComparison, compareBirthDates } from './birthDates.js';
import { type CountryComparison, compareCountries } from './countries.js';
import { compareIdentifiers, type IdentifierComparison } from './identifiers.js';
import type { ScreeningSubject } from './query.js';
import type { ScoringEntity } from './scoreEntity.js';
import { SCORE_WEIGHTS } from './scoreWeights.js';

/**
 * The score of a match as a table of features (docs/screening-matching.md, "The score of a match"),
 * in the manner of nomenklatura's logic-v2 feature list: each feature compares one kind of evidence,
 * weighs what it found, and says whether it is a qualifier. Adding evidence is one entry here: its
 * comparison, its weights, the line a reviewer reads; `explainMatch` lists every feature that fired
 * with what it added or took away.
 *
 *   score = clamp(Σ feature values, 0, 1), lifted to a feature's floor where one sets it
 *
 * The name's value is its weight times the best name score (scoreEntity.ts finds the best name);
 * a qualifier only adds to or takes from what the name earned: on its own it never makes a match.
 */
export type FeatureName = 'name' | 'birth_date' | 'country' | 'identifier';

/** What a feature reads: the subject, the listed party's evidence fields, the best name's score. */
export interface FeatureInput {
  subject: ScreeningSubject;
  entity: Omit<ScoringEntity, 'names'>;
  nameScore: number;
}

interface ScoringFeature<Comparison> {
  name: FeatureName;
  /** Adjusts the score the name earned, rather than carrying a match itself. */
  qualifier: boolean;
  compare(input: FeatureInput): Comparison;
  /** What it adds to the score (negative: takes away). */
  value(comparison: Comparison, input: FeatureInput): number;
  /** The least the whole score may be when this comparison holds (an agreeing identifier). */
  floor?(comparison: Comparison): number | undefined;
  /** For the reviewer: what was found (`explainMatch` adds the name's wording). */
  detail(comparison: Comparison): string;
}

/** One feature's part in one score. */
export interface FeatureOutcome {
  feature: FeatureName;
  value: number;
  detail: string;
}

/**
 * An entry of the table with its comparison type erased; `feature()` builds one from a definition
 * whose parts agree on that type, so the casts below never mix two features' comparisons.
 */
type TableEntry = ScoringFeature<unknown>;

function feature<Comparison>(definition: ScoringFeature<Comparison>): TableEntry {
  return definition as unknown as TableEntry;
}

export const SCORING_FEATURES: readonly TableEntry[] = [
  feature<number>({
    name: 'name',
    qualifier: false,
    compare: (input) => input.nameScore,
    value: (nameScore) => SCORE_WEIGHTS.name * nameScore,
    detail: (nameScore) => `scores ${Math.round(nameScore * 1000) / 1000}`,
  }),
  feature<BirthDateComparison>({
    name: 'birth_date',
    qualifier: true,
    compare: (input) => compareBirthDates(input.subject.birthDate, input.entity.birthDates),
    value: (comparison) => SCORE_WEIGHTS.birthDate[comparison.outcome],
    detail: (comparison) => `birth date ${comparison.outcome.replace('_', ' ')}`,
  }),
  feature<CountryComparison>({
    name: 'country',
    qualifier: true,
    compare: (input) => compareCountries(input.subject.countries, input.entity.countries),
    value: (comparison) => SCORE_WEIGHTS.country[comparison.outcome],
    detail: (comparison) =>
      comparison.outcome === 'agree' ? `shared country ${comparison.shared.join(', ')}` : 'no shared country',
  }),
  feature<IdentifierComparison>({
    name: 'identifier',
    qualifier: false,
    compare: (input) => compareIdentifiers(input.subject.identifiers, input.entity.identifiers),
    value: (comparison) => SCORE_WEIGHTS.identifier[comparison.outcome],
    // A renamed vessel or company is still found by its IMO or registration number.
    floor: (comparison) => (comparison.outcome === 'agree' ? SCORE_WEIGHTS.identifierFloor : undefined),
    detail: (comparison) =>
      comparison.outcome === 'agree'
        ? `identifier agrees: ${comparison.record} (a strong match whatever the name)`
        : `identifier differs: ${comparison.record}`,
  }),
];

/**
 * Every feature's part in the score, for the explanation. A floor's lift is the value of the
 * feature that set it, so the parts always add up to the score before clamping.
 */
export function scoreFeatures(input: FeatureInput): FeatureOutcome[] {
  const { compared, values } = evaluate(input);
  return SCORING_FEATURES.map((entry, i) => ({
    feature: entry.name,
    value: values[i]!,
    detail: entry.detail(compared[i]),
  }));
}

/** The score the features add up to, in [0, 1]: `scoreFeatures` summed, without the explanation. */
export function featureScore(input: FeatureInput): number {
  let total = 0;
  for (const value of evaluate(input).values) total += value;
  return Math.min(1, Math.max(0, total));
}

/** Each feature's comparison and value, each floor's shortfall added to the feature that set it. */
function evaluate(input: FeatureInput): { compared: unknown[]; values: number[] } {
  const compared: unknown[] = [];
  const values: number[] = [];
  let total = 0;
  for (const entry of SCORING_FEATURES) {
    const comparison = entry.compare(input);
    const value = entry.value(comparison, input);
    compared.push(comparison);
    values.push(value);
    total += value;
  }
  for (let i = 0; i < SCORING_FEATURES.length; i++) {
    const floor = SCORING_FEATURES[i]!.floor?.(compared[i]);
    if (floor === undefined || total >= floor) continue;
    values[i]! += floor - total;
    total = floor;
  }
  return { compared, values };
}
