import http from 'node:http';
import https from 'node:https';
import { projectVersion } from '../shared/projectRoot.js';
import { signatureHeader } from './signature.js';
import { guardedLookup, parseTargetUrl, type TargetPolicy, WebhookTargetError } from './targets.js';
import { WEBHOOK_API_VERSION } from './webhookEvents.js';

/**
 * One delivery attempt over HTTP (docs/webhooks.md, "Delivery"): a signed POST of the stored body,
 * byte for byte, with a deadline covering connect, TLS, the request and the response. Redirects are
 * never followed and only 200 and 204 accept (the spec); the response body is read up to
 * RESPONSE_SNIPPET_BYTES for the attempt log and the rest discarded. Connections are kept alive
 * per target, and every DNS answer is checked (targets.ts).
 */

export const RESPONSE_SNIPPET_BYTES = 4096;
export const USER_AGENT = `casescreen-webhooks/${projectVersion()}`;

export interface OutgoingDelivery {
  url: string;
  body: string;
  eventId: string;
  deliveryId: string;
  secrets: readonly string[];
}

export interface SendResult {
  accepted: boolean;
  httpStatus: number | null;
  /** Why the attempt failed, when it did. */
  error: string | null;
  responseSnippet: string | null;
  startedAt: Date;
  durationMs: number;
}

export interface WebhookSender {
  send(delivery: OutgoingDelivery): Promise<SendResult>;
  /** Closes kept-alive connections. */
  close(): void;
}

export interface SenderOptions extends TargetPolicy {
  timeoutMs: number;
  /** The signing time (tests pin it); the system clock otherwise. */
  now?: () => Date;
}

export function createWebhookSender(options: SenderOptions): WebhookSender {
  const lookup = guardedLookup(options);
  const agentOptions = { keepAlive: true, lookup, scheduling: 'lifo' as const };
  const agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };
  const now = options.now ?? (() => new Date());

  async function send(delivery: OutgoingDelivery): Promise<SendResult> {
    const startedAt = now();
    const began = performance.now();
    const finish = (result: Omit<SendResult, 'startedAt' | 'durationMs'>): SendResult => ({
      ...result,
      startedAt,
      durationMs: performance.now() - began,
    });
    const unanswered = (error: unknown) =>
      finish({
        accepted: false,
        httpStatus: null,
        error: describeSendError(error, options),
        responseSnippet: null,
      });
    let url: URL;
    try {
      url = parseTargetUrl(delivery.url, options);
    } catch (error) {
      return unanswered(error);
    }
    const timestamp = Math.floor(startedAt.getTime() / 1000);
    const body = Buffer.from(delivery.body, 'utf8');
    const headers = {
      'Content-Type': 'application/json',
      'Content-Length': String(body.byteLength),
      'User-Agent': USER_AGENT,
      'Service-Event-Id': delivery.eventId,
      'Service-Delivery-Id': delivery.deliveryId,
      'Service-Timestamp': String(timestamp),
      'Service-Signature': signatureHeader(delivery.secrets, timestamp, delivery.body),
      'Service-Api-Version': WEBHOOK_API_VERSION,
    };
    try {
      const { status, snippet } = await post(
        url,
        headers,
        body,
        url.protocol === 'https:' ? agents.https : agents.http,
        options.timeoutMs,
      );
      const accepted = status === 200 || status === 204;
      return finish({
        accepted,
        httpStatus: status,
        error: accepted
          ? null
          : `HTTP ${status}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}`,
        responseSnippet: snippet,
      });
    } catch (error) {
      return unanswered(error);
    }
  }

  return {
    send,
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

function post(
  url: URL,
  headers: Record<string, string>,
  body: Buffer,
  agent: http.Agent,
  timeoutMs: number,
): Promise<{ status: number; snippet: string | null }> {
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = transport.request(
      url,
      { method: 'POST', headers, agent, signal: AbortSignal.timeout(timeoutMs) },
      (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        // One byte beyond the snippet: it tells whether the limit falls inside a character.
        const enough = () => kept > RESPONSE_SNIPPET_BYTES;
        const settle = () => {
          resolve({ status: response.statusCode ?? 0, snippet: responseSnippet(Buffer.concat(chunks)) });
        };
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          kept += chunk.byteLength;
          // Enough for the log: the rest is not read (the connection is dropped, not reused).
          if (enough()) {
            response.destroy();
            settle();
          }
        });
        response.on('error', reject);
        response.on('end', settle);
        // Cut off mid-body (the deadline, a reset): not an answer.
        response.on('close', () => {
          if (!response.complete && !enough()) reject(new Error('the response was cut off'));
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * What the attempt log keeps of a response body: its start, at most RESPONSE_SNIPPET_BYTES of
 * UTF-8, ending before a character the limit would cut in two. Bytes that are not UTF-8 read as
 * U+FFFD, and so does NUL, which a PostgreSQL text column refuses (the attempt could not be
 * recorded). Null for an empty body.
 */
export function responseSnippet(body: Buffer): string | null {
  const text = utf8Prefix(body, RESPONSE_SNIPPET_BYTES).toString('utf8').replaceAll('\u0000', '\uFFFD');
  // Each replacement is three bytes where the body had one to three: cut the text again.
  const snippet = utf8Prefix(Buffer.from(text, 'utf8'), RESPONSE_SNIPPET_BYTES).toString('utf8');
  return snippet.length > 0 ? snippet : null;
}

/** At most `limit` bytes, without the character the limit falls inside (UTF-8: up to 4 bytes). */
function utf8Prefix(bytes: Buffer, limit: number): Buffer {
  if (bytes.byteLength <= limit) return bytes;
  let end = limit;
  // Back over continuation bytes (10xxxxxx) to the start of the character that was cut.
  for (let back = 0; back < 3 && (bytes[end]! & 0xc0) === 0x80; back++) end--;
  return bytes.subarray(0, end);
}

/** A failed attempt in a few words: what an operator reads in `webhooks deliveries`. */
export function describeSendError(error: unknown, options: { timeoutMs: number }): string {
  if (error instanceof WebhookTargetError) return `target refused: ${error.message}`;
  const e = error as NodeJS.ErrnoException & { cause?: unknown };
  if (
    e?.name === 'TimeoutError' ||
    e?.name === 'AbortError' ||
    (e?.cause as Error | undefined)?.name === 'TimeoutError'
  ) {
    return `timed out after ${options.timeoutMs} ms`;
  }
  if (e?.cause instanceof WebhookTargetError) return `target refused: ${e.cause.message}`;
  switch (e?.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset by the receiver';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `host not found (${e.code})`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `unreachable (${e.code})`;
  }
  if (typeof e?.code === 'string' && /CERT|SSL|TLS|SELF_SIGNED/.test(e.code)) return `TLS error: ${e.code}`;
  return e?.message ? String(e.message).slice(0, 300) : String(error).slice(0, 300);
}
