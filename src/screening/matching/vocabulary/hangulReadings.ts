import { hanjaReading, hasHan, startsWithKoreanFamilyName } from './hanjaReadings.js';

/**
 * Korean names in Hangul (최룡해) or in Hanja read as Hangul (崔龍海), one part per syllable, each
 * with the Latin spellings McCune-Reischauer and Revised Romanization give it (choe, ryong, hae;
 * ryong, lyong ...). Lists write a Korean given name in parts as often as in one word (CHOE Ryong
 * Hae, Kim Jong-un): the syllable keys of koreanRomanisation.ts compare whole words, so a name
 * written in Hangul as one word reached such a Latin name only as a pair, never in a search.
 *
 * A syllable is its initial, vowel and final jamo (Unicode arithmetic from U+AC00); each jamo's
 * spellings are those of the two systems (MR's breve and apostrophe dropped: ŏ is o, ch' is ch),
 * with the voiced and unvoiced forms both, as MR writes by position and RR does not.
 */

const INITIALS: readonly (readonly string[])[] = [
  ['k', 'g'], // ㄱ
  ['kk', 'gg'], // ㄲ
  ['n'], // ㄴ
  ['t', 'd'], // ㄷ
  ['tt'], // ㄸ
  ['r', 'l'], // ㄹ
  ['m'], // ㅁ
  ['p', 'b'], // ㅂ
  ['pp'], // ㅃ
  ['s', 'sh'], // ㅅ (sh before i only: syllableReadings)
  ['ss'], // ㅆ
  [''], // ㅇ
  ['ch', 'j'], // ㅈ
  ['jj', 'tch'], // ㅉ
  ['ch'], // ㅊ
  ['k'], // ㅋ
  ['t'], // ㅌ
  ['p'], // ㅍ
  ['h'], // ㅎ
];

const VOWELS: readonly (readonly string[])[] = [
  ['a'], // ㅏ
  ['ae'], // ㅐ
  ['ya'], // ㅑ
  ['yae'], // ㅒ
  ['eo', 'o'], // ㅓ
  ['e'], // ㅔ
  ['yeo', 'yo'], // ㅕ
  ['ye'], // ㅖ
  ['o'], // ㅗ
  ['wa'], // ㅘ
  ['wae'], // ㅙ
  ['oe'], // ㅚ
  ['yo'], // ㅛ
  ['u'], // ㅜ
  ['wo', 'weo'], // ㅝ
  ['we'], // ㅞ
  ['wi'], // ㅟ
  ['yu'], // ㅠ
  ['eu', 'u'], // ㅡ
  ['ui', 'eui'], // ㅢ
  ['i'], // ㅣ
];

/** The 28 finals (none first), each as the sound it ends a syllable with. */
const FINALS: readonly (readonly string[])[] = [
  [''],
  ['k', 'g'], // ㄱ
  ['k'], // ㄲ
  ['k'], // ㄳ
  ['n'], // ㄴ
  ['n'], // ㄵ
  ['n'], // ㄶ
  ['t', 'd'], // ㄷ
  ['l', 'r'], // ㄹ
  ['k'], // ㄺ
  ['m'], // ㄻ
  ['l'], // ㄼ
  ['l'], // ㄽ
  ['l'], // ㄾ
  ['p'], // ㄿ
  ['l'], // ㅀ
  ['m'], // ㅁ
  ['p', 'b'], // ㅂ
  ['p'], // ㅄ
  ['t'], // ㅅ
  ['t'], // ㅆ
  ['ng'], // ㅇ
  ['t'], // ㅈ
  ['t'], // ㅊ
  ['k'], // ㅋ
  ['t'], // ㅌ
  ['p'], // ㅍ
  ['t'], // ㅎ
];

const FIRST_SYLLABLE = 0xac00;
const LAST_SYLLABLE = 0xd7a3;
const HANGUL_NAME = /^[\uac00-\ud7a3\s]+$/u;
const MIN_SYLLABLES = 2;
const MAX_SYLLABLES = 5;

/** A Hangul syllable's jamo, as indices in Unicode order (19 initials, 21 vowels, 28 finals, 0 none). */
export interface Jamo {
  initial: number;
  vowel: number;
  final: number;
}

/** The jamo of a Hangul syllable block, undefined for any other character. */
export function jamoOf(char: string): Jamo | undefined {
  const code = char.codePointAt(0)!;
  if (code < FIRST_SYLLABLE || code > LAST_SYLLABLE) return undefined;
  const offset = code - FIRST_SYLLABLE;
  return { initial: Math.floor(offset / 588), vowel: Math.floor((offset % 588) / 28), final: offset % 28 };
}

/** The Latin spellings of one Hangul syllable ("룡": ryong, lyong). */
export function syllableReadings(syllable: string): string[] {
  const jamo = jamoOf(syllable)!;
  const initial = INITIALS[jamo.initial]!;
  const vowel = VOWELS[jamo.vowel]!;
  const final = FINALS[jamo.final]!;
  const readings: string[] = [];
  for (const i of initial) {
    for (const v of vowel) {
      // McCune-Reischauer's sh is ㅅ before i (시 shi) only.
      if (i === 'sh' && v !== 'i' && v !== 'wi') continue;
      for (const f of final) readings.push(i + v + f);
    }
  }
  return readings;
}

/**
 * A Korean person's name as syllables (the written character, Hangul or Hanja, and its Latin
 * readings), family name first: a name of two to five syllables in Hangul, or in Hanja starting
 * with a Korean family name (hanjaReadings.ts); undefined for anything else.
 */
export function koreanNameReadings(name: string): { word: string; readings: string[] }[] | undefined {
  const trimmed = name.trim();
  let written: string[];
  let hangul: string[];
  if (HANGUL_NAME.test(trimmed)) {
    written = [...trimmed.replace(/\s+/gu, '')];
    hangul = written;
  } else if (hasHan(trimmed) && startsWithKoreanFamilyName(trimmed)) {
    const compact = trimmed.replace(/\s+/gu, '');
    const reading = hanjaReading(compact, true);
    if (reading === undefined) return undefined;
    written = [...compact];
    hangul = [...reading];
    if (hangul.length !== written.length) return undefined;
  } else return undefined;
  if (written.length < MIN_SYLLABLES || written.length > MAX_SYLLABLES) return undefined;
  const syllables: { word: string; readings: string[] }[] = [];
  for (let i = 0; i < hangul.length; i++) {
    const code = hangul[i]!.codePointAt(0)!;
    if (code < FIRST_SYLLABLE || code > LAST_SYLLABLE) return undefined;
    syllables.push({ word: written[i]!, readings: syllableReadings(hangul[i]!) });
  }
  return syllables;
}
