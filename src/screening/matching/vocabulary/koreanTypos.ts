import { weightedDistance } from '../editDistance.js';
import { sinoKey } from './chineseRomanisation.js';
import { syllableReadings } from './hangulReadings.js';
import { koreanKey } from './koreanRomanisation.js';

/**
 * A slip of the key in a Korean name written in Latin letters. Korean names are short syllables
 * ("Kim Jong Sik", "Pak Han Se", "Ri Su Yong"), so one wrong key changes a third of a word, more
 * than any edit budget allows, and the name fell below the threshold: "Kim Jomg Sik", "Psk Han
 * Se", "Ri Su Ypng". Most such slips leave a word that is a syllable of neither romanisation
 * (koreanRomanisation.ts), a mark no Korean name has, unlike a slip to another syllable ("Kim Yong
 * Sik" is another name). Such a word is compared with the syllables one edit away from it.
 */

/** Where a name's slip is: nowhere, in a given name, or in the family name. */
export type KoreanSlip = '' | 'given' | 'family';

/**
 * Korean family names (the most common, in Hangul), in every Latin spelling of the two
 * romanisations, and the conventional ones those do not produce ("Lee", "Park", "Choi"): a name is
 * read as Korean only when its family name is one.
 */
const FAMILY_NAMES: ReadonlySet<string> = new Set([
  ...[
    ...'김이리박최정강조윤장임림한오서신권황안송유류전홍고문양손배백허남심노하곽성차주우구민나진지엄채',
    ...'원천방공현함변염여추도소석선설마길연위표기반왕금옥육인맹제탁국어',
  ].flatMap(syllableReadings),
  ...['lee', 'yi', 'rhee', 'park', 'choi', 'chung', 'jung', 'yoon', 'oh', 'suh', 'ahn', 'yoo', 'noh', 'roh'],
  ...['moon', 'hur', 'sung', 'woo', 'koo', 'joo', 'hyun'],
]);

const MIN_WORDS = 3;
const MAX_WORDS = 5;
/** Longer words are within the edit budget of what they were meant to be. */
const MAX_SLIP_LENGTH = 5;
const ASPIRATE = /^[ptk]h/;
const CONVENTIONAL_VOWEL = /oo|ee|ou/;
const CONVENTIONAL_VOWELS = /oo|ee|ou/g;
const conventionalVowel = (vowel: string) => (vowel === 'oo' ? 'u' : vowel === 'ee' ? 'i' : 'eo');
/** "Kim Song II": a generation, or Il typed in capitals; either way not a slip. */
const ROMAN_NUMERAL = /^[ivx]+$/;

function isOneSyllable(word: string): boolean {
  const key = koreanKey(word);
  return key !== undefined && key.indexOf('.') === key.length - 1;
}

/**
 * One Korean syllable, in either romanisation, North Korea's own aspirates ("Ri Thae Chol", "Kang
 * Phil Hun") or the conventional spellings of the South ("Young", "Hoon", "Park").
 */
function isSyllableSpelling(word: string): boolean {
  if (isOneSyllable(word) || FAMILY_NAMES.has(word)) return true;
  if (ASPIRATE.test(word) && isOneSyllable(word.slice(0, 1) + word.slice(2))) return true;
  return CONVENTIONAL_VOWEL.test(word) && isOneSyllable(word.replace(CONVENTIONAL_VOWELS, conventionalVowel));
}

/**
 * The slip of each word of a person's name (its words as tokens spell them, `family` where the
 * name says which is the family name), all '' unless the name reads as Korean: three to five
 * words of one syllable each but one, which is two to five letters long and a syllable of neither
 * Korean nor Chinese romanisation ("Ma Xi Lan" is Chinese), and a family name (the family word, or
 * else the first) that is Korean, or is the slip.
 */
export function koreanSlips(words: readonly { text: string; family: boolean }[]): KoreanSlip[] | undefined {
  if (words.length < MIN_WORDS || words.length > MAX_WORDS) return undefined;
  let odd = -1;
  for (let i = 0; i < words.length; i++) {
    const text = words[i]!.text;
    if (isSyllableSpelling(text)) continue;
    if (odd !== -1 || text.length < 2 || text.length > MAX_SLIP_LENGTH || !/^[a-z]+$/.test(text)) {
      return undefined;
    }
    if (ROMAN_NUMERAL.test(text) || sinoKey(text) !== undefined) return undefined;
    odd = i;
  }
  if (odd === -1) return undefined;
  const marked = words.findIndex((word) => word.family);
  const family = marked === -1 ? 0 : marked;
  if (family !== odd && !FAMILY_NAMES.has(words[family]!.text)) return undefined;
  return words.map((_, i) => (i !== odd ? '' : i === family ? 'family' : 'given'));
}

/**
 * How alike a slipped word is to a part of another name: one edit or less (weighted as
 * editDistance.ts weighs them, scaled by the profile's fuzziness) from a syllable, a family name
 * when the slip is in the family name, scored as a fuzzy match of that cost; 0 otherwise.
 */
export function slipScore(slipped: string, slip: KoreanSlip, other: string, budgetFactor: number): number {
  if (slip === '' || !isSyllableSpelling(other)) return 0;
  if (slip === 'family' && !FAMILY_NAMES.has(other)) return 0;
  const cost = weightedDistance(slipped, other, budgetFactor);
  return cost <= budgetFactor ? 1 - cost / Math.max(slipped.length, other.length) : 0;
}
