import { randomBytes } from 'node:crypto';
import pgListen, { type Subscriber } from 'pg-listen';
import { sleep } from '../shared/sleep.js';
import { prepared, type Queryable } from './sql.js';

// pg-listen is CommonJS with an `exports.default`; loaders disagree on where that lands.
const createSubscriber: typeof pgListen.default =
  typeof pgListen === 'function' ? pgListen : pgListen.default;

/**
 * A LISTEN session of its own (outside the pool) that reconnects forever: a long-running service
 * must keep trying where pg-listen gives up after 3 s by default. Notifications sent while it is
 * disconnected are lost, so listeners only ever wake readers that also poll, and treat `connected`
 * as "something may have been missed".
 */
function notificationSubscriber(connectionString: string, applicationName: string): Subscriber {
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

export interface ChannelHandlers {
  /** A notification on the channel, its payload parsed as JSON. */
  notification(payload: unknown): void;
  /** LISTEN is in place: on the first connection and after every reconnection. */
  connected(): void;
  /** The session was lost; notifications are missed until `connected` again. */
  reconnecting?(): void;
}

/**
 * LISTEN on `channel` for as long as the service runs. pg-listen reconnects a session it had, but
 * a first connection that fails (the database not up yet, or restarting) it leaves failed: here a
 * fresh session is tried again, backing off to 5 s, until one is listening or `close` is called.
 */
export function listenToChannel(
  connectionString: string,
  channel: string,
  handlers: ChannelHandlers,
): { close(): Promise<void> } {
  const closing = new AbortController();
  let current: Subscriber | undefined;
  const listening = (async () => {
    for (let attempt = 0; !closing.signal.aborted; attempt++) {
      const subscriber = notificationSubscriber(connectionString, `casescreen-listen-${channel}`);
      current = subscriber;
      subscriber.notifications.on(channel, (payload: unknown) => handlers.notification(payload));
      try {
        await subscriber.connect();
        await subscriber.listenTo(channel);
      } catch {
        await subscriber.close().catch(() => {});
        await sleep(Math.min(5000, 100 * 2 ** attempt), closing.signal);
        continue;
      }
      // pg-listen reports `connected` after re-issuing LISTEN on every reconnection.
      subscriber.events.on('connected', () => handlers.connected());
      subscriber.events.on('reconnect', () => handlers.reconnecting?.());
      handlers.connected();
      return;
    }
  })();
  return {
    async close() {
      closing.abort();
      await listening;
      await current?.close().catch(() => {});
    },
  };
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
 * newNotificationSender), and after every (re)connection. Connecting happens in the background,
 * retried until it succeeds (listenToChannel); meanwhile the caller's poll covers the gap.
 */
export function wakeOnNotify(
  connectionString: string,
  channel: string,
  wake: () => void,
  ownSender?: string,
): { close(): Promise<void> } {
  return listenToChannel(connectionString, channel, {
    notification: (payload) => {
      if (ownSender === undefined || payload !== ownSender) wake();
    },
    connected: wake,
  });
}

/**
 * Wakes the workers of every process that `wakeOnNotify` on `channel` (at commit, when `db` is in a
 * transaction): new rows of a work table are claimed at once rather than at the workers' next poll.
 * `sender` when the caller rings its own workers itself once committed (newNotificationSender).
 */
export async function notifyWorkers(db: Queryable, channel: string, sender?: string): Promise<void> {
  // pg-listen parses payloads as JSON.
  await db.query(
    prepared('SELECT pg_notify($1, $2)', [channel, sender === undefined ? '' : JSON.stringify(sender)]),
  );
}
