import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { caseCommandRoutes } from '../cases/http/caseCommandRoutes.js';
import { caseEventRoutes } from '../cases/http/caseEventRoutes.js';
import { caseQueryRoutes } from '../cases/http/caseQueryRoutes.js';
import type { CaseRouteDependencies } from '../cases/http/caseRouteDependencies.js';
import { groupRoutes } from '../groups/http/groupRoutes.js';
import { monitoringCommandRoutes } from '../monitoring/http/monitoringCommandRoutes.js';
import { monitoringQueryRoutes } from '../monitoring/http/monitoringQueryRoutes.js';
import type { RateLimiter } from '../rateLimit/rateLimiter.js';
import { createRateLimiter } from '../rateLimit/rateLimiter.js';
import { createRequestLogWriter } from '../requestLog/requestLogWriter.js';
import { buildServer, type ServerDependencies } from '../server/server.js';
import { failureLogFields } from '../subscriptions/failurePolicy.js';
import { startKeyAuthentication } from '../workspace/keyAuthenticator.js';
import { docsPageOptions } from './docsPage.js';
import { IDEMPOTENCY_LEASE_MS } from './idempotentExecution.js';
import { DEFAULT_MAX_IN_FLIGHT_REQUESTS } from './inFlightLimit.js';
import { buildOpenApiDocument } from './openapi.js';
import { requestLogHook } from './requestLogHook.js';
import { type ApiRoute, registerApiRoutes } from './route.js';

export const OPENAPI_PATH = '/v1/openapi.json';

export interface ApiServerDependencies extends ServerDependencies, CaseRouteDependencies {
  /** Defaults to the spec's 120 requests per 60 s, shared through the database. */
  rateLimiter?: RateLimiter;
  /** How often the request metadata log is written (default 1 s; see requestLogWriter.ts). */
  requestLogFlushIntervalMs?: number;
  /** `/v1` requests worked on at once before 503s (default DEFAULT_MAX_IN_FLIGHT_REQUESTS). */
  maxInFlightRequests?: number;
  /** How long a request owns its Idempotency-Key without renewal (default IDEMPOTENCY_LEASE_MS). */
  idempotencyLeaseMs?: number;
  /** Routes beyond the public API's (tests add their own probes this way). */
  extraRoutes?: readonly ApiRoute[];
}

/** Every public endpoint of the spec that has landed. */
export function publicRoutes(deps: CaseRouteDependencies): ApiRoute[] {
  return [
    ...groupRoutes(deps.pool),
    ...caseCommandRoutes(deps),
    ...caseQueryRoutes(deps),
    ...caseEventRoutes(deps),
    ...monitoringCommandRoutes(deps),
    ...monitoringQueryRoutes(deps),
  ];
}

/**
 * The HTTP server with the public API: the conventions of buildServer, the `/v1` routes behind
 * the in-flight limit, authentication, rate limit, authorization and idempotency, the request metadata log, and the
 * generated OpenAPI document with its reference page. The document and the page are public: they
 * describe the contract, not anyone's data.
 */
export function buildApiServer(deps: ApiServerDependencies): FastifyInstance {
  const app = buildServer(deps);
  const routes = [...publicRoutes(deps), ...(deps.extraRoutes ?? [])];
  const document = buildOpenApiDocument(publicRoutes(deps));
  const requestLog = createRequestLogWriter(deps.pool, {
    flushIntervalMs: deps.requestLogFlushIntervalMs,
    onError: (error, lost) =>
      // Expected while the database restarts: then one line, the cause without its stack.
      app.log.warn(
        { ...failureLogFields(error).fields, lost },
        'could not write request log entries; retrying unless lost',
      ),
  });
  app.addHook('onResponse', requestLogHook(requestLog));
  // Runs once the server has stopped taking requests and the in-flight ones have been answered.
  app.addHook('onClose', () => requestLog.close());
  // The key cache listens on the pool's own database; a pool built without a URL reads every key.
  const authenticator = startKeyAuthentication(deps.pool, deps.pool.options.connectionString, {
    onUseError: (error) => app.log.warn({ err: error }, 'could not record the key use'),
  });
  app.addHook('onClose', () => authenticator.close());
  registerApiRoutes(
    app,
    {
      pool: deps.pool,
      rateLimiter: deps.rateLimiter ?? createRateLimiter(deps.pool),
      authenticator,
      maxInFlightRequests: deps.maxInFlightRequests ?? DEFAULT_MAX_IN_FLIGHT_REQUESTS,
      idempotencyLeaseMs: deps.idempotencyLeaseMs ?? IDEMPOTENCY_LEASE_MS,
    },
    routes,
  );
  app.get(OPENAPI_PATH, async () => document);
  app.register(fastifySwagger, { mode: 'static', specification: { document: document as never } });
  app.register(fastifySwaggerUi, docsPageOptions);
  return app;
}
