import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/**
 * Every request gets an id of ours, `req_` and 32 hex digits. An incoming `X-Request-Id` is never
 * adopted: the id is the support handle and the key of the request metadata log, so it must be
 * unique and ours (a client's id may repeat on retries, collide across clients or name someone
 * else's request). A sane incoming value is logged as `client_request_id` for correlation.
 */
export function generateRequestId(): string {
  return `req_${randomUUID().replaceAll('-', '')}`;
}

/** Printable ASCII without spaces, at most 200 characters (the request log's column limit). */
const SANE_CLIENT_REQUEST_ID = /^[\x21-\x7e]{1,200}$/;

/** The client's own `X-Request-Id`, when it is one worth logging; otherwise undefined. */
export function clientRequestId(request: Pick<IncomingMessage, 'headers'>): string | undefined {
  const value = request.headers['x-request-id'];
  return typeof value === 'string' && SANE_CLIENT_REQUEST_ID.test(value) ? value : undefined;
}
