import { END, type EventStoreDBClient, excludeSystemEvents, streamNameFilter } from '@eventstore/db-client';

export interface Doorbell {
  /** Settles once the server confirmed the subscription, or once it failed. */
  readonly ready: Promise<void>;
  /** Settles on the first event appended after `ready`, or on `close()`. */
  readonly rung: Promise<void>;
  close(): Promise<void>;
}

/**
 * A live `$all` subscription from the end, used only to learn that something was appended: the
 * caller re-reads the feed itself. The server filters by stream-name prefix, so a waiter for one
 * category is not woken by the others.
 */
export function ringOnNextEvent(client: EventStoreDBClient, categories?: readonly string[]): Doorbell {
  let confirm!: () => void;
  let ring!: () => void;
  const ready = new Promise<void>((resolve) => {
    confirm = resolve;
  });
  const rung = new Promise<void>((resolve) => {
    ring = resolve;
  });
  const subscription = client.subscribeToAll({
    fromPosition: END,
    resolveLinkTos: false,
    filter: categories
      ? streamNameFilter({ prefixes: categories.map((category) => `${category}-`) })
      : excludeSystemEvents(),
  });
  subscription.once('confirmation', confirm);
  subscription.on('data', ring);
  // A broken doorbell only costs latency (waiters fall back to their timeout); without a listener an
  // 'error' event would crash the process.
  subscription.on('error', confirm);
  subscription.once('close', confirm);
  let closed: Promise<void> | undefined;
  return {
    ready,
    rung,
    close() {
      ring();
      confirm();
      closed ??= subscription.unsubscribe().catch(() => undefined);
      return closed;
    },
  };
}
