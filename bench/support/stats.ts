import { setTimeout as sleep } from 'node:timers/promises';

export interface Distribution {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  min: number;
  max: number;
  mean: number;
}

/** Nearest-rank percentiles of a sample (milliseconds in, milliseconds out). */
export function distribution(samples: number[]): Distribution {
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
  const sum = sorted.reduce((total, value) => total + value, 0);
  return {
    count: sorted.length,
    p50: rank(0.5) ?? Number.NaN,
    p95: rank(0.95) ?? Number.NaN,
    p99: rank(0.99) ?? Number.NaN,
    min: sorted[0] ?? Number.NaN,
    max: sorted.at(-1) ?? Number.NaN,
    mean: sorted.length ? sum / sorted.length : Number.NaN,
  };
}

/** Milliseconds since an arbitrary origin, monotonic. */
export function now(): number {
  return performance.now();
}

/** Resolves once `done()` holds, or after `timeoutMs`; returns whether it held. */
export async function waitUntil(done: () => boolean, timeoutMs: number, intervalMs = 10): Promise<boolean> {
  const deadline = now() + timeoutMs;
  while (!done()) {
    if (now() > deadline) return false;
    await sleep(intervalMs);
  }
  return true;
}
