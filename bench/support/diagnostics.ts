import pg from 'pg';
import { createPostgresEventStore } from '../../src/eventStore/postgres/postgresEventStore.js';
import { FEED_CHANNEL } from '../../src/eventStore/postgres/wakeups.js';
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

/**
 * Where an append's time goes, and what the post-commit notify saves: the shipped es_append beside
 * a copy that sends its NOTIFY inside the transaction (the earlier design), then the bare INSERT.
 */
export interface AppendBreakdown {
  clients: number;
  /** The real adapter, its es_append resolved to the copy with NOTIFY inside: the earlier design. */
  adapterNotifyInside: { perSecond: number; p50: number; nodeCpuMsPerAppend: number; waits: WaitShare[] };
  /** pgbench calling es_append directly: as shipped, then the copy with NOTIFY inside. */
  esAppend: PgbenchVariant[];
  /** node-pg (pool.query) doing pgbench's single-row INSERT: the Node client's own cost. */
  nodeInsertPerSecond: number;
  nodeInsertP50Ms: number;
  /** pgbench doing the ceiling's INSERT again, beside the rows above. */
  insert: PgbenchVariant;
}

const NOTIFY_INSIDE_SCHEMA = 'bench_notify_inside';
const APPLICATION_NAME = 'casescreen-bench-notify-inside';

/** The statement the copy gains before its final END: the earlier in-transaction wake-up. */
const NOTIFY_INSIDE = `PERFORM pg_notify('${FEED_CHANNEL}', json_build_object('c', json_build_array(p_category))::text);`;

/**
 * A copy of the shipped es_append with a NOTIFY inside its transaction, as
 * `bench_notify_inside.es_append` in the throwaway database only. A session with search_path
 * `bench_notify_inside, public` runs the unchanged adapter against it.
 */
export async function createNotifyInsideAppend(pool: pg.Pool): Promise<void> {
  const { rows } = await pool.query<{ def: string }>(
    `SELECT pg_get_functiondef('es_append'::regproc) AS def`,
  );
  const shipped = rows[0]!.def;
  if (/pg_notify\s*\(/.test(shipped)) {
    throw new Error('es_append already calls pg_notify; the NOTIFY-inside comparison no longer applies');
  }
  const finalEnd = shipped.lastIndexOf('END;');
  if (finalEnd < 0) throw new Error('Could not find the final END of es_append');
  const copy = `${shipped.slice(0, finalEnd)}${NOTIFY_INSIDE}\n${shipped.slice(finalEnd)}`.replace(
    /FUNCTION (public\.)?es_append\(/,
    `FUNCTION ${NOTIFY_INSIDE_SCHEMA}.es_append(`,
  );
  if (!copy.includes(`FUNCTION ${NOTIFY_INSIDE_SCHEMA}.es_append(`)) {
    throw new Error('Could not derive a NOTIFY-inside copy of es_append');
  }
  await pool.query(`CREATE SCHEMA ${NOTIFY_INSIDE_SCHEMA}`);
  await pool.query(copy);
}

/**
 * Appends through the real adapter on sessions whose es_append is the NOTIFY-inside copy. The
 * adapter still sends its coalesced post-commit NOTIFY too (one spare connection for it, as the
 * main phases' pool has spares).
 */
async function adapterAppendsNotifyInside(
  url: string,
  run: string,
  writers: number,
  seconds: number,
): Promise<AppendBreakdown['adapterNotifyInside']> {
  const pool = new pg.Pool({
    connectionString: url,
    max: writers + 1,
    application_name: APPLICATION_NAME,
    options: `-c search_path=${NOTIFY_INSIDE_SCHEMA},public`,
  });
  const store = createPostgresEventStore({ pool, connectionString: url });
  try {
    const sampler = sampleWaits(url, APPLICATION_NAME);
    const result = await measureAppends(store, `${run}notifyInside`, writers, seconds * 1000);
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

/** The es_append variants compared: as shipped, and the copy with NOTIFY inside. */
function esAppendScripts(run: string): { name: string; script: string }[] {
  return [
    { name: 'es_append as shipped', script: esAppendStatement('public.es_append', run) },
    {
      name: 'es_append with NOTIFY inside',
      script: esAppendStatement(`${NOTIFY_INSIDE_SCHEMA}.es_append`, run),
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
  const pgbench = async (name: string, script: string): Promise<PgbenchVariant> => {
    const walBefore = await walPosition(pool);
    const sampler = sampleWaits(url, 'pgbench');
    const result = await runPgbench({ script, clients, seconds, libpqEnv });
    const waits = await sampler.stop();
    const walBytes = await walBytesSince(pool, walBefore);
    return { name, result, walBytesPerTransaction: walBytes / result.transactions, waits };
  };
  const adapterNotifyInside = await adapterAppendsNotifyInside(url, run, clients, seconds);
  const esAppend: PgbenchVariant[] = [];
  for (const { name, script } of esAppendScripts(run)) esAppend.push(await pgbench(name, script));
  const node = await nodeInserts(pool, clients, seconds);
  const insert = await pgbench('INSERT (the ceiling, again)', ceilingScript());
  return {
    clients,
    adapterNotifyInside,
    esAppend,
    nodeInsertPerSecond: node.perSecond,
    nodeInsertP50Ms: node.p50,
    insert,
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
