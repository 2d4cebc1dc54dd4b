import type { Checkpoint } from '../eventStore/eventStore.js';

export class CheckpointTimeoutError extends Error {
  override readonly name = 'CheckpointTimeoutError';
}

export interface WaitForCheckpointOptions {
  /** Rejects with CheckpointTimeoutError after this long; 30 s when absent. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

type Listener = (passed: Checkpoint) => void;

/**
 * The furthest feed position a subscription is known to have passed (every event of its categories
 * up to there is handled and committed), and the callers waiting for it to pass theirs.
 */
export class CheckpointWatch {
  private passed: Checkpoint | null = null;
  private readonly listeners = new Set<Listener>();

  constructor(private readonly compare: (a: Checkpoint, b: Checkpoint) => number) {}

  get current(): Checkpoint | null {
    return this.passed;
  }

  hasPassed(position: Checkpoint): boolean {
    return this.passed !== null && this.compare(this.passed, position) >= 0;
  }

  /** Positions only move forward; an older one (a stale reload) is ignored. */
  advance(position: Checkpoint | null): void {
    if (position === null || (this.passed !== null && this.compare(position, this.passed) <= 0)) return;
    this.passed = position;
    for (const listener of this.listeners) listener(position);
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  waitFor(position: Checkpoint, options: WaitForCheckpointOptions = {}): Promise<void> {
    if (this.hasPassed(position)) return Promise.resolve();
    const { timeoutMs = 30_000, signal } = options;
    return new Promise((resolve, reject) => {
      const settle = (outcome: () => void) => {
        unsubscribe();
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        outcome();
      };
      const unsubscribe = this.subscribe(() => {
        if (this.hasPassed(position)) settle(resolve);
      });
      const timer = setTimeout(
        () =>
          settle(() =>
            reject(
              new CheckpointTimeoutError(`Subscription did not pass ${position} within ${timeoutMs} ms`),
            ),
          ),
        timeoutMs,
      );
      const onAbort = () => settle(() => reject(signal?.reason));
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
