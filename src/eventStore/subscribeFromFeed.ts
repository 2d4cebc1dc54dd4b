import type { Checkpoint, EventStore, SubscribeOptions, SubscriptionItem } from './eventStore.js';

/** What a store sees at the end of its feed, in one look taken before a read. */
export interface FeedEnd {
  /**
   * Committed events after the reader's position that the feed does not show yet (PostgreSQL: behind
   * an older open transaction), so an empty read does not mean caught up.
   */
  heldBack: boolean;
  /** The last event on the feed, of any category, or null when the feed is empty. */
  head: Checkpoint | null;
}

export type LookAtFeedEnd = (after: Checkpoint | null, categories?: string[]) => Promise<FeedEnd>;

/**
 * `subscribe` for a store that can page its feed, wait for wake-ups and look at its feed's end:
 * deliver pages in order, mark each time the reader has delivered everything committed so far, then
 * wait (bounded by the poll interval). The look comes before the read that may end in `caughtUp`: a
 * short read after a clear look has seen everything committed before the look, and every event up to
 * the head it saw, which the marker reports as `scannedTo`. So `caughtUp` never claims an event that
 * committed but is held back, and a caller holding a head position is released by the next marker.
 */
export async function* subscribeFromFeed(
  store: Pick<EventStore, 'readFeed' | 'waitForEvents' | 'compareCheckpoints'>,
  options: SubscribeOptions,
  pollIntervalMs: number,
  lookAtFeedEnd: LookAtFeedEnd,
): AsyncGenerator<SubscriptionItem> {
  const { signal, categories } = options;
  const limit = options.batchSize ?? 500;
  let after: Checkpoint | null = options.after;
  // Whether the next read may reach the end of the feed, so it needs a look first. Only a full page
  // says more is waiting; a read after one that ends short is looked at and read again.
  let nearEnd = true;
  while (!signal.aborted) {
    const end = nearEnd ? await lookAtFeedEnd(after, categories) : undefined;
    const page = await store.readFeed({ after, categories, limit });
    for (const event of page) {
      if (signal.aborted) return;
      yield event;
      after = event.position;
    }
    if (page.length === limit) {
      nearEnd = false;
      continue;
    }
    if (!end) {
      nearEnd = true;
      continue;
    }
    if (end.heldBack) {
      await store.waitForEvents({ signal, timeoutMs: pollIntervalMs, categories, after });
      continue;
    }
    // The consumer may have stopped on the last event delivered: then nothing more is yielded.
    if (signal.aborted) return;
    yield { kind: 'caughtUp', checkpoint: after, scannedTo: furthest(store, after, end.head) };
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
