import { type ChildProcess, spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { projections } from '../../projections/registry.js';
import { httpCall, type Load } from './load.js';
import type { ServiceProcess } from './processes.js';
import type { Workspace } from './setup.js';

/** One row of the verdict table. */
export interface Verdict {
  invariant: string;
  ok: boolean;
  detail: string;
}

/** Figures the checks find along the way, for the report. */
export interface StoreFigures {
  events: number;
  streams: number;
  cases: number;
  checks: { completed: number; failed: number; open: number };
  failureReasons: Map<string, number>;
  /** Cases written for a chaos Idempotency-Key that the client never saw acknowledged. */
  committedNotAcknowledged: number;
}

const q = pg.escapeIdentifier;

/**
 * Store-level invariants, by SQL on the run's database (the tables of src/db/migrations and the
 * read models' views): each Idempotency-Key made at most one case, and the acknowledged ones the
 * case the client was told; event ids unique; every stream's revisions 0..n-1 without a gap and
 * matching es_streams; every check ended (completed or failed) in the read model and its job done.
 */
export async function storeInvariants(
  pool: pg.Pool,
  load: Load,
  runId: string,
): Promise<{ verdicts: Verdict[]; figures: StoreFigures }> {
  const verdicts: Verdict[] = [];

  // One case per Idempotency-Key (the key is the case's external reference), in the event store...
  const { rows: created } = await pool.query<{ key: string; refs: string[] }>(
    `SELECT data->>'externalReference' AS key, array_agg(data->>'caseReference' ORDER BY global_position) AS refs
       FROM es_events
      WHERE event_type = 'CaseCreated' AND data->>'externalReference' LIKE $1
      GROUP BY 1`,
    [`chaos-${runId}-%`],
  );
  const byKey = new Map(created.map((row) => [row.key, row.refs]));
  const duplicated = created.filter((row) => row.refs.length > 1);
  // ... and in the case read model.
  const { rows: viewDuplicates } = await pool.query<{ key: string; n: number }>(
    `SELECT state->>'externalReference' AS key, count(*)::int AS n FROM case_views
      WHERE state->>'externalReference' LIKE $1 GROUP BY 1 HAVING count(*) > 1`,
    [`chaos-${runId}-%`],
  );
  verdicts.push({
    invariant: 'one case per Idempotency-Key',
    ok: duplicated.length === 0 && viewDuplicates.length === 0,
    detail:
      duplicated.length + viewDuplicates.length === 0
        ? `${created.length} keys, each with one CaseCreated and one case_views row`
        : `duplicates: ${[...duplicated.map((d) => `${d.key} -> ${d.refs.join(',')}`), ...viewDuplicates.map((d) => `${d.key} x${d.n} in case_views`)].slice(0, 5).join('; ')}`,
  });

  const lost: string[] = [];
  const mismatched: string[] = [];
  for (const ack of load.acknowledged.values()) {
    const refs = byKey.get(ack.idempotencyKey);
    if (!refs) lost.push(`${ack.idempotencyKey} (${ack.caseReference})`);
    else if (refs[0] !== ack.caseReference)
      mismatched.push(`${ack.idempotencyKey}: told ${ack.caseReference}, stored ${refs[0]}`);
  }
  verdicts.push({
    invariant: 'acknowledged cases in the event store',
    ok: lost.length === 0 && mismatched.length === 0,
    detail:
      lost.length + mismatched.length === 0
        ? `${load.acknowledged.size} of ${load.acknowledged.size}, each the case reference acknowledged`
        : [
            lost.length ? `${lost.length} lost: ${lost.slice(0, 5).join(', ')}` : '',
            mismatched.length ? `${mismatched.length} other case: ${mismatched.slice(0, 5).join('; ')}` : '',
          ]
            .filter(Boolean)
            .join('; '),
  });

  const { rows: ids } = await pool.query<{ events: number; ids: number; positions: number }>(
    `SELECT count(*)::int AS events, count(DISTINCT event_id)::int AS ids,
            count(DISTINCT global_position)::int AS positions FROM es_events`,
  );
  const { events, ids: distinctIds, positions } = ids[0]!;
  verdicts.push({
    invariant: 'no duplicate events',
    ok: events === distinctIds && events === positions,
    detail: `${events} events, ${distinctIds} distinct event ids, ${positions} distinct positions`,
  });

  const { rows: gaps } = await pool.query<{
    stream_name: string;
    n: number;
    lo: number;
    hi: number;
    revision: number | null;
  }>(
    `SELECT e.stream_name, e.n, e.lo, e.hi, s.revision::int AS revision
       FROM (SELECT stream_name, count(*)::int AS n, min(stream_revision)::int AS lo, max(stream_revision)::int AS hi
               FROM es_events GROUP BY stream_name) e
       FULL JOIN es_streams s USING (stream_name)
      WHERE e.lo IS DISTINCT FROM 0 OR e.hi IS DISTINCT FROM e.n - 1 OR s.revision IS DISTINCT FROM e.hi`,
  );
  const { rows: streamCount } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM es_streams');
  verdicts.push({
    invariant: 'no stream gaps',
    ok: gaps.length === 0,
    detail:
      gaps.length === 0
        ? `${streamCount[0]!.n} streams, revisions 0..n-1 contiguous, es_streams.revision = last`
        : `${gaps.length} streams: ${gaps
            .slice(0, 5)
            .map(
              (g) => `${g.stream_name} (${g.n} events, revisions ${g.lo}..${g.hi}, es_streams ${g.revision})`,
            )
            .join('; ')}`,
  });

  const checks = await checkFigures(pool);
  const { rows: jobs } = await pool.query<{ open: number; total: number }>(
    `SELECT count(*) FILTER (WHERE status <> 'done')::int AS open, count(*)::int AS total FROM check_jobs`,
  );
  const { rows: unscheduled } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM case_views v CROSS JOIN jsonb_array_elements(v.state->'checks') c
      WHERE NOT EXISTS (SELECT 1 FROM check_jobs j WHERE j.check_reference = c->>'checkReference')`,
  );
  const { rows: caseCount } = await pool.query<{ views: number; streams: number }>(
    `SELECT (SELECT count(*)::int FROM case_views) AS views,
            (SELECT count(*)::int FROM es_streams WHERE category = 'case') AS streams`,
  );
  const { open, completed, failed } = checks.counts;
  const jobsOpen = jobs[0]!.open;
  verdicts.push({
    invariant: 'every check completed or failed',
    ok:
      open === 0 &&
      jobsOpen === 0 &&
      unscheduled[0]!.n === 0 &&
      caseCount[0]!.views === caseCount[0]!.streams,
    detail: `${completed} completed, ${failed} failed, ${open} queued/running; check_jobs ${jobs[0]!.total} (${jobsOpen} not done); ${unscheduled[0]!.n} checks without a job; ${caseCount[0]!.views} case_views rows for ${caseCount[0]!.streams} case streams`,
  });

  const acknowledgedKeys = new Set(load.acknowledged.keys());
  return {
    verdicts,
    figures: {
      events,
      streams: streamCount[0]!.n,
      cases: caseCount[0]!.streams,
      checks: checks.counts,
      failureReasons: checks.failureReasons,
      committedNotAcknowledged: created.filter((row) => !acknowledgedKeys.has(row.key)).length,
    },
  };
}

export async function checkFigures(pool: pg.Pool): Promise<{
  counts: { completed: number; failed: number; open: number };
  failureReasons: Map<string, number>;
}> {
  const { rows } = await pool.query<{ status: string; reason: string | null; n: number }>(
    `SELECT c->>'lifecycleStatus' AS status, c->>'failureReason' AS reason, count(*)::int AS n
       FROM case_views v CROSS JOIN jsonb_array_elements(v.state->'checks') c GROUP BY 1, 2`,
  );
  const counts = { completed: 0, failed: 0, open: 0 };
  const failureReasons = new Map<string, number>();
  for (const row of rows) {
    if (row.status === 'completed') counts.completed += row.n;
    else if (row.status === 'failed') {
      counts.failed += row.n;
      const reason = row.reason ?? 'unknown';
      failureReasons.set(reason, (failureReasons.get(reason) ?? 0) + row.n);
    } else counts.open += row.n;
  }
  return { counts, failureReasons };
}

/**
 * Every acknowledged case through the API (GET 200, the reference and external reference sent), and
 * every acknowledged review in the case's answer. Retries a 429, 503 or network error a few times:
 * the system is meant to be whole by now, so anything else counts.
 */
export async function apiInvariants(
  load: Load,
  serve: readonly ServiceProcess[],
  workspace: Workspace,
): Promise<Verdict[]> {
  const reviews = new Map(load.reviews.map((review) => [review.caseReference, review]));
  const problems: string[] = [];
  const reviewProblems: string[] = [];
  let ok = 0;
  let reviewsSeen = 0;
  const queue = [...load.acknowledged.values()];
  let next = 0;
  const worker = async (w: number) => {
    for (let i = next++; i < queue.length; i = next++) {
      const ack = queue[i]!;
      const target = serve[(i + w) % serve.length]!;
      let answer = await httpCall(`${target.url}/v1/cases/${ack.caseReference}`, 'GET', {
        authorization: `Bearer ${workspace.keys[ack.apiKey]}`,
      });
      for (let attempt = 1; attempt < 20; attempt++) {
        if (answer.outcome !== 429 && answer.outcome !== 503 && answer.outcome !== 'network') break;
        await sleep(Math.min(5_000, answer.retryAfterMs ?? 500));
        answer = await httpCall(`${target.url}/v1/cases/${ack.caseReference}`, 'GET', {
          authorization: `Bearer ${workspace.keys[ack.apiKey]}`,
        });
      }
      const data = (answer.body as { data?: Record<string, unknown> } | undefined)?.data;
      if (answer.outcome !== 200) {
        problems.push(`${ack.caseReference}: ${answer.outcome} ${answer.code ?? ''}`.trim());
        continue;
      }
      if (data?.case_reference !== ack.caseReference || data?.external_reference !== ack.idempotencyKey) {
        problems.push(`${ack.caseReference}: answered ${data?.case_reference} / ${data?.external_reference}`);
        continue;
      }
      ok++;
      const review = reviews.get(ack.caseReference);
      if (!review) continue;
      reviewsSeen++;
      const matches = (
        (data.checks ?? []) as { matches?: { match_id: string; review_status: string }[] }[]
      ).flatMap((check) => check.matches ?? []);
      const match = matches.find((m) => m.match_id === review.matchId);
      if (match?.review_status !== review.reviewStatus) {
        reviewProblems.push(`${review.matchId}: ${match?.review_status ?? 'missing'}`);
      }
    }
  };
  await Promise.all(Array.from({ length: 6 }, (_, w) => worker(w)));
  return [
    {
      invariant: 'acknowledged cases readable (GET 200)',
      ok: problems.length === 0,
      detail:
        problems.length === 0
          ? `${ok} of ${queue.length}`
          : `${problems.length} of ${queue.length} not: ${problems.slice(0, 5).join('; ')}`,
    },
    {
      invariant: 'acknowledged match reviews kept',
      ok: reviewProblems.length === 0 && reviewsSeen === load.reviews.length,
      detail:
        reviewProblems.length === 0
          ? `${reviewsSeen} of ${load.reviews.length} reviews show review_status not_relevant`
          : `${reviewProblems.length} of ${load.reviews.length} not: ${reviewProblems.slice(0, 5).join('; ')}`,
    },
  ];
}

/** Every row of a projection's views, as text, with how many times each occurs. */
async function projectionRows(pool: pg.Pool, tables: readonly string[]): Promise<Map<string, number>> {
  const rows = new Map<string, number>();
  for (const table of tables) {
    const { rows: found } = await pool.query<{ row: string }>(`SELECT t::text AS row FROM ${q(table)} t`);
    for (const { row } of found) {
      const key = `${table}: ${row}`;
      rows.set(key, (rows.get(key) ?? 0) + 1);
    }
  }
  return rows;
}

function difference(a: Map<string, number>, b: Map<string, number>): string[] {
  const only: string[] = [];
  for (const [row, n] of a) if ((b.get(row) ?? 0) < n) only.push(row);
  return only;
}

/**
 * Read models equal to a rebuild: the rows of each projection's views now, then
 * `casescreen projections rebuild <name>` (a new version built from the whole feed and swapped in),
 * then the rows again. Run with no load and every subscription caught up, so nothing else moves them.
 */
export async function rebuildInvariant(
  pool: pg.Pool,
  databaseUrl: string,
  log: (line: string) => void,
): Promise<Verdict> {
  const details: string[] = [];
  let ok = true;
  for (const definition of projections) {
    const before = await projectionRows(pool, definition.tables);
    let output = await runCli(['projections', 'rebuild', definition.name], databaseUrl);
    // A swap that raced a batch says so and asks for another try; so does an interrupted build.
    for (let attempt = 2; attempt <= 3 && output.code !== 0 && /again/.test(output.text); attempt++) {
      log(`rebuild of ${definition.name} asks for another try: ${output.text.trim().split('\n').at(-1)}`);
      output = await runCli(['projections', 'rebuild', definition.name], databaseUrl);
    }
    if (output.code !== 0) {
      ok = false;
      details.push(
        `${definition.name}: rebuild failed (${output.code}): ${output.text.trim().split('\n').at(-1)}`,
      );
      continue;
    }
    log(`rebuilt ${definition.name}: ${output.text.trim().split('\n').at(-1)}`);
    const after = await projectionRows(pool, definition.tables);
    const onlyLive = difference(before, after);
    const onlyRebuilt = difference(after, before);
    const rows = [...before.values()].reduce((sum, n) => sum + n, 0);
    if (onlyLive.length + onlyRebuilt.length === 0) {
      details.push(`${definition.name} ${rows} rows equal`);
    } else {
      ok = false;
      details.push(
        `${definition.name}: ${onlyLive.length} rows only live, ${onlyRebuilt.length} only rebuilt (first: ${(onlyLive[0] ?? onlyRebuilt[0])!.slice(0, 300)})`,
      );
    }
  }
  return { invariant: 'read models equal to a rebuild', ok, detail: details.join('; ') };
}

/** CLI processes running now, for the run's clean-up to end. */
export const cliChildren = new Set<ChildProcess>();

export function runCli(
  args: string[],
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<{ code: number | null; text: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/casescreen.js', ...args], {
      env: { ...process.env, ...env, DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    cliChildren.add(child);
    let text = '';
    child.stdout.on('data', (chunk) => {
      text += chunk;
    });
    child.stderr.on('data', (chunk) => {
      text += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('exit', (code) => {
      cliChildren.delete(child);
      clearTimeout(timer);
      resolve({ code, text });
    });
  });
}

/**
 * `casescreen status` once the system has settled: what an operator would be told. Undefined when
 * this build has no such command. The run's list fixture is old: SOURCE_STALE_AFTER is the run's.
 */
export async function statusInvariant(databaseUrl: string): Promise<Verdict | undefined> {
  const output = await runCli(['status'], databaseUrl, { SOURCE_STALE_AFTER: '3650d' });
  if (/unknown command/i.test(output.text)) return undefined;
  const lines = output.text.split('\n').filter((line) => line.trim() !== '');
  const attention = lines.filter((line) => /ATTENTION|needs attention|no runner|stalled|parked/i.test(line));
  return {
    invariant: 'casescreen status: all well',
    ok: output.code === 0,
    detail: `exit ${output.code}: ${(attention.length ? attention : lines.slice(0, 1)).join(' | ').slice(0, 600)}`,
  };
}
