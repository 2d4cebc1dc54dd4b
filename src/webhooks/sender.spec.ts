import { describe, expect, it } from 'vitest';
import { RESPONSE_SNIPPET_BYTES, responseSnippet } from './sender.js';

/** The longest start of `text` whose UTF-8 fits in `limit` bytes, whole characters only. */
function expectedPrefix(text: string, limit = RESPONSE_SNIPPET_BYTES): string {
  let kept = '';
  for (const character of text) {
    if (Buffer.byteLength(kept + character, 'utf8') > limit) break;
    kept += character;
  }
  return kept;
}

describe('responseSnippet', () => {
  it('keeps a short body as it is, and nothing of an empty one', () => {
    expect(responseSnippet(Buffer.from('database busy'))).toBe('database busy');
    expect(responseSnippet(Buffer.alloc(0))).toBeNull();
  });

  it.each([
    ['€ (3 bytes) cut after its first byte', 'x'.repeat(RESPONSE_SNIPPET_BYTES - 1), '€'],
    ['€ (3 bytes) cut after its second byte', 'x'.repeat(RESPONSE_SNIPPET_BYTES - 2), '€'],
    ['😀 (4 bytes) cut after its third byte', 'x'.repeat(RESPONSE_SNIPPET_BYTES - 3), '😀'],
    ['é (2 bytes) cut after its first byte', 'x'.repeat(RESPONSE_SNIPPET_BYTES - 1), 'é'],
    ['€ ending exactly at the limit', 'x'.repeat(RESPONSE_SNIPPET_BYTES - 3), '€'],
  ])('keeps whole characters within %s bytes: %s', (_case, before, character) => {
    const body = `${before}${character.repeat(2_000)}`;
    const snippet = responseSnippet(Buffer.from(body, 'utf8'))!;
    expect(Buffer.byteLength(snippet, 'utf8')).toBeLessThanOrEqual(RESPONSE_SNIPPET_BYTES);
    expect(snippet).toBe(expectedPrefix(body));
    expect(snippet).not.toContain('\uFFFD');
  });

  it('stays within the limit and storable for a body that is not UTF-8 or holds NUL', () => {
    const binary = Buffer.alloc(10_000, 0xff);
    const fromBinary = responseSnippet(binary)!;
    expect(Buffer.byteLength(fromBinary, 'utf8')).toBeLessThanOrEqual(RESPONSE_SNIPPET_BYTES);
    expect(fromBinary).toMatch(/^\uFFFD+$/);

    const withNul = responseSnippet(Buffer.from('a\u0000b', 'utf8'));
    expect(withNul).toBe('a\uFFFDb');
    const manyNul = responseSnippet(Buffer.alloc(RESPONSE_SNIPPET_BYTES + 1, 0))!;
    expect(manyNul).not.toContain('\u0000');
    expect(Buffer.byteLength(manyNul, 'utf8')).toBeLessThanOrEqual(RESPONSE_SNIPPET_BYTES);
  });
});
