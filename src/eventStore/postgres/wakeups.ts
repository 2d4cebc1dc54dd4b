import { listenToChannel } from '../../db/notifications.js';

export const FEED_CHANNEL = 'es_events';

/**
 * Payload on FEED_CHANNEL: the categories that received events, and the process that appended them
 * (its store's sender, newNotificationSender), whose own readers were woken already (`wakeLocally`)
 * and skip it.
 */
export interface FeedNotification {
  c: string[];
  s?: string;
}

interface Waiter {
  categories: Set<string> | undefined;
  wake(): void;
}

/**
 * LISTEN es_events through one dedicated connection per process. A notification only wakes
 * readers; they always re-read the feed, and keep a fallback poll, because a notification can
 * arrive while another transaction still holds the feed back, and the connection can drop.
 */
export class FeedWakeups {
  private readonly waiters = new Set<Waiter>();
  private listening: { close(): Promise<void> } | undefined;
  private closed = false;

  constructor(
    private readonly connectionString: string,
    /** Notifications of this sender are skipped: the same store woke its readers directly. */
    private readonly ownSender?: string,
  ) {}

  /** Registers a waiter; the returned promise resolves on a matching notification. */
  register(categories: string[] | undefined): { woken: Promise<void>; cancel(): void } {
    let wake!: () => void;
    const woken = new Promise<void>((resolve) => {
      wake = resolve;
    });
    const waiter: Waiter = { categories: categories ? new Set(categories) : undefined, wake };
    this.waiters.add(waiter);
    this.ensureListening();
    return { woken, cancel: () => this.waiters.delete(waiter) };
  }

  /**
   * `register`, with the wait a reader wants: until a matching notification since this call (at
   * once if one came already), `ms`, or the signal.
   */
  watch(categories: string[] | undefined): {
    wait(ms: number, signal: AbortSignal): Promise<void>;
    cancel(): void;
  } {
    const registration = this.register(categories);
    return {
      async wait(ms, signal) {
        if (signal.aborted) return;
        let timer: NodeJS.Timeout | undefined;
        let onAbort: (() => void) | undefined;
        try {
          await Promise.race([
            registration.woken,
            new Promise<void>((resolve) => {
              timer = setTimeout(resolve, ms);
              onAbort = resolve;
              signal.addEventListener('abort', onAbort, { once: true });
            }),
          ]);
        } finally {
          clearTimeout(timer);
          if (onAbort) signal.removeEventListener('abort', onAbort);
        }
      },
      cancel: registration.cancel,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.wakeAll();
    await this.listening?.close();
  }

  /** Listens from the first registration on (retried until the database answers: listenToChannel). */
  private ensureListening(): void {
    if (this.closed || this.listening) return;
    this.listening = listenToChannel(this.connectionString, FEED_CHANNEL, {
      notification: (payload) => {
        const notification = payload as FeedNotification | undefined;
        if (this.ownSender !== undefined && notification?.s === this.ownSender) return;
        if (Array.isArray(notification?.c)) for (const category of notification.c) this.wake(category);
        else this.wakeAll();
      },
      // Notifications sent while disconnected (or before LISTEN) are lost: everyone re-reads.
      connected: () => this.wakeAll(),
    });
  }

  /**
   * Wakes this process's readers of `categories` at once, for an append this process just committed:
   * they need not wait for its notification to come back through the server.
   */
  wakeLocally(categories: readonly string[]): void {
    for (const category of categories) this.wake(category);
  }

  private wake(category: string | undefined): void {
    for (const waiter of this.waiters) {
      if (!category || !waiter.categories || waiter.categories.has(category)) {
        this.waiters.delete(waiter);
        waiter.wake();
      }
    }
  }

  private wakeAll(): void {
    this.wake(undefined);
  }
}
