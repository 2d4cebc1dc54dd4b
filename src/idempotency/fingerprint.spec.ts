import { describe, expect, it } from 'vitest';
import { canonicalJson, fingerprintRequest } from './fingerprint.js';

const request = (body: unknown, method = 'POST', path = '/v1/cases') =>
  fingerprintRequest({ method, path, body });

describe('canonicalJson', () => {
  it('sorts object keys at every level and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, 1], c: null } })).toBe('{"a":{"c":null,"d":[3,1]},"b":1}');
  });

  it('drops undefined members like JSON.stringify and keeps __proto__ as data', () => {
    expect(canonicalJson({ a: undefined, b: [undefined] })).toBe('{"b":[null]}');
    expect(canonicalJson(JSON.parse('{"__proto__":{"x":1}}'))).toBe('{"__proto__":{"x":1}}');
  });

  it('refuses what JSON cannot carry', () => {
    expect(() => canonicalJson(Number.NaN)).toThrow(TypeError);
    expect(() => canonicalJson(1n)).toThrow(TypeError);
    expect(() => canonicalJson(new Date(0))).toThrow(TypeError);
  });
});

describe('fingerprintRequest', () => {
  it('is a sha256 hex digest', () => {
    expect(request({})).toMatch(/^[0-9a-f]{64}$/);
  });

  it('ignores whitespace, key order and number spelling of the body', () => {
    const a = JSON.parse('{"subject": {"name": "Ada", "type": "person"}, "amount": 1.0}');
    const b = JSON.parse('{"amount":1,"subject":{"type":"person","name":"Ada"}}');
    expect(request(a)).toBe(request(b));
  });

  it('treats the method case-insensitively and a missing body as null', () => {
    expect(request({ a: 1 }, 'post')).toBe(request({ a: 1 }, 'POST'));
    expect(request(undefined)).toBe(request(null));
  });

  it('differs for another body, method or path', () => {
    const base = request({ a: [1, 2] });
    expect(request({ a: [2, 1] })).not.toBe(base);
    expect(request({ a: [1, 2], b: 0 })).not.toBe(base);
    expect(request({ a: [1, 2] }, 'PATCH')).not.toBe(base);
    expect(request({ a: [1, 2] }, 'POST', '/v1/cases/ABC123456/materials')).not.toBe(base);
    expect(request({ a: '1' })).not.toBe(request({ a: 1 }));
  });

  it('cannot be confused by a path that looks like part of the body', () => {
    expect(fingerprintRequest({ method: 'POST', path: '/a",1', body: null })).not.toBe(
      fingerprintRequest({ method: 'POST', path: '/a', body: 1 }),
    );
  });
});
