/**
 * The package's receiver-side entry, `case-screening-service/webhooks` (docs/webhooks.md,
 * "Receiving webhooks"): what an integrator's server needs to check a delivery. Only types come
 * from the rest of the service, so importing it loads the verifier and node:crypto, nothing else.
 */
export {
  computeSignature,
  DEFAULT_TOLERANCE_SECONDS,
  SIGNATURE_HEADER,
  signatureHeader,
  TIMESTAMP_HEADER,
  type VerifyWebhookInput,
  verifyWebhook,
  type WebhookHeaders,
  type WebhookPayload,
  WebhookVerificationError,
  type WebhookVerificationErrorCode,
} from './signature.js';
export type { WebhookEventType, WebhookObjectType } from './webhookEvents.js';
