import type { FastifyRequest } from 'fastify';
import type { ApiKeyRecord } from '../workspace/apiKeys.js';
import type { KeyAuthentication } from '../workspace/keyAuthenticator.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated key of a `/v1` request; set by the authentication hook before anything else. */
    apiKey?: ApiKeyRecord;
    /** How `apiKey` was found, while a cached admission awaits confirmation (authentication.ts). */
    apiKeyAuthentication?: KeyAuthentication;
  }
}

/** The key of a request that passed authentication; a route reached without one is a wiring bug. */
export function requireApiKey(request: FastifyRequest): ApiKeyRecord {
  if (!request.apiKey)
    throw new Error(`${request.method} ${request.url} reached its handler unauthenticated`);
  return request.apiKey;
}
