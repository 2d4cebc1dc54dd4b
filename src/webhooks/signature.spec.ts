import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  computeSignature,
  signatureHeader,
  type VerifyWebhookInput,
  verifyWebhook,
  WebhookVerificationError,
  type WebhookVerificationErrorCode,
} from './signature.js';

const SECRET = 'whsec_3f9a1c0e5b7d4e2a9c8b6f1d0e3a5c7b';
const OLD_SECRET = 'whsec_0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e';
const NOW_MS = Date.parse('2026-06-09T12:00:00.000Z');
const NOW_S = NOW_MS / 1000;

const event = {
  id: 'evt_5d41402abc4b2a76b9719d911017c592',
  type: 'check.completed',
  api_version: '2026-06-09',
  created_at: '2026-06-09T11:59:58.120Z',
  data: {
    account_id: 'f9ce7ce8-95d0-491a-a2e4-0abc65ae68da',
    group_id: null,
    object: { id: 'CHK7Q2M4X', type: 'check' },
    subject_name: 'Zoë Café 中村',
  },
};
const body = JSON.stringify(event);

/** Headers as the service sends them (src/webhooks/sender.ts). */
function signedHeaders(options: { secrets?: string[]; timestamp?: number; body?: string } = {}) {
  const timestamp = options.timestamp ?? NOW_S;
  return {
    'Service-Timestamp': String(timestamp),
    'Service-Signature': signatureHeader(options.secrets ?? [SECRET], timestamp, options.body ?? body),
  };
}

function verify(overrides: Partial<VerifyWebhookInput> = {}) {
  return verifyWebhook({
    rawBody: body,
    headers: signedHeaders(),
    secrets: SECRET,
    now: NOW_MS,
    ...overrides,
  });
}

/** The code of the WebhookVerificationError that `run` throws. */
function refusal(run: () => unknown): WebhookVerificationErrorCode {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return (error as WebhookVerificationError).code;
  }
  throw new Error('expected the delivery to be refused');
}

describe('computeSignature', () => {
  it('is the hex HMAC-SHA256 of "<timestamp>.<body>" keyed with the whole secret string', () => {
    const expected = createHmac('sha256', Buffer.from(SECRET, 'utf8'))
      .update(Buffer.from(`${NOW_S}.${body}`, 'utf8'))
      .digest('hex');
    expect(computeSignature(SECRET, NOW_S, body)).toBe(expected);
    expect(computeSignature(SECRET, NOW_S, Buffer.from(body, 'utf8'))).toBe(expected);
  });
});

describe('verifyWebhook', () => {
  it('returns the parsed event of a delivery signed with the secret', () => {
    expect(verify()).toEqual(event);
  });

  it('accepts a body given as a Buffer or a Uint8Array, byte for byte', () => {
    const bytes = Buffer.from(body, 'utf8');
    expect(bytes.byteLength).toBeGreaterThan(body.length); // é, ë and 中 are several bytes each
    expect(verify({ rawBody: bytes })).toEqual(event);
    expect(verify({ rawBody: new Uint8Array(bytes) })).toEqual(event);
    // A view into a larger buffer (as a pooled Buffer often is) is read at its offset.
    const pooled = Buffer.concat([Buffer.from('xxxx'), bytes, Buffer.from('yyyy')]);
    expect(verify({ rawBody: pooled.subarray(4, 4 + bytes.byteLength) })).toEqual(event);
  });

  it('refuses the bytes of a differently encoded body: the signature covers the exact bytes', () => {
    expect(refusal(() => verify({ rawBody: Buffer.from(body, 'latin1') }))).toBe('bad_signature');
    expect(refusal(() => verify({ rawBody: body.normalize('NFD') }))).toBe('bad_signature');
  });

  it('refuses a tampered body', () => {
    const tampered = body.replace('"group_id":null', '"group_id":"b388f863-e822-4ea8-bed9-14fb3bf95b9f"');
    expect(tampered).not.toBe(body);
    expect(refusal(() => verify({ rawBody: tampered }))).toBe('bad_signature');
    expect(refusal(() => verify({ rawBody: `${body} ` }))).toBe('bad_signature');
  });

  it('refuses a wrong secret, and a timestamp changed after signing', () => {
    expect(refusal(() => verify({ secrets: OLD_SECRET }))).toBe('bad_signature');
    const headers = { ...signedHeaders(), 'Service-Timestamp': String(NOW_S + 1) };
    expect(refusal(() => verify({ headers }))).toBe('bad_signature');
  });

  describe('several secrets (rotation)', () => {
    it('accepts a delivery signed with any of the secrets it is given', () => {
      expect(verify({ secrets: [OLD_SECRET, SECRET] })).toEqual(event);
      expect(verify({ secrets: [SECRET, OLD_SECRET] })).toEqual(event);
      expect(refusal(() => verify({ secrets: [OLD_SECRET, 'whsec_other'] }))).toBe('bad_signature');
    });

    it('accepts a grace-period delivery (v1=<new>,v1=<old>) knowing only the old or only the new secret', () => {
      const headers = signedHeaders({ secrets: [SECRET, OLD_SECRET] });
      expect(headers['Service-Signature']).toMatch(/^v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
      expect(verify({ headers, secrets: OLD_SECRET })).toEqual(event);
      expect(verify({ headers, secrets: SECRET })).toEqual(event);
      expect(refusal(() => verify({ headers, secrets: 'whsec_neither' }))).toBe('bad_signature');
    });

    it('skips entries of other schemes and accepts spaces after the commas', () => {
      const v1 = computeSignature(SECRET, NOW_S, body);
      const headers = { 'Service-Timestamp': String(NOW_S), 'Service-Signature': `v0=abc, v2=xyz, v1=${v1}` };
      expect(verify({ headers })).toEqual(event);
    });
  });

  describe('the timestamp', () => {
    const signedAt = (secondsFromNow: number) => ({
      headers: signedHeaders({ timestamp: NOW_S + secondsFromNow }),
    });

    it('refuses a delivery signed more than the tolerance ago, or ahead', () => {
      expect(refusal(() => verify(signedAt(-301)))).toBe('stale_timestamp');
      expect(refusal(() => verify(signedAt(301)))).toBe('future_timestamp');
      expect(refusal(() => verify({ ...signedAt(-61), toleranceSeconds: 60 }))).toBe('stale_timestamp');
    });

    it('accepts one signed exactly the tolerance ago or ahead', () => {
      expect(verify(signedAt(-300))).toEqual(event);
      expect(verify(signedAt(300))).toEqual(event);
      expect(verify({ ...signedAt(-60), toleranceSeconds: 60 })).toEqual(event);
      // Within the second that ends the tolerance: age is counted in whole seconds.
      expect(verify({ ...signedAt(-300), now: NOW_MS + 999 })).toEqual(event);
      expect(refusal(() => verify({ ...signedAt(-300), now: NOW_MS + 1000 }))).toBe('stale_timestamp');
    });

    it('takes now as a Date or milliseconds, and the system clock by default', () => {
      expect(verify({ ...signedAt(-300), now: new Date(NOW_MS) })).toEqual(event);
      expect(refusal(() => verify({ ...signedAt(-301), now: new Date(NOW_MS) }))).toBe('stale_timestamp');
      // NOW_MS is long past: without `now`, the same delivery is stale.
      expect(refusal(() => verify({ now: undefined }))).toBe('stale_timestamp');
      const fresh = Math.floor(Date.now() / 1000);
      expect(verify({ headers: signedHeaders({ timestamp: fresh }), now: undefined })).toEqual(event);
    });

    it('reports a bad signature before the age: a stale error means the secret signed it', () => {
      expect(refusal(() => verify({ ...signedAt(-3600), secrets: OLD_SECRET }))).toBe('bad_signature');
    });
  });

  describe('headers', () => {
    it('finds them in any casing, in a Fetch Headers, and as arrays of values', () => {
      const headers = signedHeaders();
      const lower = {
        'service-timestamp': headers['Service-Timestamp'],
        'service-signature': headers['Service-Signature'],
      };
      expect(verify({ headers: lower })).toEqual(event);
      const upper = {
        'SERVICE-TIMESTAMP': headers['Service-Timestamp'],
        'SERVICE-SIGNATURE': headers['Service-Signature'],
      };
      expect(verify({ headers: upper })).toEqual(event);
      expect(verify({ headers: new Headers(headers) })).toEqual(event);
      // The signature sent as two header lines, as a proxy may split it.
      const [first, second] = signatureHeader([SECRET, OLD_SECRET], NOW_S, body).split(',');
      const split = { ...lower, 'service-signature': [second!, first!] };
      expect(verify({ headers: split, secrets: SECRET })).toEqual(event);
    });

    it('refuses missing or malformed headers as malformed_header', () => {
      const { 'Service-Timestamp': timestamp, 'Service-Signature': signature } = signedHeaders();
      const v1 = signature.slice('v1='.length);
      const cases: Record<string, Record<string, string | string[]>> = {
        'no timestamp': { 'Service-Signature': signature },
        'no signature': { 'Service-Timestamp': timestamp },
        'no headers': {},
        'a timestamp in milliseconds with a fraction': {
          'Service-Timestamp': `${NOW_MS}.5`,
          'Service-Signature': signature,
        },
        'an ISO timestamp': { 'Service-Timestamp': '2026-06-09T12:00:00Z', 'Service-Signature': signature },
        'a negative timestamp': { 'Service-Timestamp': '-1', 'Service-Signature': signature },
        'an empty timestamp': { 'Service-Timestamp': '', 'Service-Signature': signature },
        'two timestamps': { 'Service-Timestamp': [timestamp, timestamp], 'Service-Signature': signature },
        'no v1 entry': { 'Service-Timestamp': timestamp, 'Service-Signature': `v0=${v1}` },
        'a bare digest': { 'Service-Timestamp': timestamp, 'Service-Signature': v1 },
        'an odd number of hex digits': { 'Service-Timestamp': timestamp, 'Service-Signature': `v1=${v1}0` },
        'a truncated digest': { 'Service-Timestamp': timestamp, 'Service-Signature': `v1=${v1.slice(2)}` },
        'a digest that is not hex': {
          'Service-Timestamp': timestamp,
          'Service-Signature': `v1=${'z'.repeat(64)}`,
        },
        'an empty v1 entry': { 'Service-Timestamp': timestamp, 'Service-Signature': `v1=${v1},v1=` },
      };
      for (const [name, headers] of Object.entries(cases)) {
        expect(
          refusal(() => verify({ headers })),
          name,
        ).toBe('malformed_header');
      }
    });
  });

  describe('the body', () => {
    it('refuses a signed body that is not a JSON event object as malformed_body', () => {
      for (const rawBody of ['not json', '[1,2]', '"evt_1"', 'null', '{"id":"evt_1","type":"ping"}']) {
        const headers = signedHeaders({ body: rawBody });
        expect(
          refusal(() => verify({ rawBody, headers })),
          rawBody,
        ).toBe('malformed_body');
      }
    });

    it('returns events of types it does not know, and extra fields, as they are', () => {
      const future = { ...event, type: 'case.archived', data: { ...event.data, archived_by: 'x' } };
      const rawBody = JSON.stringify(future);
      expect(verify({ rawBody, headers: signedHeaders({ body: rawBody }) })).toEqual(future);
    });
  });

  it('throws a TypeError for misuse: a parsed body, no secret, a negative tolerance', () => {
    expect(() => verify({ rawBody: event as never })).toThrow(/rawBody must be the request body exactly/);
    expect(() => verify({ secrets: [] })).toThrow(TypeError);
    expect(() => verify({ secrets: '' })).toThrow(TypeError);
    expect(() => verify({ toleranceSeconds: -1 })).toThrow(RangeError);
  });
});
