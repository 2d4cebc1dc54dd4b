/** Wakes idle workers; a ring between a worker's empty claim and its wait is not lost. */
export class IdleWorkerWakeups {
  private generation = 0;
  private readonly waiters = new Set<() => void>();

  get rung(): number {
    return this.generation;
  }

  ring(): void {
    this.generation++;
    for (const waiter of this.waiters) waiter();
    this.waiters.clear();
  }

  /** Until the next ring after `seen`, `ms`, or the signal. */
  wait(seen: number, ms: number, signal: AbortSignal): Promise<void> {
    if (this.generation !== seen || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      this.waiters.add(done);
    });
  }
}
