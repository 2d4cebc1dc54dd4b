import { describe, expect, it } from 'vitest';
import type { Checkpoint, ReadFeedOptions, RecordedEvent, SubscriptionItem } from './eventStore.js';
import { subscribeFromFeed } from './subscribeFromFeed.js';

function event(position: Checkpoint): RecordedEvent {
  return {
    id: `id-${position}`,
    type: 'Seen',
    data: {},
    metadata: {},
    streamName: 'case-1',
    category: 'case',
    revision: 0n,
    position,
    recordedAt: new Date(0),
  };
}

/** A feed answering `pages` in turn (then nothing), with `heldBack` answering whether events wait. */
function scriptedFeed(pages: RecordedEvent[][], heldBack: boolean[]) {
  const reads: ReadFeedOptions[] = [];
  return {
    reads,
    store: {
      readFeed: async (options: ReadFeedOptions) => {
        reads.push(options);
        return pages.shift() ?? [];
      },
      waitForEvents: async () => {},
    },
    hasHeldBack: async () => heldBack.shift() ?? false,
  };
}

async function collect(items: AsyncIterable<SubscriptionItem>, onItem: (item: SubscriptionItem) => void) {
  const seen: string[] = [];
  for await (const item of items) {
    seen.push('kind' in item ? item.kind : item.position);
    onItem(item);
  }
  return seen;
}

describe('subscribeFromFeed', () => {
  it('marks caught up only after a look at held-back events found none since the last read', async () => {
    const controller = new AbortController();
    // Empty while an event is held back; then the holder ends, and the event is read.
    const feed = scriptedFeed([[], [], [event('1:1' as Checkpoint)]], [true, false, false]);
    const seen = await collect(
      subscribeFromFeed(feed.store, { after: null, signal: controller.signal }, 10, feed.hasHeldBack),
      (item) => {
        if ('kind' in item) controller.abort();
      },
    );
    expect(seen).toEqual(['1:1', 'caughtUp']);
  });

  it('yields nothing more once the consumer stops on the last event, even right after a clear look', async () => {
    const controller = new AbortController();
    // The look at held-back events is clear before the event is read: the next short page would
    // otherwise be followed by a caughtUp the consumer no longer wants.
    const feed = scriptedFeed([[], [event('1:1' as Checkpoint)]], [false]);
    const seen = await collect(
      subscribeFromFeed(feed.store, { after: null, signal: controller.signal }, 10, feed.hasHeldBack),
      () => controller.abort(),
    );
    expect(seen).toEqual(['1:1']);
  });
});
