import type { FastifyReply, FastifyRequest } from 'fastify';
import { type RateLimiter, rateLimitHeaders } from '../rateLimit/rateLimiter.js';
import { ApiError } from '../server/errors.js';
import type { KeyAuthenticator } from '../workspace/keyAuthenticator.js';
import { requireApiKey } from './apiKeyContext.js';
import { confirmAuthentication } from './authentication.js';

/**
 * Counts every authenticated `/v1` request against its key's window and puts the rate-limit headers
 * on the reply before anything can fail, so 403s, 404s and 409s carry them too. Runs right after
 * authentication: a request refused for scope still spends the budget, as it cost us the work.
 * Its statement also reads the key epoch, with which a key the cache admitted is confirmed before
 * anything else is answered (a key revoked meanwhile gets the 401, not rate-limit headers or a 429).
 */
export function rateLimitHook(limiter: RateLimiter, authenticator: KeyAuthenticator) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const now = limiter.now();
    // The hit is counted before a cached key is confirmed: a key revoked a moment ago still uses up
    // a request of a window nobody can use any more.
    const result = await limiter.hit(requireApiKey(request).id, now);
    await confirmAuthentication(authenticator, request, reply, result.keyEpoch);
    reply.headers(rateLimitHeaders(result, now));
    if (!result.allowed) {
      throw ApiError.rateLimited(
        `This API key made more than ${result.limit} requests in the current window; retry after ${result.retryAfterSeconds} s.`,
        {
          limit: result.limit,
          retry_after_seconds: result.retryAfterSeconds,
          reset_at: result.resetAt.toISOString(),
        },
      );
    }
  };
}
