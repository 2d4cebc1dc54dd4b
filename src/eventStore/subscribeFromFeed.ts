import type { Checkpoint, EventStore, SubscribeOptions, SubscriptionItem } from './eventStore.js';

/**
 * `subscribe` for any store that can page its feed and wait for wake-ups: deliver pages in order,
 * mark each time the reader has delivered everything committed so far, then wait (bounded by the
 * poll interval). A store whose feed can hold committed events back (PostgreSQL, behind an older
 * open transaction) says so through `hasHeldBack`, so `caughtUp` never claims an event that
 * committed before it was delivered.
 */
export async function* subscribeFromFeed(
  store: Pick<EventStore, 'readFeed' | 'waitForEvents'>,
  options: SubscribeOptions,
  pollIntervalMs: number,
  hasHeldBack?: (after: Checkpoint | null, categories?: string[]) => Promise<boolean>,
): AsyncGenerator<SubscriptionItem> {
  const { signal, categories } = options;
  const limit = options.batchSize ?? 500;
  let after: Checkpoint | null = options.after;
  // Set when hasHeldBack found nothing pending: a read after that check sees everything committed
  // before it, so a short page then really is the end of the feed.
  let heldBackClear = false;
  while (!signal.aborted) {
    const page = await store.readFeed({ after, categories, limit });
    for (const event of page) {
      if (signal.aborted) return;
      yield event;
      after = event.position;
    }
    if (page.length === limit) {
      heldBackClear = false;
      continue;
    }
    if (hasHeldBack && !heldBackClear) {
      heldBackClear = !(await hasHeldBack(after, categories));
      if (!heldBackClear) await store.waitForEvents({ signal, timeoutMs: pollIntervalMs, categories, after });
      continue;
    }
    heldBackClear = false;
    // The consumer may have stopped on the last event delivered: then nothing more is yielded.
    if (signal.aborted) return;
    yield { kind: 'caughtUp', checkpoint: after };
    await store.waitForEvents({ signal, timeoutMs: pollIntervalMs, categories, after });
  }
}
