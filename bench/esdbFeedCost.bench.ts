/**
 * What a subscription runner reads of EventStoreDB's `$all` for the events it delivers (issue 18,
 * item 1), with 100,000 events of other categories between two of its own. Runs the real
 * @eventstore/db-client against the protocol-level fake server (test/support/esdbProtocolFake.ts),
 * which counts the `$all` reads it answers and the records they carry; checkpoints live in
 * PostgreSQL (DATABASE_URL's server, a throwaway database; else an embedded one).
 *
 * Usage: `npm run bench:esdb-feed [-- --gap 100000]`. Not part of `npm test`; run with tsx, since it
 * uses the test support's fake server (the build leaves it out).
 */
import { randomBytes } from 'node:crypto';
import { createPool } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { createEsdbEventStore } from '../src/eventStore/esdb/esdbEventStore.js';
import { type Checkpoint, type EventStore, isCaughtUp } from '../src/eventStore/eventStore.js';
import { loadCheckpoint } from '../src/subscriptions/checkpointStore.js';
import type { SubscriptionHandler } from '../src/subscriptions/handler.js';
import {
  createSubscriptionRunner,
  type SubscriptionRunner,
} from '../src/subscriptions/subscriptionRunner.js';
import { EsdbProtocolFake } from '../test/support/esdbProtocolFake.js';
import { openBenchServer } from './support/server.js';

/** Events per append while seeding: well under the 1 MiB append limit. */
const SEED_APPEND = 1_000;
/** Idle iterations (caughtUp markers with nothing new) averaged. */
const IDLE_ITERATIONS = 10;
/** The doorbell's fallback poll: how often an idle subscription looks again. */
const POLL_INTERVAL_MS = 50;

const progress = (message: string) => process.stderr.write(`[bench] ${message}\n`);

interface Cost {
  calls: number;
  records: number;
}

interface Row {
  phase: string;
  before: Cost | null;
  now: Cost;
}

function parseGap(argv: string[]): number {
  const index = argv.indexOf('--gap');
  if (index === -1) return 100_000;
  const gap = Number(argv[index + 1]);
  if (!Number.isInteger(gap) || gap < 1) throw new Error('--gap takes a positive whole number of events');
  return gap;
}

async function main(): Promise<void> {
  const gap = parseGap(process.argv.slice(2));
  progress(process.env.DATABASE_URL ? 'using DATABASE_URL' : 'starting embedded PostgreSQL');
  const database = await openBenchServer(process.env.DATABASE_URL);
  const server = await EsdbProtocolFake.start();
  const store = createEsdbEventStore({
    connectionString: server.connectionString,
    pollIntervalMs: POLL_INTERVAL_MS,
  });
  try {
    await migrate(database.url);
    const pool = createPool(database.url, { max: 8, applicationName: 'casescreen-bench' });
    try {
      const rows = await measure({ server, store, pool, databaseUrl: database.url, gap });
      console.log(report(gap, rows));
    } finally {
      await pool.end();
    }
  } finally {
    await store.close();
    await server.stop();
    await database.close();
  }
}

interface Bench {
  server: EsdbProtocolFake;
  store: EventStore;
  pool: ReturnType<typeof createPool>;
  databaseUrl: string;
  gap: number;
}

/** What `work` made the server send: `$all` reads (the doorbell's live subscriptions are not reads). */
async function costOf(server: EsdbProtocolFake, work: () => Promise<unknown>): Promise<Cost> {
  const before = { ...server.allReads };
  await work();
  return { calls: server.allReads.calls - before.calls, records: server.allReads.records - before.records };
}

async function measure(bench: Bench): Promise<Row[]> {
  const { server, store, gap } = bench;
  const own = `match${randomBytes(4).toString('hex')}`;
  const other = `other${randomBytes(4).toString('hex')}`;

  progress(`seeding: one event of the runner's category, then ${gap} of another`);
  const firstMatch = await store.appendToStream(`${own}-1`, [{ type: 'Matched', data: {} }]);
  for (let seeded = 0, stream = 0; seeded < gap; seeded += SEED_APPEND, stream++) {
    const count = Math.min(SEED_APPEND, gap - seeded);
    await store.appendToStream(
      `${other}-${stream}`,
      Array.from({ length: count }, (_, n) => ({ type: 'Other', data: { n } })),
    );
  }
  const head = (await store.headCheckpoint())!;
  const handler: SubscriptionHandler = {
    subscriptionId: `bench-${own}`,
    categories: [own],
    handle: async () => {},
  };
  const runnerWith = (subscriptionId: string, scanPositionSaveIntervalMs: number) =>
    createSubscriptionRunner({
      pool: bench.pool,
      databaseUrl: bench.databaseUrl,
      store,
      handler: { ...handler, subscriptionId },
      scanPositionSaveIntervalMs,
    });
  const runUntil = async (runner: SubscriptionRunner, position: Checkpoint) => {
    runner.start();
    await runner.waitForCheckpoint(position, { timeoutMs: 600_000 });
  };
  const rows: Row[] = [];

  progress('first pass: a new runner reads up to the head');
  const subscriptionId = `bench-${own}`;
  const runner = runnerWith(subscriptionId, 0);
  const firstPass = await costOf(server, () => runUntil(runner, head));
  await runner.stop();
  rows.push({
    phase: `first pass over the ${gap} other events (a new runner)`,
    before: null,
    now: firstPass,
  });

  // A runner starting again subscribes from its stored checkpoint: now the scan position it stored;
  // before 8b71b85 its last event of its own, since nothing else moved it.
  progress('restart and idle iterations');
  const stored = (await loadCheckpoint(bench.pool, subscriptionId))!.checkpoint!;
  const restartBefore = await subscriptionCost(server, store, firstMatch.position, own);
  const afterRestart = await subscriptionCost(server, store, stored, own);
  rows.push({
    phase: 'a restart: from the stored checkpoint to the first caughtUp',
    before: restartBefore.catchUp,
    now: afterRestart.catchUp,
  });
  // Before, each idle iteration read the feed again from the last event delivered, through every
  // other record after it (and looked again before waiting: issue 18 counted 803 reads, 400,834
  // records for 100,000); now the subscription goes on from the last record it looked at.
  const idleBefore = await costOf(server, () =>
    store.readFeed({ after: firstMatch.position, categories: [own], limit: 500 }),
  );
  rows.push({
    phase: 'one idle iteration (before: its read of the feed alone)',
    before: idleBefore,
    now: afterRestart.idle,
  });

  progress('the next event of its own');
  const live = runnerWith(subscriptionId, 0);
  await runUntil(live, head);
  const deliveredNow = await costOf(server, async () => {
    const next = await store.appendToStream(`${own}-2`, [{ type: 'Matched', data: {} }]);
    await live.waitForCheckpoint(next.position, { timeoutMs: 600_000 });
  });
  await live.stop();
  // Before: the read that found it started again from the last event delivered.
  const deliveredBefore = await costOf(server, () =>
    store.readFeed({ after: firstMatch.position, categories: [own], limit: 500 }),
  );
  rows.push({ phase: 'delivering its next event', before: deliveredBefore, now: deliveredNow });
  return rows;
}

/**
 * A subscription from `after`: what it reads up to its first `caughtUp` marker (a runner's start),
 * then the average per marker while nothing new comes (its idle iterations).
 */
async function subscriptionCost(
  server: EsdbProtocolFake,
  store: EventStore,
  after: Checkpoint,
  category: string,
): Promise<{ catchUp: Cost; idle: Cost }> {
  const controller = new AbortController();
  const start = { ...server.allReads };
  let markers = 0;
  let caughtUpAt = start;
  for await (const item of store.subscribe({ after, categories: [category], signal: controller.signal })) {
    if (!isCaughtUp(item)) continue;
    markers += 1;
    if (markers === 1) caughtUpAt = { ...server.allReads };
    if (markers === IDLE_ITERATIONS + 1) {
      controller.abort();
      break;
    }
  }
  const perIteration = (total: number) => total / IDLE_ITERATIONS;
  return {
    catchUp: { calls: caughtUpAt.calls - start.calls, records: caughtUpAt.records - start.records },
    idle: {
      calls: perIteration(server.allReads.calls - caughtUpAt.calls),
      records: perIteration(server.allReads.records - caughtUpAt.records),
    },
  };
}

function report(gap: number, rows: Row[]): string {
  const cell = (cost: Cost | null) =>
    cost ? `${formatNumber(cost.calls)} / ${formatNumber(cost.records)}` : '-';
  const lines = [
    `EventStoreDB feed cost: one runner, ${gap} events of other categories after its last event`,
    '(real client, protocol-level fake server)',
    '',
    '| Phase (`$all` reads / records they carried) | Before the scan position (until 8b71b85) | Now |',
    '|---|---|---|',
    ...rows.map((row) => `| ${row.phase} | ${cell(row.before)} | ${cell(row.now)} |`),
  ];
  return lines.join('\n');
}

const formatNumber = (n: number) => (Number.isInteger(n) ? n.toLocaleString('en') : n.toFixed(1));

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
