import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import type { z } from 'zod';
import type { StatementRider } from '../db/sql.js';
import { validateIdempotencyKey } from '../idempotency/idempotencyKey.js';
import type { RateLimiter } from '../rateLimit/rateLimiter.js';
import { dataEnvelope } from '../server/envelope.js';
import { ApiError, type FieldErrors } from '../server/errors.js';
import { parseRequest } from '../server/validation.js';
import type { ApiKeyRecord } from '../workspace/apiKeys.js';
import type { KeyAuthenticator } from '../workspace/keyAuthenticator.js';
import { canRecordFinalDecision, hasScope, type Scope } from '../workspace/keyPolicy.js';
import { requireApiKey } from './apiKeyContext.js';
import { authenticationHook } from './authentication.js';
import {
  executeIdempotently,
  IDEMPOTENT_REPLAY_HEADER,
  type IdempotencyContext,
} from './idempotentExecution.js';
import { inFlightLimitHook } from './inFlightLimit.js';
import { deferredRateLimitHook, rateLimitHook } from './rateLimitHook.js';

export type ApiMethod = 'GET' | 'POST' | 'PATCH';

/** The spec's rule: every POST and PATCH takes an Idempotency-Key; GETs need none. */
export function isMutating(method: ApiMethod): boolean {
  return method !== 'GET';
}

export interface RouteContext<P, Q, B> {
  request: FastifyRequest;
  key: ApiKeyRecord;
  params: P;
  query: Q;
  body: B;
  /** Set for POST and PATCH. */
  idempotency: IdempotencyContext | undefined;
  /** The request's rate-limit hit, for a route with `rateLimitRidesOnRead` to carry in its read. */
  rateLimitRider: StatementRider<Promise<void>> | undefined;
}

export interface RouteResult<T> {
  status: number;
  data: T;
}

/**
 * One public endpoint: its contract (the zod schemas that validate it and that the OpenAPI document
 * is generated from, its scope, its statuses) and its handler. The shared pipeline around the
 * handler is the same for all of them: admit within the in-flight limit (503), authenticate (401),
 * rate-limit (429), authorize (403), validate (400), then run once per Idempotency-Key.
 */
export interface ApiRoute<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  method: ApiMethod;
  /** Fastify syntax: `/v1/cases/:case_reference`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** Any one of them grants access (GET /v1/groups takes `cases:create` or `cases:read`). */
  scopes: readonly [Scope, ...Scope[]];
  /** Recording a final case decision: the permission on top of the scope, never for agents. */
  requiresFinalDecision?: boolean;
  /**
   * A decision that stays with people and API clients: agent keys are refused (403) whatever their
   * scopes. Agents gather evidence and escalate (spec, Authentication 7).
   */
  refusesAgents?: boolean;
  params?: P;
  query?: Q;
  body?: B;
  /** The schema of `data` in the success envelope. */
  response: R;
  /** Success statuses the endpoint answers; the first is the usual one. */
  successStatuses: readonly [number, ...number[]];
  /** The spec's error statuses for the endpoint, for the document. */
  errorStatuses: readonly number[];
  /**
   * A GET whose handler passes `rateLimitRider` to its one read, so that the request costs one
   * statement: the pipeline answers nothing before the hit is settled (rateLimitHook.ts).
   */
  rateLimitRidesOnRead?: boolean;
  /**
   * The document's examples of this operation where the schemas' own do not fit it (the Case
   * example is a screened case; POST /v1/cases answers with its checks still queued).
   */
  examples?: { body?: z.input<B>; response?: z.input<R> };
  handle(context: RouteContext<z.output<P>, z.output<Q>, z.output<B>>): Promise<RouteResult<z.input<R>>>;
}

/** Keeps a route's types checked where it is written while letting lists hold routes of all shapes. */
export function defineRoute<
  P extends z.ZodType,
  Q extends z.ZodType,
  B extends z.ZodType,
  R extends z.ZodType,
>(route: ApiRoute<P, Q, B, R>): ApiRoute {
  return route as unknown as ApiRoute;
}

export interface RouteDependencies {
  pool: pg.Pool;
  rateLimiter: RateLimiter;
  authenticator: KeyAuthenticator;
  /** Requests of these routes this process works on at once; more are refused with 503. */
  maxInFlightRequests: number;
  /** How long a request owns its Idempotency-Key without renewal; renewed while it runs. */
  idempotencyLeaseMs: number;
}

/** 403 unless the key holds one of the route's scopes and, where needed, the final-decision permission. */
export function authorize(
  route: Pick<ApiRoute, 'scopes' | 'requiresFinalDecision' | 'refusesAgents'>,
  key: ApiKeyRecord,
): void {
  if (!route.scopes.some((scope) => hasScope(key, scope))) {
    const needed = route.scopes.map((scope) => `"${scope}"`).join(' or ');
    throw ApiError.forbidden(`This API key lacks the scope ${needed} this operation requires.`, {
      required_scopes: [...route.scopes],
    });
  }
  if (route.refusesAgents && key.actorType === 'agent') {
    throw ApiError.forbidden(
      'Agent keys cannot record decisions; an agent reviews matches, adds material and escalates to a person or a permitted API client.',
      { actor_type: key.actorType },
    );
  }
  if (route.requiresFinalDecision && !canRecordFinalDecision(key)) {
    throw ApiError.forbidden(
      key.actorType === 'agent'
        ? 'Agent keys cannot record final case decisions; leave the decision to a person or a permitted API client.'
        : 'This API key lacks the final-decision permission.',
      { actor_type: key.actorType },
    );
  }
}

/** The Idempotency-Key problem of a mutating request, in the validation report's shape. */
function idempotencyKeyProblems(request: FastifyRequest): FieldErrors {
  const header = request.headers['idempotency-key'];
  const check = validateIdempotencyKey(Array.isArray(header) ? header[0] : header);
  return check.ok ? {} : { 'Idempotency-Key': [check.message] };
}

export function registerApiRoutes(
  app: FastifyInstance,
  deps: RouteDependencies,
  routes: readonly ApiRoute[],
): void {
  // One count for all the routes: the limit is on the process's work, not per endpoint.
  const admit = inFlightLimitHook(deps.maxInFlightRequests);
  const authenticate = authenticationHook(deps.authenticator);
  const limitRate = rateLimitHook(deps.rateLimiter, deps.authenticator);
  const deferRate = deferredRateLimitHook(deps.rateLimiter, deps.authenticator);
  for (const route of routes) {
    if (route.rateLimitRidesOnRead && isMutating(route.method))
      throw new Error(`${route.operationId}: only a GET may carry its rate-limit hit in its read`);
    app.route({
      method: route.method,
      url: route.path,
      // A POST or PATCH carries its hit in the claim of its Idempotency-Key (idempotencyStore.ts).
      onRequest: [
        admit,
        authenticate,
        route.rateLimitRidesOnRead || isMutating(route.method) ? deferRate : limitRate,
      ],
      handler: async (request, reply) => {
        const deferred = request.deferredRateLimit;
        try {
          return await handleRoute(deps, route, request, reply);
        } catch (error) {
          // A refusal of the hit (401, 429) comes before whatever else the request would get.
          await deferred?.settle();
          throw error;
        }
      },
    });
  }
}

async function handleRoute(
  deps: RouteDependencies,
  route: ApiRoute,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const key = requireApiKey(request);
  authorize(route, key);
  const mutating = isMutating(route.method);
  const input = parseRequest(request, route, mutating ? idempotencyKeyProblems(request) : {});
  // Set for a route with `rateLimitRidesOnRead` and for a POST or PATCH (their onRequest hook defers
  // the hit), unless the key is known to be over its limit.
  const rateLimitRider = request.deferredRateLimit?.rider();
  const run = async (idempotency: IdempotencyContext | undefined) => {
    const result = await route.handle({
      request,
      key,
      ...input,
      idempotency,
      rateLimitRider: mutating ? undefined : rateLimitRider,
    });
    // The response schema is the contract: a handler that drifts from it is a bug, reported as a 500.
    const data = route.response.parse(result.data);
    return { status: result.status, body: dataEnvelope(request.id, data) };
  };
  if (!mutating) {
    const response = await run(undefined);
    await request.deferredRateLimit?.settle();
    return reply.code(response.status).send(response.body);
  }
  const idempotencyKey = request.headers['idempotency-key'] as string;
  const response = await executeIdempotently(
    deps.pool,
    request,
    {
      apiKey: key,
      idempotencyKey,
      leaseMs: deps.idempotencyLeaseMs,
      ...(rateLimitRider && { rateLimitRider }),
    },
    run,
  );
  if (response.replayed) reply.header(IDEMPOTENT_REPLAY_HEADER, 'true');
  return reply.code(response.status).send(response.body);
}
