import { describe, expect, it } from 'vitest';
import { maxAttempts, nextRetry } from './retrySchedule.js';

const DEFAULT_RETRY_DELAYS_MS = [5_000, 30_000, 120_000];

describe('retry schedule', () => {
  it('retries after 5 s, 30 s and 2 min, then gives up: four attempts', () => {
    const fixed = () => 0;
    expect(maxAttempts(DEFAULT_RETRY_DELAYS_MS)).toBe(4);
    expect([1, 2, 3, 4].map((attempt) => nextRetry(attempt, DEFAULT_RETRY_DELAYS_MS, fixed))).toEqual([
      { kind: 'retry', delayMs: 5_000 },
      { kind: 'retry', delayMs: 30_000 },
      { kind: 'retry', delayMs: 120_000 },
      { kind: 'give_up' },
    ]);
  });

  it('jitters each delay by up to a fifth', () => {
    expect(nextRetry(1, [5_000], () => 0.999)).toEqual({ kind: 'retry', delayMs: 5_999 });
    expect(nextRetry(1, [5_000], () => 0.5)).toEqual({ kind: 'retry', delayMs: 5_500 });
  });

  it('with no delays, the first failure is the last', () => {
    expect(maxAttempts([])).toBe(1);
    expect(nextRetry(1, [])).toEqual({ kind: 'give_up' });
  });
});
