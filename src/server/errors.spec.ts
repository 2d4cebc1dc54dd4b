import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { API_ERROR_STATUS, ApiError, apiErrorFromZod, mergeFieldErrors, zodFieldErrors } from './errors.js';

describe('ApiError', () => {
  it('has a constructor for every code of the spec, with the spec status', () => {
    const cases: [ApiError, string, number][] = [
      [ApiError.unauthorized(), 'unauthorized', 401],
      [ApiError.forbidden(), 'forbidden', 403],
      [ApiError.invalidRequest(), 'invalid_request', 400],
      [ApiError.idempotencyConflict(), 'idempotency_conflict', 409],
      [ApiError.conflict(), 'conflict', 409],
      [ApiError.notFound(), 'not_found', 404],
      [ApiError.unprocessableEntity(), 'unprocessable_entity', 422],
      [ApiError.rateLimited(), 'rate_limited', 429],
      [ApiError.sourceUnavailable(), 'source_unavailable', 503],
      [ApiError.serviceUnavailable(1), 'service_unavailable', 503],
      [ApiError.internal(), 'internal_error', 500],
      [ApiError.methodNotAllowed('DELETE', ['GET']), 'method_not_allowed', 405],
    ];
    for (const [error, code, status] of cases) {
      expect(error).toBeInstanceOf(Error);
      expect({ code: error.code, status: error.status }).toEqual({ code, status });
      expect(error.message).not.toBe('');
    }
    expect(cases.map(([error]) => error.code).sort()).toEqual(Object.keys(API_ERROR_STATUS).sort());
  });

  it('keeps a custom message and details; details default to null', () => {
    const error = ApiError.notFound('Case not found.', { case_reference: 'ABC123456' });
    expect(error).toMatchObject({ message: 'Case not found.', details: { case_reference: 'ABC123456' } });
    expect(ApiError.conflict().details).toBeNull();
  });
});

describe('zod errors', () => {
  const schema = z.strictObject({
    subject: z.object({ name: z.string().max(3), countries: z.array(z.string().length(2)) }),
    notes: z.string().nullable(),
  });
  const failure = (value: unknown) => {
    const result = schema.safeParse(value);
    if (result.success) throw new Error('expected a failure');
    return result.error;
  };

  it('keys messages by the full dotted path, arrays of messages', () => {
    const fieldErrors = zodFieldErrors(
      failure({ subject: { name: 'abcd', countries: ['US', 'USA'] } }),
      'body',
    );
    expect(Object.keys(fieldErrors).sort()).toEqual(['notes', 'subject.countries.1', 'subject.name']);
    for (const messages of Object.values(fieldErrors)) {
      expect(messages.length).toBeGreaterThan(0);
      for (const message of messages) expect(typeof message).toBe('string');
    }
  });

  it('keys a problem with the whole value by its location', () => {
    expect(Object.keys(zodFieldErrors(failure('text'), 'body'))).toEqual(['body']);
    expect(Object.keys(zodFieldErrors(failure(null), 'query'))).toEqual(['query']);
  });

  it('reports each unknown key of a strict object under its own name', () => {
    const fieldErrors = zodFieldErrors(
      failure({ subject: { name: 'a', countries: [] }, notes: null, extra: 1, other: 2 }),
      'body',
    );
    expect(fieldErrors).toEqual({ extra: ['Unrecognized field.'], other: ['Unrecognized field.'] });
  });

  it('reports unknown keys named like members of every object as fields, like any other', () => {
    const fieldErrors = zodFieldErrors(
      failure({ subject: { name: 'a', countries: [] }, notes: null, constructor: 1, toString: 2 }),
      'body',
    );
    expect(fieldErrors).toEqual({ constructor: ['Unrecognized field.'], toString: ['Unrecognized field.'] });
    expect(mergeFieldErrors({ constructor: ['a'] }, { constructor: ['b'] })).toEqual({
      constructor: ['a', 'b'],
    });
  });

  it('maps to 400 invalid_request, or 422 when asked', () => {
    const error = failure({});
    const invalid = apiErrorFromZod(error);
    expect(invalid).toMatchObject({ code: 'invalid_request', status: 400 });
    expect(invalid.details).toEqual({ fieldErrors: zodFieldErrors(error, 'body') });
    expect(apiErrorFromZod(error, { status: 422 })).toMatchObject({
      code: 'unprocessable_entity',
      status: 422,
    });
  });

  it('merges reports of several locations', () => {
    expect(mergeFieldErrors({ a: ['x'] }, { a: ['y'], b: ['z'] })).toEqual({ a: ['x', 'y'], b: ['z'] });
  });
});
