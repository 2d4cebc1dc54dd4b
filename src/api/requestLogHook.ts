import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Queryable } from '../db/sql.js';
import { recordRequest } from '../requestLog/requestLog.js';

/**
 * Logs the metadata of every request an API key made, once the response is out: method, path (no
 * query string), status, request id and whether an Idempotency-Key was sent; never a body or
 * header value. Requests that failed authentication have no key to file them under.
 */
export function requestLogHook(db: Queryable) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const key = request.apiKey;
    if (!key) return;
    try {
      await recordRequest(db, {
        apiKeyId: key.id,
        accountId: key.accountId,
        method: request.method,
        path: request.url,
        status: reply.statusCode,
        requestId: request.id,
        idempotencyKeyPresent: request.headers['idempotency-key'] !== undefined,
      });
    } catch (error) {
      request.log.warn({ err: error }, 'could not record the request in the request log');
    }
  };
}
