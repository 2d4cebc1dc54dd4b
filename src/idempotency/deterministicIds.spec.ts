import { validate, version } from 'uuid';
import { describe, expect, it } from 'vitest';
import { idempotentEventId } from './deterministicIds.js';

const apiKeyId = '11111111-2222-4333-8444-555555555555';

describe('idempotentEventId', () => {
  it('is a stable UUID v5: pinned so that a changed namespace or name layout fails here', () => {
    const id = idempotentEventId(apiKeyId, 'order-12345', 0);
    expect(id).toBe('90475a93-3d9e-5ab7-90d2-f47820eafb7e');
    expect(validate(id)).toBe(true);
    expect(version(id)).toBe(5);
  });

  it('gives the same id for the same triple, whatever the case of the API key id', () => {
    expect(idempotentEventId(apiKeyId.toUpperCase(), 'order-12345', 3)).toBe(
      idempotentEventId(apiKeyId, 'order-12345', 3),
    );
  });

  it('differs per index, key and API key', () => {
    const ids = new Set([
      idempotentEventId(apiKeyId, 'order-12345', 0),
      idempotentEventId(apiKeyId, 'order-12345', 1),
      idempotentEventId(apiKeyId, 'order-12346', 0),
      idempotentEventId('11111111-2222-4333-8444-555555555556', 'order-12345', 0),
      // A key ending in a digit must not collide with a shorter key plus an index.
      idempotentEventId(apiKeyId, 'order-1234', 50),
    ]);
    expect(ids.size).toBe(5);
  });

  it('refuses arguments that would make ids ambiguous', () => {
    expect(() => idempotentEventId('not-a-uuid', 'order-12345', 0)).toThrow(TypeError);
    expect(() => idempotentEventId(apiKeyId, '', 0)).toThrow(TypeError);
    expect(() => idempotentEventId(apiKeyId, 'order-12345', -1)).toThrow(RangeError);
    expect(() => idempotentEventId(apiKeyId, 'order-12345', 1.5)).toThrow(RangeError);
  });
  it('differs for another request under the same key (a key reused after its record expired)', () => {
    expect(idempotentEventId(apiKeyId, 'order-12345', 0, 'fingerprint-a')).not.toBe(
      idempotentEventId(apiKeyId, 'order-12345', 0, 'fingerprint-b'),
    );
    expect(idempotentEventId(apiKeyId, 'order-12345', 0, 'fingerprint-a')).toBe(
      idempotentEventId(apiKeyId, 'order-12345', 0, 'fingerprint-a'),
    );
  });
});
