import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { eventually } from './eventually.js';

/**
 * How long a service process may take to start (tsx compiles src/ on the way: two seconds on a
 * quiet machine, many more on a busy one). Only a process that never starts waits this long.
 */
export const SERVICE_START_TIMEOUT_MS = 120_000;

export interface ServiceProcess {
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr together. */
  output(): string;
  /** Its JSON log lines so far. */
  logLines(): Record<string, unknown>[];
  /** Its exit code (null when a signal ended it). */
  exited: Promise<number | null>;
}

/**
 * Runs the real entry point (src/main.ts through tsx) as its own process, on a free local port,
 * logging at info (an empty DATABASE_URL counts as unset: the embedded server). It may take its time to stop: a hang shows as the test's own timeout.
 */
export function startServiceProcess(
  role: string,
  env: Record<string, string>,
  options: { detached?: boolean } = {},
): ServiceProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', role], {
    // A process group of its own, as a terminal's foreground job: a signal to -pid reaches the group.
    detached: options.detached ?? false,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      SHUTDOWN_TIMEOUT_MS: '120000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    output += chunk;
  });
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  // Complete lines only: the last piece is empty, or a line still being written.
  const logLines = () =>
    output
      .split('\n')
      .slice(0, -1)
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { child, output: () => output, logLines, exited };
}

/** Waits until the process logs a line with this message, and returns it. */
export function logged(
  service: ServiceProcess,
  msg: string,
  timeoutMs = SERVICE_START_TIMEOUT_MS,
): Promise<Record<string, unknown>> {
  return eventually(() => {
    const line = service.logLines().find((entry) => entry.msg === msg);
    if (!line) throw new Error(`no "${msg}" logged yet:\n${service.output()}`);
    return line;
  }, timeoutMs);
}

/** The URL the process serves, once it says so. */
export async function servingUrl(service: ServiceProcess): Promise<string> {
  return (await logged(service, 'serving')).url as string;
}
