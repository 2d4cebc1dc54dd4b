import type { NameClass, NameToken } from './nameTokens.js';
import { legalFormInitials } from './vocabulary/legalForms.js';
import { readRomanNumeral } from './vocabulary/orgWords.js';
import { particleOf } from './vocabulary/personNames.js';

/**
 * Acronyms: a short word spelled by the initials of a run of another name's words ("PLA" /
 * "People's Liberation Army"). The lists spell them as their publishers write them, and this
 * module is the one reading of that: connecting words, legal forms and the Arabic article may lend
 * their initial or be passed over ("NIOC" / "National Iranian Oil Company", "MOIS" / "Ministry of
 * Intelligence and Security", "SCOT" / "Syrian Company for Oil Transport", "JRTN" / "Jaysh Rijal
 * al-Tariq al-Naqshabandi"), a number written in words lends its initial ("FIIB" / "First
 * Islamic Investment Bank"). The scorer aligns a word with a run (`spelledRun`); the index lists
 * every name under the acronyms that spell it whole (`acronymsSpelledBy`), by the same rules, so
 * it proposes only what the scorer matches.
 */

export const ACRONYM_LENGTH = { min: 2, max: 5 } as const;

/**
 * Acronyms the index looks up: three letters or more. Two letters spell too many names: a Korean
 * given name "Ji" (지) found Jemaa Islamiyah, and the Danish "Ib" the Al-Aqsa Islamic Bank.
 */
export const SEARCHED_ACRONYM_MIN = 3;

/** Acronyms align only between names of organisations (or names of unknown kind). */
export function spellsAcronyms(nameClass: NameClass): boolean {
  return nameClass === 'org' || nameClass === 'unknown';
}

/**
 * Whether the part `text` of the name `full` as written may be an acronym: in a name written in
 * small letters too, only a word written in capitals is ("PLA China", not "Mary Smith"); in a
 * name in capitals (or in small letters) alone, any word may be.
 */
export function writtenAsAcronym(full: string, text: string): boolean {
  if (!/\p{Ll}/u.test(full) || !/\p{Lu}/u.test(full)) return true;
  return full.split(/[^\p{L}\p{N}]+/u).some((word) => word.toLowerCase() === text && !/\p{Ll}/u.test(word));
}

/**
 * Whether a part may be an acronym: a word of two (or `min`) to five letters. Not a word read from
 * Arabic or Hebrew letters, which write no Latin initials (the article of القاعدة, read "al", was
 * spelled by "Agnolo Luisa"), nor the Arabic article hyphened to the word it goes with ("AL-BINA",
 * spelled by "Alejandro Leidy").
 */
export function mayBeAcronym(token: NameToken, min: number = ACRONYM_LENGTH.min): boolean {
  return (
    token.role === 'word' &&
    !token.abjad &&
    token.text.length >= min &&
    token.text.length <= ACRONYM_LENGTH.max &&
    !(token.hyphenNext && particleOf(token.text) === 'al')
  );
}

/** How a word takes part in an acronym: it must lend its initial, may lend it, or ends the run. */
type Part = 'lends' | 'optional' | 'ends';

function partOf(word: NameToken): Part {
  if (word.role === 'stop' || word.role === 'legal' || particleOf(word.text) === 'al') return 'optional';
  return word.role === 'word' || isNumberWord(word) ? 'lends' : 'ends';
}

/**
 * A number written in words ("First", "Five"), not in digits or Roman numerals: the "I" of a
 * Korean "Jihun I", read as one in an organisation's name, spelled the alias "JI" of Jemaa Islamiyah.
 */
function isNumberWord(word: NameToken): boolean {
  return word.role === 'number' && /^[a-z]+$/.test(word.text) && readRomanNumeral(word.text) === undefined;
}

/**
 * Whether `word` can lend `letter` as letter `matched` of an acronym of `length` letters. A legal
 * form lends only after a name word, and only to three letters or more: in front of a name or to
 * two letters ("JI" / "JSC Infraveb", "SL" / "SBS LLC") it spelled other parties' acronyms.
 */
function lends(word: NameToken, letter: string, matched: number, length: number): boolean {
  if (word.role !== 'legal') return word.text[0] === letter;
  return matched > 0 && length >= 3 && legalFormInitials(word.text).includes(letter);
}

/**
 * The words from `k` on whose initials spell `letters` from `matched` on (the mask of the words,
 * and the heaviest name word among them), or undefined. Tries lending before passing over.
 */
export function spelledRun(
  letters: string,
  words: readonly NameToken[],
  k: number,
  matched = 0,
): { mask: number; weight: number } | undefined {
  if (matched === letters.length) return { mask: 0, weight: 0 };
  const word = words[k];
  if (word === undefined) return undefined;
  const part = partOf(word);
  if (part === 'ends') return undefined;
  if (lends(word, letters[matched]!, matched, letters.length)) {
    const rest = spelledRun(letters, words, k + 1, matched + 1);
    if (rest) {
      rest.mask |= 1 << k;
      if (part === 'lends') rest.weight = Math.max(rest.weight, word.weight);
      return rest;
    }
  }
  if (part !== 'optional') return undefined;
  const rest = spelledRun(letters, words, k + 1, matched);
  if (rest) rest.mask |= 1 << k;
  return rest;
}

/** Whether a run spelling an acronym may start at `word` (a legal form in front lends nothing). */
export function mayStartRun(word: NameToken): boolean {
  return word.role !== 'legal';
}

/**
 * The acronyms that spell the whole name: runs of `spelledRun` over every name word, connecting
 * words and legal forms lent or passed over at either end too. These are the ones worth finding a
 * name by: a run that leaves a name word over on the listed side cannot reach the threshold by
 * itself (one unmatched part costs a third of the acronym's weight), and a subject whose other
 * parts match the rest finds the name through those. Listing every run of every organisation's
 * name instead took 24 MB more heap on the real lists.
 */
export function acronymsSpelledBy(words: readonly NameToken[]): Set<string> {
  const found = new Set<string>();
  const walk = (k: number, prefix: string, legalLent: boolean) => {
    const word = words[k];
    if (word === undefined) {
      if (prefix.length >= ACRONYM_LENGTH.min && (!legalLent || prefix.length >= 3)) found.add(prefix);
      return;
    }
    const part = partOf(word);
    if (part === 'ends') return;
    if (part === 'optional') walk(k + 1, prefix, legalLent);
    if (prefix.length === ACRONYM_LENGTH.max) return;
    if (word.role !== 'legal') walk(k + 1, prefix + word.text[0], legalLent);
    else if (prefix.length > 0) {
      // A legal form lends any letter one of its spellings starts with (legalForms.ts).
      for (const initial of legalFormInitials(word.text)) walk(k + 1, prefix + initial, true);
    }
  };
  walk(0, '', false);
  return found;
}
