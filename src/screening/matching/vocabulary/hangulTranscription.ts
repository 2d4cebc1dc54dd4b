import { type Jamo, jamoOf } from './hangulReadings.js';
import { collapse } from './soundSkeleton.js';

/**
 * Foreign names written in Hangul (보리스 존슨 Boris Johnson, 제레미 코빈 Jeremy Corbyn, 테드 크루즈
 * Ted Cruz), as Korean-language sources write the names of foreigners: by their sound, a syllable
 * block for each syllable and a bare consonant written with the vowel ㅡ (스 s, 트 t, 즈 z), one
 * letter ㄹ for r and l, ㅍ for p and f, ㅂ for b and v. Read as Korean syllables (hangulReadings.ts)
 * they are no Korean name. Each word is brought to a sound skeleton (soundSkeleton.ts): the initial
 * and final consonants of its blocks in the classes below, the vowels left out.
 *
 * Only a name that looks foreign is read so: a word of three syllables or more beside another
 * word, or a bare consonant (a block of ㅡ without a final after a consonant). Korean names have
 * a family name of one syllable and a given name of one or two, and write no bare consonant, so
 * the names of Koreans (김정은, 은서 장) keep their syllable readings only.
 */

/** Sound classes written out in Unicode order, '-' for none. */
function classes(table: string): string[] {
  return table.split(' ').map((entry) => (entry === '-' ? '' : entry));
}

/** The 19 initial consonants, in Unicode order: ㄱ ㄲ ㄴ ㄷ ㄸ ㄹ ㅁ ㅂ ㅃ ㅅ ㅆ ㅇ ㅈ ㅉ ㅊ ㅋ ㅌ ㅍ ㅎ. */
const INITIALS = classes('G G N D D L M B B S S - J J J G D B H');
/** The 28 finals (none first): a final ㅅ is the t of a loanword, ㅇ the nasal ng. */
const FINALS = classes('- G G GS N NJ N D L LG LM LB LS LD LB L M B BS D D N J J G D B H');
const VOWEL_EU = 18;
const SILENT_INITIAL = 11;

const HANGUL_NAME = /^[\uac00-\ud7a3\s]+$/u;

function blocks(word: string): Jamo[] {
  const found: Jamo[] = [];
  for (const char of word) {
    const jamo = jamoOf(char);
    if (jamo !== undefined) found.push(jamo);
  }
  return found;
}

/** A block of ㅡ with no final after a consonant: how Hangul writes a bare foreign consonant. */
function isBareConsonant({ initial, vowel, final }: Jamo): boolean {
  return vowel === VOWEL_EU && final === 0 && initial !== SILENT_INITIAL;
}

/** Whether a name in Hangul looks like a foreign name written by its sound (see above). */
export function isHangulTranscription(name: string): boolean {
  if (!HANGUL_NAME.test(name)) return false;
  const words = hangulWords(name).map(blocks);
  if (words.some((word) => word.some(isBareConsonant))) return true;
  return words.length >= 2 && words.some((word) => word.length >= 3);
}

export function hangulWords(name: string): string[] {
  return name.split(/\s+/u).filter(Boolean);
}

/** The sound skeleton of a word in Hangul. */
export function hangulSkeleton(word: string): string {
  let skeleton = '';
  for (const { initial, final } of blocks(word)) skeleton += INITIALS[initial]! + FINALS[final]!;
  return collapse(skeleton);
}
