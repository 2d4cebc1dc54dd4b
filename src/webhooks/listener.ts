import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  DEFAULT_TOLERANCE_SECONDS,
  verifyWebhook,
  type WebhookPayload,
  WebhookVerificationError,
} from './signature.js';

/**
 * A local webhook receiver for integrators trying the service on their laptop
 * (`casescreen webhooks listen`): it takes a POST on any path, verifies it with verifyWebhook and
 * answers as a receiver should, 200 (or 204) when verified and 400 with the reason otherwise.
 * Plain node:http, no database.
 */

/** A body larger than this is refused unread: deliveries are small JSON documents. */
export const MAX_BODY_BYTES = 1024 * 1024;

export type ListenerOutcome =
  | { verified: true; event: WebhookPayload }
  /** `code` is a WebhookVerificationError code, or `body_too_large`. */
  | { verified: false; code: string; message: string };

export interface ReceivedWebhook {
  receivedAt: Date;
  /** The Service-Event-Id and Service-Delivery-Id headers, as sent (unverified). */
  eventId: string | null;
  deliveryId: string | null;
  outcome: ListenerOutcome;
}

export interface WebhookListenerOptions {
  /** 0 picks a free port; the listener reports the one it got. */
  port: number;
  host?: string;
  secrets: string | readonly string[];
  toleranceSeconds?: number;
  /** The answer to a verified delivery: 200 (with a small JSON body) or 204. */
  status?: 200 | 204;
  /** Called for every POST, verified or not, before it is answered. */
  onDelivery?: (delivery: ReceivedWebhook) => void;
  /** The receiver's time, for `receivedAt` and the timestamp check; the system clock by default. */
  now?: () => Date;
}

export interface WebhookListener {
  port: number;
  host: string;
  /** Where to point an endpoint: any path on it is accepted. */
  url: string;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

export async function startWebhookListener(options: WebhookListenerOptions): Promise<WebhookListener> {
  const host = options.host ?? '127.0.0.1';
  const now = options.now ?? (() => new Date());
  const acceptStatus = options.status ?? 200;

  const handle = (request: http.IncomingMessage, rawBody: Buffer | null): ReceivedWebhook => {
    const receivedAt = now();
    const header = (name: string) => {
      const value = request.headers[name];
      return typeof value === 'string' ? value : null;
    };
    let outcome: ListenerOutcome;
    if (rawBody === null) {
      outcome = {
        verified: false,
        code: 'body_too_large',
        message: `the body is larger than ${MAX_BODY_BYTES} bytes`,
      };
    } else {
      try {
        const event = verifyWebhook({
          rawBody,
          headers: request.headers,
          secrets: options.secrets,
          toleranceSeconds: options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS,
          now: receivedAt,
        });
        outcome = { verified: true, event };
      } catch (error) {
        if (!(error instanceof WebhookVerificationError)) throw error;
        outcome = { verified: false, code: error.code, message: error.message };
      }
    }
    return {
      receivedAt,
      eventId: header('service-event-id'),
      deliveryId: header('service-delivery-id'),
      outcome,
    };
  };

  const server = http.createServer((request, response) => {
    if (request.method !== 'POST') {
      request.resume();
      answer(
        response,
        405,
        { error: { code: 'method_not_allowed', message: 'webhooks are POSTed' } },
        {
          allow: 'POST',
        },
      );
      return;
    }
    readBody(request, MAX_BODY_BYTES).then(
      (rawBody) => {
        try {
          const delivery = handle(request, rawBody);
          options.onDelivery?.(delivery);
          const { outcome } = delivery;
          if (outcome.verified) answer(response, acceptStatus, { received: true });
          else {
            const { code, message } = outcome;
            answer(response, code === 'body_too_large' ? 413 : 400, { error: { code, message } });
          }
        } catch (error) {
          answer(response, 500, { error: { code: 'internal_error', message: String(error) } });
        }
      },
      () => response.destroy(),
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    port,
    host,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The whole body, or null when it is larger than `limit` (the rest is not read). */
function readBody(request: http.IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) {
        request.pause();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function answer(
  response: http.ServerResponse,
  status: number,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): void {
  if (status === 204) {
    response.writeHead(204, headers).end();
    return;
  }
  // A refused request body left unread: close the connection rather than read the rest.
  const close = response.req.complete ? {} : { connection: 'close' };
  response
    .writeHead(status, { 'content-type': 'application/json', ...close, ...headers })
    .end(JSON.stringify(body));
}
