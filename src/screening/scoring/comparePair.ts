import { prepareNames } from '../matching/preparedName.js';
import type { EntityKind } from '../model/listedEntity.js';
import type { ScreeningProfile } from './profiles.js';
import { PreparedSubject, scoreEntity } from './scoreEntity.js';

/**
 * Two names of one kind compared as a screening would compare them: the first as the subject, the
 * second as a listed party's only name, with no other evidence. `casescreen compare` and the
 * matching benchmark score labelled pairs with it; a pair is predicted a match at the profile's
 * threshold, exactly as a screening would report it.
 */
export function scoreNamePair(
  kind: EntityKind,
  subjectName: string,
  listedName: string,
  profile: ScreeningProfile,
): { score: number; match: boolean } {
  const subject = new PreparedSubject({ name: subjectName, kind, countries: [], identifiers: [] });
  const listed = {
    kind,
    birthDates: [],
    countries: [],
    identifiers: [],
    names: prepareNames([{ full: listedName, kind: 'primary' }], kind),
  };
  const { score } = scoreEntity(subject, listed, profile.fuzziness);
  return { score: Math.round(score * 1000) / 1000, match: score >= profile.threshold };
}
