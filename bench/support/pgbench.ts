import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type pg from 'pg';
import { sampleJsonForPgbench } from './events.js';

const run = promisify(execFile);

export const PGBENCH = process.env.PGBENCH ?? '/usr/bin/pgbench';

export interface PgbenchResult {
  clients: number;
  threads: number;
  tps: number;
  /** pgbench's "latency average", milliseconds. */
  latencyMs: number;
  transactions: number;
}

export interface PgbenchRun {
  /** The SQL of one transaction (autocommit: one statement). */
  script: string;
  clients: number;
  seconds: number;
  libpqEnv: Record<string, string>;
}

/** The ceiling: a plain table (no index) with the same JSON payload as the events. */
export const CEILING_DDL =
  'CREATE TABLE bench_ceiling (id bigint GENERATED ALWAYS AS IDENTITY, payload jsonb NOT NULL)';

export function ceilingScript(): string {
  return `INSERT INTO bench_ceiling (payload) VALUES ('${sampleJsonForPgbench()}');`;
}

/** `pgbench -n -M prepared -c C -j min(C,2) -T S -f script`, against the run's database. */
export async function runPgbench({ script, clients, seconds, libpqEnv }: PgbenchRun): Promise<PgbenchResult> {
  const threads = Math.min(clients, 2);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'casescreen-pgbench-'));
  try {
    const file = path.join(dir, 'transaction.sql');
    await writeFile(file, `${script}\n`);
    const args = [
      '-n',
      '-M',
      'prepared',
      '-c',
      `${clients}`,
      '-j',
      `${threads}`,
      '-T',
      `${seconds}`,
      '-f',
      file,
    ];
    const { stdout } = await run(PGBENCH, args, { env: { ...process.env, ...libpqEnv } });
    return { clients, threads, ...parseOutput(stdout) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function parseOutput(stdout: string): Omit<PgbenchResult, 'clients' | 'threads'> {
  const tps = /^tps = ([\d.]+)/m.exec(stdout);
  const latency = /^latency average = ([\d.]+) ms/m.exec(stdout);
  const transactions = /^number of transactions actually processed: (\d+)/m.exec(stdout);
  const failed = /^number of failed transactions: (\d+)/m.exec(stdout);
  if (!tps || !latency || !transactions) throw new Error(`Unexpected pgbench output:\n${stdout}`);
  if (failed && failed[1] !== '0') throw new Error(`pgbench had failed transactions:\n${stdout}`);
  return { tps: Number(tps[1]), latencyMs: Number(latency[1]), transactions: Number(transactions[1]) };
}

export async function pgbenchVersion(): Promise<string> {
  const { stdout } = await run(PGBENCH, ['--version']);
  return stdout.trim();
}

export async function createCeilingTable(pool: pg.Pool): Promise<void> {
  await pool.query(CEILING_DDL);
}
