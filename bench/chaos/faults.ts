import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from './clock.js';
import type { Cluster } from './cluster.js';
import type { LagMonitor } from './lag.js';
import type { ServiceProcess } from './processes.js';

/**
 * The fault injector: one fault at a time, at random (seeded) moments, of four kinds dealt from a
 * shuffled deck so that a run of a few minutes sees every kind:
 *
 * - `pg-stop-fast`: `pg_ctl stop -m fast` (sessions cut, clean shutdown), start again after 2 to 8 s;
 * - `pg-stop-immediate`: `pg_ctl stop -m immediate` (no shutdown checkpoint: crash recovery on
 *   start), start again after 2 to 8 s;
 * - `kill9-serve`: SIGKILL of one `serve` process (requests in flight cut), restarted after 1 to 4 s;
 * - `kill9-work`: SIGKILL of the `work` process (a batch or a check in flight), restarted after 1 to 4 s.
 *
 * Each fault records when it began, when the system was whole again (server started, process
 * serving), the next acknowledged request after that, and when every subscription had caught up with
 * the feed as it was at that moment.
 */
export type FaultKind = 'pg-stop-fast' | 'pg-stop-immediate' | 'kill9-serve' | 'kill9-work';

export const FAULT_KINDS: readonly FaultKind[] = [
  'pg-stop-fast',
  'pg-stop-immediate',
  'kill9-serve',
  'kill9-work',
];

export interface Fault {
  n: number;
  kind: FaultKind;
  target: string;
  /** Planned outage: how long the server stays down or the process dead. */
  plannedDownMs: number;
  startedAt: number;
  /** The server is accepting connections again, or the process is serving / running its workers. */
  restoredAt?: number;
  /** Every subscription has handled the events on the feed at `restoredAt`. */
  caughtUpAt?: number;
  error?: string;
}

export function shuffledDeck(random: () => number): FaultKind[] {
  const deck = [...FAULT_KINDS];
  for (let i = deck.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [deck[i], deck[j]] = [deck[j]!, deck[i]!];
  }
  return deck;
}

export class FaultInjector {
  readonly faults: Fault[] = [];
  private stopped = false;
  private loop: Promise<void> | undefined;
  private readonly catchUps: Promise<void>[] = [];

  constructor(
    private readonly deps: {
      cluster: Cluster;
      serve: readonly ServiceProcess[];
      work: ServiceProcess;
      lag: LagMonitor;
      clock: Clock;
      random: () => number;
      minGapMs: number;
      maxGapMs: number;
      log: (line: string) => void;
    },
  ) {}

  /** Injects faults until `endAt` (run time); a fault that would not end by then is not begun. */
  start(endAt: number): void {
    this.loop = this.run(endAt);
  }

  /** Stops after the fault in progress (which is always completed: the server started, the process up). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
  }

  /** Waits until every fault's catch-up is known (or the lag monitor stopped). */
  async caughtUp(): Promise<void> {
    await Promise.all(this.catchUps);
  }

  private async run(endAt: number): Promise<void> {
    const { clock, random, minGapMs, maxGapMs } = this.deps;
    let deck: FaultKind[] = [];
    for (let n = 1; ; n++) {
      if (deck.length === 0) deck = shuffledDeck(random);
      // Every draw happens whatever the timing, so one seed always gives one sequence of faults.
      const kind = deck.pop()!;
      const gapMs = minGapMs + random() * (maxGapMs - minGapMs);
      const downMs = kind.startsWith('pg') ? 2_000 + random() * 6_000 : 1_000 + random() * 3_000;
      const victim = Math.floor(random() * this.deps.serve.length);
      if (!(await this.pause(gapMs, endAt))) return;
      if (clock.now() + downMs + 5_000 > endAt) return;
      await this.inject(n, kind, downMs, victim);
    }
  }

  /** Sleeps `ms` in small steps; false once stopped or past `endAt`. */
  private async pause(ms: number, endAt: number): Promise<boolean> {
    const until = this.deps.clock.now() + ms;
    while (this.deps.clock.now() < until) {
      if (this.stopped || this.deps.clock.now() >= endAt) return false;
      await sleep(Math.min(250, until - this.deps.clock.now()));
    }
    return !this.stopped;
  }

  private async inject(n: number, kind: FaultKind, downMs: number, victim: number): Promise<void> {
    const { cluster, clock, log } = this.deps;
    const process = kind === 'kill9-serve' ? this.deps.serve[victim]! : this.deps.work;
    const target = kind.startsWith('pg') ? 'postgres' : process.name;
    const fault: Fault = { n, kind, target, plannedDownMs: downMs, startedAt: clock.now() };
    this.faults.push(fault);
    const describe = kind.startsWith('pg')
      ? `pg_ctl stop -m ${kind === 'pg-stop-fast' ? 'fast' : 'immediate'}, start after ${(downMs / 1000).toFixed(1)} s`
      : `kill -9 ${process.name} (pid ${process.pid()}), restart after ${(downMs / 1000).toFixed(1)} s`;
    log(`fault ${n} ${kind}: ${describe}`);
    try {
      if (kind === 'pg-stop-fast' || kind === 'pg-stop-immediate') {
        await cluster.stop(kind === 'pg-stop-fast' ? 'fast' : 'immediate');
        log(`fault ${n}: postgres stopped`);
        await sleep(downMs);
        await this.startCluster();
      } else {
        await process.kill9();
        await sleep(downMs);
        await process.start();
      }
    } catch (error) {
      fault.error = (error as Error).message;
      log(`fault ${n}: ${fault.error}`);
      // Whatever happened, the next fault begins with the system whole.
      try {
        if (kind.startsWith('pg')) await this.startCluster();
        else await process.start();
      } catch (again) {
        log(`fault ${n}: could not restore (${(again as Error).message})`);
        return;
      }
    }
    fault.restoredAt = clock.now();
    log(`fault ${n} ${kind}: restored after ${((fault.restoredAt - fault.startedAt) / 1000).toFixed(1)} s`);
    this.catchUps.push(
      this.deps.lag.caughtUpWithNow().then((at) => {
        if (!Number.isNaN(at)) {
          fault.caughtUpAt = at;
          log(
            `fault ${n}: subscriptions caught up ${((at - fault.restoredAt!) / 1000).toFixed(1)} s after restore`,
          );
        }
      }),
    );
  }

  private async startCluster(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        if (!(await this.deps.cluster.running())) await this.deps.cluster.start();
        return;
      } catch (error) {
        if (attempt >= 5) throw error;
        this.deps.log(`postgres did not start (${(error as Error).message}); trying again`);
        await sleep(1_000);
      }
    }
  }
}
