/**
 * How an API resource states a match score where the spec asks for an integer (MonitoringAlert
 * `score`) and a band (`confidence_band`; its values are ours: docs/monitoring.md, "API"). The
 * scorer's scores are 0 to 1 with three decimals (docs/screening-matching.md); the integer is the
 * percentage, rounded.
 */

export type ConfidenceBand = 'high' | 'medium' | 'low';

export const CONFIDENCE_BANDS: readonly ConfidenceBand[] = ['high', 'medium', 'low'];

/** 0 to 1 -> 0 to 100; null stays null (a party that was not scored, e.g. delisted). */
export function apiScore(score: number | null): number | null {
  return score === null ? null : Math.round(score * 100);
}

/**
 * `high` from 0.9: an exact name alone scores 0.9, and an agreeing identifier lifts a match to at
 * least 0.9; `medium` from 0.75: a close name with some supporting evidence, or an exact one with
 * a contradiction; `low` below: a fuzzy or partial name near the reporting threshold (0.63 by
 * default). Bands of the score alone, the same for every profile, so they compare across checks.
 */
export function confidenceBand(score: number | null): ConfidenceBand | null {
  if (score === null) return null;
  if (score >= 0.9) return 'high';
  if (score >= 0.75) return 'medium';
  return 'low';
}
