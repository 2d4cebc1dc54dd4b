import { COST, distanceLowerBound, editBudget, weightedDistance } from './editDistance.js';
import { consonantSkeleton, type NameToken } from './nameTokens.js';
import { areNicknames } from './vocabulary/personNames.js';

/**
 * How two tokens were found to be the same name part:
 * - exact: same text; spelling: known transliteration variants ("mohammed"/"muhammad"), the same
 *   Chinese syllables in pinyin and Wade-Giles ("tung"/"dong"), or the same particle or legal form
 *   in another spelling; nickname: a known diminutive ("bill"/"william", "bibi"/"binyamin");
 * - initial: a letter and a word starting with it; fuzzy: within the edit budget, or a near miss
 *   just past it (scored lower);
 * - phonetic: same primary double-metaphone code and a plausible spelling; script: consonant
 *   skeletons agree across an abjad transliteration ("mhmd"/"muhammad"); legal_family: legal
 *   forms of one family;
 * - merged: several tokens on one side glued into one on the other ("SergeiLavrov");
 * - acronym: a word spelled by the initials of several words ("U.S." / "United States").
 */
export type TokenMatchKind =
  | 'exact'
  | 'spelling'
  | 'nickname'
  | 'initial'
  | 'fuzzy'
  | 'phonetic'
  | 'script'
  | 'legal_family'
  | 'merged'
  | 'acronym';

export interface Fuzziness {
  /** Multiplies the edit budget of every token (1 = logic-v2's budget). */
  budgetFactor: number;
  /** Accept same-sounding spellings beyond the edit budget. */
  phonetic: boolean;
}

/** Scores of the non-literal ways two tokens can agree. */
export const TOKEN_SCORES = {
  spelling: 0.95,
  nickname: 0.85,
  /** The same Chinese syllables in pinyin and Wade-Giles ("Tse-tung" / "Zedong"). */
  romanisation: 0.85,
  initial: 0.9,
  phonetic: 0.8,
  legalFamily: 0.85,
  acronym: 0.85,
  /** Skeleton agreement across an abjad transliteration is discounted by this factor. */
  scriptFactor: 0.9,
  /**
   * Spellings whose distance exceeds the edit budget by less than this factor are a near miss:
   * their score falls linearly from the in-budget score to 0 at budget x factor.
   */
  nearMissFactor: 1.3,
  /** A phonetic match must still be plausible: weighted edits up to this share of the length. */
  phoneticPlausibility: 0.35,
} as const;

/** Caller-owned result, reused across calls so the comparison loop does not allocate. */
export interface TokenComparison {
  score: number;
  kind: TokenMatchKind;
}

/**
 * Everything of a token that compareTokens reads (the other fields it reads derive from the text):
 * two tokens with the same comparison identity compare alike with any third, so results can be
 * cached by it. Keep in step with compareTokens.
 */
export function comparisonIdentity(token: NameToken): string {
  return `${token.role}|${token.text}|${token.key}|${token.abjad ? 1 : 0}${token.acronym ? 1 : 0}|${token.sino}|${token.korean}|${token.legalFamily ?? ''}`;
}

export function compareTokens(a: NameToken, b: NameToken, fuzz: Fuzziness, out: TokenComparison): void {
  out.score = 0;
  out.kind = 'exact';
  const roleA = a.role;
  const roleB = b.role;
  const wordA = roleA === 'word' || roleA === 'patronymic';
  const wordB = roleB === 'word' || roleB === 'patronymic';
  if (wordA && wordB) {
    compareWords(a, b, fuzz, out);
    return;
  }
  if (roleA === 'initial' || roleB === 'initial') {
    if (roleA === 'initial' && roleB === 'initial') {
      if (a.text === b.text) out.score = 1;
      return;
    }
    const word = roleA === 'initial' ? b : a;
    const initial = roleA === 'initial' ? a : b;
    if ((word.role === 'word' || word.role === 'patronymic') && word.text[0] === initial.text) {
      out.score = TOKEN_SCORES.initial;
      out.kind = 'initial';
    }
    return;
  }
  if (roleA !== roleB) return;
  switch (roleA) {
    case 'number':
      if (a.key === b.key) out.score = 1;
      return;
    case 'legal':
      if (a.key === b.key) out.score = 1;
      else if (a.legalFamily !== undefined && a.legalFamily === b.legalFamily) {
        out.score = TOKEN_SCORES.legalFamily;
        out.kind = 'legal_family';
      }
      return;
    case 'particle':
      if (a.key === b.key) {
        out.score = a.text === b.text ? 1 : TOKEN_SCORES.spelling;
        out.kind = a.text === b.text ? 'exact' : 'spelling';
      }
      return;
    case 'stop':
      if (a.text === b.text) out.score = 1;
      return;
  }
}

function compareWords(a: NameToken, b: NameToken, fuzz: Fuzziness, out: TokenComparison): void {
  if (a.text === b.text) {
    out.score = 1;
    return;
  }
  if (a.key === b.key) {
    out.score = TOKEN_SCORES.spelling;
    out.kind = 'spelling';
    return;
  }
  if (areNicknames(a.key, b.key)) {
    out.score = TOKEN_SCORES.nickname;
    out.kind = 'nickname';
    return;
  }
  if (a.acronym || b.acronym) return;
  if ((a.sino !== '' && a.sino === b.sino) || sameKoreanSyllables(a.korean, b.korean)) {
    out.score = TOKEN_SCORES.romanisation;
    out.kind = 'spelling';
  }
  const length = Math.max(a.text.length, b.text.length);
  if (length >= 2) {
    // Even the shortest part may carry one doubled letter ("Yyu" / "Yu"), a slip of the key.
    const budget = Math.max(editBudget(length, fuzz.budgetFactor), COST.doubledLetter * fuzz.budgetFactor);
    const nearLimit = budget * TOKEN_SCORES.nearMissFactor;
    const phonetic = fuzz.phonetic && sharePhoneticKey(a, b);
    const limit = phonetic ? Math.max(nearLimit, TOKEN_SCORES.phoneticPlausibility * length) : nearLimit;
    if (limit > 0 && distanceLowerBound(a.letters, b.letters, a.text.length, b.text.length) <= limit) {
      const cost = weightedDistance(a.text, b.text, limit);
      if (cost <= budget) {
        if (1 - cost / length > out.score) {
          out.score = 1 - cost / length;
          out.kind = 'fuzzy';
        }
      } else if (cost <= nearLimit && out.score === 0) {
        // Just past the budget: weaker evidence that fades to nothing at the near-miss limit,
        // instead of logic-v2's cliff where one more edit turns a match into a conflict.
        out.score = (1 - cost / length) * ((nearLimit - cost) / (nearLimit - budget));
        out.kind = 'fuzzy';
      }
      if (phonetic && cost <= limit && out.score < TOKEN_SCORES.phonetic) {
        out.score = TOKEN_SCORES.phonetic;
        out.kind = 'phonetic';
      }
    }
  }
  if (a.abjad !== b.abjad) compareSkeletons(a, b, fuzz, out);
}

/**
 * Arabic or Hebrew transliterated without short vowels meets a Latin spelling on its consonants. A
 * Latin dh is read both ways: as the z of ذ and ظ (its skeleton), and as d and h (Adham, أدهم).
 */
function compareSkeletons(a: NameToken, b: NameToken, fuzz: Fuzziness, out: TokenComparison): void {
  compareSkeletonsAs(a, b, a.skeleton, b.skeleton, fuzz, out);
  const latin = a.abjad ? b : a;
  if (!latin.text.includes('dh')) return;
  const asLetters = consonantSkeleton(latin.text, true);
  if (latin === a) compareSkeletonsAs(a, b, asLetters, b.skeleton, fuzz, out);
  else compareSkeletonsAs(a, b, a.skeleton, asLetters, fuzz, out);
}

function compareSkeletonsAs(
  a: NameToken,
  b: NameToken,
  aSkeleton: string,
  bSkeleton: string,
  fuzz: Fuzziness,
  out: TokenComparison,
): void {
  const length = Math.max(aSkeleton.length, bSkeleton.length);
  // One consonant agrees only between the shortest words (علي "ly" / Ali): weaker evidence.
  const abjadText = a.abjad ? a.text : b.text;
  const latinText = a.abjad ? b.text : a.text;
  if (length < 2 && !(length === 1 && abjadText.length <= 2 && latinText.length <= 4)) return;
  if (aSkeleton === bSkeleton) {
    const score =
      length === 1 ? TOKEN_SCORES.scriptFactor * TOKEN_SCORES.phonetic : TOKEN_SCORES.scriptFactor;
    if (score > out.score) {
      out.score = score;
      out.kind = 'script';
    }
    return;
  }
  const budget = editBudget(length, fuzz.budgetFactor);
  if (budget <= 0) return;
  const cost = weightedDistance(aSkeleton, bSkeleton, budget);
  if (cost > budget) return;
  const score = TOKEN_SCORES.scriptFactor * (1 - cost / length);
  if (score > out.score) {
    out.score = score;
    out.kind = 'script';
  }
}

/**
 * The same Korean syllables, one side written in Hangul and the other in Latin letters: the only
 * pair the lossy key is compared for (two Latin names with its voicing merged would be too loose).
 */
/** A Korean key as the token of the other origin would carry it ('H...' for 'L...' and back). */
export function otherKoreanOrigin(korean: string): string {
  return `${korean[0] === 'H' ? 'L' : 'H'}${korean.slice(1)}`;
}

export function sameKoreanSyllables(a: string, b: string): boolean {
  return a !== '' && b !== '' && a[0] !== b[0] && a.slice(1) === b.slice(1);
}

/**
 * Same primary double-metaphone code. The secondary codes spell alternative, often foreign,
 * pronunciations ("Jong" as Spanish "Hong", "Jumul" as "Umul"): good enough to find candidates,
 * too loose to score a match.
 */
function sharePhoneticKey(a: NameToken, b: NameToken): boolean {
  const left = a.phonetic[0];
  return left !== undefined && left.length >= 2 && left === b.phonetic[0];
}
