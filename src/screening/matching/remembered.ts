/**
 * A function of a text, its results kept for the next call with the same text: matching asks the
 * same questions of the same name parts search after search (two million names at an index build,
 * a hundred candidates' names a search). At most `capacity` results are kept; when full they are
 * all forgotten at once rather than kept in use order, so a lookup stays cheaper than the answer.
 */
export function remembered<T>(capacity: number, compute: (text: string) => T): (text: string) => T {
  const kept = new Map<string, T | typeof NOTHING>();
  return (text) => {
    const known = kept.get(text);
    if (known !== undefined) return known === NOTHING ? (undefined as T) : known;
    if (kept.size >= capacity) kept.clear();
    const result = compute(text);
    kept.set(text, result === undefined ? NOTHING : result);
    return result;
  };
}

/** Stands for a result of `undefined`, which Map.get cannot tell from a missing one. */
const NOTHING: unique symbol = Symbol('nothing');

/** How many results each remembered function of name parts keeps (a few megabytes). */
export const REMEMBERED_PARTS = 100_000;
