import { describe, expect, it } from 'vitest';
import { trigramsOf } from './termDictionary.js';
import { TrigramNeighbours } from './trigramNeighbours.js';

/** The terms' 3-gram lists as TermDictionaryBuilder makes them: ascending term ids, each once. */
function listsOf(terms: readonly string[]): Map<string, Int32Array> {
  const lists = new Map<string, number[]>();
  terms.forEach((text, term) => {
    for (const gram of trigramsOf(text)) {
      const list = lists.get(gram);
      if (!list) lists.set(gram, [term]);
      else if (list[list.length - 1] !== term) list.push(term);
    }
  });
  return new Map([...lists].map(([gram, list]) => [gram, Int32Array.from(list)]));
}

function neighboursOf(terms: readonly string[]): TrigramNeighbours {
  return new TrigramNeighbours(
    listsOf(terms),
    Uint16Array.from(terms, (text) => text.length),
  );
}

const listsCache = new WeakMap<readonly string[], Map<string, Int32Array>>();

/**
 * The plain rule: walk every 3-gram of the text, each occurrence, counting the terms it reaches in
 * the order they are first reached; keep those sharing at least max(2, a third of the grams) within
 * 3 letters of the length; most shared first, ties in first-reached order, at most `limit`.
 */
function plainNeighbours(terms: readonly string[], text: string, limit: number): number[] {
  const lists = listsCache.get(terms) ?? listsOf(terms);
  listsCache.set(terms, lists);
  const grams = trigramsOf(text);
  const shared = new Map<number, number>();
  for (const gram of grams) {
    for (const term of lists.get(gram) ?? []) shared.set(term, (shared.get(term) ?? 0) + 1);
  }
  const minimum = Math.max(2, Math.ceil(grams.length / 3));
  const kept = [...shared].filter(
    ([term, count]) => count >= minimum && Math.abs(terms[term]!.length - text.length) <= 3,
  );
  // Map iteration is insertion order, which is first-reached order; the sort is stable.
  return kept
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([term]) => term);
}

/** A deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('TrigramNeighbours', () => {
  it('finds the terms sharing enough 3-grams, within three letters of the length, most shared first', () => {
    const terms = ['konstantin', 'konstantinov', 'constantine', 'kostya', 'stan', 'muhammad'];
    const found = neighboursOf(terms).of('konstantine', trigramsOf('konstantine'), 10);
    expect(found.map((term) => terms[term])).toEqual(['konstantin', 'konstantinov', 'constantine']);
  });

  it('counts a 3-gram as often as the text holds it', () => {
    // "ananas" holds "ana" twice: "banana" shares it twice and "nan" once.
    const terms = ['banana', 'ana', 'nanny'];
    const text = 'ananas';
    expect(neighboursOf(terms).of(text, trigramsOf(text), 10)).toEqual(plainNeighbours(terms, text, 10));
  });

  it('gives what walking every list gives, in the same order, on random names with common 3-grams', () => {
    const next = random(42);
    const letters = 'aaaeeinnorsthmdl';
    const word = (min: number, max: number) => {
      const length = min + Math.floor(next() * (max - min + 1));
      let text = '';
      for (let i = 0; i < length; i++) text += letters[Math.floor(next() * letters.length)];
      return text;
    };
    const terms = [...new Set(Array.from({ length: 3000 }, () => word(3, 12)))];
    const neighbours = neighboursOf(terms);
    let compared = 0;
    for (let i = 0; i < 400; i++) {
      const text = word(4, 14);
      for (const limit of [5, 160]) {
        expect(neighbours.of(text, trigramsOf(text), limit)).toEqual(plainNeighbours(terms, text, limit));
        compared++;
      }
    }
    expect(compared).toBe(800);
  });

  it('keeps the first-reached order among ties when a looked-up list reaches a term first', () => {
    // In "abcd", " ab" is the first 3-gram and the commonest list, so it is only looked up. "zbcd"
    // and "abqcd" share two 3-grams each; the walked lists reach "zbcd" first, but " ab" reaches
    // "abqcd" before any list reaches "zbcd", and walking every list puts it first.
    const terms = ['zbcd', 'abqcd', ...Array.from({ length: 50 }, (_, i) => `ab${i}`)];
    const found = neighboursOf(terms).of('abcd', trigramsOf('abcd'), 160);
    expect(found.map((term) => terms[term])).toEqual(['abqcd', 'zbcd']);
    expect(found).toEqual(plainNeighbours(terms, 'abcd', 160));
  });
});
