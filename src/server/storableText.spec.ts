import { describe, expect, it } from 'vitest';
import { ApiError } from './errors.js';
import { decodeUtf8Body, findUnstorable, MAX_JSON_DEPTH, unstorableText } from './storableText.js';

const nested = (depth: number): unknown => {
  let value: unknown = 'leaf';
  for (let level = 0; level < depth; level++) value = { a: value };
  return value;
};

describe('storable text', () => {
  it('refuses NUL and lone surrogates, and takes every other string, pairs and astral characters included', () => {
    expect(unstorableText('a\u0000b')).toMatch(/NUL/);
    expect(unstorableText('\uD800')).toMatch(/surrogate/);
    expect(unstorableText('x\uDC00')).toMatch(/surrogate/);
    expect(unstorableText('\uDC00\uD800')).toMatch(/surrogate/);
    for (const fine of ['', 'Müller', '安倍晋三', '😀', '\uD83D\uDE00 ok', 'tab\tnew\nline']) {
      expect(unstorableText(fine)).toBeUndefined();
    }
  });

  it('names the first unstorable value or key by its path', () => {
    expect(findUnstorable({ subject: { name: 'ok', tags: ['a', 'b\u0000'] } }, '')).toEqual({
      path: 'subject.tags[1]',
      problem: 'contains a NUL character (U+0000)',
    });
    expect(findUnstorable({ metadata: { 'k\uD800': 1 } }, '')?.path).toBe('metadata.k\uD800');
    expect(findUnstorable({ a: [1, true, null, { b: 'fine' }] }, '')).toBeUndefined();
  });

  it(`takes ${MAX_JSON_DEPTH} levels of nesting and refuses one more, however deep, without recursion`, () => {
    expect(findUnstorable(nested(MAX_JSON_DEPTH), '')).toBeUndefined();
    expect(findUnstorable(nested(MAX_JSON_DEPTH + 1), '')?.problem).toMatch(/deeper than 32/);
    expect(findUnstorable(nested(100_000), '')?.problem).toMatch(/deeper than 32/);
  });

  it('refuses a number JSON parsing made infinite, wherever it is', () => {
    expect(findUnstorable(JSON.parse('{"metadata":{"x":[1,-1e400]}}'), '')).toEqual({
      path: 'metadata.x[1]',
      problem: 'is a number beyond the range of a double',
    });
    expect(findUnstorable(JSON.parse('{"x":1.7976931348623157e308,"y":-0}'), '')).toBeUndefined();
  });

  it('decodes UTF-8 strictly', () => {
    expect(decodeUtf8Body(Buffer.from('{"name":"Zoë"}'))).toBe('{"name":"Zoë"}');
    expect(() => decodeUtf8Body(Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]))).toThrow(ApiError);
  });
});
