import { describe, expect, it } from 'vitest';
import type { Checkpoint, ReadFeedOptions, RecordedEvent } from './eventStore.js';
import { countFeedByPages } from './feedCount.js';

/** An in-memory feed of `count` events, alternating categories a and b. */
function feedOf(count: number) {
  const events = Array.from(
    { length: count },
    (_, n) => ({ position: `0:${n + 1}`, category: n % 2 === 0 ? 'a' : 'b' }) as RecordedEvent,
  );
  return {
    async readFeed({ after, categories, limit }: ReadFeedOptions) {
      const from = after === null ? 0 : Number(after.slice(2));
      return events
        .filter((event) => Number(event.position.slice(2)) > from)
        .filter((event) => !categories || categories.includes(event.category))
        .slice(0, limit);
    },
  };
}

describe('countFeedByPages', () => {
  it('counts the events of the categories after the checkpoint, across pages', async () => {
    const store = feedOf(5_000);
    const count = (after: string | null, categories?: string[]) =>
      countFeedByPages(store.readFeed, { after: after as Checkpoint | null, categories, maxEvents: 10_000 });
    expect(await count(null)).toEqual({ events: 5_000, capped: false });
    expect(await count('0:1000', ['a'])).toEqual({
      events: 2_000,
      capped: false,
    });
    expect(await count('0:5000')).toEqual({
      events: 0,
      capped: false,
    });
  });

  it('stops at the cap and says so', async () => {
    const store = feedOf(5_000);
    expect(await countFeedByPages(store.readFeed, { after: null, maxEvents: 1_500 })).toEqual({
      events: 1_500,
      capped: true,
    });
    const exactly = feedOf(1_500);
    expect(await countFeedByPages(exactly.readFeed, { after: null, maxEvents: 1_500 })).toEqual({
      events: 1_500,
      capped: false,
    });
  });
});
