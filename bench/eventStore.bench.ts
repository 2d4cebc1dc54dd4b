/**
 * Event store benchmark: append throughput, subscriber delivery latency and read-model rebuild
 * rate, each printed beside pgbench's single-row INSERT ceiling measured on the same server in the
 * same run. Usage: `npm run bench:eventstore -- --help`.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type pg from 'pg';
import { createPool } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import type { EventStore } from '../src/eventStore/eventStore.js';
import { createPostgresEventStore } from '../src/eventStore/postgres/postgresEventStore.js';
import { measureAppends } from './support/appends.js';
import {
  adapterSubscribePath,
  type DeliveryLatency,
  measureDelivery,
  subscriptionRunnerPath,
} from './support/delivery.js';
import { type AppendBreakdown, breakDownAppend, createNotifyInsideAppend } from './support/diagnostics.js';
import { type BenchOptions, parseOptions, USAGE } from './support/options.js';
import { CEILING_DDL, ceilingScript, pgbenchVersion, runPgbench } from './support/pgbench.js';
import { readWholeFeed, rebuildStreamIndex, seedFeed } from './support/rebuild.js';
import { type BenchServer, openBenchServer } from './support/server.js';
import { type Results, type SampledAppends, summary } from './support/summary.js';
import { sampleWaits } from './support/waits.js';

interface Bench {
  options: BenchOptions;
  server: BenchServer;
  pool: pg.Pool;
  store: EventStore;
  /** Unique per run: stream names never collide with an earlier run on a DATABASE_URL server. */
  run: string;
}

const APPLICATION_NAME = 'casescreen-bench';

const progress = (message: string) => process.stderr.write(`[bench] ${message}\n`);

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2), process.env);
  if (options === 'help') {
    console.log(USAGE);
    return;
  }
  progress(process.env.DATABASE_URL ? 'using DATABASE_URL' : 'starting embedded PostgreSQL');
  const server = await openBenchServer(process.env.DATABASE_URL);
  try {
    await benchmark(options, server);
  } finally {
    progress('stopping');
    await server.close();
  }
}

async function benchmark(options: BenchOptions, server: BenchServer): Promise<void> {
  await migrate(server.url);
  const pool = createPool(server.url, { max: options.writers + 8, applicationName: APPLICATION_NAME });
  const store = createPostgresEventStore({ pool, connectionString: server.url });
  const bench: Bench = { options, server, pool, store, run: randomUUID().slice(0, 8) };
  try {
    await prepareSchema(bench);
    console.log(await machineFacts(bench));
    const results = await runPhases(bench);
    console.log(`\n${summary(options, results)}`);
    console.log(`* Load: ${loadAverage()} at the end.`);
  } finally {
    await store.close();
    await pool.end();
  }
}

async function prepareSchema({ pool, options }: Bench): Promise<void> {
  await pool.query(CEILING_DDL);
  if (options.diagnose) await createNotifyInsideAppend(pool);
}

async function machineFacts({ pool, server }: Bench): Promise<string> {
  const { rows } = await pool.query<{ name: string; setting: string }>(
    `SELECT name, current_setting(name) AS setting FROM unnest(ARRAY['server_version', 'fsync',
       'synchronous_commit', 'wal_sync_method', 'shared_buffers', 'max_connections']) AS name`,
  );
  const settings = new Map(rows.map((row) => [row.name, row.setting]));
  const cpus = os.cpus();
  return [
    `Server:     ${server.description}`,
    `PostgreSQL: ${settings.get('server_version')} (fsync=${settings.get('fsync')}, synchronous_commit=${settings.get('synchronous_commit')}, wal_sync_method=${settings.get('wal_sync_method')}, shared_buffers=${settings.get('shared_buffers')})`,
    `pgbench:    ${await pgbenchVersion()}`,
    `Machine:    ${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${os.type()} ${os.release()}`,
    `Node:       ${process.version}`,
    `Load:       ${loadAverage()} at the start`,
  ].join('\n');
}

/** Other processes on the same cores move every figure; the load average tells whether they ran. */
function loadAverage(): string {
  return `${os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(' / ')} (1/5/15 min load average)`;
}

async function runPhases(bench: Bench): Promise<Results> {
  const { options, store, run } = bench;
  const appendMs = options.appendSeconds * 1000;
  progress('warm-up: 1 s of appends');
  await measureAppends(store, `${run}warm`, 1, 1000);
  progress(`appends: 1 writer, ${options.appendSeconds} s`);
  const appendOne = await sampledAppends(bench, 1, appendMs);
  progress(`appends: ${options.writers} writers, ${options.appendSeconds} s`);
  const appendMany = await sampledAppends(bench, options.writers, appendMs);
  const { ceilingOne, ceilingMany } = await runCeilings(bench);
  const delivery = await runDelivery(bench);
  progress(`seeding ${options.rebuildEvents} events in ${options.seedBatch}-event appends`);
  const seed = await seedFeed(store, run, options.rebuildEvents, options.seedBatch);
  const rebuild = await runRebuilds(bench);
  const breakdown = options.diagnose ? await runBreakdown(bench) : [];
  return {
    appendOne,
    appendMany,
    ceilingOne,
    ceilingMany,
    delivery,
    seed,
    rebuild,
    breakdown,
  };
}

/** An append phase with the server side sampled: what its backends wait on. */
async function sampledAppends(
  { store, server, run }: Bench,
  writers: number,
  ms: number,
): Promise<SampledAppends> {
  const sampler = sampleWaits(server.url, APPLICATION_NAME);
  const result = await measureAppends(store, run, writers, ms);
  return { ...result, waits: await sampler.stop() };
}

async function runCeilings({ options, server }: Bench) {
  const ceiling = (clients: number) => {
    progress(`pgbench ceiling: -c ${clients}, ${options.pgbenchSeconds} s`);
    return runPgbench({
      script: ceilingScript(),
      clients,
      seconds: options.pgbenchSeconds,
      libpqEnv: server.libpqEnv,
    });
  };
  const ceilingOne = await ceiling(1);
  const ceilingMany = await ceiling(options.writers);
  return { ceilingOne, ceilingMany };
}

async function runDelivery({ options, store, pool, server, run }: Bench): Promise<DeliveryLatency[]> {
  const results: DeliveryLatency[] = [];
  for (const path of [adapterSubscribePath(store), subscriptionRunnerPath(store, pool, server.url)]) {
    progress(`delivery latency via ${path.name}: ${options.latencyRate}/s for ${options.latencySeconds} s`);
    results.push(await measureDelivery(store, path, run, options.latencyRate, options.latencySeconds * 1000));
  }
  return results;
}

async function runRebuilds({ options, store, pool, server }: Bench): Promise<Results['rebuild']> {
  progress(`feed read: whole feed in pages of ${options.rebuildBatch}`);
  const feedRead = await readWholeFeed(store, options.rebuildBatch);
  progress(`rebuild: stream_index projection through rebuildProjection, batches of ${options.rebuildBatch}`);
  const rebuild = await rebuildStreamIndex(store, pool, server.url, options.rebuildBatch);
  return [
    { label: 'rebuild events, stream_index (rebuildProjection)', rate: rebuild },
    { label: 'feed read events alone (readFeed pages)', rate: feedRead },
  ];
}

async function runBreakdown({ options, pool, server, run }: Bench): Promise<AppendBreakdown[]> {
  const results: AppendBreakdown[] = [];
  for (const clients of [1, options.writers]) {
    progress(`diagnose: es_append as shipped vs with NOTIFY inside, and INSERT, -c ${clients}`);
    results.push(
      await breakDownAppend(pool, server.url, server.libpqEnv, run, clients, options.pgbenchSeconds),
    );
  }
  return results;
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
