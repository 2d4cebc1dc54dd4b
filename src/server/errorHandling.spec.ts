import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AppendOutcomeUnknownError,
  AppendTooLargeError,
  EventStoreUnavailableError,
  StreamDeletedError,
  WrongExpectedVersionError,
} from '../eventStore/eventStore.js';
import { BODY_LIMIT_BYTES, toApiError } from './errorHandling.js';
import { ApiError } from './errors.js';
import { clientRequestId, generateRequestId } from './requestId.js';

function fastifyError(code: string, statusCode: number, message = 'fastify says'): Error {
  return Object.assign(new Error(message), { code, statusCode });
}

describe('toApiError', () => {
  it('passes ApiErrors through', () => {
    const error = ApiError.conflict('Busy.');
    expect(toApiError(error)).toBe(error);
  });

  it('maps request-level fastify errors to 400 invalid_request', () => {
    for (const code of [
      'FST_ERR_CTP_INVALID_JSON_BODY',
      'FST_ERR_CTP_EMPTY_JSON_BODY',
      'FST_ERR_CTP_INVALID_MEDIA_TYPE',
      'FST_ERR_CTP_BODY_TOO_LARGE',
      'FST_ERR_CTP_INVALID_CONTENT_LENGTH',
      'FST_ERR_BAD_URL',
      'FST_ERR_MAX_PARAM_LENGTH',
      'FST_ERR_SOMETHING_NEW',
    ]) {
      expect(toApiError(fastifyError(code, 400))).toMatchObject({ status: 400, code: 'invalid_request' });
    }
    expect(toApiError(fastifyError('FST_ERR_CTP_BODY_TOO_LARGE', 413)).details).toEqual({
      limit_bytes: BODY_LIMIT_BYTES,
    });
  });

  it('keeps fieldErrors for schema validation failures', () => {
    const error = Object.assign(fastifyError('FST_ERR_VALIDATION', 400), {
      validationContext: 'body',
      validation: [
        { instancePath: '/subject/name', message: 'must be string' },
        { instancePath: '', message: 'must have required property', params: { missingProperty: 'title' } },
      ],
    });
    expect(toApiError(error).details).toEqual({
      fieldErrors: { 'subject.name': ['must be string'], title: ['must have required property'] },
    });
  });

  it('turns everything else into a 500 that says nothing of the cause', () => {
    const schemaFailure = z.string().safeParse(1).error;
    for (const error of [
      new Error('password=secret at db.ts:12'),
      new TypeError('x is undefined'),
      schemaFailure,
      fastifyError('FST_ERR_ASYNC_CONSTRAINT', 500),
      Object.assign(new Error('not from fastify'), { statusCode: 404 }),
      'a string',
      undefined,
    ]) {
      const reported = toApiError(error);
      expect(reported).toMatchObject({ status: 500, code: 'internal_error', details: null });
      expect(reported.message).not.toMatch(/secret|undefined|fastify/);
    }
  });

  it('reports a database connection wait that ran out as 503 with Retry-After, a connection that could not be opened in time as well', () => {
    const reported = toApiError(new Error('timeout exceeded when trying to connect'));
    expect(reported).toMatchObject({
      status: 503,
      code: 'service_unavailable',
      retryAfterSeconds: 1,
      details: { retry_after_seconds: 1 },
    });
    // The pool opened a new connection and the server did not answer in time: the database is unwell.
    expect(toApiError(new Error('Connection terminated due to connection timeout'))).toMatchObject({
      status: 503,
      code: 'service_unavailable',
      retryAfterSeconds: 2,
    });
  });

  it('reports a database that cannot be reached or went away as 503, a statement it refused as 500', () => {
    const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
    for (const unavailable of [
      withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      withCode('terminating connection due to administrator command', '57P01'),
      withCode('the database system is starting up', '57P03'),
      withCode('connection failure', '08006'),
      new Error('Connection terminated unexpectedly'),
    ]) {
      expect(toApiError(unavailable), unavailable.message).toMatchObject({
        status: 503,
        code: 'service_unavailable',
        retryAfterSeconds: 2,
      });
    }
    expect(toApiError(withCode('relation "x" does not exist', '42P01'))).toMatchObject({ status: 500 });
  });

  it('reports a command that lost its append every time it retried as 503, never 500', () => {
    expect(toApiError(new WrongExpectedVersionError('case-ABC123456', 4n, 9n))).toMatchObject({
      status: 503,
      code: 'service_unavailable',
      retryAfterSeconds: 1,
    });
  });

  it('reports an append over the event store limit as 422 naming the limit, never 500', () => {
    const mapped = toApiError(new AppendTooLargeError('case-ABC123456', 2_000_000, 1_048_576));
    expect(mapped).toMatchObject({ status: 422, code: 'unprocessable_entity' });
    expect(mapped.message).toContain('1048576 bytes');
  });

  it('reports a stream an operator deleted on the event store as 409, never 500', () => {
    const mapped = toApiError(new StreamDeletedError('case-ABC123456'));
    expect(mapped).toMatchObject({ status: 409, code: 'conflict' });
    expect(mapped.message).toContain('deleted from the event store');
  });

  it('reports an event store that cannot answer, or an append with an unknown outcome, as 503 with Retry-After', () => {
    for (const error of [
      new EventStoreUnavailableError('EventStoreDB is not ready yet'),
      new AppendOutcomeUnknownError('case-ABC123456'),
    ]) {
      const mapped = toApiError(error);
      expect(mapped).toMatchObject({ status: 503, code: 'service_unavailable', retryAfterSeconds: 2 });
      expect(mapped.message).toContain('Idempotency-Key');
    }
  });

  it('reports a refused static file (an http-errors 4xx) as 404, a 5xx of the same kind as 500', () => {
    const refused = Object.assign(new Error('Forbidden'), { statusCode: 403, expose: true });
    expect(toApiError(refused)).toMatchObject({ status: 404, code: 'not_found' });
    const failed = Object.assign(new Error('EIO'), { statusCode: 500, expose: false });
    expect(toApiError(failed)).toMatchObject({ status: 500, code: 'internal_error' });
  });
});

describe('request ids', () => {
  it('are req_ and 32 hex digits, unique', () => {
    const id = generateRequestId();
    expect(id).toMatch(/^req_[0-9a-f]{32}$/);
    expect(generateRequestId()).not.toBe(id);
  });

  it('log only sane client ids', () => {
    const headers = (value: string | string[] | undefined) => ({ headers: { 'x-request-id': value } });
    expect(clientRequestId(headers('trace-123/abc'))).toBe('trace-123/abc');
    expect(clientRequestId(headers(undefined))).toBeUndefined();
    expect(clientRequestId(headers(''))).toBeUndefined();
    expect(clientRequestId(headers('has space'))).toBeUndefined();
    expect(clientRequestId(headers('a'.repeat(201)))).toBeUndefined();
    expect(clientRequestId(headers(['a', 'b']))).toBeUndefined();
  });
});
