import { describe, expect, it } from 'vitest';
import type { Checkpoint, ReadFeedOptions, RecordedEvent } from '../eventStore/eventStore.js';
import { countEventsAfter, formatLag } from './feedLag.js';

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

describe('countEventsAfter', () => {
  it('counts the events of the categories after the checkpoint, across pages', async () => {
    const store = feedOf(5_000);
    expect(await countEventsAfter(store, null, undefined)).toEqual({ events: 5_000, capped: false });
    expect(await countEventsAfter(store, '0:1000' as Checkpoint, ['a'])).toEqual({
      events: 2_000,
      capped: false,
    });
    expect(await countEventsAfter(store, '0:5000' as Checkpoint, undefined)).toEqual({
      events: 0,
      capped: false,
    });
  });

  it('stops at the cap and says so', async () => {
    const lag = await countEventsAfter(feedOf(5_000), null, undefined, 1_500);
    expect(lag).toEqual({ events: 1_500, capped: true });
    expect(formatLag(lag)).toBe('1500+');
    expect(await countEventsAfter(feedOf(1_500), null, undefined, 1_500)).toEqual({
      events: 1_500,
      capped: false,
    });
  });
});
