/**
 * Names written in Cyrillic, Greek, Armenian or Georgian letters are compared, beside their
 * letter-by-letter transliteration, by their sound (soundSkeleton.ts, the alphabet hearing). These
 * alphabets write a foreign name letter by letter as it sounds: Джон Флеминг John Fleming, Клайв
 * Беттс Clive Betts, Хувен Hoeven, Уилсон Wilson, Κλάιβ Μπετς Clive Betts, Τζορτζ Όσμπορν George
 * Osborne, Թեդ Քրուզ Ted Cruz. No transliteration turns these back into the English spelling
 * ("dzhon", "klayv", "khuven", "uilson", "tzortz").
 */
const ALPHABET = '\\u0370-\\u03ff\\u1f00-\\u1fff\\u0400-\\u04ff\\u0530-\\u058f\\u10a0-\\u10ff';
const ALPHABET_NAME = new RegExp(`^[${ALPHABET}'\\u2019\\s.,-]+$`, 'u');
const ALPHABET_LETTER = new RegExp(`[${ALPHABET}]`, 'u');

/**
 * Whether a name is written in one of these alphabets only (with apostrophes, hyphens, stops and
 * a comma): a Latin name with a look-alike Cyrillic letter is not.
 */
export function isAlphabetName(name: string): boolean {
  return ALPHABET_LETTER.test(name) && ALPHABET_NAME.test(name);
}

const GREEK_LETTER = /[\u0370-\u03ff\u1f00-\u1fff]/u;

/**
 * The spellings a word of such a name is heard by: its transliteration, and for a Greek word, with
 * its χ (ch) the kh of Russian х, the h Greek writes a foreign h with (Χάμοντ Hammond, Χατς
 * Hatch), and with its τσ or τς also the ch Greek has no letter for (Τσάρλς Charles, Ρίτσαρντ
 * Richard; Μπετς is Betts).
 */
export function alphabetSpellings(word: string, spelling: string): string[] {
  if (!GREEK_LETTER.test(word)) return [spelling];
  const heard = spelling.replaceAll('ch', 'kh');
  return heard.includes('ts') ? [heard, heard.replaceAll('ts', 'ch')] : [heard];
}

/**
 * The words of such a name, the given names first: "Кейн, Тим" (a list's family name first) is
 * Тим Кейн.
 */
export function alphabetWords(name: string): string[] {
  const [family, given] = name.split(',', 2);
  const ordered = given === undefined ? name : `${given} ${family}`;
  return ordered.split(/[\s.,-]+/u).filter((word) => ALPHABET_LETTER.test(word));
}
