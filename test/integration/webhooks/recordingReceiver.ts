import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A webhook receiver for the delivery races: it records every request by delivery id, numbers the
 * requests of each delivery (the first, the second, ...), and notes a request that arrives while an
 * earlier one of the same delivery is still unanswered: the same delivery sent twice at once. It
 * can hold every answer until the test releases them (to see several senders at work at once) and
 * counts the TCP connections it accepts (a target refused before connecting makes none).
 */

export interface Arrival {
  deliveryId: string;
  eventId: string;
  /** This request's number among the requests of its delivery, from 1. */
  receipt: number;
  /** What the receiver answered; null while it has not (held, or the sender gave up first). */
  status: number | null;
}

export type RecordingAnswer = number | { status: number; body?: string };

export interface RecordingReceiver {
  /** `http://127.0.0.1:<port>/hooks` (the first host listened on). */
  readonly url: string;
  readonly port: number;
  /** Every request so far, in arrival order. */
  readonly arrivals: readonly Arrival[];
  /** Requests received and not answered yet. */
  readonly inFlight: number;
  /** TCP connections accepted so far, on every host. */
  readonly connections: number;
  /** Requests that arrived while an earlier request of their delivery was unanswered. */
  readonly overlaps: readonly Arrival[];
  /** From now on, answers wait until release(). */
  hold(): void;
  /** Answers every request held, and the next ones at once. */
  release(): void;
  close(): Promise<void>;
}

export async function startRecordingReceiver(
  answer: (arrival: Arrival) => RecordingAnswer = () => 204,
  options: { hosts?: string[] } = {},
): Promise<RecordingReceiver> {
  const hosts = options.hosts ?? ['127.0.0.1'];
  const arrivals: Arrival[] = [];
  const overlaps: Arrival[] = [];
  const receipts = new Map<string, number>();
  const unanswered = new Map<string, number>();
  const sockets = new Set<Socket>();
  let held: (() => void)[] | null = null;
  let inFlight = 0;
  let connections = 0;

  const handle = (request: http.IncomingMessage, response: http.ServerResponse) => {
    request.resume();
    request.on('end', () => {
      const deliveryId = String(request.headers['service-delivery-id']);
      const receipt = (receipts.get(deliveryId) ?? 0) + 1;
      receipts.set(deliveryId, receipt);
      const arrival: Arrival = {
        deliveryId,
        eventId: String(request.headers['service-event-id']),
        receipt,
        status: null,
      };
      arrivals.push(arrival);
      if ((unanswered.get(deliveryId) ?? 0) > 0) overlaps.push(arrival);
      unanswered.set(deliveryId, (unanswered.get(deliveryId) ?? 0) + 1);
      inFlight++;
      let done = false;
      // Answered (counted before the bytes leave: the sender cannot have seen the answer earlier),
      // or given up by the sender.
      const settle = () => {
        if (done) return;
        done = true;
        unanswered.set(deliveryId, unanswered.get(deliveryId)! - 1);
        inFlight--;
      };
      response.on('close', settle);
      const reply = () => {
        if (response.destroyed) return;
        const chosen = answer(arrival);
        const { status, body = '' } = typeof chosen === 'number' ? { status: chosen } : chosen;
        arrival.status = status;
        settle();
        response.writeHead(status, { 'content-type': 'text/plain' }).end(body);
      };
      if (held) held.push(reply);
      else reply();
    });
  };

  const servers: http.Server[] = [];
  let port = 0;
  for (const host of hosts) {
    const server = http.createServer(handle);
    // Idle kept-alive connections stay open longer than any test: the sender never sends on a
    // connection the receiver is closing at that moment.
    server.keepAliveTimeout = 600_000;
    server.on('connection', (socket) => {
      connections++;
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    port = (server.address() as AddressInfo).port;
    servers.push(server);
  }

  return {
    url: `http://${hosts[0]}:${port}/hooks`,
    port,
    arrivals,
    overlaps,
    get inFlight() {
      return inFlight;
    },
    get connections() {
      return connections;
    },
    hold() {
      held ??= [];
    },
    release() {
      const waiting = held ?? [];
      held = null;
      for (const reply of waiting) reply();
    },
    async close() {
      held = null;
      const closed = servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())));
      for (const socket of sockets) socket.destroy();
      await Promise.all(closed);
    },
  };
}
