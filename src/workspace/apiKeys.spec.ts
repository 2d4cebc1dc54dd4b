import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateApiKey, hashSecret, KEY_TAG, parseApiKey, verifySecret } from './apiKeys.js';

describe('API key format', () => {
  it('generates csk_<16 hex>_<43 base64url> keys, storing only the hash of the secret', () => {
    const key = generateApiKey();
    expect(key.rawKey).toMatch(/^csk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    const parsed = parseApiKey(key.rawKey)!;
    expect(parsed.prefix).toBe(key.prefix);
    expect(`${KEY_TAG}_${parsed.prefix}_${parsed.secret}`).toBe(key.rawKey);
    expect(key.secretHash).toEqual(createHash('sha256').update(parsed.secret).digest());
    expect(key.secretHash.toString('hex')).not.toContain(parsed.secret);
  });

  it('draws prefix and secret from the random source', () => {
    const bytes = (size: number) => Buffer.alloc(size, 0xab);
    const key = generateApiKey(bytes);
    expect(key.rawKey).toBe(`csk_abababababababab_${Buffer.alloc(32, 0xab).toString('base64url')}`);
    expect(generateApiKey().rawKey).not.toBe(generateApiKey().rawKey);
  });

  it('parses a secret that itself contains underscores', () => {
    const secret = `${'_'.repeat(3)}${'a'.repeat(40)}`;
    expect(parseApiKey(`csk_0123456789abcdef_${secret}`)).toEqual({ prefix: '0123456789abcdef', secret });
  });

  it('refuses anything but the exact shape', () => {
    const good = generateApiKey().rawKey;
    for (const bad of [
      '',
      'csk_',
      good.slice(0, -1),
      `${good}x`,
      ` ${good}`,
      good.replace('csk_', 'sk_'),
      good.replace(/^csk_[0-9a-f]/, 'csk_G'),
      `Bearer ${good}`,
    ]) {
      expect(parseApiKey(bad), bad).toBeUndefined();
    }
  });
});

describe('verifySecret', () => {
  it('accepts the secret whose hash is stored and nothing else', () => {
    const { rawKey, secretHash } = generateApiKey();
    const { secret } = parseApiKey(rawKey)!;
    expect(verifySecret(secret, secretHash)).toBe(true);
    expect(verifySecret(`${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`, secretHash)).toBe(false);
    expect(verifySecret(secret, hashSecret('other'))).toBe(false);
  });

  it('fails, rather than throwing, on a stored hash of the wrong length', () => {
    const { rawKey, secretHash } = generateApiKey();
    const { secret } = parseApiKey(rawKey)!;
    expect(verifySecret(secret, secretHash.subarray(0, 16))).toBe(false);
  });
});
