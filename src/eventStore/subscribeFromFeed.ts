import type {
  Checkpoint,
  EventStore,
  ReadFeedOptions,
  RecordedEvent,
  SubscribeOptions,
  SubscriptionItem,
} from './eventStore.js';

/** A page of the feed, with what the store saw at the feed's end when it read the page. */
export interface FeedPage {
  events: RecordedEvent[];
  /**
   * Committed events after the page's start that the feed does not show yet (PostgreSQL: behind an
   * older open transaction), so a short page does not mean caught up.
   */
  heldBack: boolean;
  /** The last event on the feed, of any category, or null when the feed is empty. */
  head: Checkpoint | null;
}

export type ReadFeedPage = (options: ReadFeedOptions) => Promise<FeedPage>;

/**
 * `subscribe` for a store that can read a page of its feed together with a look at its end, and
 * wait for wake-ups: deliver pages in order, mark each time the reader has delivered everything
 * committed so far, then wait (bounded by the poll interval). A short page with nothing held back
 * holds everything committed before it was read, and every event up to the head seen with it, which
 * the marker reports as `scannedTo`. So `caughtUp` never claims an event that committed but is held
 * back, and a caller holding a head position it read is released by the next marker.
 */
export async function* subscribeFromFeed(
  store: Pick<EventStore, 'waitForEvents' | 'compareCheckpoints'>,
  options: SubscribeOptions,
  pollIntervalMs: number,
  readFeedPage: ReadFeedPage,
): AsyncGenerator<SubscriptionItem> {
  const { signal, categories } = options;
  const limit = options.batchSize ?? 500;
  let after: Checkpoint | null = options.after;
  while (!signal.aborted) {
    const page = await readFeedPage({ after, categories, limit });
    for (const event of page.events) {
      if (signal.aborted) return;
      yield event;
      after = event.position;
    }
    if (page.events.length === limit) continue;
    if (page.heldBack) {
      await store.waitForEvents({ signal, timeoutMs: pollIntervalMs, categories, after });
      continue;
    }
    // The consumer may have stopped on the last event delivered: then nothing more is yielded.
    if (signal.aborted) return;
    yield { kind: 'caughtUp', checkpoint: after, scannedTo: furthest(store, after, page.head) };
    await store.waitForEvents({ signal, timeoutMs: pollIntervalMs, categories, after });
  }
}

function furthest(
  store: Pick<EventStore, 'compareCheckpoints'>,
  a: Checkpoint | null,
  b: Checkpoint | null,
): Checkpoint | null {
  if (a === null) return b;
  if (b === null) return a;
  return store.compareCheckpoints(a, b) >= 0 ? a : b;
}
