import { describe, expect, it } from 'vitest';
import { backoffDelay, describeError, failureLogFields, isTransientDatabaseError } from './failurePolicy.js';

const policy = { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 1_000 };
const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('backoffDelay', () => {
  it('doubles per attempt up to the ceiling', () => {
    expect([1, 2, 3, 4, 5, 6].map((attempt) => backoffDelay(attempt, policy, () => 1))).toEqual([
      100, 200, 400, 800, 1_000, 1_000,
    ]);
  });

  it('jitters within the upper half of the delay', () => {
    expect(backoffDelay(3, policy, () => 0)).toBe(200);
    expect(backoffDelay(3, policy, () => 0.5)).toBe(300);
    expect(backoffDelay(3, policy, () => 1)).toBe(400);
  });

  it('stays finite for absurd attempt counts', () => {
    expect(backoffDelay(5_000, policy, () => 1)).toBe(1_000);
  });
});

describe('isTransientDatabaseError', () => {
  it.each([
    ['connection failure', withCode('08006')],
    ['admin shutdown', withCode('57P01')],
    ['too many connections', withCode('53300')],
    ['serialization failure', withCode('40001')],
    ['deadlock', withCode('40P01')],
    ['socket reset', withCode('ECONNRESET')],
    ['lost connection', new Error('Connection terminated unexpectedly')],
  ])('treats a %s as transient', (_, error) => {
    expect(isTransientDatabaseError(error)).toBe(true);
  });

  it.each([
    ['unique violation', withCode('23505')],
    ['undefined column', withCode('42703')],
    ['bug in the handler', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['non-error', 'boom'],
  ])('treats a %s as the event’s problem', (_, error) => {
    expect(isTransientDatabaseError(error)).toBe(false);
  });
});

describe('describeError', () => {
  it('keeps the error name and bounds the length', () => {
    expect(describeError(new TypeError('bad'))).toBe('TypeError: bad');
    expect(describeError(new Error('x'.repeat(5_000))).length).toBeLessThanOrEqual(2_001);
  });
});

describe('failureLogFields', () => {
  it('logs a database away for a moment as one warn line, anything else as an error with its stack', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(failureLogFields(refused)).toEqual({
      level: 'warn',
      fields: { error: 'Error: connect ECONNREFUSED 127.0.0.1:5432' },
    });
    const bug = new TypeError("Cannot read properties of undefined (reading 'id')");
    expect(failureLogFields(bug)).toEqual({ level: 'error', fields: { err: bug } });
  });
});
