/**
 * Keeps a lease alive while its holder works: renews it every third of its length, so a lease can
 * be short (a dead holder's work is taken over within one lease) without a live holder losing it.
 * `lost` aborts when a renewal finds the lease no longer the holder's (it ran out and was taken
 * over), or when renewals kept failing (the database is away) until the lease must have run out.
 *
 * A renewal that misses its turn (the event loop was busy) renews late; a lease that ran out but was
 * not taken over meanwhile is renewed as usual, since `renew` checks ownership, not time.
 */
export interface LeaseKeeper {
  readonly lost: AbortSignal;
  stop(): void;
}

export interface LeaseKeeperOptions {
  leaseMs: number;
  /** Extends the lease by `leaseMs`; false when it is no longer the holder's. */
  renew(): Promise<boolean>;
  /** A renewal failed (it will be tried again at the next turn). */
  onRenewalError?(error: unknown): void;
}

/** Renewal turns: a third of the lease leaves two more tries before it runs out. */
export function renewalIntervalMs(leaseMs: number): number {
  return Math.max(10, Math.floor(leaseMs / 3));
}

export function keepLease(options: LeaseKeeperOptions): LeaseKeeper {
  const { leaseMs, renew } = options;
  const lost = new AbortController();
  let expiresAt = performance.now() + leaseMs;
  let renewing = false;
  const timer = setInterval(() => {
    if (renewing || lost.signal.aborted) return;
    renewing = true;
    const askedAt = performance.now();
    renew()
      .then((held) => {
        if (held) expiresAt = askedAt + leaseMs;
        else lost.abort(new Error('the lease was taken over'));
      })
      .catch((error: unknown) => {
        options.onRenewalError?.(error);
        if (performance.now() > expiresAt)
          lost.abort(new Error('the lease expired before it could be renewed'));
      })
      .finally(() => {
        renewing = false;
      });
  }, renewalIntervalMs(leaseMs));
  timer.unref();
  return {
    lost: lost.signal,
    stop: () => clearInterval(timer),
  };
}
