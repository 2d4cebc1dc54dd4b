import { doubleMetaphone } from 'double-metaphone';
import type { EntityKind, NameParts } from '../model/listedEntity.js';
import { letterMask } from './editDistance.js';
import { joinDottedLetters, type RawWord, rawWords } from './text.js';
import { sinoKey } from './vocabulary/chineseRomanisation.js';
import { isTranscribedName } from './vocabulary/chineseTranscription.js';
import { hanjaReading, hasHan, startsWithKoreanFamilyName } from './vocabulary/hanjaReadings.js';
import { shortVowels } from './vocabulary/japaneseReadings.js';
import { koreanKey } from './vocabulary/koreanRomanisation.js';
import { type KoreanSlip, koreanSlips } from './vocabulary/koreanTypos.js';
import { matchLegalForm } from './vocabulary/legalForms.js';
import {
  OBJECT_PREFIXES,
  ORG_ABBREVIATIONS,
  ORG_STOPWORDS,
  PLACE_NAMES,
  readOrdinalDigits,
  readOrdinalWord,
  readRomanNumeral,
  readSpelledNumber,
} from './vocabulary/orgWords.js';
import {
  ABJAD_TITLES,
  canonicalSpelling,
  looksLikePatronymic,
  PERSON_TITLES,
  particleOf,
} from './vocabulary/personNames.js';

/**
 * How a name is read: a person's name (titles, initials, particles, patronymics, "SURNAME, Given"),
 * an organisation's (legal forms, abbreviations, number words, places), an object's (vessel
 * prefixes, strict spelling) or, for an unknown kind, a bit of both.
 */
export type NameClass = 'person' | 'org' | 'object' | 'unknown';

export function nameClassOf(kind: EntityKind): NameClass {
  switch (kind) {
    case 'person':
      return 'person';
    case 'company':
    case 'organization':
      return 'org';
    case 'vessel':
    case 'aircraft':
    case 'vehicle':
      return 'object';
    default:
      return 'unknown';
  }
}

/**
 * - word: an ordinary name part; patronymic: a father's name by its ending ("Viktorovich");
 * - initial: one letter of a person's name; number: digits, ordinals, number words, roman numerals;
 * - legal: a legal form (text and key are its canonical form); particle: al/bin/van/de...;
 * - stop: a connecting word of an organisation name (the, of, and).
 */
export type TokenRole =
  | 'word'
  | 'patronymic'
  | 'initial'
  | 'number'
  | 'suffix'
  | 'legal'
  | 'particle'
  | 'stop';

export interface NameToken {
  /** Comparable text: ASCII, lower case; expanded for abbreviations, canonical for legal forms. */
  text: string;
  /** Equality key: canonical spelling of a name part, legal form, numeric value or particle. */
  key: string;
  role: TokenRole;
  /** Importance in the name score (see TOKEN_WEIGHTS). */
  weight: number;
  /** Family name, from the name parts, "SURNAME, Given" or capitals in a mixed-case name. */
  family: boolean;
  /** A country or region name inside an organisation name. */
  place: boolean;
  /** Transliterated from Arabic, Hebrew or Syriac script (short vowels absent). */
  abjad: boolean;
  /** Letters of an abbreviation ("ABC", "BMW"): compared exactly, never fuzzily. */
  acronym: boolean;
  /** For legal forms: the family of forms (private_limited, joint_stock, ...). */
  legalFamily: string | undefined;
  /** Double-metaphone codes (one or two) of word tokens; empty otherwise. */
  phonetic: readonly string[];
  /** The text without vowels and doubled letters, to compare with abjad transliterations. */
  skeleton: string;
  /** Order in the name, from 0. */
  position: number;
  /**
   * Joined to the next part by a hyphen: the two are one compound word ("Jean-Marie", "Abd-al-Latif",
   * "Mercedes-Benz"), whose slips nameAlignment judges on the whole compound.
   */
  hyphenNext: boolean;
  /**
   * The same part written again earlier in the name ("Abdullahi Mohamed Mohamed Caddow"): kept,
   * because in lineage names a repeated part is a different person's name (father and
   * grandfather), but free to leave unmatched when nothing on the other side is left over.
   */
  repeat: boolean;
  /**
   * Place in an Arabic (or Malay, Hebrew, Mauritanian) lineage chain "X bin Y bin Z": 0 for the
   * person's own name (X), 1 for the father (Y), 2 for the grandfather (Z) and so on; -1 when
   * the name has no such chain or the token is not a name part.
   */
  generation: number;
  /** The letters of `text` as bits (editDistance.letterMask), for a cheap distance bound. */
  letters: number;
  /**
   * For a person's name made only of Chinese syllables: the token in a spelling shared by pinyin
   * and Wade-Giles (vocabulary/chineseRomanisation); '' otherwise.
   */
  sino: string;
  /**
   * The name was written in Chinese characters (Han, kanji, Hanja) as a Chinese, Japanese or Korean
   * name, and this part is their reading: its syllables were read, not spelled (tokenSimilarity
   * `otherChineseSyllables`); false for a foreign name written in them (`readsHan`).
   */
  han: boolean;
  /**
   * For a person's name made only of Korean syllables: the token in a spelling shared by
   * McCune-Reischauer and Revised Romanization (vocabulary/koreanRomanisation), after 'H' when the
   * name was written in Hangul and 'L' when in Latin letters (only the two compare); '' otherwise.
   */
  korean: string;
  /**
   * In a Korean name in Latin letters, the one word that is no Korean syllable ("Jomg" in "Kim
   * Jomg Sik"): a slip of the key, compared with the syllables one edit away
   * (vocabulary/koreanTypos.ts); '' for every other part.
   */
  koreanSlip: KoreanSlip;
  /**
   * For a part of a reading name (preparedName.ts `readingNames`): the Latin spellings it reads as
   * (a Japanese part in kanji in Hepburn: "abe", "anbe", "abai" for 安倍; a Korean syllable in
   * Cyrillic: "jong", "cheong" ... for Чен), which a Latin part may equal; empty for every other part.
   */
  readings: readonly string[];
  /** How a Latin part meets the readings (ReadingKind). */
  readingKind: ReadingKind;
}

/**
 * - exact: the readings are every spelling there is, and only an exact one matches: Korean
 *   syllables one letter apart are other syllables (yong, jong);
 * - approximate: they spell a sound (a foreign name in katakana): a Latin part within the edit
 *   budget of one matches;
 * - sound: they are sound skeletons (a foreign name in Chinese characters or Hangul, a name in
 *   Hebrew letters: vocabulary/soundSkeleton.ts), met by the Latin part's skeleton in their hearing.
 */
export type ReadingKind = 'exact' | 'approximate' | 'sound';

/**
 * A string equal for two tokens exactly when every field is: the index keeps each distinct token
 * once. Written out field by field because JSON.stringify of every token was a sixth of the time
 * of indexing two million names; nameTokens.spec.ts fails when a field is added here but not there.
 */
export function tokenIdentity(t: NameToken): string {
  return `${t.text}\u0000${t.key}\u0000${t.role}\u0000${t.weight}\u0000${t.family ? 1 : 0}${t.place ? 1 : 0}${t.abjad ? 1 : 0}${t.acronym ? 1 : 0}${t.repeat ? 1 : 0}\u0000${t.legalFamily ?? '\u0001'}\u0000${t.phonetic.join('\u0002')}\u0000${t.skeleton}\u0000${t.position}${t.hyphenNext ? '-' : ''}\u0000${t.generation}\u0000${t.letters}\u0000${t.sino}${t.han ? '+' : ''}\u0000${t.korean}\u0000${t.koreanSlip}\u0000${t.readings.join('|')}\u0000${t.readingKind}`;
}

/** Importance of each kind of token; family names weigh more (as yente's logic-v2 does). */
export const TOKEN_WEIGHTS = {
  word: 1,
  familyWord: 1.3,
  /** "abd"/"abdul": a prefix shared by a great many Arabic names. */
  commonPrefix: 0.6,
  patronymic: 0.8,
  initial: 0.5,
  number: 1,
  /** Jr., Sr., III after a person's name: one side often leaves it out, two different ones are two people. */
  suffix: 0.5,
  legal: 0.3,
  particle: 0.2,
  stop: 0.1,
} as const;

/** Tokens beyond this are ignored: alignment uses 32-bit masks, and real names are far shorter. */
export const MAX_TOKENS = 24;

const VOWELS = /[aeiouy]/;

/** Double-metaphone codes of one ASCII token, without duplicates or empty codes. */
export function phoneticKeys(token: string): string[] {
  if (token.length < 2 || /[0-9]/.test(token)) return [];
  const [primary, secondary] = doubleMetaphone(token);
  const keys: string[] = [];
  if (primary) keys.push(primary);
  if (secondary && secondary !== primary) keys.push(secondary);
  return keys;
}

/**
 * Letters a skeleton leaves out: the vowels, and w, which Arabic and Hebrew spellings use for the
 * long vowels u and o as often as for the consonant ("Yunis" يونس, "Mahmud" محمود): a Latin spelling
 * writes one or the other, and the skeletons of both sides drop it alike.
 */
const SKELETON_VOWELS = /[aeiouyw]/;
/**
 * Consonants Latin spellings of one letter alternate between: ق is q, k or g (Qasim, Kassem,
 * Belgacem); ב is b or v (Corbyn, Gove; Avraham). c and g are k only before a letter other than h
 * (ch is sh or kh; gh is غ, apart from kh خ), ph is f, and ts and tz are z (צ: Zvi, Tsvi, Katz).
 * In Latin spellings dh is z: they write ذ and ظ (which arabicSpelling writes z) as z as often as
 * dh, z being how Persian, Pashto, Urdu and much of spoken Arabic say them (نظر Nazir, ذاکر Zakir;
 * ظافر Dhafer). The price: a Latin d and h of two syllables (Adham) reads as z too.
 */
const SKELETON_CLASS: Readonly<Record<string, string>> = { q: 'k', v: 'b' };
/** Letters that make one consonant with an h after them. */
const DIGRAPH_FIRST: ReadonlySet<string> = new Set(['s', 'k', 'g', 't', 'c']);

/**
 * Consonant skeleton: "muhammad" -> "mhmd". A doubled letter counts once ("hammud" -> "hmd", as
 * Arabic writes the doubling with a mark, not a second letter); the same consonant on both sides of
 * a vowel counts twice ("aziz" -> "zz", as Arabic writes عزيز with two).
 */
export function consonantSkeleton(text: string, abjad = false): string {
  let skeleton = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (SKELETON_VOWELS.test(char)) continue;
    const next = text[i + 1];
    // Latin digraphs only: transliterated Arabic or Hebrew writes d and h (دحلان dhln), d and j
    // (الدجاني djany) as two letters, and ذ ظ as z already (arabicSpelling).
    const latinDigraph = !abjad && char === 'd' && (next === 'h' || next === 'j');
    // "Siddharth" as "Sidharth": the doubled d before h is the digraph's.
    if (!abjad && char === 'd' && next === 'd' && text[i + 2] === 'h') continue;
    // The h of a digraph (sh, kh, gh, th) and an h after it are two letters (شهيد shhyd, Shahid).
    const digraphH = char === 'h' && i > 1 && DIGRAPH_FIRST.has(text[i - 2]!);
    if (i > 0 && text[i - 1] === char && !latinDigraph && !digraphH) continue;
    if ((char === 'c' || char === 'g') && next !== 'h') skeleton += 'k';
    else if ((char === 'p' && next === 'h') || (!abjad && char === 't' && (next === 's' || next === 'z'))) {
      skeleton += char === 'p' ? 'f' : 'z';
      i++;
    } else if (latinDigraph && next === 'h') {
      skeleton += 'z';
      i++;
    } else if (latinDigraph) {
    } else skeleton += SKELETON_CLASS[char] ?? char;
  }
  return skeleton;
}

interface Draft {
  text: string;
  readings: readonly string[];
  readingKind: ReadingKind;
  key: string;
  role: TokenRole;
  family: boolean;
  abjad: boolean;
  acronym: boolean;
  legalFamily: string | undefined;
  hyphenNext: boolean;
}

/**
 * A draft of a word, in the one shape every draft has: building drafts by spreading a shared base
 * object was a fifth of the time of indexing two million names.
 */
function draftOf(
  word: Word,
  text: string,
  key: string,
  role: TokenRole,
  acronym = false,
  legalFamily?: string,
): Draft {
  return {
    text,
    readings: NO_READINGS,
    readingKind: 'exact',
    key,
    role,
    family: word.familyHint,
    abjad: word.abjad,
    acronym,
    legalFamily,
    hyphenNext: word.hyphenNext,
  };
}

/**
 * The comparable tokens of one name. Exported for the candidate index, which keys its postings on
 * the same tokens and phonetic keys the scorer compares.
 */
export function nameTokens(name: string, kind: EntityKind, parts?: NameParts): NameToken[] {
  const nameClass = nameClassOf(kind);
  const words = splitWords(name, nameClass);
  const drafts = classify(words, nameClass);
  markFamily(drafts, parts, nameClass);
  return finalise(drafts, nameClass, HANGUL.test(name), hanjaDrafts(name, nameClass, drafts), readsHan(name));
}

const NO_READINGS: readonly string[] = Object.freeze([]);

/**
 * A name in Chinese characters read as Chinese: not a foreign name written in them, whose parts the
 * interpunct separates (南希·佩洛西 Nancy Pelosi, also 蘭希·佩洛西) and whose characters spell sounds.
 */
function readsHan(name: string): boolean {
  return hasHan(name) && !isTranscribedName(name);
}

/** A part of a name read from another script: its text as written, and its Latin readings. */
export interface ReadingPart {
  text: string;
  readings: readonly string[];
  family: boolean;
  readingKind: ReadingKind;
}

/**
 * The tokens of a reading name (preparedName.ts `readingNames`): a person's name whose parts are
 * compared through their readings (the `readings` of a token) rather than their text.
 */
export function readingTokens(parts: readonly ReadingPart[]): NameToken[] {
  const drafts = parts.map(
    (part): Draft => ({
      text: part.text,
      // Long vowels short, as a Latin part is read against them (tokenSimilarity compareReadings).
      readings: part.readings.map(shortVowels),
      readingKind: part.readingKind,
      key: part.text,
      role: 'word',
      family: part.family,
      abjad: false,
      acronym: false,
      legalFamily: undefined,
      hyphenNext: false,
    }),
  );
  return finalise(drafts, 'person', false, undefined, false);
}

/**
 * The drafts of a name written in Han characters, each read as Korean (hanjaReadings.ts), for its
 * Korean syllable keys: read the same way, the Hangul reading splits into the same words as the
 * characters ("金正恩": jin zhengen, 김 정은). Undefined when the name has no Han character, does
 * not start with a Korean family name, a character has no reading, or the words do not line up
 * one to one.
 */
function hanjaDrafts(name: string, nameClass: NameClass, drafts: Draft[]): Draft[] | undefined {
  if (nameClass === 'object' || !hasHan(name) || HANGUL.test(name)) return undefined;
  if (!startsWithKoreanFamilyName(name)) return undefined;
  const reading = hanjaReading(name, nameClass === 'person');
  if (reading === undefined) return undefined;
  const words = splitWords(reading, nameClass);
  if (words.length !== drafts.length) return undefined;
  return drafts.map((draft, d) => ({ ...draft, text: words[d]!.text }));
}

const HANGUL = /[\uac00-\ud7af]/u;

interface Word extends RawWord {
  familyHint: boolean;
  /** Written before the comma of "SURNAME, Given": the family name by the writer's own mark. */
  familyByComma: boolean;
}

function splitWords(name: string, nameClass: NameClass): Word[] {
  const isPerson = nameClass === 'person';
  if (isPerson) {
    // "SURNAME, Given Names" -> "Given Names SURNAME", remembering which part is the family name;
    // a generation after its own comma ("Angus S. King, Jr.") is the name's last word.
    const pieces = name.split(',');
    const generation = pieces.at(-1)!;
    if (pieces.length > 1 && GENERATION_KEYS.has(generation.trim().replace(/\.$/, '').toLowerCase())) {
      return [...splitWords(pieces.slice(0, -1).join(','), nameClass), ...splitWords(generation, nameClass)];
    }
    if (pieces.length === 2) {
      const family = rawWords(pieces[0]!, true);
      const given = rawWords(pieces[1]!, true);
      if (family.length > 0 && family.length <= 4 && given.length > 0) {
        return [
          ...given.map((word) => ({ ...word, familyHint: false, familyByComma: false })),
          ...family.map((word) => ({ ...word, familyHint: true, familyByComma: true })),
        ];
      }
    }
    return rawWords(name, true).map((word) => ({ ...word, familyHint: word.caps, familyByComma: false }));
  }
  return joinDottedLetters(rawWords(name, false)).map((word) => ({
    ...word,
    familyHint: false,
    familyByComma: false,
  }));
}

/**
 * The generations that end a person's name, by the generation each stands for: Jr. is the second
 * as II is, Sr. the first (roman numerals from ii only: "Xi", "Vi" are names).
 */
const GENERATION_KEYS: ReadonlyMap<string, string> = new Map([
  ['sr', '1'],
  ['snr', '1'],
  ['jr', '2'],
  ['jnr', '2'],
  ['ii', '2'],
  ['iii', '3'],
  ['iv', '4'],
]);

/** Words that say a number follows ("No. 1", "Nr 5", "Number One"). */
const NUMBER_SIGNS: ReadonlySet<string> = new Set(['no', 'nr', 'num', 'number']);

function startsNumber(texts: readonly string[], i: number): boolean {
  const text = texts[i]!;
  return (
    /^[0-9]+$/.test(text) ||
    readOrdinalDigits(text) !== undefined ||
    readSpelledNumber(texts, i) !== undefined
  );
}

/** Generations and regnal numbers go this high; a larger number ending a name is no generation. */
const MAX_GENERATION = 39;

/**
 * A regnal or generation number ending a person's name: in digits ("Mohammed 6", "John Smith
 * 3rd"), as "the" and an ordinal ("Abdullah the Second"), or as a roman numeral: II, III or IV after
 * two words or more ("John Albert Smith II"), any of two letters or more written in capitals inside
 * a mixed-case name ("Mohammed VI", "Charles III": right after a given name only so, as "Ii" there
 * is a Japanese family name, and "Xi", "Vi" are names). "XI" is left a word: "Jinping XI" writes
 * the family name in capitals. The number as a key, or undefined; `i` is the last word or the one
 * before it. (Jr. and Sr. are GENERATION_KEYS, read for any name.)
 */
function regnalNumber(words: readonly Word[], i: number): string | undefined {
  const last = words.length - 1;
  const text = words[i]!.text;
  if (i === last - 1) {
    if (text !== 'the') return undefined;
    const ordinal = readOrdinalWord(words[last]!.text);
    return ordinal === undefined ? undefined : String(ordinal);
  }
  const roman =
    (words[i]!.caps && text.length >= 2 && text !== 'xi') || (i >= 2 && ROMAN_GENERATIONS.has(text));
  const value = /^[0-9]{1,2}$/.test(text)
    ? Number(text)
    : (readOrdinalDigits(text) ?? (roman ? readRomanNumeral(text) : undefined));
  return value !== undefined && value >= 1 && value <= MAX_GENERATION ? String(value) : undefined;
}

/**
 * Where a person's name starts after the titles, offices and honorifics before it ("Mr.", "Rt Hon",
 * "Prime Minister", "His Highness Sheikh"), keeping at least its last word. "Tan Sri" is a title
 * where Tan alone is a family name, and Seri or Sri follows a title ("Dato' Seri") but alone may
 * begin a name (Sri Mulyani Indrawati).
 */
function afterTitles(words: readonly Word[], texts: readonly string[], last: number): number {
  let i = 0;
  for (;;) {
    if (i >= last) return i;
    const text = texts[i]!;
    if ((words[i]!.abjad ? ABJAD_TITLES : PERSON_TITLES).has(text)) i++;
    else if (text === 'tan' && texts[i + 1] === 'sri' && i + 1 < last) i += 2;
    else if (i > 0 && (text === 'seri' || text === 'sri')) i++;
    else return i;
  }
}

function classify(words: Word[], nameClass: NameClass): Draft[] {
  const texts = words.map((word) => word.text);
  const drafts: Draft[] = [];
  const isPerson = nameClass === 'person';
  const isOrgLike = nameClass === 'org' || nameClass === 'unknown';
  const last = words.length - 1;
  let i = 0;

  if (isPerson || nameClass === 'unknown') {
    i = afterTitles(words, texts, last);
  }
  if (nameClass === 'object') {
    if (i < last && OBJECT_PREFIXES.has(texts[i]!)) i++;
    else if (i + 2 < words.length && texts[i] === 'm' && (texts[i + 1] === 'v' || texts[i + 1] === 't'))
      i += 2;
  }

  for (; i < words.length; i++) {
    const word = words[i]!;
    const text = word.text;

    // The family name a comma marks is no legal form, though "PAO, Yu Yi" (鲍) spells ПАО.
    const legal =
      nameClass !== 'object' && words.length > 1
        ? isPerson
          ? i > 0 && i === last && text.length >= 3 && !word.familyByComma
            ? matchLegalForm(texts, i, true)
            : undefined
          : matchLegalForm(texts, i)
        : undefined;
    if (legal) {
      drafts.push(
        draftOf(words[i + legal.length - 1]!, legal.form, legal.form, 'legal', false, legal.family),
      );
      i += legal.length - 1;
      continue;
    }

    if (isPerson && i >= 1 && i >= last - 1) {
      const regnal = regnalNumber(words, i);
      if (regnal !== undefined) {
        drafts.push(draftOf(words[last]!, texts.slice(i).join(' '), regnal, 'suffix'));
        i = last;
        continue;
      }
    }
    if (/^[0-9]+$/.test(text)) {
      drafts.push(draftOf(word, text, String(BigInt(text)), 'number'));
      continue;
    }
    const ordinal = readOrdinalDigits(text);
    if (ordinal !== undefined) {
      drafts.push(draftOf(word, text, String(ordinal), 'number'));
      continue;
    }
    // Jr. or Sr. at the end of a name (Angus King Jr.: father and son; a person's roman generations
    // are regnalNumber's). Read as an organisation's name (a subject of unknown kind is searched
    // both ways) they are set apart too, lest they count as rare words of the name; its roman
    // numerals are a series (Fund XI).
    const atEnd = i === last && i >= 1 && nameClass !== 'object';
    const generation = atEnd ? GENERATION_KEYS.get(text) : undefined;
    if (generation !== undefined && !ROMAN_GENERATIONS.has(text)) {
      drafts.push(draftOf(word, text, generation, 'suffix'));
      continue;
    }
    // A degree or honour after a person's name (Esq., PhD, OBE) says nothing of who it is.
    if (atEnd && POST_NOMINALS.has(text)) {
      drafts.push(draftOf(word, text, text, 'stop'));
      continue;
    }
    if (!isPerson) {
      // "No. 1", "Number One": the number says it.
      if (NUMBER_SIGNS.has(text) && i < last && startsNumber(texts, i + 1)) {
        drafts.push(draftOf(word, text, text, 'stop'));
        continue;
      }
      const spelled = readSpelledNumber(texts, i);
      if (spelled) {
        drafts.push(
          draftOf(
            words[i + spelled.length - 1]!,
            texts.slice(i, i + spelled.length).join(' '),
            spelled.digits,
            'number',
          ),
        );
        i += spelled.length - 1;
        continue;
      }
      // A roman numeral is a series number, but not inside a compound ("Tehrik-i-Taliban").
      const inCompound = word.hyphenNext || words[i - 1]?.hyphenNext === true;
      const roman = i > 0 && !inCompound ? readRomanNumeral(text) : undefined;
      if (roman !== undefined) {
        drafts.push(draftOf(word, text, String(roman), 'number'));
        continue;
      }
    }

    if (words.length > 1 && (isPerson || nameClass === 'unknown')) {
      const particle = word.syllabic ? undefined : particleOf(text, word.abjad);
      if (particle !== undefined) {
        drafts.push(draftOf(word, text, particle, 'particle'));
        continue;
      }
    }
    if (words.length > 1 && !isPerson && ORG_STOPWORDS.has(text)) {
      drafts.push(draftOf(word, text, text, 'stop'));
      continue;
    }
    if (text.length === 1 && /[a-z]/.test(text) && (isPerson || nameClass === 'unknown')) {
      drafts.push(draftOf(word, text, text, 'initial'));
      continue;
    }
    if (isPerson && i > 0 && looksLikePatronymic(text)) {
      const isLast = i === last;
      if (!isLast || (words.length >= 3 && !looksLikePatronymic(texts[i - 1]!))) {
        drafts.push(draftOf(word, text, canonicalSpelling(text), 'patronymic'));
        continue;
      }
    }
    const expanded = isOrgLike ? (ORG_ABBREVIATIONS.get(text) ?? text) : text;
    const acronym =
      !isPerson && text.length > 1 && (word.abbreviation || (text.length <= 4 && !VOWELS.test(text)));
    drafts.push(draftOf(word, expanded, canonicalSpelling(expanded), 'word', acronym));
  }
  if (drafts.length === 0) {
    // Nothing but titles or prefixes: keep the words as they are rather than lose the name.
    return words.map((word) => ({
      text: word.text,
      readings: NO_READINGS,
      readingKind: 'exact',
      key: word.text,
      role: 'word' as const,
      family: false,
      abjad: word.abjad,
      acronym: false,
      legalFamily: undefined,
      hyphenNext: word.hyphenNext,
    }));
  }
  return drafts;
}

function markFamily(drafts: Draft[], parts: NameParts | undefined, nameClass: NameClass): void {
  if (nameClass !== 'person') {
    for (const draft of drafts) draft.family = false;
    return;
  }
  if (parts?.family) {
    const familyTexts = new Set(rawWords(parts.family, true).map((word) => word.text));
    for (const draft of drafts) draft.family = familyTexts.has(draft.text);
  }
  // A name written entirely in capitals gives no hint; neither does one where every part is capitalised.
  if (drafts.every((draft) => draft.family || draft.role !== 'word')) {
    for (const draft of drafts) draft.family = false;
  }
}

function weightOf(draft: Draft): number {
  switch (draft.role) {
    case 'word':
      if (draft.key === 'abd') return TOKEN_WEIGHTS.commonPrefix;
      return draft.family ? TOKEN_WEIGHTS.familyWord : TOKEN_WEIGHTS.word;
    case 'patronymic':
      return TOKEN_WEIGHTS.patronymic;
    case 'initial':
      return TOKEN_WEIGHTS.initial;
    case 'number':
      return TOKEN_WEIGHTS.number;
    case 'suffix':
      return TOKEN_WEIGHTS.suffix;
    case 'legal':
      return TOKEN_WEIGHTS.legal;
    case 'particle':
      return TOKEN_WEIGHTS.particle;
    case 'stop':
      return TOKEN_WEIGHTS.stop;
  }
}

function finalise(
  drafts: Draft[],
  nameClass: NameClass,
  hangul: boolean,
  koreanReading: Draft[] | undefined,
  han: boolean,
): NameToken[] {
  const tokens: NameToken[] = [];
  const seen = new Set<string>();
  const generations = lineageGenerations(drafts, nameClass);
  const sinoKeys = chineseSyllableKeys(drafts, nameClass);
  const koreanKeys = syllableKeys(koreanReading ?? drafts, nameClass, koreanKey);
  // Han characters read as Korean compare with Latin spellings, as Hangul does.
  const koreanOrigin = hangul || koreanReading ? 'H' : 'L';
  const slips = hangul || koreanReading || koreanKeys ? undefined : koreanSlipsOf(drafts, nameClass);
  for (let d = 0; d < drafts.length && tokens.length < MAX_TOKENS; d++) {
    const draft = drafts[d]!;
    // A part written twice is kept but marked: "Shoigu Shoigu Sergey" is Sergey Shoigu, while in
    // "Abdullahi Mohamed Mohamed Caddow" the father and the grandfather are both Mohamed.
    const identity = `${draft.role}:${draft.key}`;
    const repeat = seen.has(identity);
    seen.add(identity);
    // A repeated particle, connecting word or legal form says nothing new (and cuts a compound).
    if (repeat && !isCoreDraft(draft)) {
      const previous = tokens[tokens.length - 1];
      if (previous) previous.hyphenNext = false;
      continue;
    }
    const isWord = draft.role === 'word' || draft.role === 'patronymic';
    const abjad = draft.abjad || (nameClass === 'person' && isWord && writtenWithoutVowels(draft));
    tokens.push({
      text: draft.text,
      key: draft.key,
      role: draft.role,
      weight: weightOf(draft),
      family: draft.family,
      place: nameClass !== 'person' && draft.role === 'word' && PLACE_NAMES.has(draft.text),
      abjad,
      acronym: draft.acronym,
      legalFamily: draft.legalFamily,
      // A part of a reading name sounds like its readings: the candidate search finds it by them.
      phonetic: isWord
        ? draft.readings.length > 0
          ? [...new Set(draft.readings.flatMap(phoneticKeys))]
          : phoneticKeys(draft.text)
        : [],
      skeleton: isWord ? consonantSkeleton(draft.text, abjad) : draft.text,
      position: tokens.length,
      hyphenNext: draft.hyphenNext,
      repeat,
      generation: generations[d]!,
      letters: letterMask(draft.text),
      sino: sinoKeys?.[d] ?? '',
      han,
      korean: koreanKeys?.[d] === undefined ? '' : koreanOrigin + koreanKeys[d],
      koreanSlip: slips?.[d] ?? '',
      readings: draft.readings,
      readingKind: draft.readingKind,
    });
  }
  return tokens;
}

/** The slips of a person's name of words only (vocabulary/koreanTypos.ts). */
function koreanSlipsOf(drafts: Draft[], nameClass: NameClass): KoreanSlip[] | undefined {
  if (nameClass !== 'person' && nameClass !== 'unknown') return undefined;
  if (drafts.some((draft) => draft.role !== 'word')) return undefined;
  return koreanSlips(drafts);
}

/**
 * Shared pinyin/Wade-Giles spellings of the word tokens, when every word of a person's name of at
 * least two words reads as Chinese syllables ("Mao Tse-tung", "Deng Xiaoping"). A name with any
 * other word ("Anna Smith") is not read as Chinese, so short Western names are left alone.
 */
function chineseSyllableKeys(drafts: Draft[], nameClass: NameClass): (string | undefined)[] | undefined {
  return syllableKeys(drafts, nameClass, sinoKey);
}

/** Keys of the word tokens by `keyOf`, when every word of a person's name of two or more words has one. */
function syllableKeys(
  drafts: Draft[],
  nameClass: NameClass,
  keyOf: (token: string) => string | undefined,
): (string | undefined)[] | undefined {
  if (nameClass !== 'person' && nameClass !== 'unknown') return undefined;
  let words = 0;
  const keys: (string | undefined)[] = [];
  for (const draft of drafts) {
    if (draft.role === 'word' || draft.role === 'patronymic') {
      const key = keyOf(draft.text);
      if (key === undefined) return undefined;
      keys.push(key);
      words++;
    } else if (draft.role === 'initial' || draft.role === 'number' || draft.role === 'suffix')
      return undefined;
    else keys.push(undefined);
  }
  return words >= 2 ? keys : undefined;
}

/** Particles meaning "son of" / "daughter of": each one starts the next generation of a lineage. */
const LINEAGE_PARTICLES: ReadonlySet<string> = new Set(['bin', 'bint', 'ould']);

/**
 * Generations of a lineage chain ("Muhammad bin Salman bin Abdulaziz": 0, -, 1, -, 2). Only a
 * particle with a name part on both sides forms a chain: "bin Salman" alone, or a particle left
 * at the end of a reordered name, says nothing about whose name comes first.
 */
function lineageGenerations(drafts: Draft[], nameClass: NameClass): number[] {
  const generations = new Array<number>(drafts.length).fill(-1);
  if (nameClass !== 'person' && nameClass !== 'unknown') return generations;
  let chain = false;
  let coreSeen = false;
  for (let i = 0; i < drafts.length && !chain; i++) {
    const draft = drafts[i]!;
    if (draft.role === 'particle' && LINEAGE_PARTICLES.has(draft.key)) {
      if (coreSeen && drafts.slice(i + 1).some(isCoreDraft)) chain = true;
    } else if (isCoreDraft(draft)) coreSeen = true;
  }
  if (!chain) return generations;
  let generation = 0;
  coreSeen = false;
  for (let i = 0; i < drafts.length; i++) {
    const draft = drafts[i]!;
    if (draft.role === 'particle' && LINEAGE_PARTICLES.has(draft.key)) {
      if (coreSeen) generation++;
    } else if (isCoreDraft(draft)) {
      coreSeen = true;
      generations[i] = generation;
    }
  }
  return generations;
}

function isCoreDraft(draft: Draft): boolean {
  return draft.role === 'word' || draft.role === 'patronymic' || draft.role === 'initial';
}

const ROMAN_GENERATIONS: ReadonlySet<string> = new Set(['ii', 'iii', 'iv']);

const POST_NOMINALS: ReadonlySet<string> = new Set([
  'esq',
  'phd',
  'dphil',
  'obe',
  'mbe',
  'cbe',
  'kbe',
  'qc',
  'kc',
  'mp',
  'mep',
]);

const CONSONANTS_ONLY = /^[b-df-hj-np-tv-xz]{3,}$/;

/** A person's name part of three letters or more with no vowel: written as an abjad writes it (Mhmd, Vldmr). */
function writtenWithoutVowels(draft: Draft): boolean {
  return draft.readings.length === 0 && !draft.acronym && CONSONANTS_ONLY.test(draft.text);
}
