import type pg from 'pg';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type PurgeTask, startPurgeScheduler } from './purgeScheduler.js';

/** A pool whose one client grants the purge lock and answers every statement at once. */
function lockGrantingPool(): pg.Pool {
  const client = { query: async () => ({ rows: [{ locked: true }] }), release() {} };
  return { connect: async () => client } as unknown as pg.Pool;
}

describe('purge scheduler timing', () => {
  // The scheduler's timers run on a clock the test moves: no test waits for, or races, an interval.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('purges at once, then an interval after each round, and never again once stopped', async () => {
    let rounds = 0;
    const counting: PurgeTask = { name: 'count', run: async () => ++rounds };
    const scheduler = startPurgeScheduler({
      pool: lockGrantingPool(),
      intervalMs: 60_000,
      tasks: [counting],
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(rounds).toBe(1);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(rounds).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(rounds).toBe(2);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(rounds).toBe(3);

    await scheduler.stop();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(rounds).toBe(3);
  });

  it('waits for a round in progress when stopped, and schedules none after it', async () => {
    let finish!: () => void;
    const blocking: PurgeTask = {
      name: 'blocking',
      run: () =>
        new Promise<number>((resolve) => {
          finish = () => resolve(0);
        }),
    };
    const scheduler = startPurgeScheduler({
      pool: lockGrantingPool(),
      intervalMs: 60_000,
      tasks: [blocking],
    });
    await vi.advanceTimersByTimeAsync(0);
    let stopped = false;
    const stopping = scheduler.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    finish();
    await stopping;
    expect(vi.getTimerCount()).toBe(0);
  });
});
