import type { EntityKind, EntityName, NameKind } from '../model/listedEntity.js';
import {
  type NameClass,
  type NameToken,
  nameClassOf,
  nameTokens,
  type ReadingKind,
  type ReadingPart,
  readingTokens,
} from './nameTokens.js';
import { alphabetSpellings, alphabetWords, isAlphabetName } from './vocabulary/alphabetTranscription.js';
import { arabicSoundSkeletons, persianWordsOpeningWithAl } from './vocabulary/arabicTranscription.js';
import {
  isTranscribedName,
  transcribedWords,
  transcriptionSkeletons,
} from './vocabulary/chineseTranscription.js';
import { cyrillicKoreanReadings } from './vocabulary/cyrillicKorean.js';
import { koreanNameReadings } from './vocabulary/hangulReadings.js';
import { hangulSkeleton, hangulWords, isHangulTranscription } from './vocabulary/hangulTranscription.js';
import { hebrewWords, isHebrewName } from './vocabulary/hebrewTranscription.js';
import { japaneseReadings } from './vocabulary/japaneseReadings.js';
import { isKatakanaName, loanwordReadings } from './vocabulary/katakanaLoanwords.js';
import { type Hearing, latinSkeleton, soundReading } from './vocabulary/soundSkeleton.js';
import { thaiNameReadings } from './vocabulary/thaiRomanisation.js';

/** A name normalised once, when an entity is loaded or a query arrives, and compared many times. */
export interface PreparedName {
  /** As published (or as queried). */
  full: string;
  kind: NameKind;
  nameClass: NameClass;
  tokens: NameToken[];
  /** The name is a lineage chain ("X bin Y"), so the order of its parts matters. */
  lineage: boolean;
}

export function prepareName(name: EntityName, kind: EntityKind): PreparedName {
  return preparedNameOf(name.full, name.kind, kind, nameTokens(name.full, kind, name.parts));
}

/**
 * The other readings of a person's name, each a name of its own under the same full text, for
 * scripts whose Latin spellings no letter-by-letter transliteration reaches: a Japanese name in
 * kanji read in Hepburn through a dictionary of names (安倍晋三 as Abe Shinzo), a Korean name in
 * Hangul, Hanja or Cyrillic read syllable by syllable (최룡해 as Choe Ryong Hae, Ким Чен Ын as Kim
 * Jong Un), a foreign name in katakana read back (テッド・クルーズ as Ted Cruz) or in Chinese
 * characters, Hangul, Hebrew, Cyrillic or Greek heard (鲍里斯·约翰逊, 보리스 존슨, Борис Джонсон as Boris
 * Johnson), a Thai name in RTGS (ประยุทธ์ จันทร์โอชา as Prayut Chan-o-cha). Empty for nearly every
 * name in Latin letters.
 */
export function readingNames(name: EntityName, kind: EntityKind): PreparedName[] {
  const nameClass = nameClassOf(kind);
  const texts = [
    ...undisguise(name.full, nameClass),
    ...ukrainianSpelling(name.full, nameClass),
    ...belarusianAsRussian(name.full, nameClass),
  ];
  // A reading the name's own tokens already give ("Ensaniyat_Exchanger": the mark is passed over) adds nothing.
  const ownTokens = texts.length === 0 ? [] : nameTokens(name.full, kind);
  const undisguised = texts.flatMap((text) => {
    const tokens = nameTokens(text, kind);
    if (sameTexts(tokens, ownTokens)) return [];
    return [preparedNameOf(name.full, name.kind, kind, tokens)];
  });
  if (nameClass !== 'person' && nameClass !== 'unknown') return undisguised;
  // Nearly every name is in Latin letters: one test, before any reader splits it (two million at
  // an index build).
  if (!READ_SCRIPTS.test(name.full)) return undisguised;
  return [
    ...undisguised,
    ...READERS.flatMap((read) => read(name.full, kind)).map((parts) =>
      preparedNameOf(name.full, name.kind, kind, readingTokens(parts)),
    ),
  ];
}

function sameTexts(a: readonly NameToken[], b: readonly NameToken[]): boolean {
  return a.length === b.length && a.every((token, i) => token.text === b[i]!.text);
}

/**
 * The name as written before it was disguised, when it shows a disguise: words typed backwards,
 * marks put inside a word, words glued with their capitals kept (any name); digits and symbols for
 * the letters they look like (a person's name, which has neither).
 */
function undisguise(full: string, nameClass: NameClass): string[] {
  const plain = splitGluedWords(withoutInsertedMarks(typedBackwards(full) ?? full));
  const texts = plain === full ? [] : [plain];
  if (nameClass === 'person') texts.push(...lettersForLookalikes(plain));
  return texts;
}

const UKRAINIAN_LETTERS = /[гГиИ]/u;

/**
 * A person's name in Cyrillic as Ukrainian and Belarusian romanise it, where г is h and и is y
 * (Григорович Hryhorovych, Алег Aleh), beside the Russian-style transliteration (Grigorovich): the
 * letters alone seldom tell a Ukrainian or Belarusian name from a Russian one.
 */
function ukrainianSpelling(full: string, nameClass: NameClass): string[] {
  if (nameClass !== 'person' || !UKRAINIAN_LETTERS.test(full)) return [];
  return [full.replace(/г/gu, 'h').replace(/Г/gu, 'H').replace(/и/gu, 'y').replace(/И/gu, 'Y')];
}

const SHORT_U = /[ўЎ]/u;

/**
 * A Belarusian name with its ў (the short u of -аў, where Russian writes -ов) as в: Latin spellings of
 * Belarusian officials most often come from the Russian form (Марозаў Morozov, Эйбатаў Eibatov,
 * Багуслаўскі Boguslavsky), which any-ascii's u for ў does not meet.
 */
function belarusianAsRussian(full: string, nameClass: NameClass): string[] {
  if (nameClass !== 'person' || !SHORT_U.test(full)) return [];
  return [withShortUAsV(full)];
}

function withShortUAsV(text: string): string {
  return text.replace(/ў/gu, 'в').replace(/Ў/gu, 'В');
}

/**
 * Marks no name writes inside a word ("K*im", "M_an"), or a full stop between a capital and two
 * small letters ("K.im"; "U.S.", "J.R." and "a.s." are initials).
 */
const INSERTED_MARK = /(?<=\p{L})[*_#+~^](?=\p{L})|(?<=\p{Lu})\.(?=\p{Ll}{2})/gu;

export function withoutInsertedMarks(full: string): string {
  return full.replace(INSERTED_MARK, '');
}

/**
 * Two words glued with their capitals kept ("BenTaher", "HajiMuhammad", "HamdAl-Fawaz"): a capital
 * after a capitalised word of three letters or more, followed by a small letter. "McDonald",
 * "DeSantis" and "LaHood" keep their prefixes; a name in capitals has no such word.
 */
const GLUED_CAPITAL = /(?<=\p{Lu}\p{Ll}{2,})(?=\p{Lu}\p{Ll})/gu;

export function splitGluedWords(full: string): string {
  return full.replace(GLUED_CAPITAL, ' ');
}

/**
 * The letter each lookalike is written for ("Sech1n", "P4k", "R@mzan", "$ergei"); "1", "!" and "|"
 * are read both as i and as l.
 */
const LOOKALIKE_LETTER: Readonly<Record<string, string>> = {
  '0': 'o',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '8': 'b',
  '9': 'g',
  '@': 'a',
  $: 's',
};
const I_OR_L = /^[1!|]$/;
const LOOKALIKE_BESIDE_LETTER = /(?<=\p{L})[013-5789@$!|]|[013-5789@$!|](?=\p{L})/gu;
const ANY_LOOKALIKE = /[\d@$!|]/;

/**
 * The person's name with each digit or symbol next to a letter read as the letter it looks like
 * ("Ig0r Sech1n" -> "Igor Sechin", and "Igor Sechln" for the other reading of 1; "R@mzan",
 * "Pr!gozh!n"), in words of two letters or more ("P4k"); none when no lookalike touches a letter.
 * A digit alone ("Kim Jong Un 2") is not a letter, nor one in a word with one letter, a code ("M1",
 * "R32").
 */
export function lettersForLookalikes(full: string): string[] {
  // Nearly every name has none: no splitting it (two million names at an index build).
  if (!ANY_LOOKALIKE.test(full)) return [];
  const reading = (one: string) =>
    full
      .split(' ')
      .map((word) =>
        word.length < 3 || (word.match(/\p{L}/gu)?.length ?? 0) < 2
          ? word
          : word.replace(LOOKALIKE_BESIDE_LETTER, (mark) =>
              I_OR_L.test(mark) ? one : LOOKALIKE_LETTER[mark]!,
            ),
      )
      .join(' ');
  const withI = reading('i');
  if (withI === full) return [];
  const withL = reading('l');
  return withL === withI ? [withI] : [withI, withL];
}

/**
 * A word typed backwards: it starts with a small letter, and its one capital ends it ("nituP",
 * "li-gnawK" for Kwang-il, "hamhalaj-lA" for Al-Jalahmah) or sits inside a word of letters only
 * ("nitPu"). A capital inside a word with a hyphen is a name's ("al-Assad").
 */
const BACKWARDS_WORD = /^(?:\p{Ll}[\p{Ll}'-]*\p{Lu}|\p{Ll}+\p{Lu}\p{Ll}+)$/u;

/**
 * The name with its words typed backwards turned around ("rimaldiV nituP" -> "Vidlamir Putin"),
 * or undefined when it has none. Writing a name backwards hides it from a matcher that reads
 * letters in order, and leaves the capital at the end of the word; no name is written so.
 */
export function typedBackwards(full: string): string | undefined {
  const words = full.split(/\s+/);
  if (!words.some((word) => BACKWARDS_WORD.test(word))) return undefined;
  return words.map((word) => (BACKWARDS_WORD.test(word) ? [...word].reverse().join('') : word)).join(' ');
}

/** A script's reader: the reading names of a name (each its parts), none when it is not the script's. */
type Reader = (full: string, kind: EntityKind) => ReadingPart[][];

/** Each part keeps the word as written, a term of its own beside the name's transliterated parts. */
function partsOf(
  words: readonly { word: string; readings: readonly string[] }[],
  family: 'first' | 'last',
  readingKind: ReadingKind,
): ReadingPart[] {
  const familyAt = family === 'first' ? 0 : words.length - 1;
  return words.map(({ word, readings }, i) => ({
    text: word,
    readings,
    family: i === familyAt,
    readingKind,
  }));
}

/** A word as the name's tokens spell it in Latin letters (kana in Hepburn, Hebrew transliterated), joined. */
function spellingOf(word: string, kind: EntityKind): string {
  return nameTokens(word, kind)
    .map((token) => token.text)
    .join('');
}

/** The parts of a name written by its sound, each read as its skeleton (vocabulary/soundSkeleton.ts). */
function soundParts(
  words: readonly string[],
  hearing: Hearing,
  skeletonsOf: (word: string) => string | readonly string[],
): ReadingPart[] {
  return partsOf(
    words.map((word) => {
      const skeletons = skeletonsOf(word);
      const heard = typeof skeletons === 'string' ? [skeletons] : skeletons;
      return {
        word,
        readings: [...new Set(heard)]
          .filter((skeleton) => skeleton !== '')
          .map((skeleton) => soundReading(hearing, skeleton)),
      };
    }),
    'last',
    'sound',
  );
}

const READERS: readonly Reader[] = [
  // Kanji, given name first as Latin spellings most often write it; readings are every spelling.
  (full) =>
    japaneseReadings(full).map(({ family, given }) =>
      partsOf(
        [
          { word: given.kanji, readings: given.readings },
          { word: family.kanji, readings: family.readings },
        ],
        'last',
        'exact',
      ),
    ),
  // A foreign name as Japanese writes it, in its own order (the family name last): approximate
  // readings, and the same name heard, as Chinese and Korean transcriptions are (its Hepburn
  // spelling's consonants: デイヴィッド deividdo D B D, David), where the added vowels that put its
  // spelling far from the Latin one (キャメロン kyameron, Cameron) are no part of a skeleton.
  (full, kind) => {
    if (!isKatakanaName(full)) return [];
    const words = full.split(KATAKANA_SEPARATOR).filter(Boolean);
    return [
      partsOf(
        words.map((word) => ({ word, readings: loanwordReadings(spellingOf(word, kind)) })),
        'last',
        'approximate',
      ),
      soundParts(words, 'japanese', (word) => latinSkeleton(spellingOf(word, kind), 'japanese', true)),
    ];
  },
  // A foreign name in Chinese characters, in its own order (the family name last): its sound.
  (full) =>
    isTranscribedName(full) ? [soundParts(transcribedWords(full), 'chinese', transcriptionSkeletons)] : [],
  // A foreign name in Hangul, likewise.
  (full) => (isHangulTranscription(full) ? [soundParts(hangulWords(full), 'korean', hangulSkeleton)] : []),
  // A name in Hebrew letters, heard as Hebrew writes sounds (beside its consonant skeleton).
  (full, kind) => {
    if (!isHebrewName(full)) return [];
    return [
      soundParts(hebrewWords(full), 'hebrew', (word) => latinSkeleton(spellingOf(word, kind), 'hebrew')),
    ];
  },
  // A name in Cyrillic, Greek, Armenian or Georgian letters, heard as these alphabets write a
  // foreign name's sounds (beside its transliteration).
  (full, kind) => {
    if (!isAlphabetName(full)) return [];
    return [
      // Its g is hard as the alphabet writes it (კლეგი Clegg), or soft as the Latin spelling of a
      // name from that alphabet may be heard (Сергей Sergei).
      // A Belarusian ў is heard as the в of the Russian form, as it is read (belarusianAsRussian).
      soundParts(alphabetWords(full), 'alphabet', (word) =>
        alphabetSpellings(word, spellingOf(withShortUAsV(word), kind)).flatMap((spelling) => [
          latinSkeleton(spelling, 'alphabet', true),
          latinSkeleton(spelling, 'alphabet'),
        ]),
      ),
    ];
  },
  // A name in Persian letters with a word opening with ال, heard with that El or Al its own (الیزابت
  // Elizabeth): each word heard as a word in Arabic letters is (tokenSimilarity.ts compareArabicSound).
  (full, kind) => {
    const words = persianWordsOpeningWithAl(full);
    return words ? [soundParts(words, 'arabic', (word) => arabicSoundSkeletons(spellingOf(word, kind)))] : [];
  },
  // RTGS is one spelling of a Thai name among several (Prayut, Prayuth): approximate.
  (full) => {
    const words = thaiNameReadings(full);
    return words ? [partsOf(words, 'last', 'approximate')] : [];
  },
  // Korean syllables: every spelling there is, family name first.
  (full) => {
    const words = cyrillicKoreanReadings(full) ?? koreanNameReadings(full);
    return words ? [partsOf(words, 'first', 'exact')] : [];
  },
];

/**
 * The scripts a reader reads: Greek, Armenian, Georgian, Cyrillic, Hebrew, Persian, Thai, kana, Han,
 * Hangul.
 */
const READ_SCRIPTS =
  /[\u0370-\u03ff\u1f00-\u1fff\u0530-\u058f\u10a0-\u10ff\u0400-\u04ff\u05d0-\u05ea\u06a9\u06cc\u067e\u0686\u0698\u06af\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/u;

const KATAKANA_SEPARATOR = /[\s\u30fb\uff65\u00b7]+/u;

/** Names as scoring compares them: each one prepared, followed by its other readings. */
export function prepareNames(names: readonly EntityName[], kind: EntityKind): PreparedName[] {
  return names.flatMap((name) => [prepareName(name, kind), ...readingNames(name, kind)]);
}

/**
 * A prepared name from tokens prepared before: the screening index keeps each distinct token once
 * and rebuilds the names of the candidates it scores from them.
 */
export function preparedNameOf(
  full: string,
  nameKind: NameKind,
  kind: EntityKind,
  tokens: NameToken[],
): PreparedName {
  return {
    full,
    kind: nameKind,
    nameClass: nameClassOf(kind),
    tokens,
    lineage: tokens.some((token) => token.generation >= 0),
  };
}
