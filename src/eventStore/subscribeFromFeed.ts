import type { Checkpoint, EventStore, SubscribeOptions, SubscriptionItem } from './eventStore.js';

/**
 * `subscribe` for any store that can page its feed and wait for wake-ups: deliver pages in order,
 * mark each time the reader has drained what is visible, then wait (bounded by the poll interval).
 */
export async function* subscribeFromFeed(
  store: Pick<EventStore, 'readFeed' | 'waitForEvents'>,
  options: SubscribeOptions,
  pollIntervalMs: number,
): AsyncGenerator<SubscriptionItem> {
  const { signal, categories } = options;
  const limit = options.batchSize ?? 500;
  let after: Checkpoint | null = options.after;
  while (!signal.aborted) {
    const page = await store.readFeed({ after, categories, limit });
    for (const event of page) {
      if (signal.aborted) return;
      yield event;
      after = event.position;
    }
    if (page.length < limit) {
      yield { kind: 'caughtUp', checkpoint: after };
      await store.waitForEvents({ signal, timeoutMs: pollIntervalMs, categories, after });
    }
  }
}
