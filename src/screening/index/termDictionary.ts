import { NAME_RULES } from '../matching/nameAlignment.js';
import type { NameToken } from '../matching/nameTokens.js';
import {
  compareTokens,
  comparisonIdentity,
  type Fuzziness,
  otherKoreanOrigin,
  skeletonReadings,
  type TokenComparison,
} from '../matching/tokenSimilarity.js';
import { shortVowels } from '../matching/vocabulary/japaneseReadings.js';
import { englishSound } from '../matching/vocabulary/katakanaLoanwords.js';
import { latinSoundReadings } from '../matching/vocabulary/soundSkeleton.js';
import { TrigramNeighbours } from './trigramNeighbours.js';

/**
 * The distinct name parts (terms) of every indexed name, and how a part of a query reaches the
 * terms it may match: the same text, the same canonical spelling, the same sound, the same
 * consonant skeleton across an abjad transliteration, or a shared character 3-gram. Every route
 * only proposes terms; `compareTokens`, the very comparison the scorer uses, decides which are
 * close enough and how close. So candidate generation never disagrees with scoring about what a
 * part may match, and the costly part (the edit distance) runs per distinct term, not per name.
 */

/** Roles of the parts a name is found by: the parts that carry identity. */
export function isSearchablePart(token: NameToken): boolean {
  return token.role === 'word' || token.role === 'patronymic' || token.role === 'number';
}

/** A term reached from a query part, with how well it matches (0.5 to 1). */
export interface TermMatch {
  term: number;
  similarity: number;
}

/** Fuzzy routes verify at most this many 3-gram neighbours per query part, the closest first. */
const MAX_NEIGHBOURS = 160;
/**
 * Query parts whose matches are remembered. Names repeat (most people screened are Maria, John or
 * Muhammad something), and a part's matches depend only on the part and the fuzziness, so the
 * costly fuzzy routes run once per distinct part, not once per query.
 */
const CACHED_PARTS = 50_000;

export function trigramsOf(text: string): string[] {
  const padded = ` ${text} `;
  const grams: string[] = [];
  for (let i = 0; i + 3 <= padded.length; i++) grams.push(padded.slice(i, i + 3));
  return grams;
}

const NO_TERMS = new Int32Array(0);

/** Skeleton halves shorter than this are not looked up: two consonants already name many parts. */
export const MIN_SKELETON_HALF = 2;

class ListMap {
  private readonly lists = new Map<string, number[]>();
  add(key: string, value: number): void {
    const list = this.lists.get(key);
    if (!list) this.lists.set(key, [value]);
    else if (list[list.length - 1] !== value) list.push(value);
  }
  freeze(): Map<string, Int32Array> {
    const frozen = new Map<string, Int32Array>();
    for (const [key, list] of this.lists) frozen.set(key, Int32Array.from(list));
    return frozen;
  }
}

/** What tells terms apart: the text, and for a part of a reading name its readings too. */
function termKey(token: NameToken): string {
  return token.readings.length === 0 ? token.text : `${token.text}\u0000${token.readings.join('|')}`;
}

export class TermDictionaryBuilder {
  private readonly ids = new Map<string, number>();
  private readonly tokens: NameToken[] = [];

  /**
   * The term id of a part, adding the part as a new term when its text is new. A part of a reading
   * name is a term of its text and its readings: one kanji is a Japanese given name in one reading
   * name and a Korean syllable in another (恩: megumi, on; eun, un).
   */
  termOf(token: NameToken): number {
    const key = termKey(token);
    const known = this.ids.get(key);
    if (known !== undefined) return known;
    const id = this.tokens.length;
    this.ids.set(key, id);
    this.tokens.push(token);
    return id;
  }

  build(): TermDictionary {
    const byKey = new ListMap();
    const byPhonetic = new ListMap();
    const bySkeleton = new ListMap();
    const byTrigram = new ListMap();
    for (let id = 0; id < this.tokens.length; id++) {
      const token = this.tokens[id]!;
      if (token.key !== token.text) byKey.add(token.key, id);
      for (const code of token.phonetic) byPhonetic.add(code, id);
      // Skeletons only help across an abjad transliteration; keyed by side so each side finds the other,
      // under every reading of the letters written more than one way.
      for (const reading of skeletonReadings(token))
        bySkeleton.add(`${token.abjad ? 'a' : 'l'}${reading}`, id);
      // Korean syllables across Hangul and Latin letters (koreanRomanisation.ts), in the same map.
      if (token.korean !== '') bySkeleton.add(`k${token.korean}`, id);
      // The readings of a part of a reading name (kanji, Korean in Cyrillic), for the Latin spellings equal to one.
      for (const reading of token.readings) bySkeleton.add(`j${reading}`, id);
      // The sound route (englishSound): a Latin term under the way katakana would spell it, where
      // that is not its own spelling (a reading equal to the spelling finds it by the term's text).
      if (token.readings.length === 0) {
        const sound = englishSound(shortVowels(token.text));
        if (sound !== token.text) bySkeleton.add(`E${sound}`, id);
        // The transcription route (soundSkeleton.ts): a Latin term under its sound skeleton in each
        // hearing, and a part of a name heard (Chinese, Hangul, Hebrew) under its own.
        for (const reading of latinSoundReadings(token.text)) bySkeleton.add(`C${reading}`, id);
      } else if (token.readingKind === 'sound') {
        for (const reading of token.readings) bySkeleton.add(`T${reading}`, id);
      }
      if (token.role !== 'number') for (const gram of trigramsOf(token.text)) byTrigram.add(gram, id);
    }
    return new TermDictionary(
      this.ids,
      this.tokens,
      byKey.freeze(),
      byPhonetic.freeze(),
      bySkeleton.freeze(),
      byTrigram.freeze(),
    );
  }
}

export class TermDictionary {
  private readonly neighbours: TrigramNeighbours;
  // Scratch space of `find`, sized to the dictionary once.
  private readonly seen: Uint32Array;
  private stamp = 0;
  private readonly comparison: TokenComparison = { score: 0, kind: 'exact' };
  private readonly cache = new Map<string, readonly TermMatch[]>();

  constructor(
    private readonly ids: ReadonlyMap<string, number>,
    private readonly tokens: readonly NameToken[],
    private readonly byKey: ReadonlyMap<string, Int32Array>,
    private readonly byPhonetic: ReadonlyMap<string, Int32Array>,
    private readonly bySkeleton: ReadonlyMap<string, Int32Array>,
    byTrigram: ReadonlyMap<string, Int32Array>,
  ) {
    this.neighbours = new TrigramNeighbours(
      byTrigram,
      Uint16Array.from(tokens, (token) => token.text.length),
    );
    this.seen = new Uint32Array(tokens.length);
  }

  get size(): number {
    return this.tokens.length;
  }

  /** The term with exactly this text. */
  lookup(text: string): number | undefined {
    return this.ids.get(text);
  }

  /**
   * Terms of the other kind of script (Latin for an abjad query, abjad for a Latin one) whose
   * consonant skeleton is `skeleton`: how glued or split parts meet across an abjad
   * transliteration, where the texts never agree letter for letter.
   */
  skeletonTerms(skeleton: string, fromAbjad: boolean): ArrayLike<number> {
    return this.bySkeleton.get(`${fromAbjad ? 'l' : 'a'}${skeleton}`) ?? NO_TERMS;
  }

  /**
   * Every term the query part may match, each once, with its similarity, best first. Numbers match
   * only the same number: a different one is a different company or vessel.
   */
  matches(part: NameToken, fuzziness: Fuzziness): readonly TermMatch[] {
    const key = `${fuzziness.budgetFactor}|${fuzziness.phonetic ? 1 : 0}|${comparisonIdentity(part)}`;
    const cached = this.cache.get(key);
    if (cached) {
      // Least recently used goes first: a hit moves the part to the end.
      this.cache.delete(key);
      this.cache.set(key, cached);
      return cached;
    }
    const found = this.find(part, fuzziness).sort((a, b) => b.similarity - a.similarity);
    if (this.cache.size >= CACHED_PARTS) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, found);
    return found;
  }

  /** The matches of a part, best first. */
  private find(part: NameToken, fuzziness: Fuzziness): TermMatch[] {
    this.nextStamp();
    const found: TermMatch[] = [];
    const exact = this.ids.get(termKey(part));
    if (exact !== undefined) this.accept(exact, 1, found);

    const consider = (term: number) => {
      if (this.seen[term] === this.stamp) return;
      this.seen[term] = this.stamp;
      compareTokens(part, this.tokens[term]!, fuzziness, this.comparison);
      if (this.comparison.score >= NAME_RULES.minimumPairScore)
        found.push({ term, similarity: this.comparison.score });
    };
    // The same canonical key: a spelling variant, or a number written otherwise ("250th", "250").
    const keyed = this.ids.get(part.key);
    if (keyed !== undefined) consider(keyed);
    for (const term of this.byKey.get(part.key) ?? []) consider(term);
    if (part.role === 'number') return found;
    if (fuzziness.phonetic)
      for (const code of part.phonetic) for (const term of this.byPhonetic.get(code) ?? []) consider(term);
    for (const reading of skeletonReadings(part)) {
      for (const term of this.bySkeleton.get(`${part.abjad ? 'l' : 'a'}${reading}`) ?? []) consider(term);
    }
    if (part.korean !== '') {
      for (const term of this.bySkeleton.get(`k${otherKoreanOrigin(part.korean)}`) ?? []) consider(term);
    }
    if (part.readings.length === 0) {
      const spelling = shortVowels(part.text);
      for (const term of this.bySkeleton.get(`j${spelling}`) ?? []) consider(term);
      // Heard as katakana writes it, it reaches the katakana parts with a reading of that sound.
      const sound = englishSound(spelling);
      if (sound !== spelling) for (const term of this.bySkeleton.get(`j${sound}`) ?? []) consider(term);
    }
    if (part.readingKind === 'approximate') {
      for (const reading of part.readings)
        for (const term of this.bySkeleton.get(`E${reading}`) ?? []) consider(term);
    }
    // Heard (Chinese, Hangul, Hebrew): Latin parts reach the heard ones, and the other way.
    if (part.readingKind === 'sound') {
      for (const reading of part.readings)
        for (const term of this.bySkeleton.get(`C${reading}`) ?? []) consider(term);
    } else if (part.readings.length === 0) {
      for (const reading of latinSoundReadings(part.text))
        for (const term of this.bySkeleton.get(`T${reading}`) ?? []) consider(term);
    }
    // A part of a reading name reaches the Latin spellings equal to a reading (and, by the phonetic
    // route above, those that sound like one).
    for (const reading of part.readings) {
      const term = this.ids.get(reading);
      if (term !== undefined) consider(term);
    }
    if (part.text.length >= 4) {
      for (const term of this.neighbours.of(part.text, trigramsOf(part.text), MAX_NEIGHBOURS)) consider(term);
    }
    return found;
  }

  private accept(term: number, similarity: number, found: TermMatch[]): void {
    this.seen[term] = this.stamp;
    found.push({ term, similarity });
  }

  private nextStamp(): void {
    this.stamp++;
    if (this.stamp === 0xffffffff) {
      this.seen.fill(0);
      this.stamp = 1;
    }
  }
}
