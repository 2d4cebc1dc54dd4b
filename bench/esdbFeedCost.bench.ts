/**
 * What a subscription runner costs on EventStoreDB's `$all` for the events it delivers (issue 18,
 * item 1), with 100,000 events of other categories between two of its own: the adapter's
 * server-filtered reads (catch-up subscriptions with a stream-prefix filter and checkpoints), beside
 * the client-side filtering it did until 2026-11-28 (readAll pages of 500, every record sent to the
 * client), measured in the same run. Runs the real @eventstore/db-client against the protocol-level
 * fake server (test/support/esdbProtocolFake.ts), which counts the calls it answers and the messages
 * it sends; checkpoints live in PostgreSQL (DATABASE_URL's server, a throwaway database; else an
 * embedded one).
 *
 * Usage: `npm run bench:esdb-feed [-- --gap 100000]`. Not part of `npm test`; run with tsx, since it
 * uses the test support's fake server (the build leaves it out).
 */
import { randomBytes } from 'node:crypto';
import { EventStoreDBClient, type Position, START } from '@eventstore/db-client';
import { createPool } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { createEsdbEventStore } from '../src/eventStore/esdb/esdbEventStore.js';
import { comparePositions, decodePosition } from '../src/eventStore/esdb/mapping.js';
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

/** Calls the server answered (`$all` reads and subscriptions) and the messages it sent the client. */
interface Cost {
  calls: number;
  messages: number;
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

function sentSoFar(server: EsdbProtocolFake): Cost {
  const { allReads, subscriptionReads } = server;
  return {
    calls: allReads.calls + subscriptionReads.calls,
    messages: allReads.records + subscriptionReads.events + subscriptionReads.checkpoints,
  };
}

function costSince(server: EsdbProtocolFake, before: Cost): Cost {
  const now = sentSoFar(server);
  return { calls: now.calls - before.calls, messages: now.messages - before.messages };
}

/** What `work` made the server answer and send (the doorbell's live subscriptions are not counted). */
async function costOf(server: EsdbProtocolFake, work: () => Promise<unknown>): Promise<Cost> {
  const before = sentSoFar(server);
  await work();
  return costSince(server, before);
}

/**
 * The baseline: the category's events after `after` found as the adapter did until 2026-11-28,
 * reading `$all` in pages of 500 and filtering in the client, to the end.
 */
async function clientSideScan(client: EventStoreDBClient, after: Checkpoint | null, category: string) {
  let cursor: Position | null = after ? decodePosition(after) : null;
  const found: string[] = [];
  for (;;) {
    let read = 0;
    for await (const { event } of client.readAll({ fromPosition: cursor ?? START, maxCount: 500 })) {
      read += 1;
      if (!event || (cursor && comparePositions(event.position, cursor) <= 0)) continue;
      cursor = event.position;
      if (event.streamId.startsWith(`${category}-`)) found.push(event.id);
    }
    if (read < 500) return found;
  }
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
  const client = EventStoreDBClient.connectionString(server.connectionString);
  const rows: Row[] = [];
  try {
    progress('first pass: a new runner reads up to the head');
    const subscriptionId = `bench-${own}`;
    const runner = runnerWith(subscriptionId, 0);
    const firstPass = await costOf(server, () => runUntil(runner, head));
    await runner.stop();
    rows.push({
      phase: `first pass over the ${gap.toLocaleString('en')} other events (a new runner)`,
      before: await costOf(server, () => clientSideScan(client, null, own)),
      now: firstPass,
    });

    // A runner starting again subscribes from its stored checkpoint: the scan position it stored.
    progress('restart and idle iterations');
    const stored = (await loadCheckpoint(bench.pool, subscriptionId))!.checkpoint!;
    const afterRestart = await subscriptionCost(server, store, stored, own);
    rows.push({
      phase: 'a restart: from the stored checkpoint to the first caughtUp',
      before: await costOf(server, () => clientSideScan(client, stored, own)),
      now: afterRestart.catchUp,
    });
    rows.push({ phase: 'one idle iteration', before: null, now: afterRestart.idle });

    progress('the next event of its own');
    const live = runnerWith(subscriptionId, 0);
    await runUntil(live, head);
    const deliveredNow = await costOf(server, async () => {
      const next = await store.appendToStream(`${own}-2`, [{ type: 'Matched', data: {} }]);
      await live.waitForCheckpoint(next.position, { timeoutMs: 600_000 });
    });
    await live.stop();
    rows.push({
      phase: 'delivering its next event (before: the read that finds it, from the stored position)',
      before: await costOf(server, () => clientSideScan(client, stored, own)),
      now: deliveredNow,
    });
    // A reader that starts from the runner's last event of its own, not its scan position (readFeed
    // from an old checkpoint, a lag-free replay): the whole gap once more, or only what matches.
    rows.push({
      phase: `a read from its first event, past the ${gap.toLocaleString('en')} others`,
      before: await costOf(server, () => clientSideScan(client, firstMatch.position, own)),
      now: await costOf(server, () =>
        store.readFeed({ after: firstMatch.position, categories: [own], limit: 500 }),
      ),
    });
  } finally {
    await client.dispose();
  }
  return rows;
}

/**
 * A subscription from `after`: what it costs up to its first `caughtUp` marker (a runner's start),
 * then the average per marker while nothing new comes (its idle iterations).
 */
async function subscriptionCost(
  server: EsdbProtocolFake,
  store: EventStore,
  after: Checkpoint,
  category: string,
): Promise<{ catchUp: Cost; idle: Cost }> {
  const controller = new AbortController();
  const start = sentSoFar(server);
  let markers = 0;
  let caughtUpAt = start;
  for await (const item of store.subscribe({ after, categories: [category], signal: controller.signal })) {
    if (!isCaughtUp(item)) continue;
    markers += 1;
    if (markers === 1) caughtUpAt = sentSoFar(server);
    if (markers === IDLE_ITERATIONS + 1) {
      controller.abort();
      break;
    }
  }
  const idle = costSince(server, caughtUpAt);
  return {
    catchUp: { calls: caughtUpAt.calls - start.calls, messages: caughtUpAt.messages - start.messages },
    idle: { calls: idle.calls / IDLE_ITERATIONS, messages: idle.messages / IDLE_ITERATIONS },
  };
}

function report(gap: number, rows: Row[]): string {
  const cell = (cost: Cost | null) =>
    cost ? `${formatNumber(cost.calls)} / ${formatNumber(cost.messages)}` : '-';
  const lines = [
    `EventStoreDB feed cost: one runner, ${gap.toLocaleString('en')} events of other categories after its first event`,
    '(real client, protocol-level fake server; calls answered / messages sent to the client: records',
    'of `$all` reads, events and checkpoints of subscriptions)',
    '',
    '| Phase | Client-side filtering (readAll pages of 500, until 2026-11-28) | Server-side filter (now) |',
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
