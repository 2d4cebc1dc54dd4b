import { editBudget, weightedDistance } from './editDistance.js';
import type { NameToken } from './nameTokens.js';
import { areNicknames } from './vocabulary/personNames.js';

/**
 * How two tokens were found to be the same name part:
 * - exact: same text; spelling: known transliteration variants ("mohammed"/"muhammad") or the
 *   same particle or legal form in another spelling; nickname: a known diminutive ("bill"/"william");
 * - initial: a letter and a word starting with it; fuzzy: within the edit budget;
 * - phonetic: same double-metaphone code and a plausible spelling; script: consonant skeletons agree
 *   across an abjad transliteration ("mhmd"/"muhammad"); legal_family: legal forms of one family;
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
  initial: 0.9,
  phonetic: 0.8,
  legalFamily: 0.85,
  acronym: 0.85,
  /** Skeleton agreement across an abjad transliteration is discounted by this factor. */
  scriptFactor: 0.9,
  /** A phonetic match must still be plausible: weighted edits up to this share of the length. */
  phoneticPlausibility: 0.5,
} as const;

/** Caller-owned result, reused across calls so the comparison loop does not allocate. */
export interface TokenComparison {
  score: number;
  kind: TokenMatchKind;
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
  if (areNicknames(a.key, b.key) || areNicknames(a.text, b.text)) {
    out.score = TOKEN_SCORES.nickname;
    out.kind = 'nickname';
    return;
  }
  if (a.acronym || b.acronym) return;
  const length = Math.max(a.text.length, b.text.length);
  if (length > 2) {
    const budget = editBudget(length, fuzz.budgetFactor);
    const phonetic = fuzz.phonetic && sharePhoneticKey(a, b);
    const limit = phonetic ? Math.max(budget, TOKEN_SCORES.phoneticPlausibility * length) : budget;
    if (limit > 0 && Math.abs(a.text.length - b.text.length) * 0.3 <= limit) {
      const cost = weightedDistance(a.text, b.text, limit);
      if (cost <= budget) {
        out.score = 1 - cost / length;
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

/** Arabic or Hebrew transliterated without short vowels meets a Latin spelling on its consonants. */
function compareSkeletons(a: NameToken, b: NameToken, fuzz: Fuzziness, out: TokenComparison): void {
  const length = Math.max(a.skeleton.length, b.skeleton.length);
  if (length < 2) return;
  if (a.skeleton === b.skeleton) {
    const score = TOKEN_SCORES.scriptFactor;
    if (score > out.score) {
      out.score = score;
      out.kind = 'script';
    }
    return;
  }
  const budget = editBudget(length, fuzz.budgetFactor);
  if (budget <= 0) return;
  const cost = weightedDistance(a.skeleton, b.skeleton, budget);
  if (cost > budget) return;
  const score = TOKEN_SCORES.scriptFactor * (1 - cost / length);
  if (score > out.score) {
    out.score = score;
    out.kind = 'script';
  }
}

function sharePhoneticKey(a: NameToken, b: NameToken): boolean {
  for (const left of a.phonetic) {
    if (left.length < 2) continue;
    for (const right of b.phonetic) if (left === right) return true;
  }
  return false;
}
