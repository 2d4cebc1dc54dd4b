/**
 * The terms sharing the most character 3-grams with a text: the terms a typo, a transposition or a
 * dropped letter lead to. A term is a neighbour when it shares at least max(2, a third of the
 * text's 3-grams), each occurrence in the text counted, and its length is within 3 of the text's;
 * at most `limit` are returned, most shared first, ties in the order the text's 3-grams first
 * reach them (the first 3-gram of the text holding the term, then the term id).
 *
 * The cost was in the commonest 3-grams: a part's fuzzy routes, cold, spent most of their time
 * counting the lists of grams such as "an" or "ha", thousands of terms long. A term sharing
 * `minimum` grams shares at least one outside any set of grams occurring fewer than `minimum`
 * times in the text (pigeonhole), so the longest lists, as many as that allows, are not walked:
 * the terms the other lists reach are looked up in them (each list is in term order, so by a
 * binary search). The counts, and so the neighbours and their order, are the same as walking
 * every list.
 */
export class TrigramNeighbours {
  // Scratch space, sized to the dictionary once: the shared count and first reaching 3-gram per term.
  private readonly shared: Uint16Array;
  private readonly firstGram: Uint16Array;

  constructor(
    /** Per 3-gram, the terms holding it, in ascending term order, each once. */
    private readonly byTrigram: ReadonlyMap<string, Int32Array>,
    /** Per term, the length of its text. */
    private readonly lengths: Uint16Array,
  ) {
    this.shared = new Uint16Array(lengths.length);
    this.firstGram = new Uint16Array(lengths.length);
  }

  /** The neighbours of a text whose 3-grams (trigramsOf) are `grams`. */
  of(text: string, grams: readonly string[], limit: number): number[] {
    const minimum = Math.max(2, Math.ceil(grams.length / 3));
    const lists = this.listsOf(grams);
    // The longest lists whose grams occur fewer than `minimum` times together are only looked up.
    lists.sort((a, b) => b.terms.length - a.terms.length);
    let lookedUp = 0;
    for (let occurrences = 0; lookedUp < lists.length; lookedUp++) {
      occurrences += lists[lookedUp]!.count;
      if (occurrences >= minimum) break;
    }
    const walked = lists.slice(lookedUp).sort((a, b) => a.first - b.first);
    const probed = lists.slice(0, lookedUp);

    const shared = this.shared;
    const firstGram = this.firstGram;
    const touched: number[] = [];
    for (const { terms, count, first } of walked) {
      for (let i = 0; i < terms.length; i++) {
        const term = terms[i]!;
        if (shared[term] === 0) {
          touched.push(term);
          firstGram[term] = first;
        }
        shared[term]! += count;
      }
    }
    const buckets: number[][] = [];
    for (const term of touched) {
      let count = shared[term]!;
      shared[term] = 0;
      if (Math.abs(this.lengths[term]! - text.length) > 3) continue;
      for (const list of probed) {
        if (!holds(list.terms, term)) continue;
        count += list.count;
        if (list.first < firstGram[term]!) firstGram[term] = list.first;
      }
      if (count < minimum) continue;
      const bucket = buckets[count];
      if (bucket) bucket.push(term);
      else buckets[count] = [term];
    }
    const closest: number[] = [];
    for (let count = buckets.length - 1; count >= minimum && closest.length < limit; count--) {
      const bucket = buckets[count];
      if (!bucket) continue;
      // A looked-up list may hold a term earlier in the text than the walked list that reached it.
      if (probed.length > 0) bucket.sort((a, b) => firstGram[a]! - firstGram[b]! || a - b);
      for (const term of bucket) {
        if (closest.length === limit) break;
        closest.push(term);
      }
    }
    return closest;
  }

  /** The lists of the text's distinct 3-grams held by some term: how often each occurs, and where first. */
  private listsOf(grams: readonly string[]): GramList[] {
    const lists: GramList[] = [];
    for (let i = 0; i < grams.length; i++) {
      const gram = grams[i]!;
      const seen = lists.find((list) => list.gram === gram);
      if (seen) {
        seen.count++;
        continue;
      }
      const terms = this.byTrigram.get(gram);
      if (terms) lists.push({ gram, terms, count: 1, first: i });
    }
    return lists;
  }
}

interface GramList {
  gram: string;
  terms: Int32Array;
  /** Occurrences of the gram in the text. */
  count: number;
  /** Index of its first occurrence. */
  first: number;
}

/** Whether the ascending list holds the term. */
function holds(terms: Int32Array, term: number): boolean {
  let low = 0;
  let high = terms.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const value = terms[middle]!;
    if (value === term) return true;
    if (value < term) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}
