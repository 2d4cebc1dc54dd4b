import { REMEMBERED_PARTS, remembered } from '../remembered.js';

/**
 * Chinese names are romanised in Hanyu Pinyin today and in Wade-Giles in older lists and press
 * ("Mao Tse-tung" / "Mao Zedong", "Teng Hsiao-p'ing" / "Deng Xiaoping", "Chou En-lai" / "Zhou
 * Enlai"). The two systems spell the same syllables with regular correspondences, too far apart
 * for an edit distance (ts/z, hs/x, ch/zh/j/q, t/d, k/g, p/b, -ung/-ong, -ieh/-ie, -ien/-ian).
 *
 * `sinoKey` reads a token as a sequence of syllables of either system and spells each in one
 * coarse form shared by both. The form is lossy: Wade-Giles marks aspiration with an apostrophe
 * that normalisation drops, so "t'ang" and "tang" (pinyin tang and dang) cannot be told apart, and
 * the key merges them. That is why a key match scores as a spelling variant, not as equality.
 */

/** Initials of both systems, longest first, with their shared form. */
const INITIALS: readonly (readonly [string, string])[] = [
  ['zh', 'j'],
  ['ch', 'j'],
  ['sh', 'sh'],
  ['hs', 'x'],
  ['ts', 'z'],
  ['tz', 'z'],
  ['ss', 's'],
  ['sz', 's'],
  ['b', 'b'],
  ['p', 'b'],
  ['m', 'm'],
  ['f', 'f'],
  ['d', 'd'],
  ['t', 'd'],
  ['n', 'n'],
  ['l', 'l'],
  ['g', 'g'],
  ['k', 'g'],
  ['h', 'h'],
  ['j', 'j'],
  ['q', 'j'],
  ['x', 'x'],
  ['r', 'r'],
  ['z', 'z'],
  ['c', 'z'],
  ['s', 's'],
  ['y', 'y'],
  ['w', 'w'],
  ['', ''],
];

/** Finals of both systems, longest first, with their shared form. */
const FINALS: readonly (readonly [string, string])[] = [
  ['iang', 'iang'],
  ['iong', 'iong'],
  ['iung', 'iong'],
  ['uang', 'uang'],
  ['ueng', 'ueng'],
  ['ang', 'ang'],
  ['eng', 'eng'],
  ['ing', 'ing'],
  ['ong', 'ong'],
  ['ung', 'ong'],
  ['iao', 'iao'],
  ['ian', 'ian'],
  ['ien', 'ian'],
  ['ieh', 'ie'],
  ['uai', 'uai'],
  ['uan', 'uan'],
  ['uei', 'ui'],
  ['ueh', 'ue'],
  ['erh', 'er'],
  ['ai', 'ai'],
  ['ei', 'ei'],
  ['ao', 'ao'],
  ['ou', 'ou'],
  ['an', 'an'],
  ['en', 'en'],
  ['in', 'in'],
  ['un', 'un'],
  ['er', 'er'],
  ['ia', 'ia'],
  ['ie', 'ie'],
  ['iu', 'iu'],
  ['ua', 'ua'],
  ['uo', 'uo'],
  ['ui', 'ui'],
  ['ue', 'ue'],
  ['ih', 'i'],
  ['eh', 'e'],
  ['a', 'a'],
  ['o', 'o'],
  ['e', 'e'],
  ['i', 'i'],
  ['u', 'u'],
];

/** The shared spelling of one syllable, or undefined when `initial + final` is no syllable. */
function syllable(initial: string, final: string, shared: string, sharedFinal: string): string | undefined {
  // Every pinyin final but these few needs an initial; y and w only begin syllables.
  if (initial === '' && !/^(a|o|e|ai|ei|ao|ou|an|en|ang|eng|er|erh)$/.test(final)) return undefined;
  // Wade-Giles "ko", "k'o", "ho" are pinyin "ge", "ke", "he".
  if (final === 'o' && (shared === 'g' || shared === 'h')) return `${shared}e`;
  // Wade-Giles "tzu", "tz'u", "ssu", "szu" are pinyin "zi", "ci", "si".
  if (final === 'u' && (initial === 'tz' || initial === 'ss' || initial === 'sz')) return `${shared}i`;
  return shared + sharedFinal;
}

/**
 * The token read as Chinese syllables in a shared spelling ("tse" and "ze" -> "ze", "tung" and
 * "dong" -> "dong", "zedong" -> "zedong"), or undefined when it is not made of syllables.
 */
export function sinoKey(token: string): string | undefined {
  if (token.length === 0 || token.length > 18 || !/^[a-z]+$/.test(token)) return undefined;
  return segmented(token);
}

/** The token is one Chinese syllable, in pinyin or Wade-Giles ("shek", "tse", "jin"). */
export function isOneSinoSyllable(token: string): boolean {
  for (const [initial, shared] of INITIALS) {
    if (!token.startsWith(initial)) continue;
    const final = token.slice(initial.length);
    for (const [candidate, sharedFinal] of FINALS) {
      if (candidate === final && syllable(initial, final, shared, sharedFinal) !== undefined) return true;
    }
  }
  return false;
}

/**
 * Segmenting tries every initial and final at every position, and the same parts come back all the
 * time (indexing two million names reads each given and family name thousands of times).
 */
const segmented = remembered(REMEMBERED_PARTS, (token) => segment(token, 0));

function segment(token: string, start: number): string | undefined {
  if (start === token.length) return '';
  for (const [initial, shared] of INITIALS) {
    if (!token.startsWith(initial, start)) continue;
    const afterInitial = start + initial.length;
    for (const [final, sharedFinal] of FINALS) {
      if (!token.startsWith(final, afterInitial)) continue;
      const spelled = syllable(initial, final, shared, sharedFinal);
      if (spelled === undefined) continue;
      const rest = segment(token, afterInitial + final.length);
      if (rest !== undefined) return spelled + rest;
    }
  }
  return undefined;
}
