import type { Checkpoint, EventStore } from '../eventStore/eventStore.js';

export interface FeedLag {
  /** Events of the subscription's categories on the feed after its checkpoint. */
  events: number;
  /** True when there are more than `events` (counting stopped at the cap). */
  capped: boolean;
}

const PAGE = 1_000;

/**
 * Counts by paging the feed, since the port has no count; the cap bounds what a status call or a
 * progress line costs on a long feed.
 */
export async function countEventsAfter(
  store: Pick<EventStore, 'readFeed'>,
  after: Checkpoint | null,
  categories: string[] | undefined,
  cap = 10_000,
): Promise<FeedLag> {
  let counted = 0;
  let cursor = after;
  while (counted <= cap) {
    const limit = Math.min(PAGE, cap + 1 - counted);
    const page = await store.readFeed({ after: cursor, categories, limit });
    counted += page.length;
    if (page.length < limit) return { events: counted, capped: false };
    cursor = page.at(-1)!.position;
  }
  return { events: cap, capped: true };
}

export function formatLag(lag: FeedLag): string {
  return lag.capped ? `${lag.events}+` : String(lag.events);
}
