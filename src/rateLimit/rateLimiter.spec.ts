import { describe, expect, it } from 'vitest';
import { decide, rateLimitHeaders, secondsUntil, windowAt } from './rateLimiter.js';

describe('windowAt', () => {
  it('aligns 60-second windows to the epoch', () => {
    expect(windowAt(new Date('2030-01-01T00:00:59.999Z'))).toEqual({
      start: new Date('2030-01-01T00:00:00.000Z'),
      end: new Date('2030-01-01T00:01:00.000Z'),
    });
    expect(windowAt(new Date('2030-01-01T00:01:00.000Z')).start).toEqual(new Date('2030-01-01T00:01:00Z'));
  });

  it('aligns other window sizes to multiples of themselves', () => {
    const { start, end } = windowAt(new Date(125_000), 50_000);
    expect([start.getTime(), end.getTime()]).toEqual([100_000, 150_000]);
  });
});

describe('decide', () => {
  const now = new Date('2030-01-01T00:00:20.200Z');
  const resetAt = new Date('2030-01-01T00:01:00Z');

  it('allows up to the limit and counts down the remaining budget', () => {
    expect(decide(1, 120, resetAt, now)).toEqual({
      allowed: true,
      limit: 120,
      remaining: 119,
      resetAt,
      retryAfterSeconds: 0,
    });
    expect(decide(120, 120, resetAt, now)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('refuses past the limit with the seconds to the window end, rounded up', () => {
    expect(decide(121, 120, resetAt, now)).toEqual({
      allowed: false,
      limit: 120,
      remaining: 0,
      resetAt,
      retryAfterSeconds: 40,
    });
    expect(decide(500, 120, resetAt, new Date(resetAt.getTime() - 1)).retryAfterSeconds).toBe(1);
  });
});

describe('rateLimitHeaders', () => {
  const now = new Date('2030-01-01T00:00:30Z');
  const resetAt = new Date('2030-01-01T00:01:00Z');

  it('sends limit, remaining and seconds to reset on an allowed request, no Retry-After', () => {
    expect(rateLimitHeaders(decide(7, 120, resetAt, now), now)).toEqual({
      'RateLimit-Limit': '120',
      'RateLimit-Remaining': '113',
      'RateLimit-Reset': '30',
    });
  });

  it('adds Retry-After on a refused request', () => {
    expect(rateLimitHeaders(decide(121, 120, resetAt, now), now)).toEqual({
      'RateLimit-Limit': '120',
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': '30',
      'Retry-After': '30',
    });
  });

  it('never reports a negative reset', () => {
    expect(secondsUntil(resetAt, new Date(resetAt.getTime() + 5000))).toBe(0);
  });
});
