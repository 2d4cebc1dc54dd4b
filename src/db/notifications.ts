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
 * Names this process (this thread: module state is per thread) in the notifications after which it
 * rings its own workers directly, so that it skips them and its workers claim once.
 */
const SENDER = randomBytes(8).toString('hex');

/**
 * Calls `wake` on every notification on `channel` that another process sent, and after every
 * (re)connection. Connecting happens in the background; until it succeeds the caller's poll covers
 * the gap.
 */
export function wakeOnNotify(
  connectionString: string,
  channel: string,
  wake: () => void,
): { close(): Promise<void> } {
  const subscriber = notificationSubscriber(connectionString, `casescreen-listen-${channel}`);
  subscriber.notifications.on(channel, (payload: unknown) => {
    if (payload !== SENDER) wake();
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
 * `exceptThisProcess` when the caller rings its own process's workers itself once committed.
 */
export async function notifyWorkers(
  db: Queryable,
  channel: string,
  options: { exceptThisProcess?: boolean } = {},
): Promise<void> {
  // pg-listen parses payloads as JSON.
  await db.query('SELECT pg_notify($1, $2)', [
    channel,
    options.exceptThisProcess ? JSON.stringify(SENDER) : '',
  ]);
}
