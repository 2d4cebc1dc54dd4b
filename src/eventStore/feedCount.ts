import type { CountFeedEventsOptions, EventStore, FeedCount } from './eventStore.js';

const PAGE = 1_000;

/**
 * Counts by paging `readFeed`, for a store whose pages cost what they return (PostgreSQL reads a
 * category's rows through its index): at most `maxEvents + 1` events are read.
 */
export async function countFeedByPages(
  readFeed: EventStore['readFeed'],
  { after, categories, maxEvents }: CountFeedEventsOptions,
): Promise<FeedCount> {
  let counted = 0;
  let cursor = after;
  while (counted <= maxEvents) {
    const limit = Math.min(PAGE, maxEvents + 1 - counted);
    const page = await readFeed({ after: cursor, categories, limit });
    counted += page.length;
    if (page.length < limit) return { events: counted, capped: false };
    cursor = page.at(-1)!.position;
  }
  return { events: maxEvents, capped: true };
}
