import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { keepLease, renewalIntervalMs } from './leaseKeeper.js';

describe('keepLease', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('renews every third of the lease while it is held', async () => {
    const renew = vi.fn(async () => true);
    const lease = keepLease({ leaseMs: 3_000, renew });
    await vi.advanceTimersByTimeAsync(999);
    expect(renew).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(renew).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(renew).toHaveBeenCalledTimes(31);
    expect(lease.lost.aborted).toBe(false);
    lease.stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(renew).toHaveBeenCalledTimes(31);
  });

  it('is lost as soon as a renewal finds the lease taken over', async () => {
    const renew = vi.fn(async () => renew.mock.calls.length < 2);
    const lease = keepLease({ leaseMs: 3_000, renew });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(lease.lost.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(lease.lost.aborted).toBe(true);
    expect(String(lease.lost.reason)).toContain('taken over');
    lease.stop();
  });

  it('survives failed renewals while the lease lasts, and is lost once it must have run out', async () => {
    const errors: unknown[] = [];
    let failing = true;
    const renew = vi.fn(async () => {
      if (failing) throw new Error('connection refused');
      return true;
    });
    const lease = keepLease({ leaseMs: 3_000, renew, onRenewalError: (error) => errors.push(error) });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(errors).toHaveLength(2);
    expect(lease.lost.aborted).toBe(false);
    // One success renews it from when it was asked.
    failing = false;
    await vi.advanceTimersByTimeAsync(1_000);
    failing = true;
    await vi.advanceTimersByTimeAsync(2_000);
    expect(lease.lost.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(lease.lost.aborted).toBe(true);
    expect(String(lease.lost.reason)).toContain('expired');
    lease.stop();
  });

  it('never asks again while a renewal is still unanswered', async () => {
    let answer: ((held: boolean) => void) | undefined;
    const renew = vi.fn(
      () =>
        new Promise<boolean>((resolve) => {
          answer = resolve;
        }),
    );
    const lease = keepLease({ leaseMs: 300, renew });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(renew).toHaveBeenCalledTimes(1);
    answer!(true);
    await vi.advanceTimersByTimeAsync(100);
    expect(renew).toHaveBeenCalledTimes(2);
    lease.stop();
  });

  it('renews at least every 10 ms, whatever the lease', () => {
    expect(renewalIntervalMs(9_000)).toBe(3_000);
    expect(renewalIntervalMs(6)).toBe(10);
  });
});
