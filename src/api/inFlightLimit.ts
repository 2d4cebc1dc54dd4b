import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../server/errors.js';

/**
 * Requests one `serve` process works on at once by default. On the 2-core reference box a request
 * spends most of its time waiting on the database, whose pool has 20 connections: 32 keeps the
 * pool busy with a short queue in front of it (a POST takes about 10 ms of database time, so the
 * queue adds at most a few hundred ms), while the 16 clients of `npm run bench:cases` never meet it.
 */
export const DEFAULT_MAX_IN_FLIGHT_REQUESTS = 32;

/**
 * `Retry-After` of a request refused at the limit: in-flight requests finish in tens of ms, so a
 * second is enough for room to appear, and long enough for a burst to pass.
 */
export const IN_FLIGHT_RETRY_AFTER_SECONDS = 1;

/**
 * The first hook of every `/v1` route: past `limit` requests in flight in this process, a request is
 * answered at once with 503 `service_unavailable` and `Retry-After`, before authentication, so it
 * costs no database statement, is not counted against its key's rate limit, claims no
 * Idempotency-Key and is not in the request log. Bounding the work in flight bounds the queue in
 * front of the database pool, and so the latency of the requests that are admitted.
 *
 * A slot is held until the response is sent or the client hangs up (the raw response's `close`,
 * which fires exactly once either way, so a slot can never leak).
 */
export function inFlightLimitHook(limit: number) {
  let inFlight = 0;
  const release = () => {
    inFlight -= 1;
  };
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (inFlight >= limit) {
      request.log.warn({ in_flight: inFlight, limit }, 'refused: too many requests in flight');
      throw ApiError.serviceUnavailable(
        IN_FLIGHT_RETRY_AFTER_SECONDS,
        `The service is at capacity; retry after ${IN_FLIGHT_RETRY_AFTER_SECONDS} s.`,
      );
    }
    inFlight += 1;
    reply.raw.once('close', release);
  };
}
