/**
 * Monitoring benchmark (issue 14, item 8): a book of monitored subjects, the UN 2025-04 -> 2026-02
 * and OFAC SDN 2024-05-02 -> 05-03 changes applied, and the time from "snapshot current" (the
 * SnapshotBecameCurrent appends) to every run and alert recorded through the real worker path
 * (startMonitoring: the scheduler reactor, the sweeps, the run workers), beside a full re-screen of
 * every configuration measured in the same run, with a check that both give the same alerts.
 * Usage: `npm run bench:monitoring -- --help`.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import type pg from 'pg';
import { startProjections } from '../projections/startProjections.js';
import { SYSTEM_ACTOR } from '../src/cases/caseEvents.js';
import { IndexManager } from '../src/checks/indexManager.js';
import { screeningSubjectOf } from '../src/checks/screeningPlan.js';
import { createPool } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import type { EventStore, NewEvent } from '../src/eventStore/eventStore.js';
import { createPostgresEventStore } from '../src/eventStore/postgres/postgresEventStore.js';
import { MonitoredSubjectIndex } from '../src/monitoring/delta/monitoredSubjectIndex.js';
import { diffSnapshots } from '../src/monitoring/delta/snapshotDiff.js';
import type {
  MonitoringAlertRaised,
  MonitoringConfigCreated,
  MonitoringEvent,
} from '../src/monitoring/monitoringEvents.js';
import { MONITORING_CATEGORY } from '../src/monitoring/monitoringEvents.js';
import { monitoringConfigId, monitoringRunId } from '../src/monitoring/monitoringReferences.js';
import { startMonitoring } from '../src/monitoring/monitoringRunner.js';
import { MONITORING_SCHEDULER_SUBSCRIPTION_ID } from '../src/monitoring/monitoringScheduler.js';
import { enrollSubject, monitoredSubject } from '../src/monitoring/monitoringService.js';
import { evolveMonitoring, type MonitoringConfigState } from '../src/monitoring/monitoringState.js';
import { monitoringCommandHandler } from '../src/monitoring/monitoringStream.js';
import { type CaseEvidence, evaluateRun, planRun } from '../src/monitoring/runEvaluation.js';
import { evidenceOf, runMonitoringJob } from '../src/monitoring/runJob.js';
import type { SweepStats } from '../src/monitoring/sweep.js';
import type { ScreeningIndex } from '../src/screening/index/screeningIndex.js';
import type { EntityKind, ListedEntity } from '../src/screening/model/listedEntity.js';
import { sourceFormats } from '../src/screening/parsers/registry.js';
import { defaultProfile } from '../src/screening/scoring/profiles.js';
import { recordSnapshotBecameCurrent } from '../src/screening/snapshots/datasetStream.js';
import { type LoadSnapshotOptions, loadSnapshot } from '../src/screening/snapshots/loadSnapshot.js';
import { currentSnapshots, type ReadySnapshot } from '../src/screening/snapshots/snapshotStore.js';
import { decideSubject } from '../src/subjects/subjectDecide.js';
import { subjectCommandHandler } from '../src/subjects/subjectStream.js';
import { createWorkspace } from '../src/workspace/workspaceStore.js';
import { table } from './support/report.js';
import { openBenchServer } from './support/server.js';
import { now } from './support/stats.js';
import { namePartsOf, seededRandom } from './support/syntheticNames.js';

const USAGE = `Usage: npm run bench:monitoring -- [options]
  --subjects N      monitored subjects (default 100000): a few hundred named after listed parties,
                    the rest synthetic names from real name parts that match nothing on the first versions
  --scaling LIST    subject counts of the reverse-index scaling series (default 10000,30000,100000)
  --workers N       MONITORING_WORKERS of the worker path (default 2)
  --seed N          seed of the synthetic names (default 14)
Reads the lists from SCREENING_DATA_DIR (default ../shared/data).
  DATABASE_URL      use this server (a throwaway database on it) instead of an embedded one`;

const progress = (message: string) => process.stderr.write(`[bench] ${message}\n`);
const STALE_AFTER_MS = 3650 * 86_400_000;
const profile = defaultProfile();

interface Options {
  subjects: number;
  scaling: number[];
  workers: number;
  seed: number;
}

function parseOptions(): Options | 'help' {
  const { values } = parseArgs({
    options: {
      subjects: { type: 'string' },
      scaling: { type: 'string' },
      workers: { type: 'string' },
      seed: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  const count = (text: string | undefined, fallback: number) => {
    const value = text === undefined ? fallback : Number(text);
    if (!Number.isInteger(value) || value < 1) throw new Error(`not a count: ${text}\n${USAGE}`);
    return value;
  };
  const subjects = count(values.subjects, 100_000);
  return {
    subjects,
    scaling: (values.scaling ?? '10000,30000,100000')
      .split(',')
      .map((part) => count(part.trim(), 0))
      .filter((n) => n <= subjects),
    workers: count(values.workers, 2),
    seed: count(values.seed, 14),
  };
}

function dataFile(...segments: string[]): string {
  const dir = path.resolve(
    process.env.SCREENING_DATA_DIR ?? path.join(process.cwd(), '..', 'shared', 'data'),
  );
  return path.join(dir, ...segments);
}

async function parse(format: string, file: string): Promise<ListedEntity[]> {
  const entities: ListedEntity[] = [];
  for await (const entity of sourceFormats[format]!.parse([file])) entities.push(entity);
  return entities;
}

// ---- memory ------------------------------------------------------------------------------------

/** Peak RSS and heap of this process (the work role's monitoring runs here), sampled every 50 ms. */
function sampleMemory(): { stop(): { rssMb: number; heapMb: number } } {
  let rss = 0;
  let heap = 0;
  const read = () => {
    const usage = process.memoryUsage();
    rss = Math.max(rss, usage.rss);
    heap = Math.max(heap, usage.heapUsed);
  };
  read();
  const timer = setInterval(read, 50);
  return {
    stop() {
      clearInterval(timer);
      read();
      return { rssMb: rss / 1e6, heapMb: heap / 1e6 };
    },
  };
}

// ---- the book of subjects ----------------------------------------------------------------------

interface Named {
  name: string;
  kind: EntityKind;
}

/**
 * Subjects named after listed parties: every UN party removed or changed by 2026-02, every third
 * one added, every 20th other UN party, the eight OFAC delistings and every 100th other OFAC party.
 */
function listNamed(un1: ListedEntity[], un2: ListedEntity[], ofac1: ListedEntity[]): Named[] {
  const after = new Map(un2.map((e) => [e.id, JSON.stringify(e)]));
  const before = new Set(un1.map((e) => e.id));
  const of = (e: ListedEntity): Named => ({
    name: e.names.find((n) => n.kind === 'primary')?.full ?? e.names[0]!.full,
    kind: e.kind,
  });
  const delisted = new Set(
    [38556, 38557, 38558, 38559, 38560, 38563, 38565, 38566].map((n) => `us_ofac_sdn:${n}`),
  );
  return [
    ...un1.filter((e, i) => after.get(e.id) !== JSON.stringify(e) || i % 20 === 0).map(of),
    ...un2
      .filter((e) => !before.has(e.id))
      .filter((_, i) => i % 3 === 0)
      .map(of),
    ...ofac1.filter((e, i) => delisted.has(e.id) || i % 100 === 0).map(of),
  ];
}

const COUNTRIES = ['US', 'GB', 'DE', 'FR', 'IT', 'ES', 'NL', 'BR', 'IN', 'NG', 'TR', 'AE', 'RU', 'CN', 'UA'];

/**
 * Synthetic subjects with a real enrollment and a real baseline: MonitoringConfigCreated as the
 * service would record it, and the baseline run's events as evaluateRun decides them on the first
 * list versions (what the worker records for a subject with no cases). Names with any match on
 * the first versions are drawn again: their baseline would raise alerts and open follow-up cases,
 * which the list-named subjects exercise through the real workers.
 */
function* syntheticBook(
  input: {
    accountId: string;
    groupId: string;
    seed: number;
    index: ScreeningIndex;
    current: ReadySnapshot[];
  },
  names: { given: string[]; family: string[] },
): Generator<{ id: string; events: MonitoringEvent[] }> {
  const random = seededRandom(input.seed);
  const pick = (words: readonly string[]) => words[Math.floor(random() * words.length)]!;
  const nowText = new Date().toISOString();
  for (let i = 0; ; i++) {
    const given = random() < 0.3 ? `${pick(names.given)} ${pick(names.given)}` : pick(names.given);
    const subjectReference = `sub_${(0x5e000000 + i).toString(16).padStart(24, '0')}`;
    const id = monitoringConfigId(input.accountId, subjectReference, input.groupId);
    const created: MonitoringConfigCreated = {
      type: 'MonitoringConfigCreated',
      data: {
        monitoringConfigId: id,
        accountId: input.accountId,
        groupId: input.groupId,
        subject: {
          subjectReference,
          type: 'person',
          displayName: `${given} ${pick(names.family)}`,
          countries: [pick(COUNTRIES)],
          birthDate: null,
          externalReference: `cust-${i}`,
          metadata: {},
        },
        checkTypes: ['sanctions'],
        ownerUserId: null,
        collaboratorUserIds: [],
        status: 'active',
        metadata: { segment: 'retail' },
        screeningProfileId: profile.id,
        enrolledFrom: { kind: 'api' },
        actor: SYSTEM_ACTOR,
        occurredAt: nowText,
      },
    };
    const config = evolveMonitoring(null, created);
    const sources = planRun({
      config,
      profile,
      current: input.current,
      now: new Date(),
      staleAfterMs: STALE_AFTER_MS,
    });
    const run = evaluateRun({
      config,
      subject: config.subject,
      runId: monitoringRunId(id, 'enrollment'),
      trigger: { kind: 'enrollment' },
      profile,
      sources,
      index: input.index,
      evidence: NO_EVIDENCE,
      now: nowText,
    });
    const completed = run.find((event) => event.type === 'MonitoringRunCompleted');
    if (completed?.type !== 'MonitoringRunCompleted' || completed.data.counts.matchCount > 0) continue;
    yield { id, events: [created, ...run] };
  }
}

const NO_EVIDENCE: CaseEvidence = { presented: new Map(), reviews: new Map(), seenWithoutFacts: new Set() };

async function appendAll(
  store: EventStore,
  streams: { id: string; events: MonitoringEvent[] }[],
  writers: number,
) {
  let next = 0;
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (next < streams.length) {
        const { id, events } = streams[next++]!;
        const newEvents: NewEvent[] = events.map((event) => ({
          id: randomUUID(),
          type: event.type,
          data: event.data as unknown as Record<string, unknown>,
        }));
        await store.appendToStream(`${MONITORING_CATEGORY}-${id}`, newEvents, {
          expectedRevision: 'no_stream',
        });
      }
    }),
  );
}

// ---- the run -----------------------------------------------------------------------------------

type Alert = MonitoringAlertRaised['data'];
/** What the comparison reads of an alert (jsonb gives the changes back with their keys reordered). */
const alertKey = (configId: string, alert: Alert) =>
  JSON.stringify([
    configId,
    alert.fingerprint,
    alert.kind,
    alert.changes.map((change) => [change.field, change.previous, change.current]),
    alert.actionable,
  ]);

async function waitFor(what: string, timeoutMs: number, done: () => Promise<boolean>, intervalMs = 200) {
  const deadline = now() + timeoutMs;
  while (!(await done())) {
    if (now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}

async function main(): Promise<void> {
  const options = parseOptions();
  if (options === 'help') {
    console.log(USAGE);
    return;
  }
  const loadAtStart = os.loadavg();
  progress(process.env.DATABASE_URL ? 'using DATABASE_URL' : 'starting embedded PostgreSQL');
  const server = await openBenchServer(process.env.DATABASE_URL);
  let pool: pg.Pool | undefined;
  let store: ReturnType<typeof createPostgresEventStore> | undefined;
  let stopAll: (() => Promise<void>) | undefined;
  try {
    await migrate(server.url);
    pool = createPool(server.url, { max: 16, applicationName: 'casescreen-bench' });
    store = createPostgresEventStore({ pool, connectionString: server.url });
    const db = pool;
    const es = store;

    progress('loading UN 2025-04 and OFAC SDN 2024-05-02');
    const loadList = async (o: LoadSnapshotOptions) => (await loadSnapshot(db, o)).snapshot;
    const unOptions = (month: string): LoadSnapshotOptions => ({
      format: sourceFormats['un-xml']!,
      paths: [dataFile('un', `UN_consolidated_${month}.xml`)],
    });
    const ofacOptions = (day: string): LoadSnapshotOptions => ({
      format: sourceFormats['ofac-csv']!,
      paths: [dataFile('ofac', `sdn_${day}.csv`)],
      publishedAt: new Date(`${day}T00:00:00Z`),
      allowPartial: true,
    });
    const firsts = [await loadList(unOptions('2025-04')), await loadList(ofacOptions('2024-05-02'))];
    for (const snapshot of firsts) await recordSnapshotBecameCurrent(es, snapshot);
    const { account, defaultGroup } = await createWorkspace(db, { name: 'Monitoring bench' });
    const accountId = account.id;
    const groupId = defaultGroup.id;

    const indexManager = new IndexManager({ pool: db });
    const current1 = await currentSnapshots(db);
    const { index: index1 } = await indexManager.indexFor(
      current1,
      current1.map((s) => s.id),
    );

    const un1 = await parse('un-xml', dataFile('un', 'UN_consolidated_2025-04.xml'));
    const un2 = await parse('un-xml', dataFile('un', 'UN_consolidated_2026-02.xml'));
    const ofac1 = await parse('ofac-csv', dataFile('ofac', 'sdn_2024-05-02.csv'));
    const named = listNamed(un1, un2, ofac1);
    const syntheticCount = options.subjects - named.length;

    progress(`drawing ${syntheticCount} synthetic subjects with their baselines`);
    const drawStarted = now();
    const book: { id: string; events: MonitoringEvent[] }[] = [];
    let drawn = 0;
    const generator = syntheticBook(
      { accountId, groupId, seed: options.seed, index: index1, current: current1 },
      namePartsOf([...un1, ...ofac1]),
    );
    while (book.length < syntheticCount) {
      book.push(generator.next().value!);
      drawn++;
    }
    const drawMs = now() - drawStarted;
    progress(`appending ${book.length} configurations (created + baseline run) through the event store`);
    const appendStarted = now();
    await appendAll(es, book, 16);
    const appendMs = now() - appendStarted;
    // The scheduler reactor had queued and the workers recorded these baselines: it starts after them.
    const head = (await es.headCheckpoint())!;
    await db.query(
      `INSERT INTO es_checkpoints (subscription_id, checkpoint) VALUES ($1, $2)
       ON CONFLICT (subscription_id) DO UPDATE SET checkpoint = EXCLUDED.checkpoint`,
      [MONITORING_SCHEDULER_SUBSCRIPTION_ID, head],
    );

    progress('starting projections and monitoring; enrolling the list-named subjects through the service');
    const projections = await startProjections({ pool: db, databaseUrl: server.url, store: es });
    const monitoring = startMonitoring({
      pool: db,
      databaseUrl: server.url,
      store: es,
      indexManager,
      workers: options.workers,
      intervalMs: 86_400_000,
      staleAfterMs: STALE_AFTER_MS,
      pollMs: 200,
    });
    stopAll = async () => {
      await monitoring.stop();
      await projections.stop();
      indexManager.close();
    };
    const projectedCount = async () =>
      Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM monitoring_configs')).rows[0]!.n);
    const catchUpStarted = now();
    await waitFor(
      'the projection of the synthetic book',
      1_800_000,
      async () => (await projectedCount()) >= book.length,
      1000,
    );
    const catchUpMs = now() - catchUpStarted;

    const enrollStarted = now();
    const namedIds: string[] = [];
    for (const subject of named) {
      const subjectReference = `sub_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
      const stamp = new Date().toISOString();
      await subjectCommandHandler.handle(
        es,
        subjectReference,
        (state) =>
          decideSubject(
            {
              type: 'UseSubject',
              subjectReference,
              accountId,
              named: false,
              groupId,
              visibleGroupIds: [groupId.toLowerCase()],
              sent: { type: subject.kind, name: subject.name },
              now: stamp,
            },
            state,
          ),
        () => randomUUID(),
      );
      const outcome = await enrollSubject(
        { pool: db, store: es, clock: () => new Date() },
        { accountId, actor: SYSTEM_ACTOR, visibleGroupIds: [groupId.toLowerCase()] },
        {
          subjectReference,
          groupId,
          checkTypes: ['sanctions'],
          ownerUserId: undefined,
          collaboratorUserIds: undefined,
          status: undefined,
          metadata: undefined,
          enrolledFrom: { kind: 'api' },
        },
        () => randomUUID(),
      );
      if (!outcome.ok) throw new Error(outcome.rejection.message);
      namedIds.push(outcome.value.state.monitoringConfigId);
    }
    await waitFor('the list-named baselines', 600_000, async () => {
      const { rows } = await db.query<{ n: string }>(
        `SELECT count(*) AS n FROM monitoring_configs WHERE latest_result <> 'not_checked' AND monitoring_config_id = ANY($1)`,
        [namedIds],
      );
      return Number(rows[0]!.n) === namedIds.length;
    });
    await monitoring.idle();
    const enrollMs = now() - enrollStarted;

    // A sample of the bulk baselines run again through the worker: a real run finds no change either.
    const sample = book.filter((_, i) => i % Math.max(1, Math.floor(book.length / 20)) === 0).slice(0, 20);
    for (const { id } of sample) {
      const outcome = await runMonitoringJob(
        { pool: db, store: es, indexManager, staleAfterMs: STALE_AFTER_MS, clock: () => new Date() },
        { runId: monitoringRunId(id, 'bench-sample'), monitoringConfigId: id, trigger: { kind: 'operator' } },
      );
      const { state } = await monitoringCommandHandler.load(es, id);
      if (
        outcome.kind !== 'recorded' ||
        state?.latestResult !== 'no_change' ||
        Object.keys(state.observations).length > 0
      )
        throw new Error(
          `sample ${id}: a real run found ${outcome.kind} ${state?.latestResult}, not the bulk baseline's no change`,
        );
    }

    // Everything projected before the measured phase (the sweep reads monitoring_configs).
    const expectedRevisions = new Map<string, number>();
    for (const id of [...namedIds, ...sample.map((s) => s.id)])
      expectedRevisions.set(id, (await monitoringCommandHandler.load(es, id)).state!.revision);
    await waitFor('the projection of the baselines', 300_000, async () => {
      const { rows } = await db.query<{ id: string; revision: string }>(
        'SELECT monitoring_config_id AS id, revision FROM monitoring_configs WHERE monitoring_config_id = ANY($1)',
        [[...expectedRevisions.keys()]],
      );
      return (
        rows.length === expectedRevisions.size &&
        rows.every((r) => Number(r.revision) === expectedRevisions.get(r.id))
      );
    });

    // The starting point of every run of the new versions, for the full re-screen.
    progress('reading the starting point of every configuration');
    const { rows: stateRows } = await db.query<{ id: string; state: MonitoringConfigState }>(
      'SELECT monitoring_config_id AS id, state FROM monitoring_configs',
    );
    const evidence = new Map<string, CaseEvidence>();
    for (const id of namedIds) {
      const row = stateRows.find((r) => r.id === id)!;
      evidence.set(id, await evidenceOf({ pool: db, store: es }, row.state));
    }
    const subjects = new Map<string, MonitoringConfigState['subject']>();
    for (const id of namedIds) {
      const row = stateRows.find((r) => r.id === id)!;
      const subject = (await subjectCommandHandler.load(es, row.state.subject.subjectReference)).state;
      if (subject) subjects.set(id, monitoredSubject(subject));
    }

    progress('loading UN 2026-02 and OFAC SDN 2024-05-03 (made current, not yet recorded)');
    const seconds = [await loadList(unOptions('2026-02')), await loadList(ofacOptions('2024-05-03'))];
    // Both paths screen against the index of the new versions: built once here, timed apart, so that
    // neither is charged for it (the delta path's first runs would otherwise build it in its window).
    progress('building the screening index of the new versions (both paths need it)');
    const indexStarted = now();
    const current2 = await currentSnapshots(db);
    const { index: index2 } = await indexManager.indexFor(
      current2,
      current2.map((s) => s.id),
    );
    const newIndexMs = now() - indexStarted;
    const jobsBefore = Number(
      (await db.query<{ n: string }>('SELECT count(*) AS n FROM monitoring_jobs')).rows[0]!.n,
    );

    // ---- the delta path, measured -----------------------------------------------------------
    progress('delta path: recording SnapshotBecameCurrent, waiting for every run and alert');
    const memory = sampleMemory();
    const cpuBefore = process.cpuUsage();
    const t0 = now();
    for (const snapshot of seconds) await recordSnapshotBecameCurrent(es, snapshot);
    const secondIds = seconds.map((s) => s.id);
    await waitFor(
      'the sweeps',
      600_000,
      async () => {
        const { rows } = await db.query<{ n: string }>(
          `SELECT count(*) AS n FROM monitoring_sweeps WHERE snapshot_id = ANY($1) AND status = 'done'`,
          [secondIds],
        );
        return Number(rows[0]!.n) === secondIds.length;
      },
      20,
    );
    await monitoring.idle();
    const deltaMs = now() - t0;
    const cpu = process.cpuUsage(cpuBefore);
    const peak = memory.stop();

    const { rows: sweepRows } = await db.query<{ snapshot_id: string; stats: SweepStats }>(
      'SELECT snapshot_id, stats FROM monitoring_sweeps WHERE snapshot_id = ANY($1)',
      [secondIds],
    );
    const { rows: jobRows } = await db.query<{ run_id: string; monitoring_config_id: string }>(
      `SELECT run_id, monitoring_config_id FROM monitoring_jobs WHERE trigger->>'kind' = 'snapshot'
          AND trigger->'snapshotIds' ?| $1::text[]`,
      [secondIds],
    );
    const runIds = new Set(jobRows.map((r) => r.run_id));
    const deltaAlerts = new Set<string>();
    let deltaRuns = 0;
    for (const configId of new Set(jobRows.map((r) => r.monitoring_config_id))) {
      const { events } = await monitoringCommandHandler.load(es, configId);
      for (const { event } of events) {
        if (event.type === 'MonitoringRunCompleted' && runIds.has(event.data.runId)) deltaRuns++;
        if (event.type === 'MonitoringAlertRaised' && runIds.has(event.data.runId))
          deltaAlerts.add(alertKey(configId, event.data));
      }
    }
    const jobsAfter = Number(
      (await db.query<{ n: string }>('SELECT count(*) AS n FROM monitoring_jobs')).rows[0]!.n,
    );

    // ---- the full re-screen, in-process ----------------------------------------------------
    progress(`full re-screen: evaluateRun for each of ${stateRows.length} configurations`);
    const fullMemory = sampleMemory();
    const fullStarted = now();
    const fullAlerts = new Set<string>();
    const nowDate = new Date();
    for (const { id, state } of stateRows) {
      const sources = planRun({
        config: state,
        profile,
        current: current2,
        now: nowDate,
        staleAfterMs: STALE_AFTER_MS,
      });
      const events = evaluateRun({
        config: state,
        subject: subjects.get(id) ?? state.subject,
        runId: `run_full_${id}`,
        trigger: { kind: 'snapshot', snapshotIds: secondIds },
        profile,
        sources,
        index: index2,
        evidence: evidence.get(id) ?? NO_EVIDENCE,
        now: nowDate.toISOString(),
      });
      for (const event of events)
        if (event.type === 'MonitoringAlertRaised') fullAlerts.add(alertKey(id, event.data));
    }
    const fullMs = now() - fullStarted;
    const fullPeak = fullMemory.stop();
    // What re-screening everyone through the worker path would cost: a sample of configurations run
    // by runMonitoringJob (read the streams, screen, append the run), as many at once as workers.
    progress('full re-screen through the worker path, on a sample');
    const every = Math.max(1, Math.floor(stateRows.length / 400));
    const sampleIds = stateRows.filter((_, i) => i % every === 0).map((row) => row.id);
    let nextSample = 0;
    const workerStarted = now();
    await Promise.all(
      Array.from({ length: options.workers }, async () => {
        while (nextSample < sampleIds.length) {
          const id = sampleIds[nextSample++]!;
          await runMonitoringJob(
            { pool: db, store: es, indexManager, staleAfterMs: STALE_AFTER_MS, clock: () => new Date() },
            {
              runId: monitoringRunId(id, 'bench-full'),
              monitoringConfigId: id,
              trigger: { kind: 'operator' },
            },
          );
        }
      }),
    );
    const workerPathMs = ((now() - workerStarted) / sampleIds.length) * stateRows.length;
    const missing = [...fullAlerts].filter((key) => !deltaAlerts.has(key));
    const extra = [...deltaAlerts].filter((key) => !fullAlerts.has(key));

    // ---- the scaling series of the sweep's reverse index ------------------------------------
    progress('scaling series of the reverse index');
    const diffUn = await diffSnapshots(db, firsts[0]!.id, seconds[0]!.id);
    const touchedUn = [...diffUn.added, ...diffUn.changed.map((c) => c.current)];
    const ofacSample = (n: number) =>
      ofac1.filter((_, i) => i % Math.floor(ofac1.length / n) === 0).slice(0, n);
    const changeSizes: { label: string; entities: ListedEntity[] }[] = [
      { label: `UN change (${touchedUn.length} added or changed)`, entities: touchedUn },
      { label: '300 OFAC parties', entities: ofacSample(300) },
      { label: '1,000 OFAC parties', entities: ofacSample(1000) },
    ];
    const monitored = stateRows.map((row) => ({
      key: row.id,
      subject: screeningSubjectOf(row.state.subject),
      checkTypes: row.state.checkTypes,
    }));
    const scaling: string[][] = [];
    for (const n of options.scaling) {
      const started = now();
      const reverse = MonitoredSubjectIndex.build(monitored.slice(0, n));
      const buildMs = now() - started;
      const cells = [`${n.toLocaleString('en-US')} subjects`, `${(buildMs / 1000).toFixed(2)} s`];
      for (const change of changeSizes) {
        const searchStarted = now();
        const found = new Set<string>();
        for (const entity of change.entities)
          for (const key of reverse.candidatesFor(entity, profile)) found.add(key);
        cells.push(`${((now() - searchStarted) / 1000).toFixed(2)} s (${found.size})`);
      }
      const fullPerSubject = fullMs / stateRows.length;
      cells.push(`${((fullPerSubject * n) / 1000).toFixed(1)} s`);
      scaling.push(cells);
    }

    console.log(
      report({
        options,
        server: server.description,
        loadAtStart,
        loadAtEnd: os.loadavg(),
        configs: stateRows.length,
        named: named.length,
        synthetic: book.length,
        drawn,
        drawMs,
        appendMs,
        catchUpMs,
        enrollMs,
        sampled: sample.length,
        deltaMs,
        newIndexMs,
        deltaRuns,
        jobs: jobsAfter - jobsBefore,
        deltaAlerts: deltaAlerts.size,
        cpuMs: (cpu.user + cpu.system) / 1000,
        peak,
        sweeps: sweepRows.map((row) => ({
          dataset: seconds.find((s) => s.id === row.snapshot_id)!.dataset,
          stats: row.stats,
        })),
        fullMs,
        fullPeak,
        workerPathMs,
        workerSample: sampleIds.length,
        fullAlerts: fullAlerts.size,
        missing,
        extra,
        changeSizes: changeSizes.map((c) => c.label),
        scaling,
      }),
    );
    if (missing.length > 0 || extra.length > 0) {
      for (const key of missing.slice(0, 5)) console.error(`only in the full re-screen: ${key}`);
      for (const key of extra.slice(0, 5)) console.error(`only in the delta path: ${key}`);
      process.exitCode = 1;
    }
  } finally {
    await stopAll?.();
    await store?.close();
    await pool?.end();
    await server.close();
  }
}

// ---- the report --------------------------------------------------------------------------------

interface Results {
  options: Options;
  server: string;
  loadAtStart: number[];
  loadAtEnd: number[];
  configs: number;
  named: number;
  synthetic: number;
  drawn: number;
  drawMs: number;
  appendMs: number;
  catchUpMs: number;
  enrollMs: number;
  sampled: number;
  deltaMs: number;
  /** Building the screening index of the new versions, before either path. */
  newIndexMs: number;
  deltaRuns: number;
  jobs: number;
  deltaAlerts: number;
  cpuMs: number;
  peak: { rssMb: number; heapMb: number };
  sweeps: { dataset: string; stats: SweepStats }[];
  fullMs: number;
  fullPeak: { rssMb: number; heapMb: number };
  /** Extrapolated from a sample run through runMonitoringJob. */
  workerPathMs: number;
  workerSample: number;
  fullAlerts: number;
  missing: string[];
  extra: string[];
  changeSizes: string[];
  scaling: string[][];
}

const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' ');

function report(r: Results): string {
  const cpus = os.cpus();
  const header = [
    `Monitoring benchmark, ${new Date().toISOString()}: ${cpus.length} cores (${cpus[0]?.model}), Node ${process.version}, load ${load(r.loadAtStart)} at the start, ${load(r.loadAtEnd)} at the end`,
    `${r.server}; ${r.configs.toLocaleString('en-US')} active configurations (${r.named} named after listed parties, ${r.synthetic.toLocaleString('en-US')} synthetic), MONITORING_WORKERS=${r.options.workers}`,
  ].join('\n');
  const same = r.missing.length === 0 && r.extra.length === 0;
  const main = table(
    ['measure', 'delta path (workers)', 'full re-screen (in-process)', 'ratio'],
    [
      [
        'snapshot current -> every run and alert recorded',
        secs(r.deltaMs),
        secs(r.fullMs),
        `${(r.fullMs / r.deltaMs).toFixed(1)}x`,
      ],
      [
        'full re-screen through the worker path (extrapolated)',
        secs(r.deltaMs),
        secs(r.workerPathMs),
        `${(r.workerPathMs / r.deltaMs).toFixed(1)}x`,
      ],
      [
        'configurations evaluated',
        `${r.deltaRuns} runs (${r.jobs} jobs)`,
        r.configs.toLocaleString('en-US'),
        '',
      ],
      ['alerts', String(r.deltaAlerts), String(r.fullAlerts), same ? 'same' : 'DIFFERENT'],
      [
        'peak RSS / heap used of the process',
        `${r.peak.rssMb.toFixed(0)} / ${r.peak.heapMb.toFixed(0)} MB`,
        `${r.fullPeak.rssMb.toFixed(0)} / ${r.fullPeak.heapMb.toFixed(0)} MB`,
        '',
      ],
    ],
  );
  const targets = `Targets: delta >= 20x faster than the full re-screen: ${r.fullMs / r.deltaMs >= 20 ? 'met' : 'missed'} against the in-process evaluation (${(r.fullMs / r.deltaMs).toFixed(1)}x), ${r.workerPathMs / r.deltaMs >= 20 ? 'met' : 'missed'} against the worker path (${(r.workerPathMs / r.deltaMs).toFixed(1)}x); < 60 s for ${r.configs.toLocaleString('en-US')} subjects: ${r.deltaMs < 60_000 ? 'met' : 'missed'} (${secs(r.deltaMs)}). Same alerts: ${same ? 'yes' : `NO (${r.missing.length} only in the full re-screen, ${r.extra.length} only in the delta path)`}.`;
  const sweepMs = Math.max(...r.sweeps.map((s) => s.stats.ms));
  const split = table(
    [
      'sweep',
      'added/changed/removed',
      'diff',
      'reverse index brought up to date (kept warm)',
      'candidate search',
      'observing, queue',
      'queued runs',
    ],
    r.sweeps.map(({ dataset, stats }) => [
      dataset,
      `${stats.added}/${stats.changed}/${stats.removed}`,
      `${stats.diffMs} ms`,
      `${stats.indexBuildMs} ms`,
      `${stats.searchMs} ms (${stats.byReverseIndex} configs)`,
      `${stats.queueMs} ms (${stats.byObservation} observing)`,
      String(stats.queued),
    ]),
  );
  const scaling = table(
    [
      'reverse index (in-process)',
      'build',
      ...r.changeSizes.map((label) => `search: ${label}`),
      'full re-screen (extrapolated)',
    ],
    r.scaling,
  );
  const notes = [
    `Delta path: from the first SnapshotBecameCurrent append (UN, then OFAC right after) to the moment the monitoring queue is empty (startMonitoring's idle(): both sweeps done, every run job done, follow-up cases included): ${secs(r.deltaMs)}, of which the longer sweep took ${secs(sweepMs)} (the two run side by side on the workers) and the rest is the scheduler reactor picking the events up and the ${r.deltaRuns} runs (${secs(r.deltaMs - sweepMs)}). CPU of this process (sweeps, workers, projections) ${secs(r.cpuMs)}; PostgreSQL runs in its own processes, not counted in the peak memory.`,
    `Full re-screen: evaluateRun (the function the worker records) for every configuration on its state before the new versions (monitoring_configs.state), the subject's stream for those that have one, the same current snapshots and screening index as the workers (built before either path, in ${secs(r.newIndexMs)}: each needs it once), case evidence for the configurations that have cases (read before the versions arrived) and none for the others; nothing appended, so it is a lower bound of a real full re-screen, which would also read and append to every stream. ${(r.fullMs / r.configs).toFixed(3)} ms per configuration. Through the worker path: ${r.workerSample} configurations (every ${Math.round(r.configs / r.workerSample)}th) run by runMonitoringJob, ${r.options.workers} at a time, after the measured phase; ${(r.workerPathMs / r.configs).toFixed(2)} ms per configuration, times ${r.configs.toLocaleString('en-US')}.`,
    `The book: ${r.synthetic.toLocaleString('en-US')} synthetic subjects (given and family names of the listed persons combined at random, seeded) with no match on the first versions (${r.drawn.toLocaleString('en-US')} drawn, ${secs(r.drawMs)}), their MonitoringConfigCreated and baseline run (evaluateRun on the first versions: no change) appended through the event store by 16 writers in ${secs(r.appendMs)}, projected in ${secs(r.catchUpMs)}; ${r.sampled} of them run again through runMonitoringJob: no change, as the bulk baseline says. ${r.named} subjects named after listed parties (every UN party removed or changed by 2026-02, every third one added, every 20th other; the eight OFAC delistings, every 100th other OFAC party) created and enrolled through the service, their baselines run by the workers (with follow-up cases) in ${secs(r.enrollMs)}.`,
    `Scaling: MonitoredSubjectIndex built over the first N configurations, and candidatesFor over each change (candidates in brackets); the full re-screen column is the measured per-configuration time times N.`,
  ];
  return [header, main, targets, split, scaling, notes.map((line) => `* ${line}`).join('\n')].join('\n\n');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
