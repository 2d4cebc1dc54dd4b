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

function buildSubstitutionTable(): Float32Array {
  const table = new Float32Array(128 * 128);
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

// Three reusable rows: the distance runs ~10^4 times per query and must not allocate.
let previous2 = new Float64Array(64);
let previous = new Float64Array(64);
let current = new Float64Array(64);

function ensureCapacity(length: number): void {
  if (current.length > length) return;
  const size = Math.max(length + 1, current.length * 2);
  previous2 = new Float64Array(size);
  previous = new Float64Array(size);
  current = new Float64Array(size);
}

function code(text: string, index: number): number {
  return text.charCodeAt(index) & 127;
}

/** Cost of inserting or deleting text[index]: cheap when it doubles a neighbour. */
function indelCost(text: string, index: number): number {
  const char = text.charCodeAt(index);
  const doubled =
    (index > 0 && text.charCodeAt(index - 1) === char) ||
    (index + 1 < text.length && text.charCodeAt(index + 1) === char);
  return doubled ? COST.doubledLetter : COST.insertion;
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
  current[0] = 0;
  for (let j = 1; j <= m; j++) current[j] = current[j - 1]! + indelCost(b, j - 1);
  let previousRowMin = 0;
  for (let i = 1; i <= n; i++) {
    const rotate = previous2;
    previous2 = previous;
    previous = current;
    current = rotate;
    const ca = code(a, i - 1);
    const deleteCost = indelCost(a, i - 1);
    current[0] = previous[0]! + deleteCost;
    let rowMin = current[0]!;
    for (let j = 1; j <= m; j++) {
      const cb = code(b, j - 1);
      let best = previous[j - 1]! + SUBSTITUTION[(ca << 7) | cb]!;
      const deletion = previous[j]! + deleteCost;
      if (deletion < best) best = deletion;
      const insertion = current[j - 1]! + indelCost(b, j - 1);
      if (insertion < best) best = insertion;
      if (i > 1 && j > 1 && ca === code(b, j - 2) && code(a, i - 2) === cb && ca !== cb) {
        const transposition = previous2[j - 2]! + COST.transposition;
        if (transposition < best) best = transposition;
      }
      current[j] = best;
      if (best < rowMin) rowMin = best;
    }
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

const LOG_2_35 = Math.log(2.35);

/**
 * How much weighted distance a token of `length` characters may carry and still count as the
 * same name part: nothing at 3 characters or fewer, then slowly more (logic-v2's budget:
 * log base 2.35 of length - 2, so 0.81 at 4, 1.29 at 5, 1.62 at 6, 2.1 at 8, 2.43 at 10).
 * `factor` is the profile's fuzziness.
 */
export function editBudget(length: number, factor: number): number {
  if (length <= 3) return 0;
  return (factor * Math.log(length - 2)) / LOG_2_35;
}
