import { randomBytes } from 'node:crypto';
import pgListen, { type Subscriber } from 'pg-listen';
import type { Queryable } from './sql.js';

// pg-listen is CommonJS with an `exports.default`; loaders disagree on where that lands.
const createSubscriber: typeof pgListen.default =
  typeof pgListen === 'function' ? pgListen : pgListen.default;

/**
 * A LISTEN session of its own (outside the pool) that reconnects forever: a long-running service
 * must keep trying where pg-listen gives up after 3 s by default. Notifications sent while it is
 * disconnected are lost, so listeners only ever wake readers that also poll, and treat `connected`
 * as "something may have been missed".
 */
export function notificationSubscriber(connectionString: string, applicationName: string): Subscriber {
  const subscriber = createSubscriber(
    { connectionString, application_name: applicationName },
    {
      retryLimit: Number.POSITIVE_INFINITY,
      retryTimeout: Number.POSITIVE_INFINITY,
      retryInterval: (attempt: number) => Math.min(30_000, 250 * 2 ** attempt),
      paranoidChecking: 10_000,
    },
  );
  subscriber.events.on('error', () => {});
  return subscriber;
}

/**
 * A name for one notifier, carried in its notifications: the listener of the same component (its
 * own workers, its own feed readers), already woken directly after the commit, skips them, and every
 * other listener, in this process or another, takes them.
 */
export function newNotificationSender(): string {
  return randomBytes(8).toString('hex');
}

/**
 * Calls `wake` on every notification on `channel` (but those of `ownSender`, see
 * newNotificationSender), and after every (re)connection. Connecting happens in the background;
 * until it succeeds the caller's poll covers the gap.
 */
export function wakeOnNotify(
  connectionString: string,
  channel: string,
  wake: () => void,
  ownSender?: string,
): { close(): Promise<void> } {
  const subscriber = notificationSubscriber(connectionString, `casescreen-listen-${channel}`);
  subscriber.notifications.on(channel, (payload: unknown) => {
    if (ownSender === undefined || payload !== ownSender) wake();
  });
  subscriber.events.on('connected', () => wake());
  const connecting = subscriber
    .connect()
    .then(() => subscriber.listenTo(channel))
    .catch(() => {});
  return {
    async close() {
      await connecting;
      await subscriber.close().catch(() => {});
    },
  };
}

/**
 * Wakes the workers of every process that `wakeOnNotify` on `channel` (at commit, when `db` is in a
 * transaction): new rows of a work table are claimed at once rather than at the workers' next poll.
 * `sender` when the caller rings its own workers itself once committed (newNotificationSender).
 */
export async function notifyWorkers(db: Queryable, channel: string, sender?: string): Promise<void> {
  // pg-listen parses payloads as JSON.
  await db.query('SELECT pg_notify($1, $2)', [channel, sender === undefined ? '' : JSON.stringify(sender)]);
}
