import { parseArgs } from 'node:util';

/** Sizes of one run. Each comes from a flag (`--append-seconds 5`), else BENCH_* env, else the default. */
export interface BenchOptions {
  /** Duration of each append throughput phase (1 writer, then N writers). */
  appendSeconds: number;
  /** Concurrent writers of the second append phase, and pgbench's clients for its ceiling. */
  writers: number;
  /** Steady append rate while delivery latency is measured. */
  latencyRate: number;
  latencySeconds: number;
  /** Events on the feed before the rebuild is timed (the other phases' events count too). */
  rebuildEvents: number;
  /** Events per multi-event append while seeding. */
  seedBatch: number;
  /** Events per batch (one read-model transaction) of the rebuild; 200 is the runner's default. */
  rebuildBatch: number;
  pgbenchSeconds: number;
  /** Compare es_append as shipped with a copy that NOTIFYs inside its transaction; on unless --no-diagnose. */
  diagnose: boolean;
}

interface Spec {
  flag: string;
  env: string;
  fallback: number;
  min: number;
}

const NUMERIC: Record<Exclude<keyof BenchOptions, 'diagnose'>, Spec> = {
  appendSeconds: { flag: 'append-seconds', env: 'BENCH_APPEND_SECONDS', fallback: 10, min: 1 },
  writers: { flag: 'writers', env: 'BENCH_WRITERS', fallback: 8, min: 2 },
  latencyRate: { flag: 'latency-rate', env: 'BENCH_LATENCY_RATE', fallback: 200, min: 1 },
  latencySeconds: { flag: 'latency-seconds', env: 'BENCH_LATENCY_SECONDS', fallback: 10, min: 1 },
  rebuildEvents: { flag: 'rebuild-events', env: 'BENCH_REBUILD_EVENTS', fallback: 100_000, min: 1 },
  seedBatch: { flag: 'seed-batch', env: 'BENCH_SEED_BATCH', fallback: 100, min: 1 },
  rebuildBatch: { flag: 'rebuild-batch', env: 'BENCH_REBUILD_BATCH', fallback: 200, min: 1 },
  pgbenchSeconds: { flag: 'pgbench-seconds', env: 'BENCH_PGBENCH_SECONDS', fallback: 5, min: 1 },
};

export const USAGE = `Usage: node dist/bench/eventStore.bench.js [options]
${Object.values(NUMERIC)
  .map((spec) => `${`  --${spec.flag} <n>`.padEnd(28)}(env ${spec.env}, default ${spec.fallback})`)
  .join('\n')}
  --no-diagnose             (env BENCH_DIAGNOSE=0) skip the breakdown: es_append as shipped vs with NOTIFY
                            inside, adapter and pgbench, at 1 and N clients (10 x pgbench-seconds)
  DATABASE_URL              use this server (a throwaway database on it) instead of an embedded one`;

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv): BenchOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...Object.fromEntries(Object.values(NUMERIC).map((spec) => [spec.flag, { type: 'string' as const }])),
      'no-diagnose': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) return 'help';
  const flags = values as Record<string, unknown>;
  const numbers = Object.fromEntries(
    Object.entries(NUMERIC).map(([key, spec]) => [key, readNumber(spec, flags[spec.flag], env[spec.env])]),
  ) as Omit<BenchOptions, 'diagnose'>;
  return { ...numbers, diagnose: values['no-diagnose'] !== true && env.BENCH_DIAGNOSE !== '0' };
}

function readNumber(spec: Spec, flag: unknown, env: string | undefined): number {
  const raw = typeof flag === 'string' ? flag : env;
  if (raw === undefined || raw === '') return spec.fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < spec.min) {
    throw new Error(`--${spec.flag} / ${spec.env} must be an integer >= ${spec.min}, got "${raw}"`);
  }
  return value;
}
