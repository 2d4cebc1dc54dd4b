import { describe, expect, it } from 'vitest';
import type { Checkpoint, ReadFeedOptions, RecordedEvent, SubscriptionItem } from './eventStore.js';
import { comparePositions } from './postgres/position.js';
import { type FeedEnd, subscribeFromFeed } from './subscribeFromFeed.js';

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

/**
 * A feed answering `pages` in turn (then nothing) and `looks` in turn (then a clear look at an empty
 * feed), logging each call, so a test sees which reads were looked at first.
 */
function scriptedFeed(pages: RecordedEvent[][], looks: FeedEnd[]) {
  const calls: string[] = [];
  const reads: ReadFeedOptions[] = [];
  return {
    calls,
    reads,
    store: {
      readFeed: async (options: ReadFeedOptions) => {
        calls.push('read');
        reads.push(options);
        return pages.shift() ?? [];
      },
      waitForEvents: async () => {
        calls.push('wait');
      },
      compareCheckpoints: comparePositions,
    },
    lookAtFeedEnd: async () => {
      calls.push('look');
      return looks.shift() ?? { heldBack: false, head: null };
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

describe('subscribeFromFeed', () => {
  it('marks caught up only after a read that a clear look at held-back events came before', async () => {
    const controller = new AbortController();
    // Empty while an event is held back; then the holder ends, and the event is read.
    const feed = scriptedFeed(
      [[], [event(at('1:1'))]],
      [
        { heldBack: true, head: null },
        { heldBack: false, head: at('1:1') },
      ],
    );
    const seen = await collect(
      subscribeFromFeed(feed.store, { after: null, signal: controller.signal }, 10, feed.lookAtFeedEnd),
      (item) => {
        if ('kind' in item) controller.abort();
      },
    );
    expect(seen).toEqual(['1:1', 'caughtUp@1:1/1:1']);
    expect(feed.calls).toEqual(['look', 'read', 'wait', 'look', 'read', 'wait']);
  });

  it('reports the head it looked at as passed, though the head is of another category', async () => {
    const controller = new AbortController();
    const feed = scriptedFeed([[event(at('1:1'))]], [{ heldBack: false, head: at('7:9') }]);
    const seen = await collect(
      subscribeFromFeed(
        feed.store,
        { after: null, categories: ['case'], signal: controller.signal },
        10,
        feed.lookAtFeedEnd,
      ),
      (item) => {
        if ('kind' in item) controller.abort();
      },
    );
    expect(seen).toEqual(['1:1', 'caughtUp@1:1/7:9']);
  });

  it('never reports a scanned position before its start', async () => {
    const controller = new AbortController();
    // A start beyond the visible head (e.g. a checkpoint of a feed that was restored from a backup).
    const feed = scriptedFeed([], [{ heldBack: false, head: at('3:3') }]);
    const seen = await collect(
      subscribeFromFeed(feed.store, { after: at('5:5'), signal: controller.signal }, 10, feed.lookAtFeedEnd),
      () => controller.abort(),
    );
    expect(seen).toEqual(['caughtUp@5:5/5:5']);
  });

  it('reads full pages without looking, and looks before the read that confirms a short one', async () => {
    const controller = new AbortController();
    const feed = scriptedFeed(
      [[event(at('1:1')), event(at('1:2'))], [event(at('1:3'))], []],
      [
        { heldBack: false, head: at('1:2') },
        { heldBack: false, head: at('1:3') },
      ],
    );
    const seen = await collect(
      subscribeFromFeed(
        feed.store,
        { after: null, signal: controller.signal, batchSize: 2 },
        10,
        feed.lookAtFeedEnd,
      ),
      (item) => {
        if ('kind' in item) controller.abort();
      },
    );
    expect(seen).toEqual(['1:1', '1:2', '1:3', 'caughtUp@1:3/1:3']);
    // The short page came after a full one, with no look before it: it is read again after one.
    expect(feed.calls).toEqual(['look', 'read', 'read', 'look', 'read', 'wait']);
    expect(feed.reads.map((read) => read.after)).toEqual([null, '1:2', '1:3']);
  });

  it('yields nothing more once the consumer stops on the last event, even right after a clear look', async () => {
    const controller = new AbortController();
    // The look is clear before the event is read: the short page would otherwise be followed by a
    // caughtUp the consumer no longer wants.
    const feed = scriptedFeed([[event(at('1:1'))]], [{ heldBack: false, head: at('1:1') }]);
    const seen = await collect(
      subscribeFromFeed(feed.store, { after: null, signal: controller.signal }, 10, feed.lookAtFeedEnd),
      () => controller.abort(),
    );
    expect(seen).toEqual(['1:1']);
  });
});
