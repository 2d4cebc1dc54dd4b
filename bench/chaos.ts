/**
 * Chaos run (`npm run chaos`): the service as it runs in production, two `serve` processes and one
 * `work` process on a PostgreSQL cluster of the run's own, under a steady load of case creations
 * (each retried with its Idempotency-Key until acknowledged), GETs and match reviews, while PostgreSQL
 * is restarted (`pg_ctl stop -m fast` and `-m immediate`) and service processes are killed with
 * SIGKILL, at random moments from a seeded schedule. Then it waits for the system to settle and
 * checks the invariants: no acknowledged write lost, no duplicate case or event, no stream gap, read
 * models equal to a rebuild, every check ended, lag back to 0 within the stated bound, no process
 * that exited on its own, no 500. Exit status 0 when all hold, 1 otherwise.
 *
 * Loopback only; bounded in time (CHAOS_DURATION plus the drain and settle limits); it cleans up its
 * processes and its cluster on the way out, Ctrl-C included. Settings: `CHAOS_HELP=1 npm run chaos`
 * or bench/chaos/options.ts; docs/operations.md, "Chaos run", says how to read the result.
 */
import { execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { closePool, createPool } from '../src/db/database.js';
import { freePort } from '../src/db/embeddedPostgres.js';
import { createPostgresEventStore } from '../src/eventStore/postgres/postgresEventStore.js';
import { type Clock, runClock, seconds } from './chaos/clock.js';
import { type Cluster, createCluster, removeTempDir } from './chaos/cluster.js';
import { type Fault, FaultInjector } from './chaos/faults.js';
import {
  apiInvariants,
  checkFigures,
  cliChildren,
  rebuildInvariant,
  statusInvariant,
  storeInvariants,
  type Verdict,
} from './chaos/invariants.js';
import { LagMonitor } from './chaos/lag.js';
import { Load, type RequestRecord } from './chaos/load.js';
import { type ChaosOptions, chaosOptions, USAGE } from './chaos/options.js';
import { type ServiceProcess, serviceProcess } from './chaos/processes.js';
import {
  describeCounts,
  faultFigures,
  faultKindTable,
  faultTable,
  requestTable,
  table,
} from './chaos/report.js';
import { prepareWorkspace } from './chaos/setup.js';
import { seededRandom } from './support/syntheticNames.js';

const API_KEYS = 64;

/** Everything the run must undo, whatever way it ends. */
class Resources {
  tempDir: string | undefined;
  cluster: Cluster | undefined;
  processes: ServiceProcess[] = [];
  pools: pg.Pool[] = [];
  released = false;

  /** The orderly way: processes stopped, the cluster stopped, the temp folder removed. */
  async release(log: (line: string) => void): Promise<void> {
    if (this.released) return;
    this.released = true;
    for (const child of cliChildren) child.kill('SIGKILL');
    await Promise.all(this.processes.map((p) => p.stop(15_000).catch(() => p.killNow())));
    for (const pool of this.pools) await closePool(pool).catch(() => {});
    await this.cluster?.shutdown().catch((error: unknown) => {
      log(`PostgreSQL did not stop (${(error as Error).message}); stopping it at once`);
      this.cluster!.killNow();
    });
    if (this.tempDir) removeTempDir(this.tempDir);
  }

  /** From an exit handler: synchronous, nothing awaited. */
  releaseNow(): void {
    if (this.released) return;
    this.released = true;
    for (const child of cliChildren) child.kill('SIGKILL');
    for (const p of this.processes) p.killNow();
    this.cluster?.killNow();
    if (this.tempDir) {
      // The postmaster needs a moment to go after SIGQUIT before its files can be removed for good.
      try {
        execFileSync('sleep', ['1']);
      } catch {
        // ignore
      }
      removeTempDir(this.tempDir);
    }
  }
}

async function main(): Promise<number> {
  if (process.env.CHAOS_HELP === '1') {
    console.log(USAGE);
    return 0;
  }
  const options = chaosOptions();
  const clock = runClock();
  const log = (line: string) => process.stdout.write(`[chaos ${clock.stamp()}] ${line}\n`);
  const resources = new Resources();

  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) {
      resources.releaseNow();
      process.exit(130);
    }
    interrupted = true;
    log(`${signal}: cleaning up (again to stop at once)`);
    void resources.release(log).finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('exit', () => resources.releaseNow());

  try {
    return await run(options, clock, log, resources);
  } finally {
    if (!interrupted) await resources.release(log);
  }
}

async function run(
  options: ChaosOptions,
  clock: Clock,
  log: (line: string) => void,
  resources: Resources,
): Promise<number> {
  const runId = options.seed.toString(36);
  log(
    `seed ${options.seed} (CHAOS_SEED=${options.seed} repeats this schedule); load and faults for ${seconds(options.durationMs)}, ${options.rate} cases/s, ${options.readRate} GETs/s`,
  );
  resources.tempDir = await mkdtemp(path.join(os.tmpdir(), 'casescreen-chaos-'));
  const logDir = path.join(resources.tempDir, 'logs');
  await mkdir(logDir);
  const cluster = await createCluster(resources.tempDir);
  resources.cluster = cluster;
  log(`PostgreSQL ${cluster.url.replace(/\/\/[^@]*@/, '//')} (data in ${cluster.dataDir})`);
  const workspace = await prepareWorkspace(cluster.url, API_KEYS);
  log(`workspace: account ${workspace.accountId}, ${workspace.keys.length} API keys, UN list fixture loaded`);

  const env = {
    DATABASE_URL: cluster.url,
    HOST: '127.0.0.1',
    // Readiness is read from the info lines 'serving' and 'workers started'.
    LOG_LEVEL: 'info',
    // The fixture list is years old: it stays the current snapshot of its dataset for the run.
    SOURCE_STALE_AFTER: '3650d',
  };
  const ports: number[] = [];
  while (ports.length < 2) {
    const port = await freePort();
    if (port !== cluster.port && !ports.includes(port)) ports.push(port);
  }
  const serve = ports.map((port, i) =>
    serviceProcess({ name: `serve-${i + 1}`, role: 'serve', port, env, logDir, clock, log }),
  );
  const work = serviceProcess({ name: 'work', role: 'work', env, logDir, clock, log });
  const all = [...serve, work];
  resources.processes = all;
  // One at a time: each applies pending migrations and installs projections first.
  for (const p of all) await p.start();
  log(`started ${all.map((p) => `${p.name} (pid ${p.pid()}${p.url ? `, ${p.url}` : ''})`).join(', ')}`);

  const pool = createPool(cluster.url, {
    max: 3,
    applicationName: 'casescreen-chaos',
    connectionTimeoutMillis: 2_000,
  });
  resources.pools.push(pool);
  const store = createPostgresEventStore({ pool, connectionString: cluster.url });
  const lag = new LagMonitor(pool, store, clock);
  lag.start();

  // Two streams of random numbers from the one seed: the fault schedule's does not depend on how many
  // requests the machine managed to send.
  const faultRandom = seededRandom(options.seed);
  const loadRandom = seededRandom(options.seed ^ 0x5bd1e995);
  const load = new Load({
    serve,
    workspace,
    clock,
    random: loadRandom,
    runId,
    rate: options.rate,
    readRate: options.readRate,
  });
  const faults = new FaultInjector({
    cluster,
    serve,
    work,
    lag,
    clock,
    random: faultRandom,
    minGapMs: options.minGapMs,
    maxGapMs: options.maxGapMs,
    log,
  });
  const loadStart = clock.now();
  const loadEnd = loadStart + options.durationMs;
  load.start();
  faults.start(loadEnd);
  const progress = setInterval(() => {
    log(
      `load: ${load.started} writes, ${load.acknowledged.size} acknowledged, ${load.pendingWrites()} retrying; ${load.records.length} requests`,
    );
  }, 15_000);
  await sleep(Math.max(0, loadEnd - clock.now()));
  await load.stopArrivals();
  await faults.stop();
  clearInterval(progress);
  const lastRestore = Math.max(0, ...faults.faults.map((f) => f.restoredAt ?? 0));
  log(
    `load stopped: ${load.started} writes started, ${load.acknowledged.size} acknowledged, ${load.pendingWrites()} still retrying; ${faults.faults.length} faults`,
  );
  // A supervisor brings back what is down (a process that died on its own is restarted already).
  for (const p of all) if (!p.alive()) await p.start();

  const left = await load.drain(options.drainMs);
  log(
    `drain: ${left} writes given up after ${seconds(options.drainMs)}; ${load.acknowledged.size} acknowledged`,
  );

  // Settle: lag 0 and no open check, within the settle limit.
  const settleStart = clock.now();
  let settledAt: number | undefined;
  let lastState = '';
  while (clock.now() - settleStart < options.settleTimeoutMs) {
    const sample = await lag.sampleOnce();
    const checks = await checkFigures(pool).catch(() => undefined);
    lastState = `lag ${sample.total ?? '?'}, ${checks?.counts.open ?? '?'} checks open`;
    if (sample.total === 0 && checks?.counts.open === 0) {
      const { rows } = await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM check_jobs WHERE status <> 'done'`,
      );
      if (rows[0]!.n === 0) {
        settledAt = clock.now();
        break;
      }
    }
    await sleep(500);
  }
  log(
    settledAt === undefined
      ? `did not settle: ${lastState}`
      : `settled ${seconds(settledAt - settleStart)} after the drain`,
  );
  await Promise.race([faults.caughtUp(), sleep(5_000)]);
  const parked = lag.samples.at(-1)?.parked ?? [];
  await lag.stop();

  const verdicts: Verdict[] = [];
  const store_ = await storeInvariants(pool, load, runId);
  verdicts.push(...store_.verdicts);
  verdicts.push(...(await apiInvariants(load, serve, workspace)));

  const figures = faultFigures(faults.faults, load);
  const lateCatchUps = figures.filter((f) => f.caughtUpMs === undefined || f.caughtUpMs > options.lagBoundMs);
  const lagZeroAfterLoad = lag.firstZeroAfter(loadEnd);
  const lastFigure = figures.at(-1);
  verdicts.push({
    invariant: `lag back to 0 within ${seconds(options.lagBoundMs)}`,
    ok: lateCatchUps.length === 0 && settledAt !== undefined && parked.length === 0,
    detail: [
      lastFigure
        ? `last fault (#${lastFigure.fault.n} ${lastFigure.fault.kind}): caught up ${seconds(lastFigure.caughtUpMs)} after its restore`
        : 'no fault injected',
      `max over faults ${seconds(Math.max(0, ...figures.map((f) => f.caughtUpMs ?? Number.POSITIVE_INFINITY)))}`,
      lateCatchUps.length ? `${lateCatchUps.length} faults over the bound` : '',
      `lag 0 ${lagZeroAfterLoad === undefined ? 'never seen' : `${seconds(lagZeroAfterLoad - loadEnd)} after the load ended`} (${seconds(lagZeroAfterLoad === undefined ? undefined : lagZeroAfterLoad - lastRestore)} after the last restore)`,
      parked.length ? `parked: ${parked.join(', ')}` : '',
      lag.unknown.size ? `categories unknown (all counted): ${[...lag.unknown].join(', ')}` : '',
    ]
      .filter(Boolean)
      .join('; '),
  });

  const exits = all.flatMap((p) => p.unexpectedExits);
  verdicts.push({
    invariant: 'no process exited on its own',
    ok: exits.length === 0,
    detail:
      exits.length === 0
        ? 'none'
        : exits
            .map(
              (e) =>
                `${e.process} at ${seconds(e.at)} (exit ${e.code ?? e.signal}${duringFault(e.at, faults.faults)}): ${crashSummary(e.lastOutput)}`,
            )
            .join('; '),
  });
  const serverErrors = load.records.filter((r) => r.outcome === 500);
  verdicts.push({
    invariant: 'no 500 answer, no unexpected answer',
    ok: serverErrors.length === 0 && load.anomalies.length === 0,
    detail:
      serverErrors.length + load.anomalies.length === 0
        ? 'none (database outages answered 503 or a network error)'
        : [
            serverErrors.length ? describeServerErrors(serverErrors, faults.faults) : '',
            ...load.anomalies.slice(0, 5).map((a) => `${seconds(a.at)} ${a.what}`),
          ]
            .filter(Boolean)
            .join('; '),
  });

  const status = await statusInvariant(cluster.url);
  if (status) verdicts.push(status);
  else log('this build has no `casescreen status`: not checked');

  log('checking read models against a rebuild of each projection');
  verdicts.push(await rebuildInvariant(pool, cluster.url, log));

  printReport(options, load, figures, all, store_.figures, verdicts, parked);
  const failed = verdicts.filter((v) => !v.ok);
  if (failed.length > 0 || options.keepLogs) {
    const kept = await mkdtemp(path.join(os.tmpdir(), 'casescreen-chaos-logs-'));
    await cp(logDir, kept, { recursive: true });
    await cp(cluster.logFile, path.join(kept, 'postmaster.log'));
    log(`service and PostgreSQL logs kept in ${kept}`);
  }
  log(failed.length === 0 ? 'all invariants hold' : `${failed.length} invariants failed`);
  return failed.length === 0 ? 0 : 1;
}

/** ", during fault #n <kind>" when the time falls within a fault (or 10 s after its restore). */
function duringFault(at: number, faults: readonly Fault[]): string {
  const fault = faults.find((f) => at >= f.startedAt && at <= (f.restoredAt ?? at) + 10_000);
  return fault ? `, during fault #${fault.n} ${fault.kind}` : '';
}

function countBy(labels: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const label of labels) counts.set(label, (counts.get(label) ?? 0) + 1);
  return counts;
}

/**
 * Why a process ended, from its last lines: Node's report of an uncaught error (with its SQLSTATE
 * when it is a database error), else its last error-level log line, else its last line.
 */
function crashSummary(lines: string[]): string {
  const unhandled = lines.some((line) => line.includes("Unhandled 'error' event"));
  const errorAt = lines.findLastIndex((line) => /^(?:[A-Za-z]*Error|error)(?: \[[^\]]*\])?: /.test(line));
  if (errorAt >= 0) {
    const code = lines
      .slice(errorAt)
      .map((line) => /^\s*code: '([^']+)'/.exec(line)?.[1])
      .find(Boolean);
    return `${unhandled ? "unhandled 'error' event: " : 'uncaught '}${lines[errorAt]!.trim()}${code ? ` (code ${code})` : ''}`.slice(
      0,
      400,
    );
  }
  for (const line of [...lines].reverse()) {
    if (!line.startsWith('{')) continue;
    try {
      const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } };
      if ((entry.level ?? 0) >= 50)
        return `${entry.msg}${entry.err?.message ? `: ${entry.err.message}` : ''}`.slice(0, 400);
    } catch {
      // not a log line
    }
  }
  return (lines.at(-1) ?? '').slice(0, 400);
}

/** "create x286, get x36 between 21.5 s and 63.6 s, around faults #1 pg-stop-fast, #3 pg-stop-immediate". */
function describeServerErrors(records: RequestRecord[], faults: readonly Fault[]): string {
  const kinds = describeCounts(countBy(records.map((r) => r.kind)));
  const first = Math.min(...records.map((r) => r.end));
  const last = Math.max(...records.map((r) => r.end));
  const around = faults.filter((f) =>
    records.some((r) => r.end >= f.startedAt && r.end <= (f.restoredAt ?? f.startedAt) + 10_000),
  );
  const outside = records.filter(
    (r) => !faults.some((f) => r.end >= f.startedAt && r.end <= (f.restoredAt ?? f.startedAt) + 10_000),
  ).length;
  return [
    `${records.length} x 500 (${kinds}) between ${seconds(first)} and ${seconds(last)}`,
    around.length ? `around faults ${around.map((f) => `#${f.n} ${f.kind}`).join(', ')}` : '',
    outside ? `${outside} outside any fault` : '',
  ]
    .filter(Boolean)
    .join(', ');
}

function printReport(
  options: ChaosOptions,
  load: Load,
  figures: ReturnType<typeof faultFigures>,
  processes: ServiceProcess[],
  store: Awaited<ReturnType<typeof storeInvariants>>['figures'],
  verdicts: Verdict[],
  parked: string[],
): void {
  const out = (text = '') => process.stdout.write(`${text}\n`);
  out();
  out(
    `Chaos run: seed ${options.seed}, ${seconds(options.durationMs)} of load at ${options.rate} cases/s and ${options.readRate} GETs/s, faults every ${seconds(options.minGapMs)} to ${seconds(options.maxGapMs)}; ${os.cpus().length} cores, Node ${process.version}`,
  );
  out();
  out(
    'Faults (times from the start of the run; "restored": fault start to server accepting / process ready;',
  );
  out('"next 2xx": restore to the next acknowledged request, from the restarted process for a serve kill;');
  out('"caught up": restore to every subscription having handled the events on the feed at restore)');
  out(faultTable(figures));
  out();
  out(faultKindTable(figures));
  out();
  out(requestTable(load));
  out();
  const attempts = [...load.acknowledged.values()].map((a) => a.attempts);
  const retried = attempts.filter((a) => a > 1).length;
  out(
    table(
      ['figure', 'value'],
      [
        ['case writes started', String(load.started)],
        ['acknowledged (2xx)', String(load.acknowledged.size)],
        ['  of which after retries', `${retried} (most attempts ${Math.max(0, ...attempts)})`],
        ['given up when the run stopped retrying', String(load.abandoned)],
        ['arrivals skipped (too many writes retrying)', String(load.skipped)],
        ['committed but never acknowledged', String(store.committedNotAcknowledged)],
        ['match reviews acknowledged', String(load.reviews.length)],
        ['events / streams / cases', `${store.events} / ${store.streams} / ${store.cases}`],
        [
          'checks completed / failed',
          `${store.checks.completed} / ${store.checks.failed}${store.failureReasons.size ? ` (${describeCounts(store.failureReasons)})` : ''}`,
        ],
        ['parked subscriptions at the end', parked.length ? parked.join(', ') : 'none'],
        ...processes.map((p) => [
          `${p.name}: exits on its own / failed starts`,
          `${p.unexpectedExits.length} / ${p.startFailures()}`,
        ]),
      ],
    ),
  );
  out();
  const problems = new Map<string, number>();
  for (const p of processes) {
    for (const [message, n] of p.problems()) problems.set(`${p.name} ${message}`, n);
  }
  if (problems.size > 0) {
    out('Warnings and errors the services logged:');
    out(
      table(
        ['process, level: message', 'lines'],
        [...problems.entries()].sort((a, b) => b[1] - a[1]).map(([message, n]) => [message, String(n)]),
      ),
    );
    out();
  }
  out(
    table(
      ['invariant', 'result', 'detail'],
      verdicts.map((v) => [v.invariant, v.ok ? 'PASS' : 'FAIL', v.detail]),
    ),
  );
  out();
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('chaos run failed:', error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
