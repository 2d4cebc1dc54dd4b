import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { isDatabaseUnavailable, isPoolWaitTimeout } from '../db/database.js';
import {
  AppendOutcomeUnknownError,
  AppendTooLargeError,
  EventStoreUnavailableError,
  StreamDeletedError,
  WrongExpectedVersionError,
} from '../eventStore/eventStore.js';
import type { Logger } from '../shared/logger.js';
import { describeError } from '../subscriptions/failurePolicy.js';
import { API_VERSION, API_VERSION_HEADER } from './apiVersion.js';
import { errorEnvelope } from './envelope.js';
import { ApiError, type FieldErrors, type InputLocation, mergeFieldErrors } from './errors.js';
import { generateRequestId, REQUEST_ID_HEADER } from './requestId.js';

/**
 * Largest request body accepted. The biggest spec bodies (case creation with notes and subject,
 * monitoring metadata) are a few tens of KiB; 1 MiB leaves room and keeps a request's memory small.
 */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** The only request media type: every body in the spec is a JSON document. */
export const ACCEPTED_CONTENT_TYPES = ['application/json'] as const;

/**
 * `Retry-After` of a 503 for a request that waited too long for a database connection: the pool
 * was saturated a moment ago, and a second is long enough for in-flight requests to drain.
 */
export const POOL_TIMEOUT_RETRY_AFTER_SECONDS = 1;
/** A database restart takes seconds: a client retrying every second would only add load. */
export const DATABASE_UNAVAILABLE_RETRY_AFTER_SECONDS = 2;
/** An event store restart or leader election takes seconds too. */
export const EVENT_STORE_UNAVAILABLE_RETRY_AFTER_SECONDS = 2;

/** Fastify's own errors carry a `FST_` code and an HTTP status; nothing else is trusted as a 4xx. */
interface FrameworkError extends Error {
  code: string;
  statusCode: number;
  validation?: { instancePath?: string; message?: string; params?: Record<string, unknown> }[];
  validationContext?: string;
}

function isFrameworkError(error: unknown): error is FrameworkError {
  if (!(error instanceof Error)) return false;
  const { code, statusCode } = error as Partial<FrameworkError>;
  return typeof code === 'string' && code.startsWith('FST_') && typeof statusCode === 'number';
}

/**
 * What the client is told about anything thrown. `ApiError`s pass as they are; fastify's request
 * errors (body, content type, URL) become 400 `invalid_request`, since the spec's status lists have
 * no 413 or 415; everything else is a 500 `internal_error` whose message says nothing of the cause.
 * A raw ZodError is a 500 too: zod also parses rows and events, and a bug there is not the client's.
 * A wait for a database connection that ran out is overload, not a failure: 503
 * `service_unavailable` with `Retry-After`.
 */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isPoolWaitTimeout(error)) {
    return ApiError.serviceUnavailable(
      POOL_TIMEOUT_RETRY_AFTER_SECONDS,
      'No database connection became free in time; the service is at capacity. Retry shortly.',
    );
  }
  if (isDatabaseUnavailable(error)) {
    // The outcome of a write cut off mid-way is unknown to us too: the Idempotency-Key makes the
    // retry safe either way.
    return ApiError.serviceUnavailable(
      DATABASE_UNAVAILABLE_RETRY_AFTER_SECONDS,
      'The service cannot reach its database right now. Retry shortly, with the same Idempotency-Key for a change.',
    );
  }
  if (error instanceof WrongExpectedVersionError) {
    // A command that lost its append to other processes' writers every time it retried: nothing was
    // written, and the same request (same Idempotency-Key) can simply be sent again.
    return ApiError.serviceUnavailable(
      POOL_TIMEOUT_RETRY_AFTER_SECONDS,
      'Too many simultaneous changes to the same object; nothing was changed. Retry shortly.',
    );
  }
  if (error instanceof AppendTooLargeError) {
    // The request's own size, not the service's state: sending it again cannot succeed.
    return ApiError.unprocessableEntity(
      `The change is too large to store: the event store takes at most ${error.limitBytes} bytes per change. Send less (shorter texts, fewer items); nothing was changed.`,
    );
  }
  if (error instanceof StreamDeletedError) {
    // An operator deleted the object's stream on the event store for good: no retry can change it.
    return ApiError.conflict(
      'This object was deleted from the event store by an operator and can no longer be read or changed; nothing was changed.',
    );
  }
  if (error instanceof EventStoreUnavailableError || error instanceof AppendOutcomeUnknownError) {
    // A change whose outcome is unknown is settled by its retry: with the same Idempotency-Key the
    // retry answers what happened, or makes the change once.
    return ApiError.serviceUnavailable(
      EVENT_STORE_UNAVAILABLE_RETRY_AFTER_SECONDS,
      'The service cannot reach its event store right now. Retry shortly, with the same Idempotency-Key for a change.',
    );
  }
  if (isStaticFileRefusal(error)) return ApiError.notFound('No such file.');
  if (!isFrameworkError(error) || error.statusCode >= 500) return ApiError.internal();
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return ApiError.invalidRequest('The request body is not valid JSON.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return ApiError.invalidRequest('The request body is empty; send a JSON document.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return ApiError.invalidRequest('Content-Type must be application/json.', {
        accepted_content_types: [...ACCEPTED_CONTENT_TYPES],
      });
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return ApiError.invalidRequest(`The request body exceeds the limit of ${BODY_LIMIT_BYTES} bytes.`, {
        limit_bytes: BODY_LIMIT_BYTES,
      });
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return ApiError.invalidRequest('The request body does not match its Content-Length.');
    case 'FST_ERR_BAD_URL':
      return ApiError.invalidRequest('The request path is not a valid URL.');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return ApiError.invalidRequest('A path parameter is too long.');
    case 'FST_ERR_NOT_FOUND':
      return ApiError.notFound();
    case 'FST_ERR_VALIDATION':
      return ApiError.invalidRequest('The request has invalid fields.', {
        fieldErrors: schemaFieldErrors(error),
      });
    default:
      return ApiError.invalidRequest(error.message);
  }
}

/** Routes declaring a JSON schema (zod is the norm here) report in the same fieldErrors shape. */
function schemaFieldErrors(error: FrameworkError): FieldErrors {
  const location: InputLocation =
    error.validationContext === 'querystring'
      ? 'query'
      : ((error.validationContext ?? 'body') as InputLocation);
  return mergeFieldErrors(
    ...(error.validation ?? []).map((item) => {
      const path = (item.instancePath ?? '').split('/').filter(Boolean);
      const missing = item.params?.missingProperty;
      if (typeof missing === 'string') path.push(missing);
      return { [path.length > 0 ? path.join('.') : location]: [item.message ?? 'Invalid value.'] };
    }),
  );
}

/** Request id and API version on a reply; hooks do it for routed requests, framework errors by hand. */
export function setStandardHeaders(reply: FastifyReply): void {
  reply.header(REQUEST_ID_HEADER, reply.request.id).header(API_VERSION_HEADER, API_VERSION);
}

export function sendError(reply: FastifyReply, error: ApiError): void {
  if (error.retryAfterSeconds !== undefined) reply.header('Retry-After', String(error.retryAfterSeconds));
  reply.code(error.status).send(errorEnvelope(reply.request.id, error));
}

/**
 * Only the unexpected (500) is an error with its stack. The rest is expected: the client's mistake, a
 * limit, a dependency away (503): one warn line with the code the client got and, where something
 * other than the API raised it, the cause's one-line description. The keys never reuse pino's own
 * (`err`, `msg`, `level`, `req`, `res`).
 */
function logError(request: FastifyRequest, thrown: unknown, reported: ApiError): void {
  const fields = { errorCode: reported.code, statusCode: reported.status };
  if (reported.code === 'internal_error') {
    // The full error stays in the log, found by the request id the client was given.
    request.log.error({ err: thrown, ...fields }, 'request failed');
  } else if (thrown instanceof ApiError || isFrameworkError(thrown)) {
    request.log.warn(fields, reported.message);
  } else {
    request.log.warn({ ...fields, cause: describeError(thrown) }, reported.message);
  }
}

export function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const reported = toApiError(error);
  logError(request, error, reported);
  if (reply.raw.headersSent) {
    // A response already under way cannot become an envelope; cut it so the client sees a failure.
    reply.raw.destroy();
    return;
  }
  sendError(reply, reported);
}

/** For `frameworkErrors`: bad URLs are answered before any hook runs, so headers are set here. */
export function handleFrameworkError(error: Error, request: FastifyRequest, reply: FastifyReply): void {
  setStandardHeaders(reply);
  handleError(error, request, reply);
}

/**
 * Unknown paths are 404 `not_found`; a known path with a method it does not serve is 405
 * `method_not_allowed` with `Allow`, so a client calling DELETE on a case is not told the case is
 * missing.
 */
export function registerNotFoundHandler(app: FastifyInstance): void {
  const methods = new Set<HTTPMethods>();
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) methods.add(method.toUpperCase() as HTTPMethods);
  });
  app.setNotFoundHandler((request, reply) => {
    // A route of this very method matched and found nothing (a static file that is not there).
    const matched = app.findRoute({ method: request.method as HTTPMethods, url: request.url }) !== null;
    const allowed = [...methods]
      .filter((method) => method !== request.method && app.findRoute({ method, url: request.url }) !== null)
      .sort();
    if (!matched && allowed.length > 0) {
      reply.header('Allow', allowed.join(', '));
      sendError(reply, ApiError.methodNotAllowed(request.method, allowed));
      return;
    }
    const path = request.url.split('?')[0] ?? request.url;
    sendError(reply, ApiError.notFound(`No route matches ${request.method} ${path}.`));
  });
}

/**
 * The documentation page's static files (@fastify/static, through `send`) refuse a path that climbs
 * out of their folder or names nothing with an http-errors 4xx (`expose: true`): to the client that is
 * an unknown path, 404, not a 500.
 */
function isStaticFileRefusal(error: unknown): boolean {
  const candidate = error as { statusCode?: unknown; expose?: unknown } | null;
  return (
    typeof candidate?.statusCode === 'number' &&
    candidate.statusCode >= 400 &&
    candidate.statusCode < 500 &&
    candidate.expose === true &&
    !isFrameworkError(error)
  );
}

/**
 * Requests node's HTTP parser rejects (malformed request line or headers, header overflow, request
 * timeout) never reach fastify; they still get the envelope and both headers before the connection
 * closes.
 */
export function clientErrorHandler(logger: Logger) {
  return (error: NodeJS.ErrnoException, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    logger.debug({ err: error }, 'client error');
    if (socket.writable) {
      const requestId = generateRequestId();
      const message =
        error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? 'The request was not received in time.'
          : error.code === 'HPE_HEADER_OVERFLOW'
            ? 'The request headers are too large.'
            : 'The request is not valid HTTP.';
      const body = JSON.stringify(errorEnvelope(requestId, ApiError.invalidRequest(message)));
      // The answer to a HEAD request has no content (RFC 9110, 9.3.2), only the headers a GET's would.
      const raw = (error as { rawPacket?: unknown }).rawPacket;
      const head = Buffer.isBuffer(raw) && raw.subarray(0, 5).toString('latin1') === 'HEAD ';
      socket.write(
        [
          'HTTP/1.1 400 Bad Request',
          'Connection: close',
          'Content-Type: application/json; charset=utf-8',
          `Content-Length: ${Buffer.byteLength(body)}`,
          `${REQUEST_ID_HEADER}: ${requestId}`,
          `${API_VERSION_HEADER}: ${API_VERSION}`,
          '',
          head ? '' : body,
        ].join('\r\n'),
      );
    }
    socket.destroy(error);
  };
}
