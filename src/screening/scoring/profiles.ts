import { NAME_MATCH_THRESHOLD } from '../matching/nameAlignment.js';
import type { Fuzziness } from '../matching/tokenSimilarity.js';
import { nameOnlyScore } from './scoreWeights.js';

/**
 * Screening profiles: how wide a check casts its net, selected per case by
 * `checks.screening_profile_id` (docs/screening-matching.md, "Profiles"). A profile never changes
 * how a score is computed from the evidence, only which datasets are searched, how much spelling
 * difference a name part may carry, and where the reporting threshold lies; so scores stay
 * comparable across profiles.
 */
export interface ScreeningProfile {
  id: string;
  description: string;
  /** Matches scoring below this are not reported. */
  threshold: number;
  fuzziness: Fuzziness;
  /** Only entities of these datasets; undefined screens every current dataset. */
  datasets?: readonly string[];
  /** At most this many matches per check, best first. */
  maxMatches: number;
}

/** The threshold of the default profile: a name at the tuned name threshold with no other evidence. */
export const DEFAULT_THRESHOLD = Math.round(nameOnlyScore(NAME_MATCH_THRESHOLD) * 1000) / 1000;

export const DEFAULT_PROFILE_ID = 'default';

const PROFILES: readonly ScreeningProfile[] = [
  {
    id: DEFAULT_PROFILE_ID,
    description:
      'Every current dataset; spelling differences within the tuned edit budget and same-sounding spellings; the tuned threshold',
    threshold: DEFAULT_THRESHOLD,
    fuzziness: { budgetFactor: 1, phonetic: true },
    maxMatches: 50,
  },
  {
    id: 'strict',
    description:
      'Fewer, closer matches for high-volume flows: a smaller edit budget, no phonetic matches, a higher threshold',
    threshold: Math.round((DEFAULT_THRESHOLD + 0.1) * 1000) / 1000,
    fuzziness: { budgetFactor: 0.6, phonetic: false },
    maxMatches: 20,
  },
  {
    id: 'broad',
    description:
      'Enhanced due diligence: a larger edit budget and a lower threshold, accepting more matches to review',
    threshold: Math.round((DEFAULT_THRESHOLD - 0.1) * 1000) / 1000,
    fuzziness: { budgetFactor: 1.4, phonetic: true },
    maxMatches: 100,
  },
  {
    id: 'us-ofac',
    description: "OFAC's lists only (SDN and consolidated non-SDN), with the default matching",
    threshold: DEFAULT_THRESHOLD,
    fuzziness: { budgetFactor: 1, phonetic: true },
    datasets: ['us_ofac_sdn', 'us_ofac_cons'],
    maxMatches: 50,
  },
];

const BY_ID: ReadonlyMap<string, ScreeningProfile> = new Map(
  PROFILES.map((profile) => [profile.id, profile]),
);

export function listProfiles(): readonly ScreeningProfile[] {
  return PROFILES;
}

/** The profile with this id; null or undefined selects the default; an unknown id gives undefined. */
export function findProfile(id: string | null | undefined): ScreeningProfile | undefined {
  return BY_ID.get(id ?? DEFAULT_PROFILE_ID);
}

export function defaultProfile(): ScreeningProfile {
  return BY_ID.get(DEFAULT_PROFILE_ID)!;
}
