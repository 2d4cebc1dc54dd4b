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

/** Wake-ups of the feed, from a point in time on. */
export interface FeedWatch {
  compareCheckpoints: EventStore['compareCheckpoints'];
  /** Listens for wake-ups of `categories` (all when undefined) from now on. */
  watch(categories: string[] | undefined): {
    /** Resolves at the first wake-up since `watch` (at once if one came already), after `ms`, or on abort. */
    wait(ms: number, signal: AbortSignal): Promise<void>;
    cancel(): void;
  };
}

/** How soon a reader looks again while committed events wait behind an older open transaction. */
export const HELD_BACK_RECHECK_MS = 25;

/**
 * `subscribe` for a store that can read a page of its feed together with a look at its end, and
 * wake readers: deliver pages in order, mark each time the reader has delivered everything committed
 * so far, then wait (bounded by the poll interval). A short page with nothing held back holds
 * everything committed before it was read, and every event up to the head seen with it, which the
 * marker reports as `scannedTo`. So `caughtUp` never claims an event that committed but is held back,
 * and a caller holding a head position it read is released by the next marker.
 *
 * The watch starts before each page is read, so a wake-up for an event committed after the read
 * cannot be missed and the page's end needs no second look before the wait: two statements fewer
 * each time a subscription goes idle. Committed events held back by an older open transaction get no
 * wake-up when that transaction ends without appending: those are looked for again soon instead.
 */
export async function* subscribeFromFeed(
  feed: FeedWatch,
  options: SubscribeOptions,
  pollIntervalMs: number,
  readFeedPage: ReadFeedPage,
): AsyncGenerator<SubscriptionItem> {
  const { signal, categories } = options;
  const limit = options.batchSize ?? 500;
  let after: Checkpoint | null = options.after;
  while (!signal.aborted) {
    const watch = feed.watch(categories);
    try {
      const page = await readFeedPage({ after, categories, limit });
      for (const event of page.events) {
        if (signal.aborted) return;
        yield event;
        after = event.position;
      }
      if (page.events.length === limit) continue;
      if (page.heldBack) {
        await watch.wait(Math.min(pollIntervalMs, HELD_BACK_RECHECK_MS), signal);
        continue;
      }
      // The consumer may have stopped on the last event delivered: then nothing more is yielded.
      if (signal.aborted) return;
      yield { kind: 'caughtUp', checkpoint: after, scannedTo: furthest(feed, after, page.head) };
      await watch.wait(pollIntervalMs, signal);
    } finally {
      watch.cancel();
    }
  }
}

function furthest(
  store: Pick<FeedWatch, 'compareCheckpoints'>,
  a: Checkpoint | null,
  b: Checkpoint | null,
): Checkpoint | null {
  if (a === null) return b;
  if (b === null) return a;
  return store.compareCheckpoints(a, b) >= 0 ? a : b;
}
