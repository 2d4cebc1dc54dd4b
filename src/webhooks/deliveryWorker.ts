import type pg from 'pg';
import { defaultWorkerName } from '../checks/checkRunner.js';
import { batchWhileBusy } from '../shared/batchWhileBusy.js';
import { IdleWorkerWakeups } from '../shared/idleWorkerWakeups.js';
import { type Logger, silentLogger } from '../shared/logger.js';
import { maxAttempts, nextRetry } from '../shared/retrySchedule.js';
import { sleep } from '../shared/sleep.js';
import { describeError } from '../subscriptions/failurePolicy.js';
import {
  type AcceptedAttempt,
  type ClaimedDelivery,
  claimDeliveries,
  type RecordOutcome,
  recordAccepted,
  recordAttempt,
  releaseDelivery,
} from './deliveries.js';
import { createWebhookSender, type SendResult, type WebhookSender } from './sender.js';
import type { TargetPolicy } from './targets.js';

/**
 * The delivery workers of one process (docs/webhooks.md, "Delivery"): up to `concurrency` attempts
 * in flight. A dispatcher claims as many due deliveries as there are free slots, each attempt is
 * sent on its own and recorded (an accepted one together with those that finish while the last
 * batch is written), and the dispatcher waits for a free slot, a wake-up (the fan-out in this
 * process committed, or a notification from another) or its poll.
 */
export interface DeliveryWorkerOptions extends TargetPolicy {
  pool: pg.Pool;
  logger?: Logger;
  /** Attempts in flight at once (WEBHOOK_WORKERS). */
  concurrency: number;
  /** WEBHOOK_TIMEOUT. */
  timeoutMs: number;
  /** Delays before attempts 2, 3, ... (WEBHOOK_RETRY_DELAYS). */
  retryDelaysMs: readonly number[];
  /** WEBHOOK_DISABLE_AFTER. */
  disableAfterMs: number;
  /** How often an idle dispatcher looks for due deliveries (retries come due without a wake-up). */
  pollIntervalMs?: number;
  /**
   * How long a claim holds a delivery: longer than any attempt can take (the timeout), so a row is
   * only claimed again when its worker is gone.
   */
  leaseMs?: number;
  /** Lease owner prefix (default host:pid:random). */
  name?: string;
  /** Replaces the HTTP sender (unit tests). */
  sender?: WebhookSender;
}

export interface AttemptReport {
  deliveryId: string;
  eventId: string;
  attempt: number;
  outcome: RecordOutcome | 'unrecorded';
  httpStatus: number | null;
  error: string | null;
  durationMs: number;
}

export interface DeliveryWorker {
  /** Look for due deliveries now. */
  wake(): void;
  onAttempt(listener: (report: AttemptReport) => void): () => void;
  /** Stops claiming; attempts in flight finish (each within the timeout) and are recorded. */
  stop(): Promise<void>;
}

export const DEFAULT_DELIVERY_POLL_MS = 1_000;
/** Beyond the attempt's timeout: a busy machine's time to record the outcome. */
const LEASE_MARGIN_MS = 30_000;

export function startDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const { pool, concurrency, retryDelaysMs } = options;
  const logger = options.logger ?? silentLogger;
  const owner = options.name ?? defaultWorkerName();
  const leaseMs = options.leaseMs ?? options.timeoutMs + LEASE_MARGIN_MS;
  const pollMs = options.pollIntervalMs ?? DEFAULT_DELIVERY_POLL_MS;
  const sender = options.sender ?? createWebhookSender(options);
  const stopping = new AbortController();
  const wakeups = new IdleWorkerWakeups();
  const slotFreed = new IdleWorkerWakeups();
  const listeners = new Set<(report: AttemptReport) => void>();
  const inFlight = new Set<Promise<void>>();
  const lastAttempt = maxAttempts(retryDelaysMs);
  // Accepted attempts that finish while a batch of them is being written go into the next batch.
  const recordDelivered = batchWhileBusy(
    (attempts: AcceptedAttempt[]) => recordAccepted(pool, attempts),
    Math.max(1, concurrency),
  );

  const report = (entry: AttemptReport) => {
    const fields = { ...entry, durationMs: Math.round(entry.durationMs) };
    if (entry.outcome === 'delivered') logger.debug(fields, 'webhook delivered');
    else logger.warn(fields, `webhook attempt ${entry.outcome}`);
    for (const listener of listeners) listener(entry);
  };

  async function attempt(claim: ClaimedDelivery): Promise<void> {
    const sent: SendResult = await sender.send({
      url: claim.url,
      body: claim.body,
      eventId: claim.eventId,
      deliveryId: claim.id,
      secrets: claim.secrets,
    });
    const retry = sent.accepted ? undefined : nextRetry(claim.attempt, retryDelaysMs);
    let outcome: AttemptReport['outcome'];
    try {
      outcome = sent.accepted
        ? await recordDelivered({ claim, record: sent })
        : await recordAttempt(
            pool,
            claim,
            {
              ...sent,
              retryInMs: retry?.kind === 'retry' ? retry.delayMs : null,
            },
            options.disableAfterMs,
          );
    } catch (error) {
      // The database is away: the lease runs out and the delivery is attempted again.
      logger.warn(
        { deliveryId: claim.id, error: describeError(error) },
        'recording a webhook attempt failed',
      );
      outcome = 'unrecorded';
    }
    if (outcome === 'endpoint_disabled') {
      logger.error(
        { endpointId: claim.endpointId, error: sent.error },
        'webhook endpoint disabled after failing',
      );
    }
    report({
      deliveryId: claim.id,
      eventId: claim.eventId,
      attempt: claim.attempt,
      outcome,
      httpStatus: sent.httpStatus,
      error: sent.error,
      durationMs: sent.durationMs,
    });
  }

  function track(claim: ClaimedDelivery): void {
    const running: Promise<void> = attempt(claim)
      .catch((error: unknown) => {
        logger.error({ deliveryId: claim.id, error: describeError(error) }, 'webhook attempt crashed');
      })
      .finally(() => {
        inFlight.delete(running);
        slotFreed.ring();
      });
    inFlight.add(running);
  }

  async function dispatch(): Promise<void> {
    while (!stopping.signal.aborted) {
      const free = concurrency - inFlight.size;
      if (free <= 0) {
        await slotFreed.wait(slotFreed.rung, pollMs, stopping.signal);
        continue;
      }
      const seen = wakeups.rung;
      let claimed: ClaimedDelivery[];
      try {
        claimed = await claimDeliveries(pool, owner, leaseMs, free);
      } catch (error) {
        logger.warn({ error: describeError(error) }, 'claiming webhook deliveries failed');
        await sleep(pollMs, stopping.signal);
        continue;
      }
      if (stopping.signal.aborted) {
        await Promise.all(claimed.map((claim) => releaseDelivery(pool, claim).catch(() => {})));
        break;
      }
      for (const claim of claimed) {
        if (claim.attempt > lastAttempt)
          logger.warn(
            { deliveryId: claim.id, attempt: claim.attempt },
            'a webhook attempt was lost with its worker',
          );
        track(claim);
      }
      // A full claim may leave more due: look again at once.
      if (claimed.length < free) await wakeups.wait(seen, pollMs, stopping.signal);
    }
  }

  const dispatcher = concurrency > 0 ? dispatch() : Promise.resolve();

  return {
    wake: () => wakeups.ring(),
    onAttempt(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    async stop() {
      stopping.abort();
      await dispatcher;
      await Promise.all(inFlight);
      sender.close();
    },
  };
}
