import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestLogWriter } from '../requestLog/requestLogWriter.js';

/**
 * Logs the metadata of every request an API key made, once the response is out: method, path (no
 * query string), status, request id and whether an Idempotency-Key was sent; never a body or
 * header value. Requests that failed authentication have no key to file them under. The entry is
 * buffered and written in a batch (requestLogWriter.ts): the request never waits for it.
 */
export function requestLogHook(log: RequestLogWriter) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const key = request.apiKey;
    if (!key) return;
    log.record({
      apiKeyId: key.id,
      accountId: key.accountId,
      method: request.method,
      path: request.url,
      status: reply.statusCode,
      requestId: request.id,
      idempotencyKeyPresent: request.headers['idempotency-key'] !== undefined,
    });
  };
}
