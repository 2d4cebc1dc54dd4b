import pg from 'pg';
import { createPostgresEventStore } from '../../src/eventStore/postgres/postgresEventStore.js';
import { measureAppends } from './appends.js';
import { sampleJsonForPgbench } from './events.js';
import { ceilingScript, type PgbenchResult, runPgbench } from './pgbench.js';
import { distribution, now } from './stats.js';
import { sampleWaits, type WaitShare } from './waits.js';

/** One way of appending, measured by pgbench, with what its backends waited on. */
export interface PgbenchVariant {
  name: string;
  result: PgbenchResult;
  /** WAL written during the run divided by its transactions (includes background writes). */
  walBytesPerTransaction: number;
  waits: WaitShare[];
}

/** Where an append's time goes: the same work measured from the bottom up. */
export interface AppendBreakdown {
  clients: number;
  /** node-pg (pool.query) doing pgbench's single-row INSERT: the Node client's own cost. */
  nodeInsertPerSecond: number;
  nodeInsertP50Ms: number;
  /** The real adapter, its es_append resolved to the NOTIFY-free copy: what the fix would give. */
  adapterWithoutNotify: { perSecond: number; p50: number; nodeCpuMsPerAppend: number; waits: WaitShare[] };
  variants: PgbenchVariant[];
}

const QUIET_SCHEMA = 'bench_quiet';
const APPLICATION_NAME = 'casescreen-bench-quiet';

/**
 * A copy of es_append without its NOTIFY, as `bench_quiet.es_append` in the throwaway database
 * only. A session with search_path `bench_quiet, public` runs the unchanged adapter against it.
 */
export async function createQuietAppend(pool: pg.Pool): Promise<void> {
  const { rows } = await pool.query<{ def: string }>(
    `SELECT pg_get_functiondef('es_append'::regproc) AS def`,
  );
  const original = rows[0]!.def;
  const quiet = original
    .replace(/FUNCTION (public\.)?es_append\(/, `FUNCTION ${QUIET_SCHEMA}.es_append(`)
    .replace(/PERFORM pg_notify\([^;]*\);/, '-- NOTIFY removed for the benchmark');
  if (quiet === original || quiet.includes('pg_notify(')) {
    throw new Error('Could not derive a NOTIFY-free copy of es_append');
  }
  await pool.query(`CREATE SCHEMA ${QUIET_SCHEMA}`);
  await pool.query(quiet);
}

/** Appends through the real adapter on sessions whose es_append is the NOTIFY-free copy. */
async function adapterAppendsWithoutNotify(
  url: string,
  run: string,
  writers: number,
  seconds: number,
): Promise<AppendBreakdown['adapterWithoutNotify']> {
  const pool = new pg.Pool({
    connectionString: url,
    max: writers,
    application_name: APPLICATION_NAME,
    options: `-c search_path=${QUIET_SCHEMA},public`,
  });
  const store = createPostgresEventStore({ pool, connectionString: url });
  try {
    const sampler = sampleWaits(url, APPLICATION_NAME);
    const result = await measureAppends(store, `${run}quiet`, writers, seconds * 1000);
    const waits = await sampler.stop();
    return {
      perSecond: result.perSecond,
      p50: result.latency.p50,
      nodeCpuMsPerAppend: result.nodeCpuMsPerAppend,
      waits,
    };
  } finally {
    await store.close();
    await pool.end();
  }
}

/** The adapter's append statement for one event, with a stream per pgbench client. */
function esAppendStatement(fn: string, run: string): string {
  const data = sampleJsonForPgbench();
  return `SELECT ok FROM ${fn}('benchPgbench-${run}-' || :client_id, 'benchPgbench', 'any',
  ARRAY[gen_random_uuid()], ARRAY['BenchAppended'],
  ARRAY(SELECT jsonb_array_elements('[${data}]'::jsonb)), ARRAY(SELECT jsonb_array_elements('[{}]'::jsonb)));`;
}

/** The ways of appending compared: as shipped, without NOTIFY, and with NOTIFY as its own statement. */
function variantScripts(run: string): { name: string; script: string }[] {
  const notify = `SELECT pg_notify('es_events', '{"c": "benchPgbench"}');`;
  return [
    { name: 'INSERT (the ceiling, again)', script: ceilingScript() },
    { name: 'es_append (NOTIFY inside)', script: esAppendStatement('es_append', run) },
    { name: 'es_append without NOTIFY', script: esAppendStatement(`${QUIET_SCHEMA}.es_append`, run) },
    {
      name: 'es_append w/o NOTIFY, then NOTIFY alone',
      script: `${esAppendStatement(`${QUIET_SCHEMA}.es_append`, run)}\n${notify}`,
    },
  ];
}

/** `clients` loops of pool.query(INSERT ...) for `seconds`. */
async function nodeInserts(
  pool: pg.Pool,
  clients: number,
  seconds: number,
): Promise<{ perSecond: number; p50: number }> {
  const deadline = now() + seconds * 1000;
  const payload = sampleJsonForPgbench();
  const started = now();
  const loop = async () => {
    const latencies: number[] = [];
    while (now() < deadline) {
      const start = now();
      await pool.query({
        name: 'bench-insert',
        text: 'INSERT INTO bench_ceiling (payload) VALUES ($1)',
        values: [payload],
      });
      latencies.push(now() - start);
    }
    return latencies;
  };
  const latencies = (await Promise.all(Array.from({ length: clients }, loop))).flat();
  return { perSecond: latencies.length / ((now() - started) / 1000), p50: distribution(latencies).p50 };
}

export async function breakDownAppend(
  pool: pg.Pool,
  url: string,
  libpqEnv: Record<string, string>,
  run: string,
  clients: number,
  seconds: number,
): Promise<AppendBreakdown> {
  const node = await nodeInserts(pool, clients, seconds);
  const adapterWithoutNotify = await adapterAppendsWithoutNotify(url, run, clients, seconds);
  const variants: PgbenchVariant[] = [];
  for (const { name, script } of variantScripts(run)) {
    const walBefore = await walPosition(pool);
    const sampler = sampleWaits(url, 'pgbench');
    const result = await runPgbench({ script, clients, seconds, libpqEnv });
    const waits = await sampler.stop();
    const walBytes = await walBytesSince(pool, walBefore);
    variants.push({ name, result, walBytesPerTransaction: walBytes / result.transactions, waits });
  }
  return {
    clients,
    nodeInsertPerSecond: node.perSecond,
    nodeInsertP50Ms: node.p50,
    adapterWithoutNotify,
    variants,
  };
}

async function walPosition(pool: pg.Pool): Promise<string> {
  const { rows } = await pool.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn');
  return rows[0]!.lsn;
}

async function walBytesSince(pool: pg.Pool, lsn: string): Promise<number> {
  const { rows } = await pool.query<{ bytes: string }>(
    'SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), $1::pg_lsn)::text AS bytes',
    [lsn],
  );
  return Number(rows[0]!.bytes);
}
