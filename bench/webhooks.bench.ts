/**
 * Webhook delivery benchmark (issue 13, item 9): deliveries per second from the outbox to a local
 * receiver, with one endpoint and with many, and the latency from a domain event's commit to the
 * receiver's handler at a steady rate, each beside a bare node:http POST loop to the same receiver
 * measured in the same run. The service runs as its own `work` process, as in production; the
 * receiver runs in a third process. Usage: `npm run bench:webhooks -- --help`.
 */
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import type pg from 'pg';
import { createPool } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { createPostgresEventStore } from '../src/eventStore/postgres/postgresEventStore.js';
import { readSystemStatus } from '../src/observability/systemStatus.js';
import { systemClock } from '../src/shared/clock.js';
import { generateSigningSecret } from '../src/webhooks/adminPolicy.js';
import { createWebhookEndpoint } from '../src/webhooks/webhookEndpoints.js';
import { createWorkspace } from '../src/workspace/workspaceStore.js';
import { type CpuUse, meterCpu, parentPid, type Watched } from './support/cpu.js';
import {
  barePostLoop,
  barePostsAtRate,
  type LoopResult,
  type PostTarget,
  senderLoop,
} from './support/postLoop.js';
import { type Arrivals, type Receiver, startReceiver } from './support/receiver.js';
import { fraction, ms, multiple, NONE, perSecond, table } from './support/report.js';
import { openBenchServer } from './support/server.js';
import { type Distribution, distribution, now } from './support/stats.js';
import { describeWaits, sampleWaits, type WaitShare } from './support/waits.js';
import { type CaseAccount, createCases, createCasesAtRate } from './support/webhookCases.js';
import { startWorkProcess } from './support/workProcess.js';

const USAGE = `Usage: npm run bench:webhooks -- [options]
  --deliveries N    deliveries pre-filled in the outbox for each throughput phase (default 20000)
  --workers LIST    WEBHOOK_WORKERS of the one-endpoint phases, comma-separated (default 16,64);
                    the first also runs the many-endpoint and latency phases
  --endpoints N     endpoints of the many-endpoint phase (default 50)
  --seconds N       duration of each baseline POST loop (default 10)
  --rate N          domain events per second of the latency phase (default 100)
  --rate-seconds N  duration of the latency phase (default 20)
  DATABASE_URL      use this server (a throwaway database on it) instead of an embedded one`;

const progress = (message: string) => process.stderr.write(`[bench] ${message}\n`);

class OptionError extends Error {}

interface Options {
  deliveries: number;
  workers: number[];
  endpoints: number;
  seconds: number;
  rate: number;
  rateSeconds: number;
}

function parseOptions(argv: string[]): Options | 'help' {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        deliveries: { type: 'string' },
        workers: { type: 'string' },
        endpoints: { type: 'string' },
        seconds: { type: 'string' },
        rate: { type: 'string' },
        'rate-seconds': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new OptionError(`${(error as Error).message}\n${USAGE}`);
  }
  if (values.help) return 'help';
  const count = (name: string, fallback: number, max = Number.MAX_SAFE_INTEGER) => {
    const text = values[name] as string | undefined;
    const value = text === undefined ? fallback : Number(text);
    if (!Number.isInteger(value) || value < 1 || value > max)
      throw new OptionError(`--${name} must be a whole number from 1 to ${max}, got "${text}"\n${USAGE}`);
    return value;
  };
  const workersText = (values.workers as string | undefined) ?? '16,64';
  const workers = workersText.split(',').map((part) => Number(part.trim()));
  if (workers.some((value) => !Number.isInteger(value) || value < 1 || value > 256))
    throw new OptionError(`--workers must list whole numbers from 1 to 256, got "${workersText}"\n${USAGE}`);
  const options = {
    deliveries: count('deliveries', 20_000),
    workers,
    endpoints: count('endpoints', 50, 500),
    seconds: count('seconds', 10),
    rate: count('rate', 100, 10_000),
    rateSeconds: count('rate-seconds', 20),
  };
  if (options.deliveries < options.endpoints)
    throw new OptionError(`--deliveries must be at least --endpoints (${options.endpoints})\n${USAGE}`);
  return options;
}

// ---- the setting: an account, its endpoints, each with a listener of its own -------------------

interface Endpoint {
  id: string;
  secret: string;
  url: string;
}

interface Setting {
  account: CaseAccount;
  endpoints: Endpoint[];
}

let settings = 0;

/**
 * A new account per phase, so that each phase's events reach its own endpoints only. Each endpoint
 * gets a listener (a port) of its own on the receiver, verifying with that endpoint's secret.
 */
async function newSetting(pool: pg.Pool, receiver: Receiver, endpointCount: number): Promise<Setting> {
  const { account, defaultGroup } = await createWorkspace(pool, { name: `Webhook bench ${settings}` });
  const prefix = `W${String.fromCharCode(65 + Math.floor(settings / 26))}${String.fromCharCode(65 + (settings % 26))}`;
  settings++;
  const endpoints: Endpoint[] = [];
  for (let n = 0; n < endpointCount; n++) {
    const listenerUrl = await receiver.listen();
    const { endpoint, secret } = await createWebhookEndpoint(
      pool,
      {
        accountId: account.id,
        url: `${listenerUrl}webhooks/${n}`,
        eventTypes: 'all',
        mode: 'expanded',
        description: 'webhook benchmark',
      },
      { clock: systemClock, allowPrivateTargets: true },
    );
    await receiver.trust(listenerUrl, secret);
    endpoints.push({ id: endpoint.id, secret, url: endpoint.url });
  }
  return { account: { accountId: account.id, groupId: defaultGroup.id, prefix }, endpoints };
}

// ---- the work process ------------------------------------------------------------------------

function workEnv(databaseUrl: string, webhookWorkers: number): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    WEBHOOK_WORKERS: String(webhookWorkers),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    // The cases' checks stay queued: case.created is the only webhook of the run.
    CHECK_WORKERS: '0',
  };
}

async function deliveriesOf(
  pool: pg.Pool,
  accountId: string,
): Promise<{ total: number; delivered: number; attempts: number }> {
  const { rows } = await pool.query<{ total: number; delivered: number; attempts: number }>(
    `SELECT count(*)::int AS total,
            (count(*) FILTER (WHERE d.status = 'delivered'))::int AS delivered,
            COALESCE(sum(d.attempts), 0)::int AS attempts
       FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
      WHERE e.account_id = $1`,
    [accountId],
  );
  return rows[0]!;
}

async function waitFor(
  what: string | (() => string),
  timeoutMs: number,
  done: () => Promise<boolean>,
  intervalMs = 100,
): Promise<void> {
  const deadline = now() + timeoutMs;
  while (!(await done())) {
    if (now() > deadline)
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}`,
      );
    await sleep(intervalMs);
  }
}

/**
 * Fills the outbox: a work process without delivery workers fans out `cases` new cases to the
 * setting's endpoints. It stops once every delivery row is written and every subscription of the
 * work role has caught up (a projection still catching up would compete with the drain measured
 * next); then the database is vacuumed, analyzed and checkpointed, as autovacuum and the
 * checkpointer would after such a burst, so each drain starts from the same state and shares the
 * machine with none of that.
 */
async function fill(context: Context, setting: Setting, cases: number): Promise<void> {
  const expected = cases * setting.endpoints.length;
  progress(`filling the outbox: ${cases} cases x ${setting.endpoints.length} endpoint(s)`);
  const work = await startWorkProcess(workEnv(context.databaseUrl, 0));
  try {
    const started = now();
    await createCases(context.store, setting.account, cases, 8);
    await waitFor(
      'the fan-out',
      600_000,
      async () => {
        work.assertHealthy();
        const { total } = await deliveriesOf(context.pool, setting.account.accountId);
        return total >= expected;
      },
      500,
    );
    let behind: string[] = [];
    await waitFor(
      () => `the subscriptions to catch up (behind: ${behind.join(', ')})`,
      300_000,
      async () => {
        work.assertHealthy();
        behind = await subscriptionsBehind(context);
        return behind.length === 0;
      },
      500,
    );
    progress(`  ${expected} deliveries pending after ${((now() - started) / 1000).toFixed(1)} s`);
    context.problems += work.problems().count;
  } finally {
    await work.stop();
  }
  // What autovacuum and the checkpointer would do after the burst, done now rather than during the drain.
  await context.pool.query('VACUUM (ANALYZE)');
  await context.pool.query('CHECKPOINT');
}

/**
 * The subscriptions with events of their categories still to handle. Not "checkpoint short of the
 * head": a subscription's checkpoint moves only with events of its categories, so the monitoring
 * read models, which no case event concerns, never reach the head of a feed of cases.
 */
async function subscriptionsBehind(context: Context): Promise<string[]> {
  const status = await readSystemStatus(context.pool, context.store, {
    staleAfterMs: Number.MAX_SAFE_INTEGER,
  });
  return status.subscriptions
    .filter((subscription) => subscription.lag.events > 0)
    .map((subscription) => subscription.subscriptionId);
}

interface Throughput {
  label: string;
  workers: number;
  endpoints: number;
  deliveries: number;
  /** Receiver-side: first to last arrival. */
  seconds: number;
  perSecond: number;
  duplicates: number;
  refused: number;
  /** Attempts the database counts (deliveries + retries). */
  attempts: number;
  cpu: CpuUse;
  /** Committed transactions on the database during the phase, per delivery. */
  transactionsPerDelivery: number;
  waits: WaitShare[];
}

/** Starts a work process with `workers` delivery workers and times it draining the setting's outbox. */
async function drain(
  context: Context,
  setting: Setting,
  workers: number,
  label: string,
): Promise<Throughput> {
  const expected = (await deliveriesOf(context.pool, setting.account.accountId)).total;
  progress(`${label}: delivering ${expected} with WEBHOOK_WORKERS=${workers}`);
  await context.receiver.collect();
  const commitsBefore = await transactionsCommitted(context.pool);
  const work = await startWorkProcess(workEnv(context.databaseUrl, workers));
  let cpu: CpuUse;
  let waits: WaitShare[];
  try {
    const meter = meterCpu([{ name: 'work', pid: work.pid }, ...context.watched]);
    const sampler = sampleWaits(context.databaseUrl, 'casescreen-work', 50);
    // The receiver's count, not the database's: a count over the outbox would load the server it measures.
    await waitFor(`${expected} deliveries`, Math.max(120_000, expected * 10), async () => {
      work.assertHealthy();
      return (await context.receiver.count()) >= expected;
    });
    cpu = meter.stop();
    waits = await sampler.stop();
    context.problems += work.problems().count;
    // The last attempts are recorded just after their receiver answered.
    await waitFor('the last attempts recorded', 30_000, async () => {
      work.assertHealthy();
      return (await deliveriesOf(context.pool, setting.account.accountId)).delivered >= expected;
    });
  } finally {
    await work.stop();
  }
  const arrivals = await context.receiver.collect();
  const { attempts } = await deliveriesOf(context.pool, setting.account.accountId);
  const transactions = (await transactionsCommitted(context.pool)) - commitsBefore;
  const seconds = (Math.max(...arrivals.times) - Math.min(...arrivals.times)) / 1000;
  const distinct = new Set(arrivals.eventIds.map((id, i) => `${arrivals.listeners[i]}:${id}`)).size;
  const result: Throughput = {
    label,
    workers,
    endpoints: setting.endpoints.length,
    deliveries: arrivals.times.length,
    seconds,
    perSecond: (arrivals.times.length - 1) / seconds,
    duplicates: arrivals.times.length - distinct,
    refused: Object.values(arrivals.refused).reduce((sum, n) => sum + n, 0),
    attempts,
    cpu,
    transactionsPerDelivery: transactions / expected,
    waits,
  };
  progress(`  ${result.deliveries} received in ${seconds.toFixed(1)} s: ${perSecond(result.perSecond)}`);
  return result;
}

/** Transactions committed on the benchmark database so far (its statistics, as the server last flushed them). */
async function transactionsCommitted(pool: pg.Pool): Promise<number> {
  // Backends flush their counters about once a second: give the last ones time to arrive.
  await sleep(1_100);
  const { rows } = await pool.query<{ commits: string }>(
    'SELECT xact_commit AS commits FROM pg_stat_database WHERE datname = current_database()',
  );
  return Number(rows[0]!.commits);
}

// ---- latency ---------------------------------------------------------------------------------

interface Latency {
  /** Which process shape delivered. */
  label: string;
  rate: number;
  achievedRate: number;
  sent: number;
  received: number;
  /** Handler time minus commit time, by event. */
  total: Distribution;
  /** Commit to the fan-out transaction's start (the feed wake-up and the read). */
  toFanOut: Distribution;
  /** Fan-out start to the attempt's start (handling, commit, worker wake-up, claim). */
  toAttempt: Distribution;
  /** Attempt start to the handler (signing, HTTP, the receiver's verification). */
  toHandler: Distribution;
  cpu: CpuUse;
  waits: WaitShare[];
}

/** Warm-up cases are numbered from here, apart from the measured ones. */
const WARM_UP_SEQUENCE = 900_000;

/** The two process shapes the latency is measured in. */
const SHAPES = [
  { label: 'work process', webhooksOnly: false },
  { label: 'webhooks alone', webhooksOnly: true },
] as const;

async function latencyAtRate(
  context: Context,
  options: Options,
  shape: (typeof SHAPES)[number],
): Promise<Latency> {
  const workers = options.workers[0]!;
  const setting = await newSetting(context.pool, context.receiver, 1);
  const work = await startWorkProcess(workEnv(context.databaseUrl, workers), {
    webhooksOnly: shape.webhooksOnly,
  });
  try {
    progress(`latency, ${shape.label}: warming up`);
    await createCasesAtRate(context.store, setting.account, 20, 1_000, WARM_UP_SEQUENCE);
    await waitFor(
      'the warm-up deliveries',
      30_000,
      async () => (await deliveriesOf(context.pool, setting.account.accountId)).delivered >= 20,
    );
    await context.receiver.collect();
    progress(
      `latency, ${shape.label}: ${options.rate} cases/s for ${options.rateSeconds} s, WEBHOOK_WORKERS=${workers}`,
    );
    const meter = meterCpu([{ name: 'work', pid: work.pid }, ...context.watched]);
    const sampler = sampleWaits(context.databaseUrl, 'casescreen-work', 50);
    const started = now();
    const created = await createCasesAtRate(
      context.store,
      setting.account,
      options.rate,
      options.rateSeconds * 1000,
    );
    const achievedRate = created.length / ((now() - started) / 1000);
    const arrivedAt = new Map<string, number>();
    const take = (arrivals: Arrivals) =>
      arrivals.eventIds.forEach((id, i) => {
        if (!arrivedAt.has(id)) arrivedAt.set(id, arrivals.times[i]!);
      });
    await waitFor(
      'the latency phase deliveries',
      60_000,
      async () => {
        work.assertHealthy();
        take(await context.receiver.collect());
        return arrivedAt.size >= created.length;
      },
      50,
    );
    const cpu = meter.stop();
    const waits = await sampler.stop();
    context.problems += work.problems().count;
    const segments = await segmentsOf(
      context.pool,
      created.map((c) => c.webhookEventId),
    );
    const total: number[] = [];
    const toFanOut: number[] = [];
    const toAttempt: number[] = [];
    const toHandler: number[] = [];
    for (const { webhookEventId, committedAt } of created) {
      const arrived = arrivedAt.get(webhookEventId);
      const segment = segments.get(webhookEventId);
      if (arrived === undefined || segment === undefined) continue;
      total.push(arrived - committedAt);
      toFanOut.push(segment.fannedAt - committedAt);
      toAttempt.push(segment.attemptAt - segment.fannedAt);
      toHandler.push(arrived - segment.attemptAt);
    }
    return {
      label: shape.label,
      rate: options.rate,
      achievedRate,
      sent: created.length,
      received: arrivedAt.size,
      total: distribution(total),
      toFanOut: distribution(toFanOut),
      toAttempt: distribution(toAttempt),
      toHandler: distribution(toHandler),
      cpu,
      waits,
    };
  } finally {
    await work.stop();
  }
}

/** When each event's delivery row was written (its transaction's start) and its first attempt began. */
async function segmentsOf(
  pool: pg.Pool,
  eventIds: string[],
): Promise<Map<string, { fannedAt: number; attemptAt: number }>> {
  const { rows } = await pool.query<{ event_id: string; fanned_at: number; attempt_at: number }>(
    `SELECT d.event_id,
            extract(epoch FROM d.created_at)::float8 * 1000 AS fanned_at,
            extract(epoch FROM a.started_at)::float8 * 1000 AS attempt_at
       FROM webhook_deliveries d JOIN webhook_attempts a ON a.delivery_id = d.id AND a.attempt = 1
      WHERE d.event_id = ANY($1::text[])`,
    [eventIds],
  );
  return new Map(rows.map((row) => [row.event_id, { fannedAt: row.fanned_at, attemptAt: row.attempt_at }]));
}

/** Bare POSTs to the same receiver at the same rate: the one-way time the service's latency is set beside. */
async function bareOneWay(context: Context, target: PostTarget, options: Options): Promise<Distribution> {
  await context.receiver.collect();
  const sentAt = await barePostsAtRate(target, options.rate, Math.min(options.rateSeconds, 10) * 1000);
  await sleep(200);
  const arrivals = await context.receiver.collect();
  const oneWay: number[] = [];
  arrivals.eventIds.forEach((id, i) => {
    const sent = sentAt.get(id);
    if (sent !== undefined) oneWay.push(arrivals.times[i]! - sent);
  });
  return distribution(oneWay);
}

// ---- baselines ---------------------------------------------------------------------------------

interface Baseline {
  label: string;
  concurrency: number;
  result: LoopResult;
  received: number;
  refused: number;
  cpu: CpuUse;
}

async function baseline(
  context: Context,
  label: string,
  concurrency: number,
  seconds: number,
  loop: () => Promise<LoopResult>,
): Promise<Baseline> {
  progress(`baseline: ${label}, ${concurrency} concurrent, ${seconds} s`);
  await context.receiver.collect();
  const meter = meterCpu(context.watched);
  const result = await loop();
  const cpu = meter.stop();
  const arrivals = await context.receiver.collect();
  progress(`  ${perSecond(result.perSecond)}`);
  return {
    label,
    concurrency,
    result,
    received: arrivals.times.length,
    refused: Object.values(arrivals.refused).reduce((sum, n) => sum + n, 0),
    cpu,
  };
}

// ---- the run -----------------------------------------------------------------------------------

interface Context {
  pool: pg.Pool;
  databaseUrl: string;
  store: ReturnType<typeof createPostgresEventStore>;
  receiver: Receiver;
  /** This process, the receiver and the database server, metered in every phase beside the sender. */
  watched: Watched[];
  /** Warnings and errors logged by the work processes. */
  problems: number;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  if (options === 'help') {
    console.log(USAGE);
    return;
  }
  const loadAtStart = os.loadavg();
  progress(process.env.DATABASE_URL ? 'using DATABASE_URL' : 'starting embedded PostgreSQL');
  const server = await openBenchServer(process.env.DATABASE_URL);
  let receiver: Receiver | undefined;
  let pool: pg.Pool | undefined;
  let store: ReturnType<typeof createPostgresEventStore> | undefined;
  try {
    await migrate(server.url);
    pool = createPool(server.url, { max: 12, applicationName: 'casescreen-bench' });
    store = createPostgresEventStore({ pool, connectionString: server.url });
    receiver = await startReceiver(
      path.join(process.cwd(), 'dist', 'bench', 'support', 'receiverProcess.js'),
    );
    const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const postmaster = parentPid(rows[0]!.pid);
    const watched: Watched[] = [
      { name: 'bench', pid: process.pid },
      { name: 'receiver', pid: receiver.pid },
    ];
    if (postmaster !== undefined) watched.push({ name: 'postgres', pid: postmaster, withChildren: true });
    const context: Context = { pool, databaseUrl: server.url, store, receiver, watched, problems: 0 };
    const [firstWorkers, ...moreWorkers] = options.workers as [number, ...number[]];

    // The first outbox, and from it a body of the size the service sends, for the baselines.
    const oneEndpoint = await newSetting(pool, receiver, 1);
    await fill(context, oneEndpoint, options.deliveries);
    const { rows: bodies } = await pool.query<{ body: string }>(
      'SELECT body FROM webhook_deliveries LIMIT 1',
    );
    const body = bodies[0]!.body;
    const ceilingSecret = generateSigningSecret();
    const ceilingUrl = await receiver.listen();
    await receiver.trust(ceilingUrl, ceilingSecret);
    const target: PostTarget = {
      url: `${ceilingUrl}ceiling`,
      secret: ceilingSecret,
      body,
    };
    const durationMs = options.seconds * 1000;
    const ceilings = new Map<number, Baseline>();
    for (const concurrency of new Set(options.workers)) {
      ceilings.set(
        concurrency,
        await baseline(context, 'bare node:http POST loop', concurrency, options.seconds, () =>
          barePostLoop(target, concurrency, durationMs),
        ),
      );
    }
    const sender = await baseline(context, 'the service sender alone', firstWorkers, options.seconds, () =>
      senderLoop(target, firstWorkers, durationMs),
    );

    const throughputs: Throughput[] = [];
    throughputs.push(await drain(context, oneEndpoint, firstWorkers, '1 endpoint'));
    for (const workers of moreWorkers) {
      const setting = await newSetting(pool, receiver, 1);
      await fill(context, setting, options.deliveries);
      throughputs.push(await drain(context, setting, workers, '1 endpoint'));
    }
    const many = await newSetting(pool, receiver, options.endpoints);
    await fill(context, many, Math.floor(options.deliveries / options.endpoints));
    throughputs.push(await drain(context, many, firstWorkers, `${options.endpoints} endpoints`));

    const latencies: Latency[] = [];
    for (const shape of SHAPES) latencies.push(await latencyAtRate(context, options, shape));
    progress(`baseline: bare POSTs at ${options.rate}/s, one way`);
    const oneWay = await bareOneWay(context, target, options);

    console.log(
      report(options, {
        server: server.description,
        loadAtStart,
        loadAtEnd: os.loadavg(),
        ceilings,
        sender,
        throughputs,
        latencies,
        oneWay,
        body,
        problems: context.problems,
      }),
    );
  } finally {
    await receiver?.close();
    await store?.close();
    await pool?.end();
    await server.close();
  }
}

// ---- the report --------------------------------------------------------------------------------

interface Results {
  server: string;
  loadAtStart: number[];
  loadAtEnd: number[];
  ceilings: Map<number, Baseline>;
  sender: Baseline;
  throughputs: Throughput[];
  /** The whole work role first, then the webhooks alone. */
  latencies: Latency[];
  oneWay: Distribution;
  body: string;
  problems: number;
}

const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' ');
const percent = (value: number | undefined) => (value === undefined ? NONE : `${Math.round(value * 100)}%`);
const perItem = (cpuMs: number | undefined, items: number) =>
  cpuMs === undefined ? NONE : `${(cpuMs / items).toFixed(3)} ms`;
const latencyCell = (d: Distribution) =>
  `p50 ${d.p50.toFixed(1)}, p95 ${d.p95.toFixed(1)}, p99 ${d.p99.toFixed(1)}, max ${d.max.toFixed(1)} ms`;

function report(options: Options, results: Results): string {
  const { ceilings, sender, throughputs, latencies, oneWay } = results;
  const latency = latencies[0]!;
  const cpus = os.cpus();
  const header = [
    `Webhook benchmark, ${new Date().toISOString()}: ${cpus.length} cores (${cpus[0]?.model}), Node ${process.version}, load ${load(results.loadAtStart)} at the start, ${load(results.loadAtEnd)} at the end`,
    `${results.server}; receiver: a node:http listener per endpoint in its own process, verifying every signature, answering 204; body ${Buffer.byteLength(results.body)} bytes (expanded case.created)`,
  ].join('\n');

  const ceilingCell = (baseline: Baseline) =>
    `bare POST loop c=${baseline.concurrency}: ${perSecond(baseline.result.perSecond)}`;
  const rows: string[][] = throughputs.map((t) => {
    const ceiling = ceilings.get(t.workers) ?? ceilings.get(options.workers[0]!)!;
    return [
      `deliveries/s, ${t.label}, WEBHOOK_WORKERS=${t.workers}`,
      `${perSecond(t.perSecond)} (${t.deliveries.toLocaleString('en-US')} in ${t.seconds.toFixed(1)} s)`,
      ceilingCell(ceiling),
      fraction(t.perSecond, ceiling.result.perSecond),
    ];
  });
  const firstCeiling = ceilings.get(options.workers[0]!)!;
  rows.push([
    `the service's sender alone (no database), c=${sender.concurrency}`,
    perSecond(sender.result.perSecond),
    ceilingCell(firstCeiling),
    fraction(sender.result.perSecond, firstCeiling.result.perSecond),
  ]);
  for (const measured of latencies) {
    rows.push([
      `commit to receiver's handler @${options.rate}/s, ${measured.label}`,
      latencyCell(measured.total),
      `bare POST, send to handler: ${latencyCell(oneWay)}`,
      `p99 ${multiple(measured.total.p99, oneWay.p99)}`,
    ]);
  }
  const main = table(['measure', 'service', 'ceiling', 'ratio'], rows);

  const best = Math.max(...throughputs.filter((t) => t.endpoints === 1).map((t) => t.perSecond));
  const targets = [
    `Targets: >= 1,000 deliveries/s: ${best >= 1000 ? 'met' : 'missed'} (best one-endpoint figure ${perSecond(best)});`,
    `p99 < 50 ms at 100 events/s: ${latency.total.p99 < 50 && options.rate >= 100 ? 'met' : latency.total.p99 < 50 ? `met at ${options.rate}/s` : 'missed'} (${ms(latency.total.p99)}, the work process).`,
  ].join(' ');

  const costRows: string[][] = [
    ...[...ceilings.values(), sender].map((b) => [
      `${b.label}, c=${b.concurrency}`,
      perItem(b.cpu.byProcess.bench, b.result.sent),
      perItem(b.cpu.byProcess.receiver, b.result.sent),
      perItem(b.cpu.byProcess.postgres, b.result.sent),
      percent(b.cpu.machineBusy),
      percent(b.cpu.othersBusy),
      NONE,
      NONE,
    ]),
    ...throughputs.map((t) => [
      `work process, ${t.label}, ${t.workers} workers`,
      perItem(t.cpu.byProcess.work, t.deliveries),
      perItem(t.cpu.byProcess.receiver, t.deliveries),
      perItem(t.cpu.byProcess.postgres, t.deliveries),
      percent(t.cpu.machineBusy),
      percent(t.cpu.othersBusy),
      t.transactionsPerDelivery.toFixed(2),
      describeWaits(t.waits, 4),
    ]),
    ...latencies.map((measured) => [
      `${measured.label}, latency @${options.rate}/s (per event)`,
      perItem(measured.cpu.byProcess.work, measured.received),
      perItem(measured.cpu.byProcess.receiver, measured.received),
      perItem(measured.cpu.byProcess.postgres, measured.received),
      percent(measured.cpu.machineBusy),
      percent(measured.cpu.othersBusy),
      NONE,
      describeWaits(measured.waits, 4),
    ]),
  ];
  const costs = table(
    [
      'CPU per delivery',
      'sender',
      'receiver',
      'PostgreSQL',
      'machine busy',
      'others',
      'db tx/delivery',
      "work process's backends",
    ],
    costRows,
  );

  const segmentRows = latencies.flatMap((measured) =>
    (
      [
        ['commit to the fan-out transaction', measured.toFanOut],
        ['fan-out start to the attempt start', measured.toAttempt],
        ["attempt start to the receiver's handler", measured.toHandler],
        ['total', measured.total],
      ] as const
    ).map(([label, d]) => [`${measured.label}: ${label}`, ms(d.p50), ms(d.p95), ms(d.p99), ms(d.max)]),
  );
  const segments = table([`latency @${options.rate}/s, by segment`, 'p50', 'p95', 'p99', 'max'], segmentRows);

  const notes = [
    `Throughput: each phase fills the outbox first (a work process with WEBHOOK_WORKERS=0 fans out new cases, one CaseCreated each, created through runCaseCommand), then a work process with the given workers drains it; the rate is the receiver's count over its first to last arrival. ${throughputs
      .map(
        (t) =>
          `${t.label}/${t.workers}: ${t.deliveries} received, ${t.duplicates} duplicates, ${t.refused} refused, ${t.attempts} attempts recorded`,
      )
      .join('; ')}.`,
    `Baselines run in the bench process: ${options.seconds} s each; the bare loop signs each POST (HMAC-SHA256) and sends the service's headers over a keep-alive node:http agent; ${[...ceilings.values(), sender].map((b) => `${b.label} c=${b.concurrency}: ${b.received} received, ${b.result.failures} failed, ${b.refused} refused`).join('; ')}.`,
    `Latency: ${latencies.map((m) => `${m.label}: ${m.sent} cases at ${m.achievedRate.toFixed(1)}/s achieved, ${m.received} received`).join('; ')}; from the moment runCaseCommand resolved in the bench to the receiver's handler (both clocks: performance.timeOrigin + now()). "Work process" is the whole work role (projections, check scheduler, webhooks); "webhooks alone" a process running only the fan-out and the delivery workers (bench/support/webhooksProcess.ts). Segments use the delivery row's created_at (the fan-out transaction's start) and the first attempt's started_at. Bare one-way: ${oneWay.count} POSTs.`,
    `CPU per delivery from /proc (10 ms ticks): "sender" is the bench process for the baselines and the work process otherwise; PostgreSQL is the postmaster and its children; machine busy counts every process on the machine, others what none of these used (other work on a shared machine). db tx/delivery: pg_stat_database.xact_commit over the phase (the bench's own polling included). Backends: pg_stat_activity of application casescreen-work sampled every 50 ms.`,
    `Work processes logged ${results.problems} warnings or errors.`,
  ];
  return [header, main, targets, costs, segments, notes.map((line) => `* ${line}`).join('\n')].join('\n\n');
}

main().catch((error: unknown) => {
  if (error instanceof OptionError) console.error(error.message);
  else console.error(error);
  process.exitCode = error instanceof OptionError ? 2 : 1;
});
