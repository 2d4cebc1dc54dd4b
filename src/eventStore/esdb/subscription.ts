import type { Checkpoint, SubscribeOptions, SubscriptionItem, WaitForEventsOptions } from '../eventStore.js';
import type { FeedScan, ScanOptions } from './feed.js';
import { decodePosition, encodePosition } from './mapping.js';

export interface FeedReader {
  scan(options: ScanOptions): Promise<FeedScan>;
  waitForEvents(options: WaitForEventsOptions): Promise<void>;
}

/**
 * The port's `subscribe` over `$all`. Unlike the generic `subscribeFromFeed`, it continues each read
 * from the last `$all` position the server passed (`FeedScan.cursor`: checkpoints of the filtered
 * read, or the end once caught up) rather than from the last event it delivered: with a category
 * filter, restarting from the last delivered event would make the server pass over every other
 * category's events since then again on every poll.
 */
export async function* subscribeToFeed(
  feed: FeedReader,
  options: SubscribeOptions,
  pollIntervalMs: number,
): AsyncGenerator<SubscriptionItem> {
  const { signal, categories } = options;
  const limit = options.batchSize ?? 500;
  let cursor = options.after ? decodePosition(options.after) : null;
  let delivered: Checkpoint | null = options.after;
  while (!signal.aborted) {
    const scan = await feed.scan({ after: cursor, categories, limit, signal });
    for (const event of scan.events) {
      if (signal.aborted) return;
      yield event;
      delivered = event.position;
    }
    cursor = scan.cursor;
    if (scan.reachedEnd) {
      // The consumer may have stopped on the last event delivered: then nothing more is yielded.
      if (signal.aborted) return;
      // Every record up to the cursor was looked at, matching or not: that is how far it has passed.
      const scannedTo = cursor ? encodePosition(cursor) : null;
      yield { kind: 'caughtUp', checkpoint: delivered, scannedTo };
      await feed.waitForEvents({ signal, timeoutMs: pollIntervalMs, categories, after: scannedTo });
    }
  }
}
