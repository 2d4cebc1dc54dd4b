import type { FastifyReply, FastifyRequest } from 'fastify';
import type { StatementRider } from '../db/sql.js';
import { type RateLimiter, type RateLimitHit, rateLimitHeaders } from '../rateLimit/rateLimiter.js';
import { ApiError } from '../server/errors.js';
import type { KeyAuthenticator } from '../workspace/keyAuthenticator.js';
import { requireApiKey } from './apiKeyContext.js';
import { confirmAuthentication } from './authentication.js';

/**
 * A request's rate-limit hit left for a statement the request makes anyway to carry: a GET's read
 * (`ApiRoute.rateLimitRidesOnRead`), a POST's or PATCH's claim of its Idempotency-Key (which the hit
 * must admit, idempotencyStore.ts): one statement fewer each. Until the hit is settled nothing is answered: the route
 * pipeline settles it before any reply, so a revoked key still gets its 401 and a key over its limit
 * its 429 ahead of a 403, 400 or 404, as with the hook that hits first.
 */
export interface DeferredRateLimit {
  /** The hit for the route's read to carry; its `settle` throws the 401 or 429 the hit calls for. */
  rider(): StatementRider<Promise<void>>;
  /** Runs the hit on its own unless a read has carried it. */
  settle(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyRequest {
    deferredRateLimit?: DeferredRateLimit;
  }
}

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
    const hit = await limiter.hit(requireApiKey(request).id, now);
    await applyHit(authenticator, request, reply, hit, now);
  };
}

/**
 * `rateLimitHook` for a route whose read or claim carries the hit: the hit is counted there. A key this
 * process has seen refused in the current window is counted at once instead, as by `rateLimitHook`:
 * a client hammering past its limit then costs the small statement of a 429, not a read each time.
 */
export function deferredRateLimitHook(limiter: RateLimiter, authenticator: KeyAuthenticator) {
  const exhausted = new ExhaustedKeys();
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    // The window is the one the request arrived in, wherever the hit is carried.
    const now = limiter.now();
    const apiKeyId = requireApiKey(request).id;
    const apply = async (hit: RateLimitHit) => {
      exhausted.note(apiKeyId, hit, now);
      await applyHit(authenticator, request, reply, hit, now);
    };
    if (exhausted.has(apiKeyId, now)) return apply(await limiter.hit(apiKeyId, now));
    let settled = false;
    request.deferredRateLimit = {
      rider() {
        const rider = limiter.hitRider(apiKeyId, now);
        return {
          ...rider,
          settle: (row) => {
            settled = true;
            return apply(rider.settle(row));
          },
        };
      },
      async settle() {
        if (settled) return;
        settled = true;
        await apply(await limiter.hit(apiKeyId, now));
      },
    };
  };
}

/** Keys refused in a window that has not ended yet, as far as this process has seen. */
class ExhaustedKeys {
  private readonly until = new Map<string, number>();

  has(apiKeyId: string, now: Date): boolean {
    return (this.until.get(apiKeyId) ?? 0) > now.getTime();
  }

  note(apiKeyId: string, hit: RateLimitHit, now: Date): void {
    if (hit.allowed) {
      this.until.delete(apiKeyId);
      return;
    }
    // Bounded by the keys refused within one window: the ended windows go first.
    if (this.until.size >= 10_000) {
      for (const [key, end] of this.until) if (end <= now.getTime()) this.until.delete(key);
    }
    this.until.set(apiKeyId, hit.resetAt.getTime());
  }
}

async function applyHit(
  authenticator: KeyAuthenticator,
  request: FastifyRequest,
  reply: FastifyReply,
  hit: RateLimitHit,
  now: Date,
): Promise<void> {
  await confirmAuthentication(authenticator, request, reply, hit.keyEpoch);
  reply.headers(rateLimitHeaders(hit, now));
  if (!hit.allowed) {
    throw ApiError.rateLimited(
      `This API key made more than ${hit.limit} requests in the current window; retry after ${hit.retryAfterSeconds} s.`,
      {
        limit: hit.limit,
        retry_after_seconds: hit.retryAfterSeconds,
        reset_at: hit.resetAt.toISOString(),
      },
    );
  }
}
