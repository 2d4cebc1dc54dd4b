/**
 * Names written in Hebrew letters are compared, beside their consonant skeletons (text.ts
 * `hebrewSpelling`, tokenSimilarity.ts), by their sound (soundSkeleton.ts, the Hebrew hearing): a
 * foreign name written in Hebrew spells its sound with one letter for p and f (פוסטר Foster), one for
 * b and v (סטיב Steve), ו and י for vowels (ג'ון John, ישראל Israel), which the letter-by-letter
 * skeleton keeps apart ("pwstr" / "fstr").
 */
const HEBREW_NAME = /^[\u0590-\u05ff'\u2019\s-]+$/u;
const HEBREW_LETTER = /[\u05d0-\u05ea]/u;

/** Whether a name is written in Hebrew letters only (with geresh, maqaf, hyphens and spaces). */
export function isHebrewName(name: string): boolean {
  return HEBREW_LETTER.test(name) && HEBREW_NAME.test(name);
}

/** The words of a name in Hebrew letters. */
export function hebrewWords(name: string): string[] {
  return name.split(/[\s\u05be-]+/u).filter((word) => HEBREW_LETTER.test(word));
}
