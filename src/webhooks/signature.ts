import { createHmac, timingSafeEqual } from 'node:crypto';
import type { PING_EVENT_TYPE, WebhookEventType, WebhookObjectType } from './webhookEvents.js';

/**
 * Webhook signatures (docs/webhooks.md). A delivery carries `Service-Timestamp: <unix seconds>` and
 * `Service-Signature: v1=<hex>[,v1=<hex>...]`, each hex an HMAC-SHA256 keyed with one of the
 * endpoint's signing secrets over `<timestamp>.<raw body>`. During a secret rotation's grace period
 * a delivery is signed with the new secret and the old one, so a receiver that knows either accepts
 * it. This module is the only implementation: the service signs with it and receivers verify with
 * it (exported from the package as `case-screening-service/webhooks`).
 *
 * It imports nothing from the service at run time (only types), so that a receiver importing the
 * verifier loads this file and node:crypto, not the domain.
 */

export const SIGNATURE_SCHEME = 'v1';
/** The spec's limit: a delivery signed more than five minutes ago is refused. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export const TIMESTAMP_HEADER = 'Service-Timestamp';
export const SIGNATURE_HEADER = 'Service-Signature';

/**
 * The hex HMAC-SHA256 of `<timestamp>.<body>` under `secret` (the whole secret string, `whsec_...`,
 * as UTF-8). A string body is signed as its UTF-8 bytes; bytes are signed as they are.
 */
export function computeSignature(secret: string, timestamp: number, body: string | Uint8Array): string {
  return createHmac('sha256', secret).update(`${timestamp}.`, 'utf8').update(body).digest('hex');
}

/** The `Service-Signature` value: one `v1=` entry per secret, the current secret first. */
export function signatureHeader(
  secrets: readonly string[],
  timestamp: number,
  body: string | Uint8Array,
): string {
  return secrets
    .map((secret) => `${SIGNATURE_SCHEME}=${computeSignature(secret, timestamp, body)}`)
    .join(',');
}

// --- Verifying (the receiver's side) ------------------------------------------------------------

/** The body of a delivery: the spec's payload. `data` carries more fields in expanded mode. */
export interface WebhookPayload {
  /** `evt_` and hex; the same for every delivery of the event: de-duplicate on it. */
  id: string;
  /** One of the event types, or `ping` for the test event `webhooks ping` sends. */
  type: WebhookEventType | typeof PING_EVENT_TYPE;
  api_version: string;
  /** ISO 8601: when the event happened. */
  created_at: string;
  data: {
    account_id: string;
    group_id: string | null;
    object: { id: string | null; type: WebhookObjectType };
    [field: string]: unknown;
  };
}

export type WebhookVerificationErrorCode =
  /** A header is missing, repeated with different values, or not of the documented form. */
  | 'malformed_header'
  /** The timestamp is older than the tolerance: a replay, or a delivery that queued too long. */
  | 'stale_timestamp'
  /** The timestamp is further ahead than the tolerance: the sender's or the receiver's clock is off. */
  | 'future_timestamp'
  /** No `v1` signature matches any secret: a wrong secret, or a body changed on the way. */
  | 'bad_signature'
  /** Correctly signed, but the body is not a JSON event object. */
  | 'malformed_body';

/** Why a delivery was refused; `code` is stable, `message` is for people. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  constructor(
    readonly code: WebhookVerificationErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** A header value as Node (`IncomingHttpHeaders`) or a plain object gives it. */
type HeaderValue = string | readonly string[] | number | undefined;

/** What a Fetch `Headers` (undici, the web platform) offers: lookup by name, in any casing. */
interface FetchHeaders {
  get(name: string): string | null;
}

/** Request headers: a plain object in any casing, Node's `IncomingHttpHeaders`, or a Fetch `Headers`. */
export type WebhookHeaders = FetchHeaders | Readonly<Record<string, HeaderValue>>;

export interface VerifyWebhookInput {
  /** The request body exactly as received: not parsed and serialized again. */
  rawBody: string | Uint8Array;
  headers: WebhookHeaders;
  /** The endpoint's signing secret, or several (during a rotation): any one matching accepts. */
  secrets: string | readonly string[];
  /** How far the timestamp may be from `now`, either way; default 300 (five minutes). */
  toleranceSeconds?: number;
  /** The receiver's time: a Date or milliseconds since the epoch; the system clock by default. */
  now?: Date | number;
}

/**
 * Checks a delivery's signature and timestamp and returns its parsed payload; throws a
 * WebhookVerificationError otherwise. The signature is checked first, so a timestamp error is
 * only ever reported for a delivery that the secret really signed.
 */
export function verifyWebhook({
  rawBody,
  headers,
  secrets,
  toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
  now = Date.now(),
}: VerifyWebhookInput): WebhookPayload {
  const body = bodyBytes(rawBody);
  const keys = secretList(secrets);
  if (!Number.isFinite(toleranceSeconds) || toleranceSeconds < 0) {
    throw new RangeError('toleranceSeconds must be a number of seconds, 0 or more');
  }
  const timestamp = parseTimestamp(headerValue(headers, TIMESTAMP_HEADER));
  const signatures = parseSignatures(headerValue(headers, SIGNATURE_HEADER));

  const signed = keys.some((secret) => {
    const expected = Buffer.from(computeSignature(secret, timestamp, body), 'hex');
    // Constant time for equal lengths: parseSignatures only lets 32-byte digests through.
    return signatures.some((candidate) => timingSafeEqual(candidate, expected));
  });
  if (!signed) {
    throw new WebhookVerificationError(
      'bad_signature',
      `no ${SIGNATURE_SCHEME} signature matches the ${keys.length === 1 ? 'secret' : 'secrets'} for this body and timestamp`,
    );
  }

  const nowSeconds = Math.floor((typeof now === 'number' ? now : now.getTime()) / 1000);
  if (nowSeconds - timestamp > toleranceSeconds) {
    throw new WebhookVerificationError(
      'stale_timestamp',
      `signed ${nowSeconds - timestamp} s ago, more than the tolerance of ${toleranceSeconds} s`,
    );
  }
  if (timestamp - nowSeconds > toleranceSeconds) {
    throw new WebhookVerificationError(
      'future_timestamp',
      `signed ${timestamp - nowSeconds} s in the future, more than the tolerance of ${toleranceSeconds} s`,
    );
  }
  return parsePayload(body);
}

function bodyBytes(rawBody: unknown): Uint8Array {
  if (typeof rawBody === 'string') return Buffer.from(rawBody, 'utf8');
  if (rawBody instanceof Uint8Array) return rawBody;
  // The usual mistake: passing the framework's parsed body, which cannot be re-serialized exactly.
  throw new TypeError(
    'rawBody must be the request body exactly as received (a string, Buffer or Uint8Array), not a parsed object',
  );
}

function secretList(secrets: string | readonly string[]): readonly string[] {
  const list = typeof secrets === 'string' ? [secrets] : secrets;
  if (!Array.isArray(list) || list.length === 0 || list.some((s) => typeof s !== 'string' || s === '')) {
    throw new TypeError('secrets must be a signing secret or a non-empty list of them');
  }
  return list;
}

/** A header's value, found whatever its casing; repeated values (an array) are joined as HTTP does. */
function headerValue(headers: WebhookHeaders, name: string): string | undefined {
  if (isFetchHeaders(headers)) return headers.get(name) ?? undefined;
  const wanted = name.toLowerCase();
  const values: string[] = [];
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    if (Array.isArray(value)) values.push(...value);
    else values.push(String(value));
  }
  return values.length > 0 ? values.join(', ') : undefined;
}

function isFetchHeaders(headers: WebhookHeaders): headers is FetchHeaders {
  return typeof (headers as Partial<FetchHeaders>).get === 'function';
}

function parseTimestamp(value: string | undefined): number {
  if (value === undefined) {
    throw new WebhookVerificationError('malformed_header', `the ${TIMESTAMP_HEADER} header is missing`);
  }
  const seconds = /^\d{1,15}$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isSafeInteger(seconds)) {
    throw new WebhookVerificationError(
      'malformed_header',
      `${TIMESTAMP_HEADER} must be Unix seconds (an integer), not ${JSON.stringify(value.slice(0, 40))}`,
    );
  }
  return seconds;
}

/** The decoded `v1` digests; entries of other schemes are skipped, for schemes added later. */
function parseSignatures(value: string | undefined): Buffer[] {
  if (value === undefined) {
    throw new WebhookVerificationError('malformed_header', `the ${SIGNATURE_HEADER} header is missing`);
  }
  const digests: Buffer[] = [];
  for (const entry of value.split(',')) {
    const [scheme, digest, ...rest] = entry.trim().split('=');
    if (!scheme || digest === undefined || rest.length > 0) {
      throw new WebhookVerificationError(
        'malformed_header',
        `${SIGNATURE_HEADER} must be a comma list of <scheme>=<value> entries, e.g. v1=<hex>`,
      );
    }
    if (scheme !== SIGNATURE_SCHEME) continue;
    if (!/^[0-9a-fA-F]{64}$/.test(digest)) {
      throw new WebhookVerificationError(
        'malformed_header',
        `a ${SIGNATURE_SCHEME} signature must be 64 hex digits (HMAC-SHA256)`,
      );
    }
    digests.push(Buffer.from(digest, 'hex'));
  }
  if (digests.length === 0) {
    throw new WebhookVerificationError(
      'malformed_header',
      `${SIGNATURE_HEADER} has no ${SIGNATURE_SCHEME}= entry`,
    );
  }
  return digests;
}

function parsePayload(body: Uint8Array): WebhookPayload {
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
  } catch {
    throw new WebhookVerificationError('malformed_body', 'the body is not JSON');
  }
  const event = payload as Partial<WebhookPayload> | null;
  // Only the shape every event shares: new fields and new event types must not break a receiver.
  if (
    typeof event !== 'object' ||
    event === null ||
    Array.isArray(event) ||
    typeof event.id !== 'string' ||
    typeof event.type !== 'string' ||
    typeof event.data !== 'object' ||
    event.data === null
  ) {
    throw new WebhookVerificationError(
      'malformed_body',
      'the body is not a webhook event (an object with id, type and data)',
    );
  }
  return event as WebhookPayload;
}
