import {
  type CaughtUp,
  isCaughtUp,
  type RecordedEvent,
  type SubscriptionItem,
} from '../eventStore/eventStore.js';

export interface FeedBatch {
  /** In feed order; empty only when the subscription caught up with nothing new to hand over. */
  events: RecordedEvent[];
  /** Set when the batch ends because the subscription caught up: everything it delivered is in. */
  caughtUp: CaughtUp | null;
}

/**
 * Groups a subscription's events into the runner's batches: a batch ends once it holds `batchSize`
 * events, or where the subscription catches up, so a quiet feed hands over what it has at once.
 * Pulls the subscription only as the consumer pulls batches: nothing is read ahead while a batch is
 * being handled.
 */
export async function* feedBatches(
  items: AsyncIterable<SubscriptionItem>,
  batchSize: number,
): AsyncGenerator<FeedBatch> {
  let events: RecordedEvent[] = [];
  for await (const item of items) {
    if (isCaughtUp(item)) {
      yield { events, caughtUp: item };
      events = [];
      continue;
    }
    events.push(item);
    if (events.length >= batchSize) {
      yield { events, caughtUp: null };
      events = [];
    }
  }
}
