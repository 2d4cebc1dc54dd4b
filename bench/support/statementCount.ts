import type pg from 'pg';
import { pino } from 'pino';
import { buildApiServer } from '../../src/api/apiServer.js';
import { startWorkers } from '../../src/app/workers.js';
import { loadConfig } from '../../src/config.js';
import { createPool } from '../../src/db/database.js';
import { createPostgresEventStore } from '../../src/eventStore/postgres/postgresEventStore.js';
import { systemClock } from '../../src/shared/clock.js';
import { sleep } from '../../src/shared/sleep.js';

/**
 * Counts the statements a pool sends: every `query` of every client it hands out (pool.query goes
 * through them too). LISTEN sessions live outside the pool and are not counted.
 */
export function countingPool(url: string): { pool: pg.Pool; count(): number } {
  const pool = createPool(url, { max: 4, applicationName: 'casescreen-bench-counted' });
  let statements = 0;
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      statements++;
      return query(...args);
    };
  });
  return { pool, count: () => statements };
}

export interface StatementsPerRequest {
  get: number;
  post: number;
}

/**
 * Statements per request on the request path alone, in the steady state: an API server in this
 * process on a counted pool (no workers), warmed up with a few requests, then `requests` sequential
 * GETs and POSTs. `auth(n)` should cycle through a few keys, warm-up requests (negative `n`)
 * included: the steady state is keys that have been seen before. The server is closed before the count is read, so whatever it writes later (a
 * buffered request log, say) is counted too.
 */
export async function statementsPerRequest(
  url: string,
  auth: (n: number) => Record<string, string>,
  body: (n: number) => string,
  run: string,
  requests = 50,
): Promise<StatementsPerRequest> {
  const measure = async (send: (base: string, n: number) => Promise<Response>) => {
    const { pool, count } = countingPool(url);
    const store = createPostgresEventStore({ pool, connectionString: url });
    const app = buildApiServer({
      logger: pino({ level: 'silent' }),
      readiness: [],
      pool,
      store,
      sourceStaleAfterMs: 3650 * 86_400_000,
      clock: systemClock,
    });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      for (let n = 0; n < 5; n++) await (await send(base, -1 - n)).arrayBuffer();
      const before = count();
      for (let n = 0; n < requests; n++) {
        const response = await send(base, n);
        await response.arrayBuffer();
        if (response.status >= 300) throw new Error(`statement count: request answered ${response.status}`);
      }
      await app.close();
      return (count() - before) / requests;
    } finally {
      await app.close();
      await store.close();
      await pool.end();
    }
  };
  let reference = '';
  const post = await measure(async (base, n) => {
    const response = await fetch(`${base}/v1/cases`, {
      method: 'POST',
      headers: {
        ...auth(n + 10),
        'content-type': 'application/json',
        'idempotency-key': `${run}-count-${n}`,
      },
      body: body(n),
    });
    if (response.status === 201 && reference === '') {
      reference = ((await response.clone().json()) as { data: { case_reference: string } }).data
        .case_reference;
    }
    return response;
  });
  const get = await measure((base, n) => fetch(`${base}/v1/cases/${reference}`, { headers: auth(n) }));
  return { get, post };
}

/**
 * Statements per case of the work role (projections, the check scheduler and workers, webhooks,
 * monitoring), in the steady state: the work role in this process on a counted pool, an API server on
 * a pool of its own, `cases` cases created one every `intervalMs` (one batch per subscription per
 * append: the costliest pacing), counted until every check has completed and every case view is
 * written. Run it on a quiet database: no other worker may share the work.
 */
export async function workStatementsPerCase(
  url: string,
  auth: Record<string, string>,
  body: (n: number) => string,
  run: string,
  cases = 50,
  intervalMs = 50,
): Promise<number> {
  const { pool, count } = countingPool(url);
  const store = createPostgresEventStore({ pool, connectionString: url });
  const config = loadConfig({ DATABASE_URL: url, SOURCE_STALE_AFTER: '3650d', LOG_LEVEL: 'silent' });
  const workers = await startWorkers({
    pool,
    databaseUrl: url,
    store,
    logger: pino({ level: 'silent' }),
    config,
  });
  const apiPool = createPool(url, { max: 4, applicationName: 'casescreen-bench-api' });
  const apiStore = createPostgresEventStore({ pool: apiPool, connectionString: url });
  const app = buildApiServer({
    logger: pino({ level: 'silent' }),
    readiness: [],
    pool: apiPool,
    store: apiStore,
    sourceStaleAfterMs: 3650 * 86_400_000,
    clock: systemClock,
  });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const settled = async () => {
      const { rows } = await apiPool.query<{ open: number }>(
        `SELECT count(*)::int AS open FROM check_jobs WHERE status <> 'done'`,
      );
      return rows[0]!.open === 0;
    };
    while (!(await settled())) await sleep(100);
    const before = count();
    const references: string[] = [];
    for (let n = 0; n < cases; n++) {
      const response = await fetch(`${base}/v1/cases`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': `${run}-work-${n}` },
        body: body(n),
      });
      if (response.status !== 201) throw new Error(`work statement count: POST answered ${response.status}`);
      references.push(((await response.json()) as { data: { case_reference: string } }).data.case_reference);
      await sleep(intervalMs);
    }
    for (;;) {
      const { rows } = await apiPool.query<{ viewed: number }>(
        `SELECT count(*)::int AS viewed FROM case_views v
           JOIN es_streams s ON s.stream_name = 'case-' || v.case_reference AND s.revision = v.revision
          WHERE v.case_reference = ANY ($1)`,
        [references],
      );
      if (rows[0]!.viewed === cases && (await settled())) break;
      await sleep(100);
    }
    // What the work role does after the last view (the webhook fan-out, the monitoring scheduler) settles.
    await sleep(1000);
    return (count() - before) / cases;
  } finally {
    await app.close();
    await workers.stop();
    await apiStore.close();
    await store.close();
    await apiPool.end();
    await pool.end();
  }
}
