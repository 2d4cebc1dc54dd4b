import { describe, expect, it } from 'vitest';
import { STATUS_LIMITS, subscriptionVerdict } from './systemStatus.js';

const NOW = new Date('2026-11-27T12:00:00Z');
const healthy = {
  subscriptionId: 'projection:case_views:v1',
  runnerAlive: true,
  status: 'active' as const,
  lag: { events: 0, capped: false },
  lastProgressAt: new Date(NOW.getTime() - 3_600_000),
  parkedEventId: null,
};

describe('subscriptionVerdict', () => {
  it('is ok when up to date, however long ago it last moved (its events may be rare)', () => {
    expect(subscriptionVerdict(healthy, NOW)).toEqual({ ok: true, verdict: 'up to date' });
  });

  it('is ok while catching up, and stalled once a backlog has not moved for the limit', () => {
    const behind = { ...healthy, lag: { events: 10_000, capped: true } };
    const recent = new Date(NOW.getTime() - STATUS_LIMITS.stalledAfterMs + 1_000);
    expect(subscriptionVerdict({ ...behind, lastProgressAt: recent }, NOW)).toEqual({
      ok: true,
      verdict: 'catching up: 10000+ events behind',
    });
    const stalled = subscriptionVerdict(behind, NOW);
    expect(stalled.ok).toBe(false);
    expect(stalled.verdict).toBe('stalled: 10000+ events behind, no progress for 1h');
  });

  it('needs attention without a runner, and when parked (naming the event and the command)', () => {
    expect(subscriptionVerdict({ ...healthy, runnerAlive: false }, NOW).ok).toBe(false);
    const parked = subscriptionVerdict({ ...healthy, status: 'parked', parkedEventId: 'e-1' }, NOW);
    expect(parked.ok).toBe(false);
    expect(parked.verdict).toContain('e-1');
    expect(parked.verdict).toContain('casescreen subscriptions resume projection:case_views:v1');
  });
});
