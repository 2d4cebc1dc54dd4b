import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';

/**
 * The service's `work` role as its own process (`node dist/src/main.js work`), the shape it runs in
 * production: projections, the check runner, the webhook fan-out and delivery workers. Its log
 * (pino JSON on stdout) is watched for 'workers started' and for warnings and errors, which the
 * report counts: a benchmark whose deliveries failed must say so.
 */
export interface WorkProcess {
  pid: number;
  /**
   * Throws when the process has exited without being asked to (with the end of its output), or has
   * logged a warning or an error (with those lines): a failed attempt makes the figures meaningless.
   */
  assertHealthy(): void;
  /** Log lines at warn or above so far, most recent last (at most 20 kept). */
  problems(): { count: number; last: string[] };
  stop(): Promise<void>;
}

const KEPT_PROBLEMS = 20;
const KEPT_OUTPUT = 8_000;
const WARN = 40;

export interface WorkProcessOptions {
  /** Only the webhook fan-out and delivery workers (webhooksProcess.ts), not the whole work role. */
  webhooksOnly?: boolean;
  /** Flags for node itself (`--cpu-prof`, which NODE_OPTIONS does not take). */
  nodeArgs?: readonly string[];
}

export async function startWorkProcess(
  env: Record<string, string>,
  options: WorkProcessOptions = {},
): Promise<WorkProcess> {
  const command = options.webhooksOnly
    ? [path.join('dist', 'bench', 'support', 'webhooksProcess.js')]
    : [path.join('dist', 'src', 'main.js'), 'work'];
  const child: ChildProcess = spawn(process.execPath, [...(options.nodeArgs ?? []), ...command], {
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let count = 0;
  const last: string[] = [];
  // The end of its output, for the report of a crash.
  let output = '';
  const keep = (text: string) => {
    output = (output + text).slice(-KEPT_OUTPUT);
  };
  let buffered = '';
  let stopping = false;
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        keep(`${line}\n`);
        const entry = parseLine(line);
        if (entry?.msg === 'workers started') resolve();
        if ((entry?.level ?? 0) >= WARN) {
          count++;
          last.push(line.slice(0, 500));
          if (last.length > KEPT_PROBLEMS) last.shift();
        }
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => keep(chunk.toString()));
    child.on('exit', (code, signal) =>
      reject(new Error(`the work process exited (${code ?? signal}):\n${output}`)),
    );
  });
  await ready;
  return {
    pid: child.pid!,
    problems: () => ({ count, last: [...last] }),
    assertHealthy() {
      if (!stopping && (child.exitCode !== null || child.signalCode !== null))
        throw new Error(
          `the work process exited (${child.exitCode ?? child.signalCode}); its last output:\n${output}`,
        );
      if (count > 0)
        throw new Error(`the work process logged ${count} warnings or errors:\n${last.join('\n')}`);
    },
    async stop() {
      stopping = true;
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function parseLine(line: string): { msg?: string; level?: number } | undefined {
  try {
    return JSON.parse(line) as { msg?: string; level?: number };
  } catch {
    return undefined;
  }
}
