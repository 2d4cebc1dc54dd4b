import { isTheophoricSecond, PERSIAN_LETTER } from '../text.js';
import { latinSkeleton, soundReading } from './soundSkeleton.js';

/**
 * Names written in Arabic letters are compared, beside their consonant skeletons (text.ts
 * `arabicSpelling`, tokenSimilarity.ts), by their sound (soundSkeleton.ts, the Arabic-script hearing):
 * Persian and Arabic write a foreign name as it sounds (دیوید جونز David Jones, مارک میدوز Mark
 * Meadows, آدام اسمیت Adam Smith), with one letter for w, v and the vowels o and u (و), one for y
 * and the vowels i and e (ی), z for an s said z (جیمز James), and a vowel before s and another
 * consonant at the start (اسمیت Smith); Arabic, with no p and no v, writes them b and f (فيليب
 * Philip). The skeleton keeps d and t, k and g apart, as these scripts do. It scores only
 * (tokenSimilarity.ts `compareArabicSound`): the consonant skeleton is what finds such names.
 *
 * The sound readings of a word in Arabic letters from its transliteration (w for و, y for ی, th for
 * ث): و read as the consonant v, as a vowel, and at the start as v and after it as a vowel; ز as
 * z and as an English s said z, ث as s (as Persian says it), and تش (tsh) as the ch Arabic
 * has no letter for (تشارلز Charles, ريتشارد Richard; Persian has چ).
 */
export function arabicSoundReadings(spelling: string): string[] {
  return arabicSoundSkeletons(spelling).map((skeleton) => soundReading('arabic', skeleton));
}

/** The skeletons of arabicSoundReadings, without the hearing's letter. */
export function arabicSoundSkeletons(spelling: string): string[] {
  const said = spelling.replaceAll('th', 's');
  const plain = said.includes('tsh') ? said.replaceAll('tsh', 'ch') : said;
  let spellings = plain.includes('w') ? [plain.replaceAll('w', 'v'), plain.replaceAll('w', '')] : [plain];
  // و first a consonant and then a vowel, as most foreign names have it (والادو Valadao, ویلسون Wilson).
  if (/^w.*w/.test(plain)) spellings.push(`v${plain.slice(1).replaceAll('w', '')}`);
  if (plain.includes('z')) spellings = [...spellings, ...spellings.map((text) => text.replaceAll('z', 's'))];
  const skeletons: string[] = [];
  for (const variant of spellings) {
    const skeleton = latinSkeleton(variant, 'arabic');
    if (skeleton !== '' && !skeletons.includes(skeleton)) skeletons.push(skeleton);
  }
  return skeletons;
}

const OPENS_WITH_AL = /^\u0627\u0644[\u0621-\u064a\u0671-\u06d3]{2}/u;
const ABD = '\u0639\u0628\u062f';

/**
 * The words of a name in Persian letters when one opens with ال: Persian has no article, and writes
 * with those letters the El and Al of foreign and Persian names (الیزابت Elizabeth, الیجا Elijah,
 * الهام Elham, الیاس Elias), which the transliteration splits off as the Arabic article ("al
 * yzabt"). Undefined for any other name. The Arabic compounds Persian names keep are left to the
 * transliteration, which reads them as Latin writes them: الدين and الله after a name (شمس الدین
 * Shamsuddin), and the name after عبد (عبد الحی Abdul Hai). Heard as words, their parts reached
 * other Latin names than the compound's and pushed it out of the search's candidates.
 */
export function persianWordsOpeningWithAl(name: string): string[] | undefined {
  if (!PERSIAN_LETTER.test(name)) return undefined;
  const words = name.split(/\s+/u).filter(Boolean);
  const elName = (word: string, i: number) =>
    OPENS_WITH_AL.test(word) && !(i > 0 && (isTheophoricSecond(word) || words[i - 1] === ABD));
  return words.some(elName) ? words : undefined;
}
