import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  ApiError,
  apiErrorFromZod,
  type FieldErrors,
  type InputLocation,
  mergeFieldErrors,
  zodFieldErrors,
} from './errors.js';

/**
 * Parses a value with a zod schema, or throws 400 `invalid_request` with `details.fieldErrors`.
 * The error handler turns the throw into the envelope, so a handler just uses the result.
 */
export function parseOr400<S extends z.ZodType>(
  schema: S,
  value: unknown,
  location: InputLocation,
): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw apiErrorFromZod(result.error, { location });
  return result.data;
}

/** For a zod check of a business rule on well-formed input: 422 `unprocessable_entity`. */
export function parseOr422<S extends z.ZodType>(
  schema: S,
  value: unknown,
  location: InputLocation,
): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw apiErrorFromZod(result.error, { location, status: 422 });
  return result.data;
}

export interface RequestSchemas<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> {
  params?: P;
  query?: Q;
  body?: B;
}

export interface ParsedRequest<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> {
  params: z.output<P>;
  query: z.output<Q>;
  body: z.output<B>;
}

/**
 * Validates path parameters, query string and body of a request at once, so a client fixes every
 * problem in one round trip: all failures, and the `headerProblems` the caller found itself, are
 * merged into one 400 `fieldErrors`. A part without a schema comes back as `undefined`.
 */
export function parseRequest<
  P extends z.ZodType = z.ZodUndefined,
  Q extends z.ZodType = z.ZodUndefined,
  B extends z.ZodType = z.ZodUndefined,
>(
  request: Pick<FastifyRequest, 'params' | 'query' | 'body'>,
  schemas: RequestSchemas<P, Q, B>,
  headerProblems: FieldErrors = {},
): ParsedRequest<P, Q, B> {
  const reports: FieldErrors[] = Object.keys(headerProblems).length > 0 ? [headerProblems] : [];
  const parse = <S extends z.ZodType>(schema: S | undefined, value: unknown, location: InputLocation) => {
    if (!schema) return undefined;
    const result = schema.safeParse(value);
    if (result.success) return result.data as z.output<S>;
    reports.push(zodFieldErrors(result.error, location));
    return undefined;
  };
  const parsed = {
    params: parse(schemas.params, request.params, 'params'),
    query: parse(schemas.query, request.query, 'query'),
    body: parse(schemas.body, request.body, 'body'),
  };
  if (reports.length > 0) {
    throw ApiError.invalidRequest('The request has invalid fields.', {
      fieldErrors: mergeFieldErrors(...reports),
    });
  }
  return parsed as ParsedRequest<P, Q, B>;
}
