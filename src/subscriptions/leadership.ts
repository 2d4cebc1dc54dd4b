import pg from 'pg';
import type { Logger } from '../shared/logger.js';
import { sleep } from '../shared/sleep.js';
import { describeError } from './failurePolicy.js';

/**
 * One active runner per subscription id across every process: the leader holds a session-level
 * advisory lock on a connection of its own. A session lock is not an open transaction, so holding it
 * for hours does not hold back the xmin-gated feed. Correctness never rests on the lock alone: the
 * checkpoint compare-and-swap rejects a second writer; the lock only keeps standbys from wasting work.
 */
export interface Lease {
  /** Aborts when the session holding the lock is gone: the lock is gone with it, stop processing. */
  readonly lost: AbortSignal;
  release(): Promise<void>;
}

export interface LeadershipOptions {
  databaseUrl: string;
  subscriptionId: string;
  /** Gives up (resolving null) when aborted. */
  signal: AbortSignal;
  /** How often a standby tries to take over. */
  retryMs: number;
  /** How often the leader checks that its session is alive. */
  checkIntervalMs: number;
  /** Called after each failed try, so a standby can follow the leader's progress. */
  onStandby?: () => Promise<void>;
  logger: Logger;
}

const SUBSCRIPTION_LOCK_KEY = "hashtextextended('sub:' || $1::text, 0)";

/**
 * Takes the subscription's leadership lock on `client`'s session. Also used to keep every runner of
 * a subscription out while its tables are dropped.
 */
export async function tryLockSubscription(client: pg.ClientBase, subscriptionId: string): Promise<boolean> {
  const { rows } = await client.query<{ locked: boolean }>(
    `SELECT pg_try_advisory_lock(${SUBSCRIPTION_LOCK_KEY}) AS locked`,
    [subscriptionId],
  );
  return rows[0]?.locked === true;
}

export function openLockSession(databaseUrl: string, checkIntervalMs = 10_000): pg.Client {
  return new pg.Client({
    connectionString: databaseUrl,
    application_name: 'casescreen-lease',
    keepAlive: true,
    query_timeout: Math.max(checkIntervalMs, 5_000),
  });
}

/** Waits until this process leads the subscription; null when the signal aborts first. */
export async function acquireLeadership(options: LeadershipOptions): Promise<Lease | null> {
  const { signal, subscriptionId, logger } = options;
  while (!signal.aborted) {
    const client = openLockSession(options.databaseUrl, options.checkIntervalMs);
    client.on('error', () => {}); // surfaced by the failing query below, or as a lost lease
    try {
      await client.connect();
      while (!signal.aborted) {
        if (await tryLockSubscription(client, subscriptionId)) return holdLease(client, options);
        await options.onStandby?.();
        await sleep(options.retryMs, signal);
      }
    } catch (error) {
      logger.warn({ subscriptionId, error: describeError(error) }, 'leadership session failed; retrying');
    }
    await client.end().catch(() => {});
    await sleep(options.retryMs, signal);
  }
  return null;
}

function holdLease(client: pg.Client, options: LeadershipOptions): Lease {
  const lost = new AbortController();
  const lose = (reason: unknown) => {
    if (lost.signal.aborted) return;
    options.logger.warn(
      { subscriptionId: options.subscriptionId, error: describeError(reason) },
      'leadership session lost; stopping',
    );
    lost.abort(reason);
  };
  const onEnd = () => lose(new Error('leadership session ended'));
  client.on('error', lose);
  client.on('end', onEnd);
  // A dead peer is only noticed when the connection is used, so use it.
  const probe = setInterval(() => {
    client.query('SELECT 1').catch(lose);
  }, options.checkIntervalMs);
  probe.unref();
  return {
    lost: lost.signal,
    async release() {
      clearInterval(probe);
      client.removeListener('end', onEnd);
      // Ending the session releases its advisory locks.
      await client.end().catch(() => {});
    },
  };
}
