import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';

/**
 * The webhook benchmark's receiver, run as a child process (receiverProcess.ts) so that it shares
 * no event loop with the senders it is measured against: the bench's bare POST loop and the
 * service's `work` process. It runs one verifying listener (src/webhooks/listener.ts, what
 * `casescreen webhooks listen` runs) per endpoint, each with that endpoint's secret, answers 204,
 * and records when each delivery reached its handler. Parent and child talk over the IPC channel.
 */

/** Milliseconds since the epoch with sub-millisecond resolution, comparable across processes. */
export function epochMs(): number {
  return performance.timeOrigin + performance.now();
}

type ReceiverCommand =
  | { kind: 'listen' }
  | { kind: 'trust'; url: string; secret: string }
  | { kind: 'count' }
  | { kind: 'collect' }
  | { kind: 'close' };
export type ReceiverRequest = ReceiverCommand & { id: number };

/** What arrived since the last collect, in arrival order. */
export interface Arrivals {
  /** Service-Event-Id of each verified delivery. */
  eventIds: string[];
  /** epochMs() at its handler. */
  times: number[];
  /** The listener (by the order of listen calls) each came to. */
  listeners: number[];
  /** Deliveries refused by the verifier, by error code. */
  refused: Record<string, number>;
}

export type ReceiverReply =
  | { id: number; kind: 'listening'; url: string }
  | { id: number; kind: 'trusted' }
  | { id: number; kind: 'counted'; verified: number }
  | { id: number; kind: 'collected'; arrivals: Arrivals }
  | { id: number; kind: 'closed' };

export interface Receiver {
  pid: number;
  /**
   * Starts a listener on a free loopback port; its URL. It refuses every delivery until it is told
   * the secret: an endpoint needs its URL before it has a secret.
   */
  listen(): Promise<string>;
  /** The listener at `url` verifies with `secret` from now on. */
  trust(url: string, secret: string): Promise<void>;
  /** How many verified deliveries arrived since the last collect (cheap: for waiting). */
  count(): Promise<number>;
  /** The arrivals since the last collect, and forgets them. */
  collect(): Promise<Arrivals>;
  close(): Promise<void>;
}

export async function startReceiver(script: string): Promise<Receiver> {
  const child: ChildProcess = fork(script, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await once(child, 'spawn');
  const pending = new Map<number, (reply: ReceiverReply) => void>();
  let nextId = 0;
  child.on('message', (reply: ReceiverReply) => {
    pending.get(reply.id)?.(reply);
    pending.delete(reply.id);
  });
  child.on('exit', (code) => {
    for (const [, resolve] of pending) resolve({ id: -1, kind: 'closed' });
    if (code !== 0 && code !== null) process.stderr.write(`[bench] the receiver exited with ${code}\n`);
  });
  const ask = <K extends ReceiverReply['kind']>(
    request: ReceiverCommand,
  ): Promise<Extract<ReceiverReply, { kind: K }>> =>
    new Promise((resolve, reject) => {
      if (child.exitCode !== null) {
        reject(new Error('the receiver process has exited'));
        return;
      }
      const id = nextId++;
      pending.set(id, (reply) =>
        reply.id === -1
          ? reject(new Error('the receiver process has exited'))
          : resolve(reply as Extract<ReceiverReply, { kind: K }>),
      );
      child.send({ ...request, id });
    });
  return {
    pid: child.pid!,
    async listen() {
      return (await ask<'listening'>({ kind: 'listen' })).url;
    },
    async trust(url, secret) {
      await ask<'trusted'>({ kind: 'trust', url, secret });
    },
    async count() {
      return (await ask<'counted'>({ kind: 'count' })).verified;
    },
    async collect() {
      return (await ask<'collected'>({ kind: 'collect' })).arrivals;
    },
    async close() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      await ask<'closed'>({ kind: 'close' }).catch(() => {});
      await exited;
    },
  };
}
