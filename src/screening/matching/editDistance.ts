/**
 * Weighted Damerau-Levenshtein distance (optimal string alignment) over ASCII lower-case text.
 * Costs follow what transliteration and typing actually do to names:
 * - a substitution costs 1, but only 0.7 between letters that transliterations swap
 *   (vowels among themselves, c/k/q, s/z, v/w, j/y, d/t, g/j...) or that look alike (0/o, 1/i);
 * - a substitution involving any other digit costs 1.5: numbers in a name are identity;
 * - inserting or deleting a doubled letter ("Basharr", "Hanniball") costs 0.3, another letter 1;
 * - swapping two adjacent letters costs 0.8.
 */

export const COST = {
  substitution: 1,
  similar: 0.7,
  digit: 1.5,
  insertion: 1,
  doubledLetter: 0.3,
  transposition: 0.8,
} as const;

const SIMILAR_GROUPS = [
  'aeiouy',
  'ckq',
  'gkq',
  'sz',
  'cs',
  'vw',
  'fv',
  'bp',
  'dt',
  'jy',
  'ij',
  'gj',
  'nh',
  '0o',
  '1il',
  '5s',
  '9gq',
  '6b',
  '8b',
];

/** substitution cost by (a << 7) | b for ASCII codes. */
const SUBSTITUTION = buildSubstitutionTable();

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function buildSubstitutionTable(): Float64Array {
  const table = new Float64Array(128 * 128);
  for (let a = 0; a < 128; a++) {
    for (let b = 0; b < 128; b++) {
      table[(a << 7) | b] = a === b ? 0 : isDigit(a) || isDigit(b) ? COST.digit : COST.substitution;
    }
  }
  for (const group of SIMILAR_GROUPS) {
    for (const x of group) {
      for (const y of group) {
        if (x !== y) table[(x.charCodeAt(0) << 7) | y.charCodeAt(0)] = COST.similar;
      }
    }
  }
  return table;
}

// Reusable rows: the distance runs ~10^4 times per query and must not allocate.
let rowA = new Float64Array(64);
let rowB = new Float64Array(64);
let rowC = new Float64Array(64);
let insertCosts = new Float64Array(64);

function ensureCapacity(length: number): void {
  if (rowA.length > length) return;
  const size = Math.max(length + 1, rowA.length * 2);
  rowA = new Float64Array(size);
  rowB = new Float64Array(size);
  rowC = new Float64Array(size);
  insertCosts = new Float64Array(size);
}

/**
 * Cost of inserting or deleting text[index]: cheap when it repeats the letter before it, so
 * "ll" -> "l" is cheap but dropping both letters of "ll" costs a full edit plus the cheap one.
 */
function indelCost(text: string, index: number): number {
  return index > 0 && text.charCodeAt(index - 1) === text.charCodeAt(index)
    ? COST.doubledLetter
    : COST.insertion;
}

/**
 * The weighted distance between two ASCII strings. Stops early and returns `Infinity` once every
 * path exceeds `limit`, which is all a budgeted comparison needs to know.
 */
export function weightedDistance(a: string, b: string, limit = Number.POSITIVE_INFINITY): number {
  const n = a.length;
  const m = b.length;
  if (n === 0) return sumIndel(b);
  if (m === 0) return sumIndel(a);
  ensureCapacity(m);
  let before = rowA;
  let previous = rowB;
  let current = rowC;
  const inserts = insertCosts;
  current[0] = 0;
  for (let j = 1; j <= m; j++) {
    inserts[j] = indelCost(b, j - 1);
    current[j] = current[j - 1]! + inserts[j]!;
  }
  let previousRowMin = 0;
  let previousCode = -1;
  for (let i = 1; i <= n; i++) {
    const rotate = before;
    before = previous;
    previous = current;
    current = rotate;
    const ca = a.charCodeAt(i - 1) & 127;
    const deleteCost = ca === previousCode ? COST.doubledLetter : COST.insertion;
    const row = ca << 7;
    current[0] = previous[0]! + deleteCost;
    let rowMin = current[0]!;
    let cbBefore = -1;
    for (let j = 1; j <= m; j++) {
      const cb = b.charCodeAt(j - 1) & 127;
      let best = previous[j - 1]! + SUBSTITUTION[row | cb]!;
      const deletion = previous[j]! + deleteCost;
      if (deletion < best) best = deletion;
      const insertion = current[j - 1]! + inserts[j]!;
      if (insertion < best) best = insertion;
      if (ca === cbBefore && previousCode === cb && ca !== cb) {
        const transposition = before[j - 2]! + COST.transposition;
        if (transposition < best) best = transposition;
      }
      current[j] = best;
      if (best < rowMin) rowMin = best;
      cbBefore = cb;
    }
    previousCode = ca;
    // A transposition can reach back two rows, so both rows must be past the limit.
    if (rowMin > limit && previousRowMin + COST.transposition > limit) return Number.POSITIVE_INFINITY;
    previousRowMin = rowMin;
  }
  return current[m]!;
}

function sumIndel(text: string): number {
  let total = 0;
  for (let i = 0; i < text.length; i++) total += indelCost(text, i);
  return total;
}

/** The letters a-z (and digits, folded onto six more bits) that occur in a token, as bits. */
export function letterMask(text: string): number {
  let mask = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 97 && code <= 122) mask |= 1 << (code - 97);
    else if (code >= 48 && code <= 57) mask |= 1 << (26 + ((code - 48) % 6));
  }
  return mask;
}

function popcount(value: number): number {
  let v = value - ((value >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * A cheap lower bound of `weightedDistance`, to skip the dynamic programme for hopeless pairs:
 * each letter found in only one of the strings needs an edit of its own (at least half a similar
 * substitution, 0.35), and a length difference needs that many insertions or deletions: 0.3 each
 * for letters that repeat the one before them (at most `doubledA` or `doubledB` of the longer
 * string's, all of them when not given), 1 for the others.
 */
export function distanceLowerBound(
  maskA: number,
  maskB: number,
  lengthA: number,
  lengthB: number,
  doubledA = lengthA,
  doubledB = lengthB,
): number {
  const byLetters = 0.35 * popcount(maskA ^ maskB);
  const difference = Math.abs(lengthA - lengthB);
  const cheap = Math.min(difference, lengthA > lengthB ? doubledA : doubledB);
  const byLength = COST.doubledLetter * cheap + COST.insertion * (difference - cheap);
  // Shaved by a hair so that rounding can never put the bound above the distance itself.
  return (byLetters > byLength ? byLetters : byLength) - 1e-9;
}

/**
 * Letters that repeat the one before them: the only ones weightedDistance inserts or deletes
 * for less than a full edit (compared on the 7 bits it reads, so never fewer than it finds).
 */
export function doubledLetters(text: string): number {
  let count = 0;
  for (let i = 1; i < text.length; i++) {
    if ((text.charCodeAt(i) & 127) === (text.charCodeAt(i - 1) & 127)) count++;
  }
  return count;
}

const LOG_2_35 = Math.log(2.35);
/** log base 2.35 of (length - 2) for lengths up to 64, 0 up to 3 characters. */
const BUDGET_BASE = Float64Array.from({ length: 65 }, (_, length) =>
  length <= 3 ? 0 : Math.log(length - 2) / LOG_2_35,
);

/**
 * How much weighted distance a token of `length` characters may carry and still count as the
 * same name part: nothing at 3 characters or fewer, then slowly more (logic-v2's budget:
 * log base 2.35 of length - 2, so 0.81 at 4, 1.29 at 5, 1.62 at 6, 2.1 at 8, 2.43 at 10).
 * `factor` is the profile's fuzziness.
 */
export function editBudget(length: number, factor: number): number {
  if (length <= 3) return 0;
  if (length <= 64) return factor * BUDGET_BASE[length]!;
  return (factor * Math.log(length - 2)) / LOG_2_35;
}
