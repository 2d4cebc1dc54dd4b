import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A real webhook receiver on loopback for the tests: it records every request it gets (raw body
 * and headers) and answers as the test says: a status, a status after a delay, or never ('hang',
 * until the receiver stops). It can go down (refusing connections) and come back on the same port.
 */

export interface ReceivedDelivery {
  headers: http.IncomingHttpHeaders;
  rawBody: string;
  body: {
    id: string;
    type: string;
    api_version: string;
    created_at: string;
    data: Record<string, unknown> & {
      account_id: string;
      group_id: string | null;
      object: { id: string | null; type: string };
    };
  };
  eventId: string;
  deliveryId: string;
}

export type Answer = number | 'hang' | { status: number; afterMs?: number; body?: string };

export interface WebhookReceiver {
  readonly url: string;
  readonly port: number;
  /** Every request so far, in arrival order (answered or not). */
  readonly received: ReceivedDelivery[];
  /** Requests being handled now. */
  readonly inFlight: number;
  /** The highest number of requests in flight at once. */
  readonly maxInFlight: number;
  answerWith(answer: (delivery: ReceivedDelivery, index: number) => Answer): void;
  /** Stops listening and drops every connection: the receiver is down. */
  goDown(): Promise<void>;
  /** Listens again on the same port. */
  comeBack(): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(
  answer: (delivery: ReceivedDelivery, index: number) => Answer = () => 200,
): Promise<WebhookReceiver> {
  let respond = answer;
  const received: ReceivedDelivery[] = [];
  const sockets = new Set<Socket>();
  const hanging = new Set<http.ServerResponse>();
  let inFlight = 0;
  let maxInFlight = 0;

  const server = http.createServer((request, response) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    response.on('close', () => {
      inFlight--;
      hanging.delete(response);
    });
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const delivery: ReceivedDelivery = {
        headers: request.headers,
        rawBody,
        body: JSON.parse(rawBody) as ReceivedDelivery['body'],
        eventId: String(request.headers['service-event-id']),
        deliveryId: String(request.headers['service-delivery-id']),
      };
      received.push(delivery);
      const chosen = respond(delivery, received.length - 1);
      if (chosen === 'hang') {
        hanging.add(response);
        return;
      }
      const { status, afterMs = 0, body = '' } = typeof chosen === 'number' ? { status: chosen } : chosen;
      const send = () => {
        if (!response.destroyed) response.writeHead(status, { 'content-type': 'text/plain' }).end(body);
      };
      if (afterMs > 0) setTimeout(send, afterMs);
      else send();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as AddressInfo).port;

  const goDown = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };

  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    answerWith(next) {
      respond = next;
    },
    goDown,
    comeBack: () => listen(port),
    async close() {
      if (server.listening) await goDown();
    },
  };
}
