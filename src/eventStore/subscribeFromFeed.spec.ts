import { describe, expect, it } from 'vitest';
import type { Checkpoint, ReadFeedOptions, RecordedEvent, SubscriptionItem } from './eventStore.js';
import { comparePositions } from './postgres/position.js';
import { type FeedPage, subscribeFromFeed } from './subscribeFromFeed.js';

const at = (position: string) => position as Checkpoint;

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

/** A feed answering `pages` in turn (then an empty, clear page), logging reads and waits. */
function scriptedFeed(pages: FeedPage[]) {
  const calls: string[] = [];
  const reads: ReadFeedOptions[] = [];
  return {
    calls,
    reads,
    store: {
      watch: () => ({
        wait: async () => {
          calls.push('wait');
        },
        cancel: () => {},
      }),
      compareCheckpoints: comparePositions,
    },
    readFeedPage: async (options: ReadFeedOptions): Promise<FeedPage> => {
      calls.push('read');
      reads.push(options);
      return pages.shift() ?? { events: [], heldBack: false, head: null };
    },
  };
}

async function collect(items: AsyncIterable<SubscriptionItem>, onItem: (item: SubscriptionItem) => void) {
  const seen: string[] = [];
  for await (const item of items) {
    seen.push('kind' in item ? `caughtUp@${item.checkpoint}/${item.scannedTo}` : item.position);
    onItem(item);
  }
  return seen;
}

const stopAtCaughtUp = (controller: AbortController) => (item: SubscriptionItem) => {
  if ('kind' in item) controller.abort();
};

describe('subscribeFromFeed', () => {
  it('marks caught up only after a short page read with nothing held back', async () => {
    const controller = new AbortController();
    // Empty while an event is held back; then the holder ends, and the event is read.
    const feed = scriptedFeed([
      { events: [], heldBack: true, head: null },
      { events: [event(at('1:1'))], heldBack: false, head: at('1:1') },
    ]);
    const seen = await collect(
      subscribeFromFeed(feed.store, { after: null, signal: controller.signal }, 10, feed.readFeedPage),
      stopAtCaughtUp(controller),
    );
    expect(seen).toEqual(['1:1', 'caughtUp@1:1/1:1']);
    // The wait after a held-back page, then the read that delivers and marks at once.
    expect(feed.calls).toEqual(['read', 'wait', 'read', 'wait']);
  });

  it('delivers the events of a page even while others are held back, and marks only once none are', async () => {
    const controller = new AbortController();
    const feed = scriptedFeed([
      { events: [event(at('1:1'))], heldBack: true, head: at('1:1') },
      { events: [event(at('3:1'))], heldBack: false, head: at('3:1') },
    ]);
    const seen = await collect(
      subscribeFromFeed(feed.store, { after: null, signal: controller.signal }, 10, feed.readFeedPage),
      stopAtCaughtUp(controller),
    );
    expect(seen).toEqual(['1:1', '3:1', 'caughtUp@3:1/3:1']);
    expect(feed.reads.map((read) => read.after)).toEqual([null, '1:1']);
  });

  it('reports the head it saw as passed, though the head is of another category', async () => {
    const controller = new AbortController();
    const feed = scriptedFeed([{ events: [event(at('1:1'))], heldBack: false, head: at('7:9') }]);
    const seen = await collect(
      subscribeFromFeed(
        feed.store,
        { after: null, categories: ['case'], signal: controller.signal },
        10,
        feed.readFeedPage,
      ),
      stopAtCaughtUp(controller),
    );
    expect(seen).toEqual(['1:1', 'caughtUp@1:1/7:9']);
  });

  it('never reports a scanned position before its start', async () => {
    const controller = new AbortController();
    // A start beyond the visible head (e.g. a checkpoint of a feed that was restored from a backup).
    const feed = scriptedFeed([{ events: [], heldBack: false, head: at('3:3') }]);
    const seen = await collect(
      subscribeFromFeed(feed.store, { after: at('5:5'), signal: controller.signal }, 10, feed.readFeedPage),
      stopAtCaughtUp(controller),
    );
    expect(seen).toEqual(['caughtUp@5:5/5:5']);
  });

  it('reads on after a full page without marking, whatever it saw held back', async () => {
    const controller = new AbortController();
    const feed = scriptedFeed([
      { events: [event(at('1:1')), event(at('1:2'))], heldBack: false, head: at('1:3') },
      { events: [event(at('1:3'))], heldBack: false, head: at('1:3') },
    ]);
    const seen = await collect(
      subscribeFromFeed(
        feed.store,
        { after: null, signal: controller.signal, batchSize: 2 },
        10,
        feed.readFeedPage,
      ),
      stopAtCaughtUp(controller),
    );
    expect(seen).toEqual(['1:1', '1:2', '1:3', 'caughtUp@1:3/1:3']);
    expect(feed.calls).toEqual(['read', 'read', 'wait']);
    expect(feed.reads.map((read) => [read.after, read.limit])).toEqual([
      [null, 2],
      ['1:2', 2],
    ]);
  });

  it('yields nothing more once the consumer stops on the last event of a clear page', async () => {
    const controller = new AbortController();
    // The page is clear: without the check, a caughtUp the consumer no longer wants would follow.
    const feed = scriptedFeed([{ events: [event(at('1:1'))], heldBack: false, head: at('1:1') }]);
    const seen = await collect(
      subscribeFromFeed(feed.store, { after: null, signal: controller.signal }, 10, feed.readFeedPage),
      () => controller.abort(),
    );
    expect(seen).toEqual(['1:1']);
  });
});
