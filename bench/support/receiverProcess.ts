import { startWebhookListener, type WebhookListener } from '../../src/webhooks/listener.js';
import { type Arrivals, epochMs, type ReceiverReply, type ReceiverRequest } from './receiver.js';

/** The receiver child process (receiver.ts): listeners on loopback, driven over IPC. */

const listeners: WebhookListener[] = [];
/** Each listener's secrets, by URL: filled in once its endpoint exists (the listener reads them per delivery). */
const secrets = new Map<string, string[]>();
let arrivals = empty();

function empty(): Arrivals {
  return { eventIds: [], times: [], listeners: [], refused: {} };
}

function reply(message: ReceiverReply): Promise<void> {
  return new Promise((resolve) => process.send!(message, undefined, undefined, () => resolve()));
}

async function listen(): Promise<string> {
  const index = listeners.length;
  const trusted: string[] = [];
  const listener = await startWebhookListener({
    port: 0,
    secrets: trusted,
    status: 204,
    onDelivery(delivery) {
      const at = epochMs();
      if (delivery.outcome.verified) {
        arrivals.eventIds.push(delivery.eventId ?? '');
        arrivals.times.push(at);
        arrivals.listeners.push(index);
      } else {
        const { code } = delivery.outcome;
        arrivals.refused[code] = (arrivals.refused[code] ?? 0) + 1;
      }
    },
  });
  listeners.push(listener);
  secrets.set(listener.url, trusted);
  return listener.url;
}

process.on('message', (request: ReceiverRequest) => {
  switch (request.kind) {
    case 'listen':
      void listen().then((url) => reply({ id: request.id, kind: 'listening', url }));
      return;
    case 'trust':
      secrets.get(request.url)?.push(request.secret);
      void reply({ id: request.id, kind: 'trusted' });
      return;
    case 'count':
      void reply({ id: request.id, kind: 'counted', verified: arrivals.times.length });
      return;
    case 'collect':
      void reply({ id: request.id, kind: 'collected', arrivals });
      arrivals = empty();
      return;
    case 'close':
      void Promise.all(listeners.map((listener) => listener.close()))
        .then(() => reply({ id: request.id, kind: 'closed' }))
        .then(() => process.disconnect());
      return;
  }
});
// The bench went away without closing: do not linger.
process.on('disconnect', () => process.exit(0));
