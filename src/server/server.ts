import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import {
  type ObservabilityDependencies,
  registerObservability,
} from '../observability/observabilityRoutes.js';
import type { Logger } from '../shared/logger.js';
import {
  BODY_LIMIT_BYTES,
  clientErrorHandler,
  handleError,
  handleFrameworkError,
  registerNotFoundHandler,
  sendError,
  setStandardHeaders,
} from './errorHandling.js';
import { ApiError } from './errors.js';
import { type ReadinessCheck, registerHealthRoutes } from './health.js';
import { clientRequestId, generateRequestId } from './requestId.js';
import { decodeUtf8Body, findUnstorable, unstorableInput } from './storableText.js';

export interface ServerDependencies {
  logger: Logger;
  readiness: ReadinessCheck[];
  /** How long a client may take to send its headers, and its whole request (HTTP_*_TIMEOUT_MS). */
  timeouts?: HttpTimeouts;
  /** Request metrics, `/metrics` and `/health/status` (src/observability). */
  observability?: ObservabilityDependencies;
}

export interface HttpTimeouts {
  headersMs: number;
  requestMs: number;
}

/**
 * A client that sends its request slowly holds a connection and a socket: it is answered 400 and
 * cut once it has taken this long. Every real client sends a request's headers in milliseconds.
 */
export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = { headersMs: 10_000, requestMs: 30_000 };

/**
 * The HTTP conventions of docs/api-conventions.md: request ids, the version header, the error
 * envelope for every failure, 404/405, JSON-only bodies up to 1 MiB. Routes registered on the
 * returned instance inherit all of it.
 */
export function buildServer(deps: ServerDependencies): FastifyInstance {
  const timeouts = deps.timeouts ?? DEFAULT_HTTP_TIMEOUTS;
  const app = Fastify({
    // Node checks these deadlines every connectionsCheckingInterval (30 s by default, which would let
    // a slow client stay that much longer): check often enough for the deadline to mean what it says.
    http: {
      headersTimeout: Math.min(timeouts.headersMs, timeouts.requestMs),
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(timeouts.headersMs / 4))),
    },
    requestTimeout: timeouts.requestMs,
    loggerInstance: deps.logger.child({}, { serializers: { req: requestForLog } }) as FastifyBaseLogger,
    // Lets in-flight requests finish on close while refusing new connections.
    forceCloseConnections: 'idle',
    // Our own 503 while closing (below), in the envelope with a request id; fastify's has neither.
    return503OnClosing: false,
    bodyLimit: BODY_LIMIT_BYTES,
    // Our ids only; an incoming X-Request-Id is logged, never adopted (see requestId.ts).
    requestIdHeader: false,
    genReqId: generateRequestId,
    // Same name in logs as in the envelope, so one search finds both.
    logController: new OneLinePerRequest({ requestIdLogLabel: 'request_id' }),
    childLoggerFactory: (logger, bindings, options, rawRequest) => {
      const clientId = clientRequestId(rawRequest);
      return logger.child(clientId ? { ...bindings, client_request_id: clientId } : bindings, options);
    },
    frameworkErrors: handleFrameworkError,
    clientErrorHandler: clientErrorHandler(deps.logger),
  });
  // Bodies are JSON or nothing: text/plain would hand handlers a string where they expect an object.
  app.removeContentTypeParser('text/plain');
  refuseUnstorableInput(app);
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  // First hook of all, so the headers are on the reply whatever fails later, 404s included. A request
  // that arrives on a kept-alive connection while the server drains is refused like an overload:
  // nothing was done, retry (on another instance).
  app.addHook('onRequest', (request, reply, done) => {
    setStandardHeaders(reply);
    // Readiness says `draining` itself (health.ts), for the load balancer to act on.
    if (!closing || request.url.startsWith('/health/')) {
      done();
      return;
    }
    reply.header('Connection', 'close');
    sendError(
      reply,
      ApiError.serviceUnavailable(1, 'The service is shutting down; nothing was done. Retry shortly.'),
    );
  });
  app.setErrorHandler(handleError);
  registerNotFoundHandler(app);
  if (deps.observability) registerObservability(app, deps.observability);
  registerHealthRoutes(app, deps.readiness);
  return app;
}

/**
 * One log line per request, written when it is answered, with the request and its outcome, where
 * fastify writes two (`incoming request` as well): a log line is about a tenth of a case GET's CPU.
 * Everything else fastify logs (stream and serializer failures) is left as it is.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const fields = { req: request, res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...fields, err: error }, 'request errored');
    else reply.log.info(fields, 'request completed');
  }
}

/**
 * What the log keeps of a request: method, path and the caller's address. Never the query string
 * (it carries subject references and filters; the spec's request metadata excludes it), the body
 * or the headers (the Authorization header holds the key).
 */
export function requestForLog(request: {
  method?: string;
  url?: string;
  ip?: string;
}): Record<string, unknown> {
  return {
    method: request.method,
    path: request.url?.split('?')[0],
    remoteAddress: request.ip,
  };
}

/**
 * JSON bodies decoded strictly as UTF-8 and searched, like query strings and path parameters, for
 * text the service cannot store (storableText.ts): a 400 before any hook or handler reads them.
 */
function refuseUnstorableInput(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = decodeUtf8Body(body as Buffer);
    } catch (error) {
      done(error as Error, undefined);
      return;
    }
    parseJson(request, text, (error, value) => {
      if (error) return done(error, undefined);
      const found = findUnstorable(value, '');
      if (found) return done(unstorableInput(found), undefined);
      done(null, value);
    });
  });
  app.addHook('preValidation', async (request) => {
    const found = findUnstorable(request.params, '') ?? findUnstorable(request.query, '');
    if (found) throw unstorableInput(found);
  });
}
