import type { z } from 'zod';

/**
 * The error codes of the spec's Errors table, plus `method_not_allowed`, which the HTTP layer uses
 * for a known path called with a method it does not serve (docs/api-conventions.md explains why),
 * and `service_unavailable`, the answer past capacity (docs/api-platform.md, "Overload").
 */
export const API_ERROR_STATUS = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  idempotency_conflict: 409,
  conflict: 409,
  unprocessable_entity: 422,
  rate_limited: 429,
  internal_error: 500,
  source_unavailable: 503,
  service_unavailable: 503,
} as const;

export type ApiErrorCode = keyof typeof API_ERROR_STATUS;

export const API_ERROR_CODES = Object.keys(API_ERROR_STATUS) as [ApiErrorCode, ...ApiErrorCode[]];

/** When each code is answered: the Condition column of the spec's Errors table, for the OpenAPI document. */
export const API_ERROR_CONDITIONS: Record<ApiErrorCode, string> = {
  invalid_request:
    'malformed JSON body, query string or path parameter, or a missing required header such as Idempotency-Key; validation failures carry `details.fieldErrors`',
  unauthorized: 'bearer key missing, invalid, revoked or expired',
  forbidden: 'the key lacks the required scope, actor permission, group access or final-decision permission',
  not_found: 'the referenced case, check, match or group is missing or outside the key scope',
  method_not_allowed:
    'a known path called with a method it does not serve; the `Allow` header lists those it does',
  idempotency_conflict: 'the Idempotency-Key was used before with a different method, path or body',
  conflict:
    'a duplicate or in-progress mutation conflicts with this one, or the object is not in a state that allows it',
  unprocessable_entity:
    'valid JSON violating a business rule: owner or collaborator membership, required decision notes, review prerequisites',
  rate_limited: 'the key exceeded the request limit; see `Retry-After`',
  internal_error: 'internal failure; mutations may be retried safely with the same Idempotency-Key',
  source_unavailable:
    'the current source snapshot is missing or stale; checks are refused so that false no-match results cannot occur',
  service_unavailable:
    'the service is at capacity: too many requests in flight (nothing was done), or no database connection free in time (part of a mutation may have run); retry after `Retry-After` seconds with the same Idempotency-Key',
};

/** `details.fieldErrors` of a validation failure: dotted field path to its messages. */
export type FieldErrors = Record<string, string[]>;

/** Where a validated value came from; names the `fieldErrors` key of a problem with the whole value. */
export type InputLocation = 'params' | 'query' | 'body' | 'headers';

/**
 * An error the API reports as is: its code, status and message reach the client in the error
 * envelope. Anything else thrown in a handler becomes a generic 500 `internal_error`, so only
 * messages written for clients are ever shown to them.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;

  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly details: unknown = null,
    /** Sent as `Retry-After` (seconds) with the error, when set. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.status = API_ERROR_STATUS[code];
  }

  static invalidRequest(message = 'The request is invalid.', details?: unknown): ApiError {
    return new ApiError('invalid_request', message, details);
  }

  static unauthorized(message = 'A valid API key is required.', details?: unknown): ApiError {
    return new ApiError('unauthorized', message, details);
  }

  static forbidden(message = 'The API key may not perform this operation.', details?: unknown): ApiError {
    return new ApiError('forbidden', message, details);
  }

  static notFound(message = 'The requested resource was not found.', details?: unknown): ApiError {
    return new ApiError('not_found', message, details);
  }

  static methodNotAllowed(method: string, allowed: readonly string[]): ApiError {
    return new ApiError('method_not_allowed', `Method ${method} is not allowed on this path.`, {
      allowed_methods: [...allowed],
    });
  }

  static idempotencyConflict(
    message = 'The Idempotency-Key was already used with a different method, path or body.',
    details?: unknown,
  ): ApiError {
    return new ApiError('idempotency_conflict', message, details);
  }

  static conflict(message = 'The request conflicts with the current state.', details?: unknown): ApiError {
    return new ApiError('conflict', message, details);
  }

  static unprocessableEntity(message = 'The request violates a business rule.', details?: unknown): ApiError {
    return new ApiError('unprocessable_entity', message, details);
  }

  static rateLimited(message = 'Too many requests for this API key.', details?: unknown): ApiError {
    return new ApiError('rate_limited', message, details);
  }

  static sourceUnavailable(
    message = 'The screening source data is missing or stale; checks are refused.',
    details?: unknown,
  ): ApiError {
    return new ApiError('source_unavailable', message, details);
  }

  /** Past capacity: refused before any work, or given up waiting for a database connection. */
  static serviceUnavailable(
    retryAfterSeconds: number,
    message = 'The service is at capacity; retry shortly.',
  ): ApiError {
    return new ApiError(
      'service_unavailable',
      message,
      { retry_after_seconds: retryAfterSeconds },
      retryAfterSeconds,
    );
  }

  /** The only 500 a client sees: never carries the underlying error's message or stack. */
  static internal(): ApiError {
    return new ApiError('internal_error', 'An internal error occurred. Please retry later.');
  }
}

export interface ZodErrorOptions {
  /** Names the key for problems with the whole value (such as a body that is not an object). */
  location?: InputLocation;
  /**
   * 400 `invalid_request` by default: the input is malformed. 422 `unprocessable_entity` when the
   * caller validates a business rule with zod on input that was already well formed.
   */
  status?: 400 | 422;
}

/** Maps a zod failure to the spec's validation error: `details.fieldErrors`, field → messages. */
export function apiErrorFromZod(error: z.ZodError, options: ZodErrorOptions = {}): ApiError {
  const fieldErrors = zodFieldErrors(error, options.location ?? 'body');
  return options.status === 422
    ? ApiError.unprocessableEntity('The request violates a business rule.', { fieldErrors })
    : ApiError.invalidRequest('The request has invalid fields.', { fieldErrors });
}

/**
 * zod's `flattenError` keys issues by the first path segment only (`subject`, not `subject.name`)
 * and `toDotPath` writes array indexes as `[0]`; clients get the full path joined with dots
 * (`subject.countries.0`), so the grouping is done here.
 * - An issue on the value itself is keyed by its location (`body`, `query`, ...), so `fieldErrors`
 *   stays the single place a client reads.
 * - Unknown keys of a strict object are reported under each key, not once for the object.
 */
export function zodFieldErrors(error: z.ZodError, location: InputLocation): FieldErrors {
  const fieldErrors: FieldErrors = {};
  const add = (path: readonly PropertyKey[], message: string) => {
    const key = path.length === 0 ? location : path.map(String).join('.');
    // Own keys only: a field named "constructor" must not find Object's.
    const messages = Object.hasOwn(fieldErrors, key) ? fieldErrors[key]! : [];
    if (!messages.includes(message)) messages.push(message);
    fieldErrors[key] = messages;
  };
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add([...issue.path, key], 'Unrecognized field.');
    } else {
      add(issue.path, issue.message);
    }
  }
  return fieldErrors;
}

/** Joins field errors of several locations (params, query, body) into one report. */
export function mergeFieldErrors(...reports: FieldErrors[]): FieldErrors {
  const merged: FieldErrors = {};
  for (const report of reports) {
    for (const [key, messages] of Object.entries(report)) {
      merged[key] = [...(Object.hasOwn(merged, key) ? merged[key]! : []), ...messages];
    }
  }
  return merged;
}
