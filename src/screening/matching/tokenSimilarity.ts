import { COST, distanceLowerBound, editBudget, weightedDistance } from './editDistance.js';
import { consonantSkeleton, type NameToken, nameTokens } from './nameTokens.js';
import { arabicSoundReadings } from './vocabulary/arabicTranscription.js';
import { isOneSinoSyllable } from './vocabulary/chineseRomanisation.js';
import { shortVowels } from './vocabulary/japaneseReadings.js';
import { englishSound } from './vocabulary/katakanaLoanwords.js';
import { slipScore } from './vocabulary/koreanTypos.js';
import { readRomanNumeral } from './vocabulary/orgWords.js';
import { areNicknames, arePatronymicAndRoot } from './vocabulary/personNames.js';
import { heardIn, latinSoundsOf, readsEveryName } from './vocabulary/soundSkeleton.js';

/**
 * How two tokens were found to be the same name part:
 * - exact: same text; spelling: known transliteration variants ("mohammed"/"muhammad"), the same
 *   Chinese syllables in pinyin and Wade-Giles ("tung"/"dong"), or the same particle or legal form
 *   in another spelling; nickname: a known diminutive ("bill"/"william", "bibi"/"binyamin");
 * - initial: a letter and a word starting with it; fuzzy: within the edit budget, or a near miss
 *   just past it (scored lower);
 * - phonetic: same primary double-metaphone code and a plausible spelling; script: consonant
 *   skeletons agree across an abjad transliteration ("mhmd"/"muhammad"); legal_family: legal
 *   forms of one family;
 * - merged: several tokens on one side glued into one on the other ("SergeiLavrov");
 * - acronym: a word spelled by the initials of several words ("U.S." / "United States").
 */
export type TokenMatchKind =
  | 'exact'
  | 'spelling'
  | 'nickname'
  | 'initial'
  | 'fuzzy'
  | 'phonetic'
  | 'script'
  | 'legal_family'
  | 'merged'
  | 'acronym';

export interface Fuzziness {
  /** Multiplies the edit budget of every token (1 = logic-v2's budget). */
  budgetFactor: number;
  /** Accept same-sounding spellings beyond the edit budget. */
  phonetic: boolean;
  /**
   * One of the names is written in Chinese characters, whose syllables are read, not spelled: a
   * word of several syllables then meets another only by the same syllables (otherChineseSyllables).
   */
  syllablesRead?: boolean;
}

/** Scores of the non-literal ways two tokens can agree. */
export const TOKEN_SCORES = {
  spelling: 0.95,
  nickname: 0.85,
  /** The same Chinese syllables in pinyin and Wade-Giles ("Tse-tung" / "Zedong"). */
  romanisation: 0.85,
  /**
   * A sound skeleton too short for full evidence: one consonant of a transcription ("George" /
   * 乔治, both J), two of a Hebrew name (soundScore).
   */
  singleSound: 0.6,
  initial: 0.9,
  phonetic: 0.8,
  legalFamily: 0.85,
  acronym: 0.85,
  /** Skeleton agreement across an abjad transliteration is discounted by this factor. */
  scriptFactor: 0.9,
  /**
   * Spellings whose distance exceeds the edit budget by less than this factor are a near miss:
   * their score falls linearly from the in-budget score to 0 at budget x factor.
   */
  nearMissFactor: 1.3,
  /** A phonetic match must still be plausible: weighted edits up to this share of the length. */
  phoneticPlausibility: 0.35,
} as const;

/** Caller-owned result, reused across calls so the comparison loop does not allocate. */
export interface TokenComparison {
  score: number;
  kind: TokenMatchKind;
}

/**
 * Everything of a token that compareTokens reads (the other fields it reads derive from the text):
 * two tokens with the same comparison identity compare alike with any third, so results can be
 * cached by it. Keep in step with compareTokens.
 */
export function comparisonIdentity(token: NameToken): string {
  return `${token.role}|${token.text}|${token.key}|${token.abjad ? 1 : 0}${token.acronym ? 1 : 0}|${token.sino}|${token.korean}|${token.koreanSlip}|${token.legalFamily ?? ''}|${token.readings.join('/')}|${token.readingKind}`;
}

/**
 * How two parts agree, into `out`. `a` is the query's part and `b` the listed one: every caller
 * passes them so (the alignment, the term dictionary, the reverse index), and one rule reads them
 * so (compareSpelled, for the query's words only).
 */
export function compareTokens(a: NameToken, b: NameToken, fuzz: Fuzziness, out: TokenComparison): void {
  out.score = 0;
  out.kind = 'exact';
  const roleA = a.role;
  const roleB = b.role;
  const wordA = roleA === 'word' || roleA === 'patronymic';
  const wordB = roleB === 'word' || roleB === 'patronymic';
  if (wordA && wordB) {
    compareWords(a, b, fuzz, out);
    return;
  }
  if (roleA === 'initial' || roleB === 'initial') {
    if (roleA === 'initial' && roleB === 'initial') {
      if (a.text === b.text) out.score = 1;
      return;
    }
    const word = roleA === 'initial' ? b : a;
    const initial = roleA === 'initial' ? a : b;
    if ((word.role === 'word' || word.role === 'patronymic') && word.text[0] === initial.text) {
      out.score = TOKEN_SCORES.initial;
      out.kind = 'initial';
    }
    return;
  }
  if (roleA !== roleB) {
    // A word the other name reads as a particle: the same text written in a script without
    // particles (本·薩斯 ben / Ben Sasse, アル・フランケン aru, al / Al Franken).
    if ((roleA === 'particle' && wordB) || (roleB === 'particle' && wordA)) {
      const particle = roleA === 'particle' ? a : b;
      const word = roleA === 'particle' ? b : a;
      if (word.text === particle.text || word.readings.includes(particle.text)) {
        out.score = word.text === particle.text ? 1 : TOKEN_SCORES.romanisation;
        out.kind = word.text === particle.text ? 'exact' : 'spelling';
      } else if (word.readingKind === 'sound') {
        // Heard, as a word would be: a foreign name written by its sound has no particles, so the
        // other name's "particle" was a given name (艾尔·弗兰肯 and 앨 프랭큰 / Al Franken).
        out.score = soundScore(word.readings, particle.text);
        out.kind = out.score === TOKEN_SCORES.romanisation ? 'spelling' : 'fuzzy';
      }
      return;
    }
    if (roleA === 'suffix' || roleB === 'suffix')
      sameGeneration(roleA === 'suffix' ? a : b, roleA === 'suffix' ? b : a, out);
    return;
  }
  switch (roleA) {
    case 'number':
    case 'suffix':
      if (a.key === b.key) out.score = 1;
      return;
    case 'legal':
      if (a.key === b.key) out.score = 1;
      else if (a.legalFamily !== undefined && a.legalFamily === b.legalFamily) {
        out.score = TOKEN_SCORES.legalFamily;
        out.kind = 'legal_family';
      }
      return;
    case 'particle':
      if (a.key === b.key) {
        out.score = a.text === b.text ? 1 : TOKEN_SCORES.spelling;
        out.kind = a.text === b.text ? 'exact' : 'spelling';
      }
      return;
    case 'stop':
      if (a.text === b.text) out.score = 1;
      return;
  }
}

/**
 * A generation against a part the other name did not read as one: a number with its value (a
 * subject of unknown kind reads "Mohammed 6" as an organisation would), or a roman numeral of two
 * letters or more that a name all in capitals leaves a word ("MOHAMMED VI" / "Mohammed VI").
 */
function sameGeneration(suffix: NameToken, other: NameToken, out: TokenComparison): void {
  if (
    other.role === 'number'
      ? other.key === suffix.key
      : other.role === 'word' && other.text.length >= 2 && String(readRomanNumeral(other.text)) === suffix.key
  )
    out.score = 1;
}

function compareWords(a: NameToken, b: NameToken, fuzz: Fuzziness, out: TokenComparison): void {
  if (a.text === b.text) {
    out.score = 1;
    return;
  }
  if (a.readings.length > 0 || b.readings.length > 0) {
    compareReadings(a, b, fuzz, out);
    compareSpelled(a, b, fuzz, out);
    return;
  }
  if (a.key === b.key) {
    out.score = TOKEN_SCORES.spelling;
    out.kind = 'spelling';
    return;
  }
  if (areNicknames(a.key, b.key)) {
    out.score = TOKEN_SCORES.nickname;
    out.kind = 'nickname';
    return;
  }
  if (a.acronym || b.acronym) return;
  if ((a.sino !== '' && a.sino === b.sino) || sameKoreanSyllables(a.korean, b.korean)) {
    out.score = TOKEN_SCORES.romanisation;
    out.kind = 'spelling';
  } else if (a.sino !== '' && b.sino !== '' && heardSino(a.sino) === heardSino(b.sino)) {
    out.score = TOKEN_SCORES.phonetic;
    out.kind = 'phonetic';
  }
  const length = Math.max(a.text.length, b.text.length);
  if (length >= 2 && !(fuzz.syllablesRead && otherChineseSyllables(a, b, out))) {
    // Even the shortest part may carry one doubled letter ("Yyu" / "Yu"), a slip of the key.
    const budget = Math.max(editBudget(length, fuzz.budgetFactor), COST.doubledLetter * fuzz.budgetFactor);
    const nearLimit = budget * TOKEN_SCORES.nearMissFactor;
    const phonetic = fuzz.phonetic && sharePhoneticKey(a, b);
    const limit = phonetic ? Math.max(nearLimit, TOKEN_SCORES.phoneticPlausibility * length) : nearLimit;
    if (limit > 0 && distanceLowerBound(a.letters, b.letters, a.text.length, b.text.length) <= limit) {
      const cost = weightedDistance(a.text, b.text, limit);
      // Asked only of the few pairs near enough to match (a lookup per comparison costs the search).
      if (cost <= limit && arePatronymicAndRoot(a.key, b.key)) {
        out.score = 0;
        return;
      }
      if (cost <= budget) {
        if (1 - cost / length > out.score) {
          out.score = 1 - cost / length;
          out.kind = 'fuzzy';
        }
      } else if (cost <= nearLimit && out.score === 0) {
        // Just past the budget: weaker evidence that fades to nothing at the near-miss limit,
        // instead of logic-v2's cliff where one more edit turns a match into a conflict.
        out.score = (1 - cost / length) * ((nearLimit - cost) / (nearLimit - budget));
        out.kind = 'fuzzy';
      }
      if (phonetic && cost <= limit && out.score < TOKEN_SCORES.phonetic) {
        out.score = TOKEN_SCORES.phonetic;
        out.kind = 'phonetic';
      }
    }
  }
  if (a.abjad !== b.abjad) {
    compareSkeletons(a, b, fuzz, out);
    if (out.score < TOKEN_SCORES.romanisation) compareArabicSound(a.abjad ? a : b, a.abjad ? b : a, out);
  }
  if (a.koreanSlip !== '' || b.koreanSlip !== '') compareSlip(a, b, fuzz, out);
}

/**
 * Two words of a Chinese name, each of several syllables, that neither spell nor sound the same
 * syllables, one of them read from Chinese characters: each syllable is a character, so a letter
 * or two apart is another character and another name (明輝 Minghui / Mingguo, 建中 Jianzhong /
 * Junzheng, 國榮 Guorong / Guoying), not a slip of the pen. Only where characters were read: Latin
 * names that happen to spell syllables ("Hasan Rohani" / "Hassan Rouhani") keep their slips.
 */
function otherChineseSyllables(a: NameToken, b: NameToken, out: TokenComparison): boolean {
  return (
    out.score === 0 &&
    a.sino !== '' &&
    b.sino !== '' &&
    !isOneSinoSyllable(a.text) &&
    !isOneSinoSyllable(b.text)
  );
}

/**
 * A word in Arabic letters against a Latin one by their sound (vocabulary/arabicTranscription.ts):
 * a foreign name as Persian or Arabic writes it (دیوید David, جونز Jones), which its consonant
 * skeleton (dywyd, jwnz) does not meet. Every abjad word is heard so, Hebrew and a Latin word
 * without vowels too: their transliterations write the same letters.
 */
function compareArabicSound(abjad: NameToken, latin: NameToken, out: TokenComparison): void {
  let readings = ARABIC_SOUNDS.get(abjad);
  if (!readings) {
    readings = arabicSoundReadings(abjad.text);
    ARABIC_SOUNDS.set(abjad, readings);
  }
  const score = soundScore(readings, latin.text);
  if (score > out.score) {
    out.score = score;
    out.kind = score === TOKEN_SCORES.romanisation ? 'spelling' : 'fuzzy';
  }
}

const ARABIC_SOUNDS = new WeakMap<NameToken, readonly string[]>();

/** A slip of the key in a Korean name against the syllable it may have been (vocabulary/koreanTypos.ts). */
function compareSlip(a: NameToken, b: NameToken, fuzz: Fuzziness, out: TokenComparison): void {
  const score =
    a.koreanSlip !== ''
      ? slipScore(a.text, a.koreanSlip, b.text, fuzz.budgetFactor)
      : slipScore(b.text, b.koreanSlip, a.text, fuzz.budgetFactor);
  if (score > out.score) {
    out.score = score;
    out.kind = 'fuzzy';
  }
}

/**
 * A part of a reading name (a Japanese part in kanji, a Korean syllable, a katakana word) against a
 * Latin spelling (or another such part): a reading equal to the spelling is a romanisation, scored
 * as one (TOKEN_SCORES.romanisation). Approximate readings (NameToken.readingKind) also
 * match within the edit budget, a little lower.
 */
function compareReadings(a: NameToken, b: NameToken, fuzz: Fuzziness, out: TokenComparison): void {
  if (a.readings.length > 0 && b.readings.length > 0) {
    // Two parts of reading names (kanji against kanji written otherwise): a reading in common.
    if (a.readings.some((reading) => b.readings.includes(reading))) {
      out.score = TOKEN_SCORES.romanisation;
      out.kind = 'spelling';
    }
    return;
  }
  const [reading, latin] = a.readings.length > 0 ? [a, b] : [b, a];
  const score = readingScore(reading, latin.text, fuzz);
  if (score > out.score) {
    out.score = score;
    out.kind = score === TOKEN_SCORES.romanisation ? 'spelling' : 'fuzzy';
  }
}

/**
 * A word of the query in Cyrillic, Greek, Armenian or Georgian letters, heard, against a Latin part
 * also by its transliteration, as the name's own parts are compared: the reading name then holds
 * both kinds of evidence, word by word. Without it each was in a name of its own, and a name whose
 * one word matched only by sound and the other only by its letters matched in neither (Эндрю
 * Гриффитс: Andrew heard, Griffiths spelled; Тад Кохран: Thad heard, Cochran spelled).
 * - Its letters, not their metaphone code: the sound is the reading's own (Беттс is not Potts).
 * - Not Hebrew or Arabic letters: their transliterations leave the vowels out, and two loose
 *   readings of one word met other names (מוחמד דוד: ABBAKAR MUHAMAD, among the US negatives).
 * - The query's words only: every Latin query would otherwise pay for it against every listed name
 *   in those scripts (a sixth of the mean query time on all lists), and a listed name in Cyrillic
 *   or Greek has its Latin names beside it.
 */
function compareSpelled(query: NameToken, listed: NameToken, fuzz: Fuzziness, out: TokenComparison): void {
  if (query.readingKind !== 'sound' || listed.readings.length > 0) return;
  if (!heardIn(query.readings[0] ?? '', 'alphabet')) return;
  const spelled = spelledToken(query);
  if (spelled === undefined) return;
  compareTokens(spelled, listed, fuzz, SPELLED);
  if (SPELLED.score > out.score && SPELLED.kind !== 'phonetic') {
    out.score = SPELLED.score;
    out.kind = SPELLED.kind;
  }
}

const SPELLED: TokenComparison = { score: 0, kind: 'exact' };
const SPELLINGS = new WeakMap<NameToken, NameToken | null>();

/** The word of a heard part transliterated, as one token (undefined when it makes more than one). */
function spelledToken(heard: NameToken): NameToken | undefined {
  let spelled = SPELLINGS.get(heard);
  if (spelled === undefined) {
    const tokens = nameTokens(heard.text, 'person');
    spelled = tokens.length === 1 && tokens[0]!.readings.length === 0 ? tokens[0]! : null;
    SPELLINGS.set(heard, spelled);
  }
  return spelled ?? undefined;
}

/**
 * How well a Latin spelling meets a part of a reading name: a romanisation when it equals one of
 * the readings; within the edit budget of one, a little less, when the readings are approximate.
 */
export function readingScore(token: NameToken, latin: string, fuzz: Fuzziness): number {
  if (token.readingKind === 'sound') return soundScore(token.readings, latin);
  const text = shortVowels(latin);
  if (token.readings.includes(text)) return TOKEN_SCORES.romanisation;
  if (token.readingKind !== 'approximate') return 0;
  // An approximate reading spells a sound: the Latin part is also heard as Japanese hears it.
  const sound = englishSound(text);
  let best = 0;
  for (const spelling of sound === text ? [text] : [text, sound]) {
    for (const reading of token.readings) {
      const length = Math.max(reading.length, spelling.length);
      const budget = editBudget(length, fuzz.budgetFactor);
      if (reading !== spelling && budget <= 0) continue;
      const cost = reading === spelling ? 0 : weightedDistance(reading, spelling, budget);
      if (cost <= budget) best = Math.max(best, (1 - cost / length) * TOKEN_SCORES.romanisation);
    }
  }
  return best;
}

/**
 * A transcribed part's sound skeleton against a Latin part's, heard the same way
 * (vocabulary/soundSkeleton.ts): the same skeleton scores as a romanisation, one consonant alone
 * less (George 乔治 J); one edit apart, both of three consonants or more, scores less by its share
 * of the length (Johnson J N S N / 约翰逊 yuehanxun H N S N, John written by convention). A
 * skeleton of two is too little to forgive an edit in (보리스 B L S is not Bill, B L).
 */
function soundScore(readings: readonly string[], latin: string): number {
  let best = 0;
  for (const reading of readings) {
    // Both carry the hearing's letter first: the skeletons are what follows it.
    for (const heard of latinSoundsOf(reading, latin)) {
      const length = Math.max(reading.length, heard.length) - 1;
      if (length <= 0) continue;
      // A hearing that reads every name of its script (Hebrew: Eden Levi עדן לוי is D N / L) needs more
      // consonants for the same evidence than one that reads only transcribed foreign names.
      const everyName = readsEveryName(reading);
      if (reading === heard) {
        const score =
          length >= (everyName ? 3 : 2)
            ? TOKEN_SCORES.romanisation
            : length === (everyName ? 2 : 1)
              ? TOKEN_SCORES.singleSound
              : 0;
        best = Math.max(best, score);
      } else if (
        !everyName &&
        Math.min(reading.length, heard.length) > 3 &&
        weightedDistance(reading, heard, 1) <= 1
      ) {
        best = Math.max(best, TOKEN_SCORES.romanisation * (1 - 1 / length));
      }
    }
  }
  return best;
}

/**
 * Arabic or Hebrew transliterated without short vowels meets a Latin spelling on its consonants,
 * each side read every way its letters are written in names (skeletonReadings).
 */
function compareSkeletons(a: NameToken, b: NameToken, fuzz: Fuzziness, out: TokenComparison): void {
  const aReadings = a.abjad ? withVReading(a) : skeletonReadings(a);
  const bReadings = b.abjad ? withVReading(b) : skeletonReadings(b);
  for (const aSkeleton of aReadings) {
    for (const bSkeleton of bReadings) compareSkeletonsAs(a, b, aSkeleton, bSkeleton, fuzz, out);
  }
}

/** The other readings of Latin letters (skeletonReadings), each a rewrite of the text. */
const LATIN_READINGS: readonly [RegExp, string][] = [
  [/th/g, 'z'],
  [/z/g, 'd'],
  [/ch/g, 'sh'],
  // g but in gh: Egyptian spellings write ج g (رجب Ragab, جمال Gamal).
  [/g(?!h)/g, 'j'],
  // gh: also ق, which Persian says as غ and writes gh in Latin letters (باقری Bagheri, صادق Sadegh).
  [/gh/g, 'q'],
  // c before e, i or y: French spellings write س so (لونيسي Lounici).
  [/c(?=[eiy])/g, 's'],
  // A final h after a vowel: the -ah Latin writes for a final vowel (ملا Mullah, حمزة Hamzah).
  [/(?<=[aeiou])h$/, ''],
];

/**
 * The letters but a e i o u, a doubled one once: "wali" and "wli" are both "wl". A leading ou is
 * the w French spellings of Maghreb names write so ("ouni" / العوني "wni").
 */
function withSemivowels(text: string): string {
  let kept = '';
  for (const char of text.startsWith('ou') ? `w${text.slice(2)}` : text) {
    if (!'aeiou'.includes(char) && !kept.endsWith(char)) kept += char;
  }
  return kept;
}

/**
 * A token's consonant skeleton, and the other readings of letters that names write more than one
 * way across an abjad transliteration (docs/screening-matching.md, "Romanization tables"):
 * - Latin dh: the z of ذ and ظ (the skeleton), or d and h (Adham, أدهم); Latin dj: the j of French
 *   spellings (Djamel, the skeleton), or d and j, where parts are glued (Mohammadjavad, محمدجواد);
 * - Latin gh: غ (the skeleton), or ق, which Persian says as غ and writes gh in Latin letters (باقری
 *   Bagheri, صادق Sadegh, ذوالقدر Zolghadr);
 * - Latin th: also ظ, which Iraqi and Gulf spellings write th (كاظم Kathim, Kadhim, Kazim);
 * - Latin z: also ض, which Persian, Pashto and Urdu say z (فضل Fazal, ضیا Zia, رضا Raza);
 * - Latin ch: also ش, as French spellings of Maghreb names write it (علوش Alouche, عكاشة Akkacha);
 * - Latin g: also ج, as Egyptian spellings write it (رجب Ragab); Latin c before e, i, y: also س, as
 *   French ones do (لونيسي Lounici); a Latin final vowel and h: also the vowel alone (ملا Mullah);
 * - abjad th (ث): also s, as Persian, Pashto and Urdu say it (ثاقب Saqib, وثيق Wasiq);
 * - abjad final h (ه): also the vowel a or e it stands for (جمعه Juma, زاده Zada).
 * (compareSkeletons also reads an abjad w as v: withVReading.)
 */
export function skeletonReadings(token: NameToken): readonly string[] {
  let readings = READINGS.get(token);
  if (!readings) {
    readings = textSkeletonReadings(token.text, token.abjad, token.skeleton);
    READINGS.set(token, readings);
  }
  return readings;
}

/** Tokens are immutable and compared many times: their readings are worked out once. */
const READINGS = new WeakMap<NameToken, readonly string[]>();
const V_READINGS = new WeakMap<NameToken, readonly string[]>();

/**
 * An abjad token's readings and, when it has a w, the readings with the و or ו the consonant v: each
 * one or all (Persian وحید Vahid, جواد Javad, ولی Vali, موسوی Mousavi; Hebrew דוד David), since one
 * word may hold the vowel and the consonant (Mousavi's first و is ou). Compared only, never a lookup key:
 * w is the vowel u or o far more often, and as a key it would list every such word of the lists
 * under a b, multiplying the terms each Latin part is confirmed against.
 */
export function withVReading(token: NameToken): readonly string[] {
  let readings = V_READINGS.get(token);
  if (!readings) {
    readings = withAbjadVReadings(skeletonReadings(token), token.text);
    V_READINGS.set(token, readings);
  }
  return readings;
}

/**
 * `readings` and the skeletons of an abjad text with its w the consonant v: all of them, or one (of
 * the first three).
 */
export function withAbjadVReadings(readings: readonly string[], text: string): readonly string[] {
  if (!text.includes('w')) return readings;
  const more = [...readings];
  const add = (variant: string) => {
    const skeleton = consonantSkeleton(variant, true);
    if (!more.includes(skeleton)) more.push(skeleton);
  };
  add(text.replaceAll('w', 'v'));
  for (let at = text.indexOf('w'), n = 0; at >= 0 && n < 3; at = text.indexOf('w', at + 1), n++) {
    add(`${text.slice(0, at)}v${text.slice(at + 1)}`);
  }
  return more;
}

/** The skeleton of an abjad compound without the article inside it ("" when it has none). */
export function withoutInnerArticle(text: string): string {
  const inner = text.indexOf('al', 1);
  return inner < 0 ? '' : consonantSkeleton(text.slice(0, inner) + text.slice(inner + 2), true);
}

/** skeletonReadings of a text (glued parts, say), its skeleton given when known. */
export function textSkeletonReadings(
  text: string,
  abjad: boolean,
  skeleton = consonantSkeleton(text, abjad),
): readonly string[] {
  const readings = [skeleton];
  const add = (reading: string) => {
    if (reading !== '' && !readings.includes(reading)) readings.push(reading);
  };
  if (abjad) {
    if (text.includes('th')) add(consonantSkeleton(text.replaceAll('th', 's'), true));
    // Not the h of الله (Abdallah: "bdllh" would read as "bdl", Abdel).
    if (text.length > 2 && text.endsWith('h') && !text.endsWith('llh'))
      add(consonantSkeleton(text.slice(0, -1), true));
    // A compound read with its article assimilated, as Latin writes it (عبد الرحمن Abderrahmane,
    // Abdur Rahman): only a long one, as a short rest (عبدالولی "bdl") would meet any Abdul.
    const assimilated = withoutInnerArticle(text);
    if (assimilated.length >= 4) add(assimilated);
    return readings;
  }
  // dh and dj also as two letters: Adham (أدهم), and parts glued across a d ("Mohammadjavad").
  if (text.includes('dh') || text.includes('dj')) add(consonantSkeleton(text, true));
  for (const [pattern, by] of LATIN_READINGS) {
    const rewritten = text.replace(pattern, by);
    if (rewritten !== text) add(consonantSkeleton(rewritten));
  }
  return readings;
}

function compareSkeletonsAs(
  a: NameToken,
  b: NameToken,
  aSkeleton: string,
  bSkeleton: string,
  fuzz: Fuzziness,
  out: TokenComparison,
): void {
  const length = Math.max(aSkeleton.length, bSkeleton.length);
  // One consonant agrees only between the shortest words (علي "li" / Ali), or when the w or y
  // the skeleton leaves out agrees too (ولی "wli" / Wali): weaker evidence.
  const abjadText = a.abjad ? a.text : b.text;
  const latinText = a.abjad ? b.text : a.text;
  const shortest =
    length === 1 &&
    latinText.length <= 4 &&
    (abjadText.length <= 2 ||
      (abjadText.length === 3 && withSemivowels(abjadText) === withSemivowels(latinText)));
  if (length < 2 && !shortest) return;
  if (aSkeleton === bSkeleton) {
    const score =
      length === 1 ? TOKEN_SCORES.scriptFactor * TOKEN_SCORES.phonetic : TOKEN_SCORES.scriptFactor;
    if (score > out.score) {
      out.score = score;
      out.kind = 'script';
    }
    return;
  }
  const budget = editBudget(length, fuzz.budgetFactor);
  if (budget <= 0) return;
  const cost = weightedDistance(aSkeleton, bSkeleton, budget);
  if (cost > budget) return;
  const score = TOKEN_SCORES.scriptFactor * (1 - cost / length);
  if (score > out.score) {
    out.score = score;
    out.kind = 'script';
  }
}

/**
 * The same Korean syllables, one side written in Hangul and the other in Latin letters: the only
 * pair the lossy key is compared for (two Latin names with its voicing merged would be too loose).
 */
/** A Korean key as the token of the other origin would carry it ('H...' for 'L...' and back). */
export function otherKoreanOrigin(korean: string): string {
  return `${korean[0] === 'H' ? 'L' : 'H'}${korean.slice(1)}`;
}

/**
 * Chinese syllables as an English writer hears them: pinyin x (and Wade-Giles hs) is said close to
 * sh, and spelled so ("Shi Jinping", "Liu Shiaobo"). Merged as a sound, not a spelling: pinyin shi
 * and xi are also two syllables (石 and 习).
 */
function heardSino(sino: string): string {
  return sino.replaceAll('x', 'sh');
}

export function sameKoreanSyllables(a: string, b: string): boolean {
  return a !== '' && b !== '' && a[0] !== b[0] && a.slice(1) === b.slice(1);
}

/**
 * Same primary double-metaphone code. The secondary codes spell alternative, often foreign,
 * pronunciations ("Jong" as Spanish "Hong", "Jumul" as "Umul"): good enough to find candidates,
 * too loose to score a match.
 */
function sharePhoneticKey(a: NameToken, b: NameToken): boolean {
  const left = a.phonetic[0];
  return left !== undefined && left.length >= 2 && left === b.phonetic[0];
}
