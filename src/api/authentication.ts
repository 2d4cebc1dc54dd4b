import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../server/errors.js';
import type { AuthFailureReason } from '../workspace/apiKeys.js';
import type { KeyAuthentication, KeyAuthenticator } from '../workspace/keyAuthenticator.js';
import './apiKeyContext.js';

/** `Authorization: Bearer <key>`: the scheme is case-insensitive (RFC 9110), the token is not. */
const BEARER = /^bearer +(\S+) *$/i;

export type BearerToken = { kind: 'missing' } | { kind: 'malformed' } | { kind: 'token'; token: string };

export function parseAuthorization(header: string | undefined): BearerToken {
  if (header === undefined || header.trim() === '') return { kind: 'missing' };
  const match = BEARER.exec(header);
  return match ? { kind: 'token', token: match[1]! } : { kind: 'malformed' };
}

/**
 * What a client is told. A revoked or expired key is named as such: only the holder of the full
 * secret gets this far (authenticateKey verifies it first), and telling them saves a support call.
 */
const MESSAGES: Record<AuthFailureReason, string> = {
  missing: 'Send an API key in the Authorization header: "Bearer <API_KEY>".',
  malformed: 'The Authorization header must be "Bearer <API_KEY>" with a key issued by this service.',
  unknown: 'The API key is not valid.',
  revoked: 'The API key has been revoked.',
  expired: 'The API key has expired.',
};

export function unauthorized(reason: AuthFailureReason): ApiError {
  return ApiError.unauthorized(MESSAGES[reason]);
}

/** The 401 of a refused key, with the scheme RFC 6750 wants named; the reason goes to the log only. */
function refuse(request: FastifyRequest, reply: FastifyReply, reason: AuthFailureReason): ApiError {
  reply.header('WWW-Authenticate', 'Bearer realm="casescreen"');
  request.log.info({ auth_failure: reason }, 'authentication failed');
  return unauthorized(reason);
}

/**
 * The first hook of every `/v1` route: 401 `unauthorized` unless the bearer key is valid, active and
 * unexpired. A key the cache admitted is provisional until `confirmAuthentication` (the rate-limit
 * hook calls it with the key epoch its statement read); the key's use is noted without holding up
 * the request.
 */
export function authenticationHook(authenticator: KeyAuthenticator) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const bearer = parseAuthorization(request.headers.authorization);
    const authentication: KeyAuthentication =
      bearer.kind === 'token'
        ? await authenticator.authenticate(bearer.token)
        : { result: { ok: false, reason: bearer.kind } };
    const { result } = authentication;
    if (!result.ok) throw refuse(request, reply, result.reason);
    request.apiKey = result.key;
    request.apiKeyAuthentication = authentication;
  };
}

/**
 * Makes a cached admission final, given the key epoch a statement of this request read after it
 * arrived: a key revoked or expired by then is refused exactly as the first hook would have.
 */
export async function confirmAuthentication(
  authenticator: KeyAuthenticator,
  request: FastifyRequest,
  reply: FastifyReply,
  keyEpoch: bigint | undefined,
): Promise<void> {
  const authentication = request.apiKeyAuthentication;
  if (!authentication?.cached) return;
  request.apiKeyAuthentication = undefined;
  const result = await authenticator.confirm(authentication, keyEpoch);
  if (!result.ok) {
    request.apiKey = undefined;
    throw refuse(request, reply, result.reason);
  }
  request.apiKey = result.key;
}
