import sanscriptModule from '@indic-transliteration/sanscript';
import anyAscii from 'any-ascii';
import { toRomaji } from 'wanakana';
import { shortVowels } from './vocabulary/japaneseReadings.js';

// A CommonJS package whose types declare an ES default export: imported from ES modules, its
// default is the Sanscript object itself.
const Sanscript = sanscriptModule as unknown as typeof sanscriptModule.default;

/**
 * Text normalisation shared by every name: Unicode NFKC, transliteration of every script to ASCII
 * (any-ascii), case folding, and splitting into raw words. What a word means (legal form, title,
 * initial, number) is decided later, in nameTokens.
 */

export interface RawWord {
  /** ASCII, lower case, apostrophes dropped ("Poor's" -> "poors", "Qa'ida" -> "qaida"). */
  text: string;
  /** A single letter written with a full stop ("J." "A.B.C."). */
  dotted: boolean;
  /** Written in capitals inside a name that also has lower-case letters: a family-name hint. */
  caps: boolean;
  /** Transliterated from a script that omits short vowels (Arabic, Hebrew, Syriac). */
  abjad: boolean;
  /** Transliterated from Chinese characters or Hangul: a word of syllables, never a particle ("斌" bin). */
  syllabic: boolean;
  /** Joined from dotted letters ("A.B.C." -> "abc"): an abbreviation. */
  abbreviation: boolean;
  /** Joined to the next word by a hyphen ("Jean-Marie", "Abd-al-Latif", "Mercedes-Benz"). */
  hyphenNext: boolean;
}

const HAN_OR_HANGUL = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/u;
const ABJAD =
  /[\u0590-\u05ff\u0600-\u06ff\u0700-\u074f\u0750-\u077f\u08a0-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/u;

const HAN_OR_HANGUL_RUN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+/gu;

/**
 * The ASCII rendering of a name. Chinese and Korean names are written one syllable per character:
 * a person's name written without spaces is family name (first syllable) then given name, so
 * "习近平" becomes "Xi Jinping" rather than any-ascii's "XiJinPing". When the name is already
 * split into words ("은정 김", "王 晨"), each word is kept whole: "은정" is a given name.
 */
export function transliterate(text: string, isPerson: boolean): string {
  const normalised = kanaSpelling(
    devanagariSpelling(
      armenianSpelling(greekSpelling(hebrewSpelling(arabicSpelling(text.normalize('NFKC'))))),
    ),
  );
  if (!HAN_OR_HANGUL.test(normalised)) return anyAscii(normalised);
  const splitFamily = isPerson && (normalised.match(HAN_OR_HANGUL_RUN)?.length ?? 0) === 1;
  let output = '';
  let run: string[] = [];
  const flush = () => {
    if (run.length === 0) return;
    const syllables = run.map((char) => anyAscii(char).toLowerCase());
    const word =
      splitFamily && syllables.length > 1
        ? `${syllables[0]} ${syllables.slice(1).join('')}`
        : syllables.join('');
    output += ` ${word} `;
    run = [];
  };
  for (const char of normalised) {
    if (HAN_OR_HANGUL.test(char)) run.push(char);
    else {
      flush();
      output += anyAscii(char);
    }
  }
  flush();
  return output;
}

const ARABIC_LETTER = /[\u0621-\u064a\u0671-\u06d3\u06fa-\u06ff]/u;
/** The article al- written onto a word of at least two more letters, at the start of a word. */
const ARABIC_ARTICLE =
  /(^|[^\u0621-\u064a\u0671-\u06d3\u06fa-\u06ff])\u0627\u0644(?=[\u0621-\u064a\u0671-\u06d3\u06fa-\u06ff]{2})/gu;
const TA_MARBUTA = /\u0629/gu;
/** ذ and ظ: z, as Persian, Pashto, Urdu and much of spoken Arabic say them (any-ascii: dh). */
const DHAL_AND_ZAH = /[\u0630\u0638]/gu;
const ALIF = /\u0627/gu;
/**
 * ي (ی in Persian) ending a word is the long i Latin writes (علي Ali, التكريتي al-Tikriti, العزاوي
 * al-Azzawi, الطائي al-Ta'i), not the consonant y: a nisba ending is how many family names end.
 */
const FINAL_YA = /[\u064a\u06cc](?![\u0621-\u064a\u0671-\u06d3\u06fa-\u06ff])/gu;
/**
 * عبد ("servant of") and the name after it are one name (Abdallah, Abdulaziz), however Arabic
 * spaces them: joined here, the whole meets a Latin spelling written as one word by its skeleton,
 * and one written in parts (Abd al-Aziz) through a merged alignment.
 */
const ABD_COMPOUND =
  /(^|[^\u0621-\u064a\u0671-\u06d3\u06fa-\u06ff])(\u0639\u0628\u062f)\s+(?=\u0627\u0644)/gu;
/**
 * A name and الدين ("of the faith") or الله ("of God") after it are one name, which Latin writes as one
 * word with the article assimilated (جلال الدين Jalaluddin, نور الله Nurullah) or apart (Jalal
 * al-Din): written here as Latin writes the one word, so its skeleton is Latin's, and a Latin name
 * in parts meets it through a merged alignment, as عبد compounds do.
 */
const THEOPHORIC_TAIL =
  '\\u0627\\u0644(\\u062f[\\u064b-\\u065f\\u0670]*[\\u064a\\u06cc]\\u0646|\\u0644[\\u064b-\\u065f\\u0670]*[\\u0647\\u06c1\\u06be])';
const THEOPHORIC_SECOND = new RegExp(
  `([\\u0621-\\u064a\\u0671-\\u06d3\\u06fa-\\u06ff]+[\\u064b-\\u065f\\u0670]*)\\s+${THEOPHORIC_TAIL}(?![\\u0621-\\u064a\\u0671-\\u06d3\\u06fa-\\u06ff])`,
  'gu',
);
const THEOPHORIC_WORD = new RegExp(`^${THEOPHORIC_TAIL}$`, 'u');

/** The word is الدين or الله, the second half of a compound name (Shams al-Din, Nur Allah). */
export function isTheophoricSecond(word: string): boolean {
  return THEOPHORIC_WORD.test(word);
}

const theophoricLatin = (_match: string, name: string, second: string) =>
  name + (second.startsWith('\u062f') ? 'uddin' : 'ullah');
/** ولد between names: "son of" in Mauritanian names, the particle Latin writes ould. */
const ARABIC_OULD =
  /(^|[^\u0621-\u064a\u0671-\u06d3\u06fa-\u06ff])\u0648\u0644\u062f(?![\u0621-\u064a\u0671-\u06d3\u06fa-\u06ff])/gu;
/**
 * سید (Seyyed, a descendant of the Prophet) opening a name: the honorific Iranian names carry and Latin
 * spellings most often leave out (سید اسماعیل خطیب Esmail Khatib). Written as the title, so the name
 * passes over it as over Sheikh or Mullah; without its ع, سعید (Saeed) would read the same.
 */
const SAYYID = /^(\s*)\u0633[\u064a\u06cc]\u062f(?=\s)/u;
/** بن and ابن between names: "son of", the lineage particle Latin writes bin or ben. */
const ARABIC_SON_OF =
  /(^|[^\u0621-\u064a\u0671-\u06d3\u06fa-\u06ff])\u0627?\u0628\u0646(?![\u0621-\u064a\u0671-\u06d3\u06fa-\u06ff])/gu;

/** Letters Persian has and Arabic does not (ک ی پ چ ژ گ): a name written with them is Persian-style. */
export const PERSIAN_LETTER = /[\u06a9\u06cc\u067e\u0686\u0698\u06af]/u;
/**
 * ض, which Persian, Urdu and Pashto say z and Latin spells so in their names (رضا Reza, قاضی Qazi,
 * فضل Fazl), where Arabic says d (Ramadan, Fadl): written z in a name with Persian letters only, as
 * a name in Arabic letters alone may be either.
 */
const DAD = /\u0636/gu;

/**
 * What Latin spellings of Arabic names do and letter-by-letter transliteration does not: the article
 * written onto the word (العبيدي) stands apart, as Latin writes it (al-Ubaidi, Al Ubaidi); the
 * feminine ending ta marbuta (حمزة) is the vowel Latin writes (Hamza, Fatima), not an h; and بن
 * ("son of") is the lineage particle bin, as Latin writes it. Alif, the long a, is the a Latin
 * writes (بلال Bilal), where letter-by-letter transliteration drops it and joins the letters around it.
 */
function arabicSpelling(text: string): string {
  if (!ARABIC_LETTER.test(text)) return text;
  const spelled = PERSIAN_LETTER.test(text) ? text.replace(DAD, 'z') : text;
  return spelled
    .replace(SAYYID, '$1seyyed')
    .replace(FINAL_YA, 'i')
    .replace(ABD_COMPOUND, '$1$2')
    .replace(THEOPHORIC_SECOND, theophoricLatin)
    .replace(ARABIC_SON_OF, '$1bin')
    .replace(ARABIC_OULD, '$1ould')
    .replace(ARABIC_ARTICLE, '$1al ')
    .replace(TA_MARBUTA, 'a')
    .replace(ALIF, 'a')
    .replace(DHAL_AND_ZAH, 'z');
}

const HEBREW_LETTER = /[\u05d0-\u05ea]/u;
/** At the start of a word: no letter before, Hebrew or one a rule above already wrote in Latin. */
const NOT_HEBREW_BEFORE = '(?<!\\p{L})';
/**
 * Letters with a geresh (׳, or the ' or ’ typed for it) write sounds Hebrew lacks, in foreign names:
 * ג׳ j, ז׳ zh, צ׳ ch, and at the end of a word ץ׳ ch too (לינץ׳ Lynch, מיץ׳ Mitch).
 */
const HEBREW_GERESH: readonly [RegExp, string][] = [
  [/\u05d2[\u05f3'\u2019]/gu, 'j'],
  [/\u05d6[\u05f3'\u2019]/gu, 'zh'],
  [/[\u05e6\u05e5][\u05f3'\u2019]/gu, 'ch'],
];
const HEBREW_RULES: readonly [RegExp, string][] = [
  ...HEBREW_GERESH,
  // A doubled vav is the consonant v; a single one is mostly the vowel o or u, and at the start of
  // a word the v or w of a foreign name (ויליאם William, ולדימיר Vladimir): written w, which a
  // skeleton leaves out with the vowels, as for Arabic. (Reading the initial one as v lost more
  // Latin w's than it won v's on the lists' Hebrew names.)
  [/\u05d5\u05d5/gu, 'v'],
  [/\u05d5/gu, 'w'],
  // At the start of a word ב and פ are b and p (Ben, Pinchas); inside, any-ascii's v and f.
  [new RegExp(`${NOT_HEBREW_BEFORE}\u05d1`, 'gu'), 'b'],
  [new RegExp(`${NOT_HEBREW_BEFORE}\u05e4`, 'gu'), 'p'],
  // ש is sh far more often than s in names (Shalom, Moshe).
  [/\u05e9/gu, 'sh'],
  // צ (and final ץ) is the ts that Latin writes ts, tz or z (Tsvi, Katz, Zvi): z in a skeleton,
  // which reads ts and tz as z only in Latin (in Arabic script ت and س are two letters).
  [/[\u05e6\u05e5]/gu, 'z'],
  // A final ה is the vowel a or e (Daniella, Andre), not an h.
  [/\u05d4(?![\u05d0-\u05ea])/gu, 'a'],
];

/** Hebrew spelled the way Latin spellings of Hebrew names write it (see arabicSpelling). */
function hebrewSpelling(text: string): string {
  if (!HEBREW_LETTER.test(text)) return text;
  let spelled = text;
  for (const [pattern, latin] of HEBREW_RULES) spelled = spelled.replace(pattern, latin);
  return spelled;
}

const GREEK_LETTER = /[\u0370-\u03ff\u1f00-\u1fff]/u;
/**
 * Modern Greek writes sounds it has no letter for with pairs, which letter-by-letter
 * transliteration spells out: μπ is b (Μπετς Betts), ντ d, γκ and γγ g, τζ j (Τζορτζ George), ου u
 * (Λιούις Lewis), γου before a vowel w (Γουάτσον Watson). At the start of a word μπ and ντ are
 * always b and d; inside one they may be mb and nd (Λαμπράκης), which the edit budget forgives
 * either way. τζ comes before ντ (Άντζελα Angela, not Adzela); the case of a pair is kept, for the
 * capitals that mark a family name.
 */
const GREEK_PAIRS: readonly [RegExp, string][] = [
  // Γου before a vowel is how Greek writes a foreign w (Γουάτσον Watson, Γουίλιαμ William).
  [/γου(?=[αεηιοωυ])/giu, 'w'],
  [/τζ/giu, 'j'],
  [/μπ/giu, 'b'],
  [/ντ/giu, 'd'],
  [/γ[κγ]/giu, 'g'],
  [/ου/giu, 'u'],
];

/** `latin` in the case of the pair it replaces: ΜΠΕΤΣ is BETS, Μπετς Bets, Ուն Un. */
const inCaseOf = (latin: string) => (pair: string) => {
  if (pair === pair.toLowerCase()) return latin;
  if (pair === pair.toUpperCase()) return latin.toUpperCase();
  return latin[0]!.toUpperCase() + latin.slice(1);
};

function greekSpelling(text: string): string {
  if (!GREEK_LETTER.test(text)) return text;
  // Accents decomposed and dropped first, so that the pairs are found however they are accented.
  const unaccented = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/gu, '')
    .normalize('NFC');
  return withPairs(unaccented, GREEK_PAIRS);
}

/** Each pair of letters replaced by the Latin it stands for, in the pair's case. */
function withPairs(text: string, pairs: readonly [RegExp, string][]): string {
  let spelled = text;
  for (const [pattern, latin] of pairs) spelled = spelled.replace(pattern, inCaseOf(latin));
  return spelled;
}

const ARMENIAN_LETTER = /[\u0531-\u0587]/u;
/**
 * Armenian writes u with two letters, ու, which any-ascii spells letter by letter "ow" (Ուն, the
 * Un of Kim Jong Un, as "own"); եւ (the ligature և once normalised) is ev, not "ew".
 */
const ARMENIAN_PAIRS: readonly [RegExp, string][] = [
  [/ու/giu, 'u'],
  [/եւ/giu, 'ev'],
];

function armenianSpelling(text: string): string {
  return ARMENIAN_LETTER.test(text) ? withPairs(text, ARMENIAN_PAIRS) : text;
}

const DEVANAGARI = /[\u0900-\u097f]/u;
/** A consonant with its inherent vowel at the end of a word: no vowel sign, virama or letter after it. */
const DEVANAGARI_FINAL_CONSONANT = /([\u0915-\u0939\u0958-\u095f])(?![\u0900-\u097f])/gu;
const DEVANAGARI_VIRAMA = '\u094d';
/**
 * The signs of the English vowels of hot and hat (ऑ ॉ, ऍ ॅ), which Sanskrit tables lack: o, and the
 * a that English spells that vowel with (हॅच Hatch, जॅक्सन Jackson, मॅककॉनल McConnell).
 */
const DEVANAGARI_ENGLISH_VOWELS: readonly [RegExp, string][] = [
  [/\u0949/gu, '\u094b'],
  [/\u0945/gu, '\u093e'],
  [/\u0911/gu, '\u0913'],
  [/\u090d/gu, '\u0906'],
];
/** IAST letters as Latin spellings of Hindi names write them. */
const IAST_AS_NAMES: readonly [RegExp, string][] = [
  [/ṛ/gu, 'ri'],
  [/[ṃṁ](?=[pbm])/gu, 'm'],
  [/[ṃṁ]/gu, 'n'],
  [/[śṣ]/gu, 'sh'],
  [/c(?!h)/gu, 'ch'],
  [/ḥ/gu, ''],
];

/**
 * Devanagari read as Latin spellings of Hindi names write it (नरेंद्र मोदी / Narendra Modi), through
 * the Sanscript tables (@indic-transliteration/sanscript, IAST): every consonant carries the vowel a
 * unless a sign says otherwise, which any-ascii drops (nremdr). Hindi does not pronounce that vowel
 * at the end of a word after a single consonant (राहुल Rahul, not Rahula), and keeps it after a
 * cluster (नरेन्द्र Narendra); the anusvara is n, or m before a labial; श and ष are sh, च is ch.
 * The nukta (ज़ z, फ़ f) is dropped: the letter reads as its plain form.
 */
function devanagariSpelling(text: string): string {
  if (!DEVANAGARI.test(text)) return text;
  // The nukta is dropped; the candrabindu (a nasal vowel) reads as the anusvara.
  let spelled = text.replace(/\u093c/gu, '').replace(/\u0901/gu, '\u0902');
  for (const [pattern, hindi] of DEVANAGARI_ENGLISH_VOWELS) spelled = spelled.replace(pattern, hindi);
  spelled = spelled.replace(DEVANAGARI_FINAL_CONSONANT, (consonant, _c, offset: number, whole: string) =>
    whole[offset - 1] === DEVANAGARI_VIRAMA ? consonant : consonant + DEVANAGARI_VIRAMA,
  );
  // Only the Devanagari runs: Latin letters beside them stay as written ("Marc" is not "March").
  return spelled.replace(/[\u0900-\u097f]+/gu, (run) => {
    let latin = Sanscript.t(run, 'devanagari', 'iast');
    for (const [pattern, spelling] of IAST_AS_NAMES) latin = latin.replace(pattern, spelling);
    return latin;
  });
}

/** Hiragana and katakana, with the prolonged-sound mark and the small letters; not the middle dot ・. */
const KANA_RUN = /[\u3041-\u309f\u30a0-\u30fa\u30fc-\u30ff\u31f0-\u31ff]+/gu;
/**
 * Katakana pairs that write foreign sounds, in the modified Hepburn table's additions (BS 4812,
 * ANSI Z39.11): ティ ti, ヴィ vi, ファ fa ... wanakana reads them kana by kana (tei, vyi, fua).
 * Keyed in hiragana, as wanakana reads katakana through it.
 */
const EXTENDED_KATAKANA: Readonly<Record<string, string>> = {
  てぃ: 'ti',
  でぃ: 'di',
  とぅ: 'tu',
  どぅ: 'du',
  てゅ: 'tyu',
  でゅ: 'dyu',
  ゔぁ: 'va',
  ゔぃ: 'vi',
  ゔ: 'vu',
  ゔぇ: 've',
  ゔぉ: 'vo',
  ふぁ: 'fa',
  ふぃ: 'fi',
  ふぇ: 'fe',
  ふぉ: 'fo',
  うぃ: 'wi',
  うぇ: 'we',
  うぉ: 'wo',
  しぇ: 'she',
  じぇ: 'je',
  ちぇ: 'che',
  つぁ: 'tsa',
  つぃ: 'tsi',
  つぇ: 'tse',
  つぉ: 'tso',
  くぁ: 'kwa',
  ぐぁ: 'gwa',
};
/**
 * Japanese kana read in modified Hepburn, the romanisation of Japanese names in passports and the
 * lists (wanakana 5.3.1, with the extended katakana above): any-ascii reads each kana alone, ジョン
 * as jiyon where Hepburn writes jon, and the small ッ that doubles the next consonant as tsu.
 * Long vowels are written short, as Latin spellings of names write them.
 */
function kanaSpelling(text: string): string {
  return text.replace(
    KANA_RUN,
    (run) => ` ${shortVowels(toRomaji(run, { customRomajiMapping: EXTENDED_KATAKANA }))} `,
  );
}

function isLetterOrDigit(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57);
}

function isApostrophe(code: number): boolean {
  return code === 39 || code === 96;
}

/** Splits a name (any script) into raw words. */
export function rawWords(text: string, isPerson: boolean): RawWord[] {
  const abjad = ABJAD.test(text);
  const syllabic = HAN_OR_HANGUL.test(text);
  const ascii = transliterate(text, isPerson);
  const hasLower = /[a-z]/.test(ascii);
  const words: RawWord[] = [];
  let current = '';
  const end = (dotted: boolean) => {
    if (current.length === 0) return;
    const caps = hasLower && current.length > 1 && current === current.toUpperCase() && /[A-Z]/.test(current);
    words.push({
      text: current.toLowerCase(),
      dotted: dotted && current.length === 1,
      caps,
      abjad,
      syllabic,
      abbreviation: false,
      hyphenNext: false,
    });
    current = '';
  };
  for (let i = 0; i < ascii.length; i++) {
    const code = ascii.charCodeAt(i);
    if (isLetterOrDigit(code)) current += ascii[i];
    else if (isApostrophe(code)) continue;
    else if (code === 46 /* . */) end(true);
    else if (code === 45 /* - */ && current.length > 0 && isLetterOrDigit(ascii.charCodeAt(i + 1))) {
      end(false);
      words[words.length - 1]!.hyphenNext = true;
    } else if (code === 38 /* & */) {
      end(false);
      words.push({
        text: 'and',
        dotted: false,
        caps: false,
        abjad,
        syllabic,
        abbreviation: false,
        hyphenNext: false,
      });
    } else end(false);
  }
  end(false);
  return words;
}

/**
 * Joins runs of dotted single letters into one word: "A.B.C." -> "abc", "S.A.R.L." -> "sarl",
 * "L.X.C" -> "lxc" (the last letter may lack its stop). For organisation names only: in a
 * person's name those letters are initials.
 */
export function joinDottedLetters(words: RawWord[]): RawWord[] {
  const joined: RawWord[] = [];
  let i = 0;
  while (i < words.length) {
    const word = words[i]!;
    if (!word.dotted) {
      joined.push(word);
      i++;
      continue;
    }
    let j = i;
    let text = '';
    while (j < words.length && words[j]!.dotted) text += words[j++]!.text;
    const next = words[j];
    if (next && next.text.length === 1 && /[a-z]/.test(next.text) && j > i) {
      text += next.text;
      j++;
    }
    joined.push({ ...word, text, dotted: false, abbreviation: text.length > 1 });
    i = j;
  }
  return joined;
}
