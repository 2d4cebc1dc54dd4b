import { createHash } from 'node:crypto';

export interface RequestToFingerprint {
  method: string;
  /** The request path as received, query string included: a different path is a different request. */
  path: string;
  /** The parsed JSON body; undefined (no body) fingerprints the same as JSON null. */
  body: unknown;
}

/**
 * SHA-256 (hex) of the method, path and canonical body. Two requests match when their bodies are the
 * same JSON value: whitespace, key order inside objects and number spelling (1.0 vs 1) do not matter,
 * because the body is parsed before it is fingerprinted. Array order and string contents do matter,
 * and strings are not Unicode-normalised (NFC and NFD spellings are different bodies).
 */
export function fingerprintRequest(request: RequestToFingerprint): string {
  const canonical = `[${JSON.stringify(request.method.toUpperCase())},${JSON.stringify(request.path)},${canonicalJson(request.body ?? null)}]`;
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}

/**
 * JSON with object keys sorted (by UTF-16 code unit) at every level. Built as a string, never as a
 * rebuilt object, so a `__proto__` key from JSON.parse is kept as data. Members whose value is
 * undefined are dropped, as JSON.stringify drops them; anything JSON cannot carry is refused rather
 * than silently fingerprinted as something else.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`Cannot fingerprint the number ${value}`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    return `[${value.map((item) => canonicalJson(item === undefined ? null : item)).join(',')}]`;
  }
  if (typeof value === 'object' && isPlainObject(value)) {
    const record = value as Record<string, unknown>;
    const members = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
    return `{${members.join(',')}}`;
  }
  throw new TypeError(`Cannot fingerprint a value of type ${typeof value}`);
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
