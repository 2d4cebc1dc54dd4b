import { ApiError } from './errors.js';

/**
 * Input the validation schemas let through but the database cannot store, or can store only by
 * changing it: a NUL character (PostgreSQL text and jsonb refuse it), a lone UTF-16 surrogate (not
 * Unicode; jsonb refuses its escape), bytes that are not UTF-8 (which a lenient decoder would
 * silently replace, so the name screened would not be the name sent), a number JSON parsing turned
 * into Infinity, and nesting deep enough to exhaust a recursive validator. Refused as 400 `invalid_request` before anything runs
 * (docs/api-conventions.md, "Text the service refuses").
 */

/** Deepest nesting of arrays and objects a JSON body may have; the body itself is level 1. */
export const MAX_JSON_DEPTH = 32;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `text` cannot be stored as sent, or undefined when it can. */
export function unstorableText(text: string): string | undefined {
  if (text.includes('\u0000')) return 'contains a NUL character (U+0000)';
  if (LONE_SURROGATE.test(text)) return 'contains a lone UTF-16 surrogate, which is not Unicode text';
  return undefined;
}

export interface UnstorableValue {
  /** Where, as a fieldErrors key: `subject.name`, `metadata.tags[2]`, or the root's name. */
  path: string;
  problem: string;
}

/**
 * The first string (value or object key) of a parsed JSON value that cannot be stored, or a nesting
 * deeper than `maxDepth`. Iterative, so a hostile depth cannot exhaust the stack here either.
 */
export function findUnstorable(
  value: unknown,
  root: string,
  maxDepth = MAX_JSON_DEPTH,
): UnstorableValue | undefined {
  const pending: { value: unknown; path: string; depth: number }[] = [{ value, path: root, depth: 1 }];
  while (pending.length > 0) {
    const item = pending.pop()!;
    if (typeof item.value === 'string') {
      const problem = unstorableText(item.value);
      if (problem) return { path: item.path, problem };
      continue;
    }
    // JSON has no Infinity: 1e400 parses to it, and it could be neither stored nor fingerprinted.
    if (typeof item.value === 'number' && !Number.isFinite(item.value)) {
      return { path: item.path, problem: 'is a number beyond the range of a double' };
    }
    if (item.value === null || typeof item.value !== 'object') continue;
    if (item.depth > maxDepth) {
      return { path: item.path, problem: `nests deeper than ${maxDepth} levels of arrays and objects` };
    }
    if (Array.isArray(item.value)) {
      for (const [index, element] of item.value.entries()) {
        pending.push({ value: element, path: `${item.path}[${index}]`, depth: item.depth + 1 });
      }
      continue;
    }
    for (const [key, element] of Object.entries(item.value)) {
      const path = item.path === '' ? key : `${item.path}.${key}`;
      const keyProblem = unstorableText(key);
      if (keyProblem) return { path, problem: `has a key that ${keyProblem}` };
      pending.push({ value: element, path, depth: item.depth + 1 });
    }
  }
  return undefined;
}

/** The 400 for a value `findUnstorable` found. */
export function unstorableInput(found: UnstorableValue): ApiError {
  const field = found.path === '' ? 'body' : found.path;
  return ApiError.invalidRequest(
    `The request has input the service cannot store: ${field} ${found.problem}.`,
    {
      fieldErrors: { [field]: [`${found.problem[0]!.toUpperCase()}${found.problem.slice(1)}.`] },
    },
  );
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** The body's text, or a 400 when its bytes are not UTF-8. */
export function decodeUtf8Body(body: Buffer): string {
  try {
    return STRICT_UTF8.decode(body);
  } catch {
    throw ApiError.invalidRequest('The request body is not valid UTF-8.');
  }
}
