import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { createWebhookSender } from '../../src/webhooks/sender.js';
import { signatureHeader } from '../../src/webhooks/signature.js';
import { WEBHOOK_API_VERSION } from '../../src/webhooks/webhookEvents.js';
import { epochMs } from './receiver.js';
import { type Distribution, distribution, now } from './stats.js';

/**
 * The baselines of the webhook benchmark, run in the bench process against the same receiver as
 * the service: a bare node:http POST loop (the ceiling: signing and sending, nothing else), and the
 * service's own sender in the same loop without the database (what the outbox adds is the rest).
 */

export interface PostTarget {
  url: string;
  secret: string;
  /** A delivery body of the size the service sends. */
  body: string;
}

export interface LoopResult {
  sent: number;
  /** Answers other than 200 or 204, and errors. */
  failures: number;
  seconds: number;
  perSecond: number;
  /** Each POST, from its start to the end of its answer. */
  latency: Distribution;
}

type PostOnce = (eventId: string) => Promise<boolean>;

/** One signed POST with the service's headers over a keep-alive agent, in plain node:http. */
function barePost(target: PostTarget, agent: http.Agent): PostOnce {
  return (eventId) =>
    new Promise((resolve) => {
      const timestamp = Math.floor(Date.now() / 1000);
      const body = Buffer.from(target.body, 'utf8');
      const request = http.request(
        target.url,
        {
          method: 'POST',
          agent,
          headers: {
            'Content-Type': 'application/json',
            'Content-Length': String(body.byteLength),
            'User-Agent': 'casescreen-bench',
            'Service-Event-Id': eventId,
            'Service-Delivery-Id': `whd_${eventId.slice(4)}`,
            'Service-Timestamp': String(timestamp),
            'Service-Signature': signatureHeader([target.secret], timestamp, target.body),
            'Service-Api-Version': WEBHOOK_API_VERSION,
          },
        },
        (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode === 200 || response.statusCode === 204));
          response.on('error', () => resolve(false));
        },
      );
      request.on('error', () => resolve(false));
      request.end(body);
    });
}

/** Distinct event ids, so the receiver can tell the POSTs apart. */
function eventIdOf(sequence: number): string {
  return `evt_${sequence.toString(16).padStart(32, '0')}`;
}

async function closedLoop(post: PostOnce, concurrency: number, durationMs: number): Promise<LoopResult> {
  const deadline = now() + durationMs;
  const started = now();
  const latencies: number[] = [];
  let failures = 0;
  let sequence = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (now() < deadline) {
        const start = now();
        const ok = await post(eventIdOf(sequence++));
        latencies.push(now() - start);
        if (!ok) failures++;
      }
    }),
  );
  const seconds = (now() - started) / 1000;
  return {
    sent: latencies.length,
    failures,
    seconds,
    perSecond: latencies.length / seconds,
    latency: distribution(latencies),
  };
}

/** The ceiling: `concurrency` loops of bare POSTs, each sending its next as soon as the last answered. */
export async function barePostLoop(
  target: PostTarget,
  concurrency: number,
  durationMs: number,
): Promise<LoopResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  try {
    return await closedLoop(barePost(target, agent), concurrency, durationMs);
  } finally {
    agent.destroy();
  }
}

/** The same loop through the service's sender (src/webhooks/sender.ts): no database, no outbox. */
export async function senderLoop(
  target: PostTarget,
  concurrency: number,
  durationMs: number,
): Promise<LoopResult> {
  const sender = createWebhookSender({ timeoutMs: 10_000, allowPrivate: true });
  try {
    return await closedLoop(
      async (eventId) =>
        (
          await sender.send({
            url: target.url,
            body: target.body,
            eventId,
            deliveryId: `whd_${eventId.slice(4)}`,
            secrets: [target.secret],
          })
        ).accepted,
      concurrency,
      durationMs,
    );
  } finally {
    sender.close();
  }
}

/**
 * Bare POSTs at a steady rate: when each was sent (epochMs, by event id), for the one-way time to
 * the receiver's handler that the service's latency is set beside.
 */
export async function barePostsAtRate(
  target: PostTarget,
  rate: number,
  durationMs: number,
): Promise<Map<string, number>> {
  const agent = new http.Agent({ keepAlive: true });
  const post = barePost(target, agent);
  const sentAt = new Map<string, number>();
  const total = Math.max(1, Math.round((rate * durationMs) / 1000));
  const start = now();
  const inFlight: Promise<boolean>[] = [];
  try {
    for (let n = 0; n < total; n++) {
      const wait = start + (n * 1000) / rate - now();
      if (wait > 0) await sleep(wait);
      const eventId = eventIdOf(n);
      sentAt.set(eventId, epochMs());
      inFlight.push(post(eventId));
    }
    await Promise.all(inFlight);
    return sentAt;
  } finally {
    agent.destroy();
  }
}
