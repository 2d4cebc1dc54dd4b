import { createHmac } from 'node:crypto';

/**
 * Webhook signatures (docs/webhooks.md). A delivery carries `Service-Timestamp: <unix seconds>` and
 * `Service-Signature: v1=<hex>[,v1=<hex>...]`, each hex an HMAC-SHA256 keyed with one of the
 * endpoint's signing secrets over `<timestamp>.<raw body>`. During a secret rotation's grace period
 * a delivery is signed with the new secret and the old one, so a receiver that knows either accepts
 * it. This module is the only implementation: the service signs with it and receivers verify with
 * it (exported from the package as `case-screening-service/webhooks`).
 */

export const SIGNATURE_SCHEME = 'v1';
/** The spec's limit: a delivery signed more than five minutes ago is refused. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** The hex HMAC-SHA256 of `<timestamp>.<body>` under `secret`. */
export function computeSignature(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
}

/** The `Service-Signature` value: one `v1=` entry per secret, the current secret first. */
export function signatureHeader(secrets: readonly string[], timestamp: number, body: string): string {
  return secrets
    .map((secret) => `${SIGNATURE_SCHEME}=${computeSignature(secret, timestamp, body)}`)
    .join(',');
}
