import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Queryable } from '../db/sql.js';
import { ApiError } from '../server/errors.js';
import { type AuthFailureReason, authenticateKey, recordKeyUse } from '../workspace/apiKeys.js';
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

/**
 * The first hook of every `/v1` route: 401 `unauthorized` unless the bearer key is valid, active and
 * unexpired. The key's last use is noted without holding up the request.
 */
export function authenticationHook(db: Queryable) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const bearer = parseAuthorization(request.headers.authorization);
    const result =
      bearer.kind === 'token'
        ? await authenticateKey(db, bearer.token)
        : { ok: false as const, reason: bearer.kind };
    if (!result.ok) {
      // RFC 6750: a 401 names the scheme it wants.
      reply.header('WWW-Authenticate', 'Bearer realm="casescreen"');
      request.log.info({ auth_failure: result.reason }, 'authentication failed');
      throw unauthorized(result.reason);
    }
    request.apiKey = result.key;
    recordKeyUse(db, result.key.id).catch((error: unknown) => {
      request.log.warn({ err: error }, 'could not record the key use');
    });
  };
}
