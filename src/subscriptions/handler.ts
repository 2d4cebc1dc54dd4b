import type pg from 'pg';
import type { RecordedEvent } from '../eventStore/eventStore.js';

/**
 * What a projection or reactor gives the subscription runner. `handle` runs inside the transaction
 * that also moves the subscription's checkpoint: write through `tx` only, never through the pool,
 * or the write escapes the exactly-once guarantee.
 */
export interface SubscriptionHandler {
  readonly subscriptionId: string;
  /** Stream categories to receive; every event when absent. */
  readonly categories?: string[];
  handle(events: RecordedEvent[], tx: pg.PoolClient): Promise<void>;
}

/**
 * Thrown by a handler that must no longer write, e.g. a projection version that a rebuild replaced.
 * The runner rolls the batch back and ends instead of retrying.
 */
export class SubscriptionRetiredError extends Error {
  override readonly name = 'SubscriptionRetiredError';
}
