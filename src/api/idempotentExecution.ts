import type { FastifyRequest } from 'fastify';
import type pg from 'pg';
import type { StatementRider } from '../db/sql.js';
import { idempotentEventId } from '../idempotency/deterministicIds.js';
import {
  abandonRequest,
  beginRequest,
  completeRequest,
  fingerprintRequest,
  renewRequestLease,
} from '../idempotency/idempotencyStore.js';
import { errorEnvelope } from '../server/envelope.js';
import { toApiError } from '../server/errorHandling.js';
import { ApiError } from '../server/errors.js';
import { keepLease } from '../shared/leaseKeeper.js';
import { failureLogFields } from '../subscriptions/failurePolicy.js';
import type { ApiKeyRecord } from '../workspace/apiKeys.js';

/**
 * How long a started request owns its key without renewal (IDEMPOTENCY_LEASE). The lease is renewed
 * every third of it while the request runs, so a live attempt keeps its key however long it takes,
 * and a retry after a crash waits at most one lease (docs/idempotency.md).
 */
export const IDEMPOTENCY_LEASE_MS = 10_000;

/** A retry of a request still in flight: soon, as most requests take milliseconds. */
const IN_FLIGHT_RETRY_AFTER_SECONDS = 1;

export const IDEMPOTENT_REPLAY_HEADER = 'Idempotent-Replayed';

/** What a mutating handler gets to make its writes repeatable (docs/idempotency.md). */
export interface IdempotencyContext {
  key: string;
  /** An earlier attempt with this key may have written part of the work before it died. */
  recovered: boolean;
  /** The id of the command's `index`-th event: the same on every attempt with this key. */
  eventId(index: number): string;
}

export interface Response {
  status: number;
  body: unknown;
}

/**
 * Runs a POST or PATCH at most once per (API key, Idempotency-Key): a completed key replays its
 * stored response, a key in use answers 409 `conflict`, a key used for another request 409
 * `idempotency_conflict`. Responses under 500 are stored, 5xx free the key so the retry the spec
 * allows runs the work again (with the same event ids, so nothing is written twice).
 */
export async function executeIdempotently(
  pool: pg.Pool,
  request: FastifyRequest,
  use: {
    apiKey: ApiKeyRecord;
    idempotencyKey: string;
    leaseMs: number;
    /** The request's rate-limit hit, for the claim of the key to carry (idempotencyStore.ts). */
    rateLimitRider?: StatementRider<Promise<void>>;
  },
  work: (context: IdempotencyContext) => Promise<Response>,
): Promise<Response & { replayed: boolean }> {
  const { apiKey, idempotencyKey, leaseMs, rateLimitRider } = use;
  const claim = { apiKeyId: apiKey.id, key: idempotencyKey };
  const fingerprint = fingerprintRequest({ method: request.method, path: request.url, body: request.body });
  const begun = await beginRequest(
    pool,
    { ...claim, fingerprint, method: request.method, path: request.url, leaseMs },
    rateLimitRider,
  );
  switch (begun.kind) {
    case 'replay':
      return { status: begun.status, body: begun.body, replayed: true };
    case 'in_flight':
      throw new ApiError(
        'conflict',
        'A request with this Idempotency-Key is still in progress; retry it shortly.',
        null,
        IN_FLIGHT_RETRY_AFTER_SECONDS,
      );
    case 'mismatch':
      throw ApiError.idempotencyConflict();
  }
  // A lost lease needs no action here: completeRequest then stores nothing (the successor's claim wins).
  const lease = keepLease({
    leaseMs,
    renew: () => renewRequestLease(pool, { ...claim, leaseId: begun.leaseId, leaseMs }),
    onRenewalError: (error) => request.log.warn({ err: error }, 'could not renew the Idempotency-Key lease'),
  });
  const context: IdempotencyContext = {
    key: idempotencyKey,
    recovered: begun.recovered,
    eventId: (index) => idempotentEventId(apiKey.id, idempotencyKey, index, fingerprint),
  };
  let response: Response;
  try {
    response = await work(context);
  } catch (error) {
    lease.stop();
    const reported = toApiError(error);
    if (reported.status < 500) {
      await store(
        pool,
        request,
        { ...claim, leaseId: begun.leaseId },
        {
          status: reported.status,
          body: errorEnvelope(request.id, reported),
        },
      );
    } else {
      await abandonRequest(pool, { ...claim, leaseId: begun.leaseId }).catch((abandonError: unknown) =>
        request.log.warn(
          { err: abandonError },
          'could not release the Idempotency-Key; it frees itself when its lease ends',
        ),
      );
    }
    throw error;
  }
  lease.stop();
  await store(pool, request, { ...claim, leaseId: begun.leaseId }, response);
  return { ...response, replayed: false };
}

/**
 * The work is done; if its response cannot be stored the client still gets it. The key then stays
 * claimed until its lease ends and a retry recovers it, re-deriving the same event ids.
 */
async function store(
  pool: pg.Pool,
  request: FastifyRequest,
  claim: { apiKeyId: string; key: string; leaseId: string },
  response: Response,
): Promise<void> {
  try {
    const stored = await completeRequest(pool, { ...claim, ...response });
    if (!stored) request.log.warn({}, 'the Idempotency-Key was taken over before this attempt finished');
  } catch (error) {
    const { level, fields } = failureLogFields(error);
    request.log[level](fields, 'could not store the response for the Idempotency-Key');
  }
}
