/** The run's time: milliseconds since the run started (monotonic), and the wall-clock time for logs. */
export interface Clock {
  now(): number;
  /** `+123.4s 2026-01-02T03:04:05.678Z` for a log line. */
  stamp(at?: number): string;
}

export function runClock(): Clock {
  const origin = performance.now();
  const wallOrigin = Date.now();
  const now = () => performance.now() - origin;
  return {
    now,
    stamp(at = now()) {
      return `+${(at / 1000).toFixed(1).padStart(6)}s ${new Date(wallOrigin + at).toISOString()}`;
    },
  };
}

/** Seconds with one decimal, or '-' when absent. */
export function seconds(ms: number | undefined): string {
  return ms === undefined ? '-' : `${(ms / 1000).toFixed(1)} s`;
}
