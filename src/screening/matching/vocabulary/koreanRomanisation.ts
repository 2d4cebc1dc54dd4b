import { REMEMBERED_PARTS, remembered } from '../remembered.js';

/**
 * Korean names are romanised in McCune-Reischauer in most sanctions lists (North Korean parties:
 * "Pak Pong-ju", "Hwang Pyong-so", "Kang Sok-ju") and in Revised Romanization, which is what a
 * Hangul name transliterates to here ("박봉주" -> "bag bongju", "황병서" -> "hwang byeongseo"). The
 * two spell the same syllables with regular correspondences too far apart for an edit distance:
 * voicing (k/g, t/d, p/b, ch/j), ŏ and ŭ written o and u against eo and eu, a final k written g.
 *
 * `koreanKey` reads a token as Korean syllables (initial, vowel, optional final) in either system and
 * spells each in one coarse form shared by both, in capitals, so that it never equals a Chinese
 * key (chineseRomanisation.ts, lower case). The form is lossy (o and eo, u and eu, l and r merge),
 * which is why a key match scores as a spelling variant, and it is compared only between a name
 * written in Hangul and one written in Latin letters.
 */

/** Initials of both systems, longest first, with their shared form. */
const INITIALS: readonly (readonly [string, string])[] = [
  ['kk', 'K'],
  ['tt', 'T'],
  ['pp', 'P'],
  ['ss', 'S'],
  ['jj', 'C'],
  ['ch', 'C'],
  ['sh', 'S'],
  ['k', 'K'],
  ['g', 'K'],
  ['t', 'T'],
  ['d', 'T'],
  ['p', 'P'],
  ['b', 'P'],
  ['j', 'C'],
  ['s', 'S'],
  ['r', 'L'],
  ['l', 'L'],
  ['m', 'M'],
  ['n', 'N'],
  ['h', 'H'],
  ['', ''],
];

/** Vowels of both systems, longest first, with their shared form. */
const VOWELS: readonly (readonly [string, string])[] = [
  ['yae', 'YE'],
  ['yeo', 'YO'],
  ['wae', 'WE'],
  ['weo', 'WO'],
  ['eui', 'UI'],
  ['ya', 'YA'],
  ['yo', 'YO'],
  ['ye', 'YE'],
  ['yu', 'YU'],
  ['wa', 'WA'],
  ['wo', 'WO'],
  ['we', 'WE'],
  ['wi', 'WI'],
  ['oe', 'WE'],
  ['ui', 'UI'],
  ['ae', 'E'],
  ['eo', 'O'],
  ['eu', 'U'],
  ['a', 'A'],
  ['e', 'E'],
  ['o', 'O'],
  ['u', 'U'],
  ['i', 'I'],
];

/** Finals, longest first, with their shared form; '' for an open syllable. */
const FINALS: readonly (readonly [string, string])[] = [
  ['ng', 'NG'],
  ['k', 'K'],
  ['g', 'K'],
  ['n', 'N'],
  ['l', 'L'],
  ['r', 'L'],
  ['m', 'M'],
  ['p', 'P'],
  ['b', 'P'],
  ['t', 'T'],
  ['d', 'T'],
  ['s', 'T'],
  ['', ''],
];

const MAX_SYLLABLES = 4;

/**
 * The token read as at most four Korean syllables in a shared spelling ("bongju" and "pongju" ->
 * "PONG.CU."), or undefined when it is not made of such syllables.
 */
export function koreanKey(token: string): string | undefined {
  if (token.length === 0 || token.length > 16 || !/^[a-z]+$/.test(token)) return undefined;
  return segmented(token);
}

/** Names come back all the time: the same parts are segmented once. */
const segmented = remembered(REMEMBERED_PARTS, (token) => segment(token, 0, 0));

function segment(token: string, start: number, syllables: number): string | undefined {
  if (start === token.length) return syllables > 0 ? '' : undefined;
  if (syllables === MAX_SYLLABLES) return undefined;
  for (const [initial, sharedInitial] of INITIALS) {
    if (!token.startsWith(initial, start)) continue;
    const afterInitial = start + initial.length;
    for (const [vowel, sharedVowel] of VOWELS) {
      if (!token.startsWith(vowel, afterInitial)) continue;
      const afterVowel = afterInitial + vowel.length;
      for (const [final, sharedFinal] of FINALS) {
        if (!token.startsWith(final, afterVowel)) continue;
        const rest = segment(token, afterVowel + final.length, syllables + 1);
        if (rest !== undefined) return `${sharedInitial}${sharedVowel}${sharedFinal}.${rest}`;
      }
    }
  }
  return undefined;
}
