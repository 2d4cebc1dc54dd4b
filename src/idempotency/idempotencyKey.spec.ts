import { describe, expect, it } from 'vitest';
import { validateIdempotencyKey } from './idempotencyKey.js';

describe('validateIdempotencyKey', () => {
  it('requires a key', () => {
    expect(validateIdempotencyKey(undefined)).toMatchObject({ ok: false, reason: 'missing' });
    expect(validateIdempotencyKey('')).toMatchObject({ ok: false, reason: 'missing' });
  });

  it('accepts 8 to 160 characters and returns the key unchanged', () => {
    expect(validateIdempotencyKey('a'.repeat(8))).toEqual({ ok: true, key: 'aaaaaaaa' });
    expect(validateIdempotencyKey(' key-123 ')).toEqual({ ok: true, key: ' key-123 ' });
    expect(validateIdempotencyKey('a'.repeat(160))).toMatchObject({ ok: true });
  });

  it('refuses shorter and longer keys', () => {
    expect(validateIdempotencyKey('a'.repeat(7))).toMatchObject({ ok: false, reason: 'too_short' });
    expect(validateIdempotencyKey('a'.repeat(161))).toMatchObject({ ok: false, reason: 'too_long' });
  });

  it('counts code points, as PostgreSQL does, not UTF-16 units', () => {
    // 160 emoji are 320 UTF-16 units but 160 characters.
    expect(validateIdempotencyKey('😀'.repeat(160))).toMatchObject({ ok: true });
    expect(validateIdempotencyKey('😀'.repeat(4))).toMatchObject({ ok: false, reason: 'too_short' });
  });
});
