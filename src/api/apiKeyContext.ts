import type { FastifyRequest } from 'fastify';
import type { ApiKeyRecord } from '../workspace/apiKeys.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated key of a `/v1` request; set by the authentication hook before anything else. */
    apiKey?: ApiKeyRecord;
  }
}

/** The key of a request that passed authentication; a route reached without one is a wiring bug. */
export function requireApiKey(request: FastifyRequest): ApiKeyRecord {
  if (!request.apiKey)
    throw new Error(`${request.method} ${request.url} reached its handler unauthenticated`);
  return request.apiKey;
}
