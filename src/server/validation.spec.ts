import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from './errors.js';
import { parseOr400, parseOr422, parseRequest } from './validation.js';

function thrown(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

const body = z.object({ title: z.string().min(1).max(160), note: z.string().nullable().default(null) });
const params = z.object({ case_reference: z.string().regex(/^[A-Z]{3}[0-9]{6}$/) });
const query = z.object({ limit: z.coerce.number().int().min(1).max(100).default(25) });

describe('parseOr400', () => {
  it('returns the parsed value, defaults applied', () => {
    expect(parseOr400(body, { title: 'Report' }, 'body')).toEqual({ title: 'Report', note: null });
  });

  it('throws 400 invalid_request with fieldErrors', () => {
    const error = thrown(() => parseOr400(body, { title: '' }, 'body'));
    expect(error).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(error.details).toEqual({ fieldErrors: { title: [expect.any(String)] } });
  });

  it('names the location when the value itself is wrong', () => {
    const error = thrown(() => parseOr400(body, undefined, 'body'));
    expect(error.details).toEqual({ fieldErrors: { body: [expect.any(String)] } });
  });
});

describe('parseOr422', () => {
  it('throws 422 unprocessable_entity with fieldErrors', () => {
    const rule = z.object({ decision_notes: z.string().min(1, 'Decision notes are required for fail.') });
    const error = thrown(() => parseOr422(rule, { decision_notes: '' }, 'body'));
    expect(error).toMatchObject({ status: 422, code: 'unprocessable_entity' });
    expect(error.details).toEqual({
      fieldErrors: { decision_notes: ['Decision notes are required for fail.'] },
    });
  });
});

describe('parseRequest', () => {
  it('parses every part that has a schema', () => {
    const parsed = parseRequest(
      { params: { case_reference: 'ABC123456' }, query: { limit: '10' }, body: { title: 'x' } },
      { params, query, body },
    );
    expect(parsed).toEqual({
      params: { case_reference: 'ABC123456' },
      query: { limit: 10 },
      body: { title: 'x', note: null },
    });
  });

  it('leaves parts without a schema undefined', () => {
    expect(parseRequest({ params: {}, query: { limit: '3' }, body: 'ignored' }, { query })).toEqual({
      params: undefined,
      query: { limit: 3 },
      body: undefined,
    });
  });

  it('reports the problems of all parts in one error', () => {
    const error = thrown(() =>
      parseRequest(
        { params: { case_reference: 'abc' }, query: { limit: '0' }, body: { title: 7 } },
        { params, query, body },
      ),
    );
    expect(error).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(Object.keys((error.details as { fieldErrors: object }).fieldErrors).sort()).toEqual([
      'case_reference',
      'limit',
      'title',
    ]);
  });
});
