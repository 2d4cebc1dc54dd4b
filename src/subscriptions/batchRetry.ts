import type { Checkpoint, RecordedEvent } from '../eventStore/eventStore.js';
import { backoffDelay, type RetryPolicy } from './failurePolicy.js';

export type FailureStep =
  | { kind: 'retry'; attempt: number; delayMs: number }
  /** Give up on the batch as a whole; handle its events one by one to find the poison. */
  | { kind: 'isolate'; attempt: number }
  | { kind: 'park'; attempt: number; event: RecordedEvent };

/**
 * What the runner does after a handler failure, without I/O: retry the batch with backoff, then
 * retry its events one at a time so the good ones before the poison event still commit, then park
 * on the single event that keeps failing.
 */
export class BatchRetry {
  private handlerAttempts = 0;
  private transientAttempts = 0;
  /** While set, batches hold one event, until the runner has passed the failed batch's end. */
  private isolateUntil: Checkpoint | null = null;

  constructor(
    private readonly policy: RetryPolicy,
    private readonly compare: (a: Checkpoint, b: Checkpoint) => number,
    private readonly random: () => number = Math.random,
  ) {}

  /** How many of the events at hand go into the next transaction. */
  batchLimit(batchSize: number): number {
    return this.isolateUntil === null ? batchSize : 1;
  }

  committed(last: Checkpoint): void {
    this.handlerAttempts = 0;
    this.transientAttempts = 0;
    if (this.isolateUntil !== null && this.compare(last, this.isolateUntil) >= 0) this.isolateUntil = null;
  }

  handlerFailed(batch: readonly RecordedEvent[]): FailureStep {
    const attempt = ++this.handlerAttempts;
    if (attempt < this.policy.maxAttempts) {
      return { kind: 'retry', attempt, delayMs: backoffDelay(attempt, this.policy, this.random) };
    }
    const last = batch.at(-1);
    if (batch.length > 1 && last) {
      this.isolateUntil = last.position;
      this.handlerAttempts = 0;
      return { kind: 'isolate', attempt };
    }
    return { kind: 'park', attempt, event: batch[0]! };
  }

  /** Delay before retrying after a failure of the database or the network. */
  transientFailed(): number {
    return backoffDelay(++this.transientAttempts, this.policy, this.random);
  }

  /** Someone else moved the checkpoint, or an operator resumed the subscription: start afresh. */
  reset(): void {
    this.handlerAttempts = 0;
    this.transientAttempts = 0;
    this.isolateUntil = null;
  }
}
