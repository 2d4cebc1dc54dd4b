import type { BirthDateOutcome } from './birthDates.js';
import type { CountryOutcome } from './countries.js';
import type { IdentifierOutcome } from './identifiers.js';

/**
 * How evidence adds up to a match score (docs/screening-matching.md, "Score").
 *
 *   score = clamp(NAME × name score + birth date + country + identifier, 0, 1)
 *   and at least IDENTIFIER_FLOOR when an identifier agrees.
 *
 * The name carries at most 0.9, so the other evidence has room to rank hits: an exact name alone
 * scores 0.9, with the same birth year 0.93, with the same birth date and a shared country 0.99;
 * a different birth year costs 0.2. yente's logic-v2 gives every exact name 1.0, so its top hits
 * cannot be ranked; its penalties (country -0.2, birth year -0.15, birth day -0.25) are of the
 * same size as ours. Missing evidence is neutral: callers often know only a name.
 */
export const SCORE_WEIGHTS = {
  name: 0.9,
  /** A weak alias (OFAC "weak a.k.a.", UN low quality) counts at this share: evidence, not identity. */
  weakAlias: 0.8,
  birthDate: {
    exact: 0.06,
    month: 0.045,
    swapped: 0.02,
    year: 0.03,
    near: 0,
    day_conflict: -0.1,
    year_conflict: -0.2,
    missing: 0,
  } satisfies Record<BirthDateOutcome, number>,
  country: { agree: 0.03, conflict: -0.1, missing: 0 } satisfies Record<CountryOutcome, number>,
  identifier: { agree: 0.1, conflict: -0.3, missing: 0 } satisfies Record<IdentifierOutcome, number>,
  /** An agreeing identifier makes a strong match whatever the name (renamed vessels and companies). */
  identifierFloor: 0.9,
} as const;

/** The score of a name with no other evidence: what the profile thresholds are set against. */
export function nameOnlyScore(nameScore: number): number {
  return SCORE_WEIGHTS.name * nameScore;
}

/** The most that evidence besides the name can add: an exact birth date, a shared country, an identifier. */
export const MAX_EVIDENCE_GAIN =
  SCORE_WEIGHTS.birthDate.exact + SCORE_WEIGHTS.country.agree + SCORE_WEIGHTS.identifier.agree;
