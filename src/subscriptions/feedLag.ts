import type { Checkpoint, EventStore, FeedCount } from '../eventStore/eventStore.js';

/** Events of a subscription's categories after its checkpoint; `capped`: at least that many. */
export type FeedLag = FeedCount;

/**
 * The lag of a subscription, for status calls and progress lines: the store counts it at a bounded
 * cost (see `EventStore.countFeedEvents`), so it stops at `cap` events.
 */
export function countEventsAfter(
  store: Pick<EventStore, 'countFeedEvents'>,
  after: Checkpoint | null,
  categories: string[] | undefined,
  cap = 10_000,
): Promise<FeedLag> {
  return store.countFeedEvents({ after, categories, maxEvents: cap });
}

export function formatLag(lag: FeedLag): string {
  return lag.capped ? `${lag.events}+` : String(lag.events);
}
