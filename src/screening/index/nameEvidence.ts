/**
 * The evidence a search collects for the indexed names it reaches, and the best-evidenced of them.
 *
 * Rules (what the index relies on):
 * - a search credits its query parts one by one (`beginPart`); each part credits the terms it
 *   matched, best first (`add`), and a name earns the weight of at most one term per part, the first;
 * - a part that may not bring in names (`raise`: the common half of a name) only credits, in the
 *   same way, names the other parts reached;
 * - `take` returns the names with the most evidence, ties in index order (the lower name id).
 *
 * How: walking postings is the costly part of a search at millions of names, and its cost is
 * memory, not arithmetic. Crediting each posting in a name-sized array would touch a random
 * cache line per posting. So `add` only records the postings lists, and `take` first sorts their
 * names into blocks of BLOCK_NAMES consecutive ids (a counting pass and a placing pass, both
 * reading the sorted lists in order), then credits one block at a time in scratch arrays small
 * enough to stay in the CPU's cache. The order of the postings within a block is the order they
 * were added in, so the per-part rule above holds unchanged.
 *
 * The raising parts' postings are most of a search's (they are its commonest parts: "maria", or
 * the forty spellings a Hebrew given name is heard as), and they cannot bring in a name. So they
 * are not sorted into blocks: once a block's names are credited, each raising list is read on
 * from where the last block left it, through that block's names, and only a name the block's bits
 * say has evidence is credited. One sequential read per posting instead of three passes.
 */

const BLOCK_BITS = 15;
const BLOCK_NAMES = 1 << BLOCK_BITS;
const LOCAL_MASK = BLOCK_NAMES - 1;
const HISTOGRAM_BUCKETS = 256;

export class NameEvidence {
  private readonly blocks: number;
  // What `add` recorded: postings lists and, per list, its weight and the part it belongs to.
  private lists: Int32Array[] = [];
  private weights: number[] = [];
  private listPart: number[] = [];
  private parts = 0;
  // The raising parts: each one's postings lists, best term first, and their weights.
  private raisingLists: Int32Array[][] = [];
  private raisingWeights: (readonly number[])[] = [];
  /** Per raising part and list, where the next block's postings start. */
  private raisingCursors: Int32Array[] = [];
  // Postings sorted into blocks: local name id and list index, block after block.
  private locals = new Uint16Array(4096);
  private listOf = new Uint16Array(4096);
  private readonly blockStart: Int32Array;
  // Per-block scratch: evidence and the part (plus one) that last credited each name of the block.
  private readonly evidence = new Float32Array(BLOCK_NAMES);
  private readonly creditedBy = new Int32Array(BLOCK_NAMES);
  /** Bit i: name i of the block has evidence (read in name order, cheaper than sorting them). */
  private readonly hasEvidence = new Uint32Array(BLOCK_NAMES / 32);
  // The names with evidence and their evidence, in name order.
  private names: Int32Array = new Int32Array(1024);
  private values: Float32Array = new Float32Array(1024);

  constructor(names: number) {
    this.blocks = Math.max(1, Math.ceil(names / BLOCK_NAMES));
    this.blockStart = new Int32Array(this.blocks + 1);
  }

  /** Starts the next query part that brings in names. */
  beginPart(): void {
    this.parts++;
  }

  /** Credits `weight` to each of `names` (a postings list, sorted) in the current part. */
  add(names: Int32Array, weight: number): void {
    if (this.parts === 0) throw new Error('NameEvidence.add before beginPart');
    // The list index is stored in 16 bits; a query never follows that many terms.
    if (this.lists.length === 0xffff) throw new Error('too many postings lists in one search');
    this.lists.push(names);
    this.weights.push(weight);
    this.listPart.push(this.parts - 1);
  }

  /**
   * A part that only credits names the parts given to `add` reach: the postings lists of its
   * terms, best first, and their weights.
   */
  raise(lists: Int32Array[], weights: readonly number[]): void {
    if (lists.length === 0) return;
    this.raisingLists.push(lists);
    this.raisingWeights.push(weights);
    this.raisingCursors.push(new Int32Array(lists.length));
  }

  /**
   * The `limit` allowed names with the most evidence, best first; forgets everything recorded,
   * for the next search.
   */
  take(limit: number, allowed: (name: number) => boolean): number[] {
    const count = this.sortIntoBlocks();
    let touched = 0;
    for (let block = 0; block < this.blocks; block++) {
      if (this.blockStart[block] === this.blockStart[block + 1]) continue;
      touched = this.creditBlock(block, touched);
    }
    this.lists = [];
    this.weights = [];
    this.listPart = [];
    this.parts = 0;
    this.raisingLists = [];
    this.raisingWeights = [];
    this.raisingCursors = [];
    return count === 0 ? [] : this.best(touched, limit, allowed);
  }

  /** Places every recorded posting in its block, keeping the order they were added in. */
  private sortIntoBlocks(): number {
    const lists = this.lists;
    const blockStart = this.blockStart;
    blockStart.fill(0);
    let count = 0;
    for (const list of lists) {
      count += list.length;
      for (let i = 0; i < list.length; i++) blockStart[(list[i]! >>> BLOCK_BITS) + 1]!++;
    }
    for (let block = 0; block < this.blocks; block++)
      blockStart[block + 1] = blockStart[block + 1]! + blockStart[block]!;
    if (this.locals.length < count) {
      this.locals = new Uint16Array(count * 2);
      this.listOf = new Uint16Array(count * 2);
    }
    const locals = this.locals;
    const listOf = this.listOf;
    // blockStart[b] doubles as the next free slot of block b while placing, ending at the start of b + 1.
    for (let l = 0; l < lists.length; l++) {
      const list = lists[l]!;
      for (let i = 0; i < list.length; i++) {
        const name = list[i]!;
        const slot = blockStart[name >>> BLOCK_BITS]!++;
        locals[slot] = name & LOCAL_MASK;
        listOf[slot] = l;
      }
    }
    for (let block = this.blocks; block > 0; block--) blockStart[block] = blockStart[block - 1]!;
    blockStart[0] = 0;
    return count;
  }

  /** Credits the postings of one block; appends its names with evidence, in name order. */
  private creditBlock(block: number, touched: number): number {
    const locals = this.locals;
    const listOf = this.listOf;
    const evidence = this.evidence;
    const creditedBy = this.creditedBy;
    const hasEvidence = this.hasEvidence;
    const weights = this.weights;
    const listPart = this.listPart;
    const start = this.blockStart[block]!;
    const end = this.blockStart[block + 1]!;
    for (let slot = start; slot < end; slot++) {
      const local = locals[slot]!;
      const list = listOf[slot]!;
      const part = listPart[list]! + 1;
      if (creditedBy[local] === part) continue;
      const before = evidence[local]!;
      if (before === 0) hasEvidence[local >>> 5]! |= 1 << (local & 31);
      creditedBy[local] = part;
      evidence[local] = before + weights[list]!;
    }
    this.creditRaising(block);
    // A block holds at most as many names with evidence as postings.
    while (this.names.length < touched + (end - start)) {
      this.names = grow(this.names);
      this.values = growFloats(this.values);
    }
    const base = block << BLOCK_BITS;
    for (let word = 0; word < hasEvidence.length; word++) {
      let bits = hasEvidence[word]!;
      if (bits === 0) continue;
      hasEvidence[word] = 0;
      while (bits !== 0) {
        const local = (word << 5) | (31 - Math.clz32(bits & -bits));
        bits &= bits - 1;
        this.names[touched] = base | local;
        this.values[touched++] = evidence[local]!;
        evidence[local] = 0;
        creditedBy[local] = 0;
      }
    }
    return touched;
  }

  /** Credits the raising parts to the names of `block` that have evidence (creditBlock's scratch). */
  private creditRaising(block: number): void {
    const evidence = this.evidence;
    const creditedBy = this.creditedBy;
    const hasEvidence = this.hasEvidence;
    const first = block << BLOCK_BITS;
    const end = first + BLOCK_NAMES;
    for (let raising = 0; raising < this.raisingLists.length; raising++) {
      // After every part that brings names in: a mark of its own in creditedBy.
      const part = this.parts + 1 + raising;
      const lists = this.raisingLists[raising]!;
      const weights = this.raisingWeights[raising]!;
      const cursors = this.raisingCursors[raising]!;
      for (let l = 0; l < lists.length; l++) {
        const list = lists[l]!;
        const weight = weights[l]!;
        let at = cursors[l]!;
        // Blocks without names of the other parts are skipped, so their postings are passed over here.
        while (at < list.length && list[at]! < first) at++;
        for (; at < list.length; at++) {
          const name = list[at]!;
          if (name >= end) break;
          const local = name & LOCAL_MASK;
          if ((hasEvidence[local >>> 5]! & (1 << (local & 31))) === 0 || creditedBy[local] === part) continue;
          creditedBy[local] = part;
          evidence[local] = evidence[local]! + weight;
        }
        cursors[l] = at;
      }
    }
  }

  /**
   * The best names in linear time: a histogram of the evidence finds the cut, and only the names
   * above it are ranked.
   */
  private best(count: number, limit: number, allowed: (name: number) => boolean): number[] {
    const names = this.names;
    const values = this.values;
    let max = 0;
    for (let i = 0; i < count; i++) if (values[i]! > max) max = values[i]!;
    const scale = (HISTOGRAM_BUCKETS - 1) / (max || 1);
    const counts = new Uint32Array(HISTOGRAM_BUCKETS);
    for (let i = 0; i < count; i++) counts[Math.floor(values[i]! * scale)]!++;
    let cut = HISTOGRAM_BUCKETS - 1;
    for (let kept = counts[cut]!; cut > 0 && kept < limit * 2; ) kept += counts[--cut]!;
    let above = 0;
    for (let i = 0; i < count; i++) {
      if (Math.floor(values[i]! * scale) < cut) continue;
      names[above] = names[i]!;
      values[above++] = values[i]!;
    }
    // Whether a name is allowed is read from its party, a random place in memory (a third of a
    // microsecond at two million names), and thousands of names can share the cut's bucket: rank
    // first and ask only of the best. When they are all allowed (a search of every kind and check
    // type of the index), no allowed name can rank above them.
    const best = bestFirst(names, values, above, limit);
    if (best.every(allowed)) return best;
    let kept = 0;
    for (let i = 0; i < above; i++) {
      if (!allowed(names[i]!)) continue;
      names[kept] = names[i]!;
      values[kept++] = values[i]!;
    }
    return bestFirst(names, values, kept, limit);
  }
}

function grow(array: Int32Array): Int32Array {
  const grown = new Int32Array(array.length * 2);
  grown.set(array);
  return grown;
}

function growFloats(array: Float32Array): Float32Array {
  const grown = new Float32Array(array.length * 2);
  grown.set(array);
  return grown;
}

/**
 * The first `limit` of `names` by `evidence`, best first, ties in the given order: what a stable
 * sort would return. Names share evidence often (every "John Smith" holds the same terms), so the
 * cut bucket may hold thousands: the evidence of the last name kept is found on a native sort of
 * the values, and only the names that make it are ranked.
 */
function bestFirst(names: Int32Array, evidence: Float32Array, count: number, limit: number): number[] {
  let floor = Number.NEGATIVE_INFINITY;
  let atFloor = limit;
  if (count > limit) {
    const values = evidence.slice(0, count).sort();
    floor = values[count - limit]!;
    // How many names at exactly the floor make it, the earliest ones.
    atFloor = 0;
    for (let i = count - limit; i < count && values[i] === floor; i++) atFloor++;
  }
  const ranked: { name: number; evidence: number }[] = [];
  for (let i = 0; i < count; i++) {
    const value = evidence[i]!;
    if (value < floor || (value === floor && atFloor-- <= 0)) continue;
    ranked.push({ name: names[i]!, evidence: value });
  }
  ranked.sort((a, b) => b.evidence - a.evidence);
  return ranked.map((r) => r.name);
}
