import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from './clock.js';

/**
 * One service process of the run (`node dist/src/main.js serve|work`), supervised as systemd or a
 * container runtime would: started and waited for (`serving` / `workers started` in its log), killed
 * with SIGKILL by the fault injector and started again, and, when it exits without being asked to
 * (a product bug: a database restart must not end a process), recorded and restarted after a moment.
 * Its whole output goes to `<logDir>/<name>.log`; warnings and errors are counted by message.
 */
export interface UnexpectedExit {
  process: string;
  /** Run time of the exit, ms. */
  at: number;
  code: number | null;
  signal: string | null;
  /** The last lines it wrote. */
  lastOutput: string[];
}

export interface ServiceProcess {
  readonly name: string;
  readonly role: 'serve' | 'work';
  /** `http://127.0.0.1:<port>` for `serve`; the port stays the same across restarts. */
  readonly url: string | undefined;
  pid(): number | undefined;
  /** Started and not exited. */
  alive(): boolean;
  start(): Promise<void>;
  kill9(): Promise<void>;
  /** SIGTERM, SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
  /** Synchronous last resort (exit handler). */
  killNow(): void;
  readonly unexpectedExits: UnexpectedExit[];
  /** Start attempts that failed (the process exited before it was ready). */
  startFailures(): number;
  /** Warn (40) and error (50+) log lines, by level and message. */
  problems(): Map<string, number>;
}

const READY_TIMEOUT_MS = 90_000;
const KEPT_LINES = 80;
const SUPERVISOR_RESTART_DELAY_MS = 1_000;

export function serviceProcess(options: {
  name: string;
  role: 'serve' | 'work';
  port?: number;
  env: Record<string, string>;
  logDir: string;
  clock: Clock;
  log: (line: string) => void;
}): ServiceProcess {
  const { name, role, clock, log } = options;
  const url = options.port === undefined ? undefined : `http://127.0.0.1:${options.port}`;
  const logFile: WriteStream = createWriteStream(path.join(options.logDir, `${name}.log`), { flags: 'a' });
  const unexpectedExits: UnexpectedExit[] = [];
  const problems = new Map<string, number>();
  let child: ChildProcess | undefined;
  let lastLines: string[] = [];
  let failures = 0;
  /** Set while the run itself ends the process (kill -9, stop): its exit is expected. */
  let ending = false;
  let shuttingDown = false;
  let starting: Promise<void> | undefined;

  const record = (line: string) => {
    lastLines.push(line.slice(0, 1_000));
    if (lastLines.length > KEPT_LINES) lastLines = lastLines.slice(-KEPT_LINES);
    if (!line.startsWith('{')) return;
    try {
      const entry = JSON.parse(line) as { level?: number; msg?: string };
      if ((entry.level ?? 0) >= 40) {
        const key = `${entry.level! >= 50 ? 'error' : 'warn'}: ${entry.msg ?? '?'}`;
        problems.set(key, (problems.get(key) ?? 0) + 1);
      }
    } catch {
      // a partial or non-JSON line: kept in the log file only
    }
  };

  /** One attempt: spawn, resolve once ready, reject if it exits first. */
  const spawnOnce = (): Promise<void> => {
    const args = [path.join('dist', 'src', 'main.js'), role];
    const env: Record<string, string> = { ...(process.env as Record<string, string>), ...options.env };
    if (options.port !== undefined) env.PORT = String(options.port);
    const current = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child = current;
    logFile.write(`--- ${new Date().toISOString()} started pid ${current.pid} (${role})\n`);
    const readyMessage = role === 'serve' ? '"msg":"serving"' : '"msg":"workers started"';
    return new Promise<void>((resolve, reject) => {
      let ready = false;
      let buffered = '';
      const onData = (chunk: Buffer) => {
        logFile.write(chunk);
        buffered += chunk.toString();
        const lines = buffered.split('\n');
        buffered = lines.pop()!;
        for (const line of lines) {
          record(line);
          if (!ready && line.includes(readyMessage)) {
            ready = true;
            resolve();
          }
        }
      };
      current.stdout!.on('data', onData);
      current.stderr!.on('data', onData);
      const timer = setTimeout(() => {
        if (!ready) {
          current.kill('SIGKILL');
          reject(new Error(`${name} was not ready within ${READY_TIMEOUT_MS / 1000} s`));
        }
      }, READY_TIMEOUT_MS);
      current.once('exit', (code, signal) => {
        clearTimeout(timer);
        logFile.write(`--- ${new Date().toISOString()} pid ${current.pid} exited (${code ?? signal})\n`);
        if (!ready) {
          reject(new Error(`${name} exited (${code ?? signal}) before it was ready`));
          return;
        }
        if (ending || shuttingDown || child !== current) return;
        // Nobody asked it to end.
        const exit: UnexpectedExit = {
          process: name,
          at: clock.now(),
          code,
          signal,
          lastOutput: [...lastLines],
        };
        unexpectedExits.push(exit);
        log(`!! ${name} (pid ${current.pid}) exited on its own (${code ?? signal}); restarting it`);
        void (async () => {
          await sleep(SUPERVISOR_RESTART_DELAY_MS);
          if (!shuttingDown && !alive()) await start().catch(() => {});
        })();
      });
    });
  };

  const alive = () => child !== undefined && child.exitCode === null && child.signalCode === null;

  /** Starts it, trying again for a while when it exits during start-up (the database may be down). */
  const start = (): Promise<void> => {
    if (shuttingDown) return Promise.reject(new Error(`the run is ending: ${name} stays down`));
    if (starting) return starting;
    starting = (async () => {
      const deadline = clock.now() + 2 * READY_TIMEOUT_MS;
      for (;;) {
        ending = false;
        try {
          await spawnOnce();
          return;
        } catch (error) {
          failures++;
          if (shuttingDown || clock.now() > deadline) throw error;
          log(`${name}: ${(error as Error).message}; trying again`);
          await sleep(1_000);
        }
      }
    })().finally(() => {
      starting = undefined;
    });
    return starting;
  };

  const end = async (signal: NodeJS.Signals, graceMs: number) => {
    const current = child;
    if (!current || current.exitCode !== null || current.signalCode !== null) return;
    ending = true;
    const exited = once(current, 'exit');
    current.kill(signal);
    const timer = setTimeout(() => current.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };

  return {
    name,
    role,
    url,
    pid: () => child?.pid,
    alive,
    start,
    kill9: () => end('SIGKILL', 0),
    async stop(graceMs = 30_000) {
      shuttingDown = true;
      await starting?.catch(() => {});
      await end('SIGTERM', graceMs);
      await new Promise<void>((resolve) => logFile.end(resolve));
    },
    killNow() {
      shuttingDown = true;
      if (alive()) child!.kill('SIGKILL');
    },
    unexpectedExits,
    startFailures: () => failures,
    problems: () => new Map(problems),
  };
}
