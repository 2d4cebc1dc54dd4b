import type pg from 'pg';
import { projectionSubscriptionId } from '../../projections/projection.js';
import { projections } from '../../projections/registry.js';
import { listRegistryEntries } from '../../projections/registryStore.js';
import { checkSchedulerHandler } from '../checks/checkScheduler.js';
import type { Queryable } from '../db/sql.js';
import type { EventStore } from '../eventStore/eventStore.js';
import { monitoringSchedulerHandler } from '../monitoring/monitoringScheduler.js';
import { CHECK_TYPES, type CheckType } from '../screening/checkTypes.js';
import { currentSnapshots } from '../screening/snapshots/snapshotStore.js';
import { availabilityOf } from '../screening/snapshots/sourceAvailability.js';
import { formatDuration, freshness } from '../screening/snapshots/staleness.js';
import { systemClock } from '../shared/clock.js';
import { type CheckpointRow, listCheckpoints } from '../subscriptions/checkpointStore.js';
import { countEventsAfter, type FeedLag, formatLag } from '../subscriptions/feedLag.js';
import { webhookFanOutHandler } from '../webhooks/fanOut.js';

/**
 * The whole system as an operator needs to see it (docs/operations.md, "System status"): every
 * subscription with its runner, lag and parking; the screening sources; the check queue; webhook
 * deliveries. Each part carries a plain verdict and `ok`; the system is ok when every part is.
 * Everything is read from the database, so any process (or the CLI) sees what all processes do.
 */
export interface SystemStatus {
  ok: boolean;
  checkedAt: Date;
  subscriptions: SubscriptionHealth[];
  sources: SourcesHealth;
  checks: CheckQueueHealth;
  webhooks: WebhookHealth;
}

export interface SubscriptionHealth {
  subscriptionId: string;
  kind: 'projection' | 'reactor';
  /** A process holds the subscription's leadership lock: its runner is alive. */
  runnerAlive: boolean;
  /** `not_started` before any runner recorded a checkpoint. */
  status: CheckpointRow['status'] | 'not_started';
  lag: FeedLag;
  /** When its checkpoint last moved (or it was parked or resumed). */
  lastProgressAt: Date | null;
  parkedEventId: string | null;
  lastError: string | null;
  ok: boolean;
  verdict: string;
}

export interface SourcesHealth {
  datasets: {
    dataset: string;
    version: number;
    publishedAt: Date | null;
    ageMs: number | null;
    stale: boolean;
  }[];
  checkTypes: { checkType: CheckType; available: boolean; staleDatasets: string[] }[];
  ok: boolean;
  verdict: string;
}

export interface CheckQueueHealth {
  /** Queued and due now (not waiting for a retry delay). */
  due: number;
  /** Queued, waiting for their retry delay. */
  waitingForRetry: number;
  running: number;
  /** Running under a lease that ran out longer ago than a worker takes to notice: nobody took them. */
  stuck: number;
  /** How long the oldest due job has waited to be claimed. */
  oldestDueAgeMs: number | null;
  ok: boolean;
  verdict: string;
}

export interface WebhookHealth {
  pending: number;
  /** Failed at least once, waiting for the next attempt. */
  retrying: number;
  /** Gave up in the last 24 hours: the receiver missed them until someone redelivers them. */
  deadLastDay: number;
  oldestDueAgeMs: number | null;
  ok: boolean;
  verdict: string;
}

/** Limits of the verdicts; chosen so that a healthy system under load never trips them. */
export const STATUS_LIMITS = {
  /** A subscription with events to handle whose checkpoint has not moved for this long is stalled. */
  stalledAfterMs: 5 * 60_000,
  /** A due check nobody claimed for this long: no worker is working the queue. */
  checkWaitMs: 60_000,
  /** An expired check lease nobody took over for this long: no worker is alive to take it. */
  expiredLeaseMs: 30_000,
  /** A due webhook delivery nobody attempted for this long. */
  webhookWaitMs: 5 * 60_000,
} as const;

export interface SystemStatusOptions {
  staleAfterMs: number;
  now?: Date;
}

export async function readSystemStatus(
  pool: pg.Pool,
  store: EventStore,
  options: SystemStatusOptions,
): Promise<SystemStatus> {
  const now = options.now ?? new Date();
  const [subscriptions, sources, checks, webhooks] = await Promise.all([
    subscriptionHealth(pool, store, now),
    sourcesHealth(pool, now, options.staleAfterMs),
    checkQueueHealth(pool),
    webhookHealth(pool),
  ]);
  return {
    ok: subscriptions.every((s) => s.ok) && sources.ok && checks.ok && webhooks.ok,
    checkedAt: now,
    subscriptions,
    sources,
    checks,
    webhooks,
  };
}

interface ExpectedSubscription {
  subscriptionId: string;
  kind: SubscriptionHealth['kind'];
  categories: string[] | undefined;
}

/** Every subscription some `work` process must run: the projections' installed versions and the reactors. */
async function expectedSubscriptions(pool: pg.Pool, store: EventStore): Promise<ExpectedSubscription[]> {
  const entries = await listRegistryEntries(pool);
  const expected: ExpectedSubscription[] = [];
  for (const definition of projections) {
    const entry = entries.get(definition.name);
    if (!entry) continue;
    for (const version of [entry.activeVersion, entry.buildingVersion]) {
      if (version === null || version === undefined) continue;
      expected.push({
        subscriptionId: projectionSubscriptionId(definition.name, version),
        kind: 'projection',
        categories: definition.categories,
      });
    }
  }
  // The reactors' identities and categories, from their own handlers (never called here).
  for (const handler of [
    checkSchedulerHandler(),
    webhookFanOutHandler(store),
    monitoringSchedulerHandler({ pool, store, clock: systemClock }),
  ]) {
    expected.push({
      subscriptionId: handler.subscriptionId,
      kind: 'reactor',
      categories: handler.categories,
    });
  }
  return expected;
}

/** The subscriptions whose leadership lock some session holds (leadership.ts: the same key). */
async function subscriptionsWithRunner(db: Queryable, ids: readonly string[]): Promise<Set<string>> {
  const { rows } = await db.query<{ subscription_id: string }>(
    `SELECT id AS subscription_id FROM unnest($1::text[]) AS id
      WHERE EXISTS (SELECT 1 FROM pg_locks l
                     WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
                       -- pg_locks is the whole server's; an advisory lock is its database's.
                       AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                       AND ((l.classid::bigint << 32) | l.objid::bigint) = hashtextextended('sub:' || id, 0))`,
    [ids],
  );
  return new Set(rows.map((row) => row.subscription_id));
}

async function subscriptionHealth(
  pool: pg.Pool,
  store: EventStore,
  now: Date,
): Promise<SubscriptionHealth[]> {
  const expected = await expectedSubscriptions(pool, store);
  const [checkpoints, alive] = await Promise.all([
    listCheckpoints(pool),
    subscriptionsWithRunner(
      pool,
      expected.map((s) => s.subscriptionId),
    ),
  ]);
  const byId = new Map(checkpoints.map((row) => [row.subscriptionId, row]));
  return Promise.all(
    expected.map(async ({ subscriptionId, kind, categories }) => {
      const row = byId.get(subscriptionId);
      const lag = await countEventsAfter(store, row?.checkpoint ?? null, categories);
      const health = {
        subscriptionId,
        kind,
        runnerAlive: alive.has(subscriptionId),
        status: row?.status ?? ('not_started' as const),
        lag,
        lastProgressAt: row?.updatedAt ?? null,
        parkedEventId: row?.parkedEventId ?? null,
        lastError: row?.lastError ?? null,
      };
      return { ...health, ...subscriptionVerdict(health, now) };
    }),
  );
}

export function subscriptionVerdict(
  s: Pick<
    SubscriptionHealth,
    'subscriptionId' | 'runnerAlive' | 'status' | 'lag' | 'lastProgressAt' | 'parkedEventId'
  >,
  now: Date,
): { ok: boolean; verdict: string } {
  if (s.status === 'parked') {
    return {
      ok: false,
      verdict: `parked on event ${s.parkedEventId}: fix the cause, then casescreen subscriptions resume ${s.subscriptionId}`,
    };
  }
  if (!s.runnerAlive) return { ok: false, verdict: 'no runner: no work process runs it (start one)' };
  if (s.lag.events === 0) return { ok: true, verdict: 'up to date' };
  const still = s.lastProgressAt ? now.getTime() - s.lastProgressAt.getTime() : Number.POSITIVE_INFINITY;
  if (still > STATUS_LIMITS.stalledAfterMs) {
    return {
      ok: false,
      verdict: `stalled: ${formatLag(s.lag)} events behind, no progress for ${s.lastProgressAt ? formatDuration(still) : 'ever'}`,
    };
  }
  return { ok: true, verdict: `catching up: ${formatLag(s.lag)} events behind` };
}

async function sourcesHealth(db: Queryable, now: Date, staleAfterMs: number): Promise<SourcesHealth> {
  const current = await currentSnapshots(db);
  const datasets = current.map((snapshot) => ({
    dataset: snapshot.dataset,
    version: snapshot.version,
    publishedAt: snapshot.publishedAt,
    ...freshness(snapshot, now, staleAfterMs),
  }));
  const checkTypes = availabilityOf(current, CHECK_TYPES, now, staleAfterMs).map((availability) => ({
    checkType: availability.checkType,
    available: availability.available,
    staleDatasets: availability.staleSnapshots.map((snapshot) => snapshot.dataset),
  }));
  const stale = datasets.filter((d) => d.stale).map((d) => d.dataset);
  // A check type no loaded list provides is a choice of what to offer, not a fault: it is named, and
  // only a list gone stale (or none at all) fails the verdict.
  const notOffered = checkTypes.filter((c) => !c.available && c.staleDatasets.length === 0);
  const problems = [
    ...(datasets.length === 0 ? ['no lists loaded: every check is refused (casescreen sources sync)'] : []),
    ...(stale.length > 0
      ? [
          `stale: ${stale.join(', ')} (older than ${formatDuration(staleAfterMs)}): their check types are refused; load a newer publication`,
        ]
      : []),
  ];
  const offered =
    notOffered.length > 0 ? `; not offered: ${notOffered.map((c) => c.checkType).join(', ')}` : '';
  const { ok, verdict } = judged(problems, `${datasets.length} datasets, all fresh`);
  return { datasets, checkTypes, ok, verdict: `${verdict}${offered}` };
}

async function checkQueueHealth(db: Queryable): Promise<CheckQueueHealth> {
  const { rows } = await db.query<{
    due: number;
    waiting: number;
    running: number;
    stuck: number;
    oldest_due_ms: number | null;
  }>(
    `SELECT count(*) FILTER (WHERE status = 'queued' AND next_attempt_at <= now())::int AS due,
            count(*) FILTER (WHERE status = 'queued' AND next_attempt_at > now())::int AS waiting,
            count(*) FILTER (WHERE status = 'running')::int AS running,
            count(*) FILTER (WHERE status = 'running'
                               AND lease_until < now() - make_interval(secs => $1::double precision / 1000))::int AS stuck,
            (extract(epoch FROM now() - min(next_attempt_at) FILTER (WHERE status = 'queued' AND next_attempt_at <= now())) * 1000)::float8 AS oldest_due_ms
       FROM check_jobs WHERE status <> 'done'`,
    [STATUS_LIMITS.expiredLeaseMs],
  );
  const row = rows[0]!;
  const problems: string[] = [];
  if (row.oldest_due_ms !== null && row.oldest_due_ms > STATUS_LIMITS.checkWaitMs) {
    problems.push(
      `${row.due} checks waiting to be screened, the oldest for ${formatDuration(row.oldest_due_ms)}: no check worker is claiming them`,
    );
  }
  if (row.stuck > 0) problems.push(`${row.stuck} checks held by workers that died, not yet taken over`);
  return {
    due: row.due,
    waitingForRetry: row.waiting,
    running: row.running,
    stuck: row.stuck,
    oldestDueAgeMs: row.oldest_due_ms === null ? null : Math.round(row.oldest_due_ms),
    ...judged(problems, `${row.due} due, ${row.running} running, ${row.waiting} waiting to retry`),
  };
}

/** A part's verdict: its problems, or what it looks like when it has none. */
function judged(problems: readonly string[], allWell: string): { ok: boolean; verdict: string } {
  return { ok: problems.length === 0, verdict: problems.length > 0 ? problems.join('; ') : allWell };
}

async function webhookHealth(db: Queryable): Promise<WebhookHealth> {
  const { rows } = await db.query<{
    pending: number;
    retrying: number;
    dead: number;
    oldest_due_ms: number | null;
  }>(
    `SELECT (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending')::int AS pending,
            (SELECT count(*) FROM webhook_deliveries WHERE status = 'failed')::int AS retrying,
            (SELECT count(*) FROM webhook_deliveries
              WHERE status = 'dead' AND updated_at > now() - interval '24 hours')::int AS dead,
            (SELECT (extract(epoch FROM now() - min(next_attempt_at)) * 1000)::float8
               FROM webhook_deliveries WHERE status IN ('pending', 'failed') AND next_attempt_at <= now()) AS oldest_due_ms`,
  );
  const row = rows[0]!;
  const problems: string[] = [];
  if (row.dead > 0) {
    problems.push(
      `${row.dead} deliveries dead in the last 24 h: see casescreen webhooks deliveries, then redeliver`,
    );
  }
  if (row.oldest_due_ms !== null && row.oldest_due_ms > STATUS_LIMITS.webhookWaitMs) {
    problems.push(
      `a due delivery waited ${formatDuration(row.oldest_due_ms)}: no delivery worker is sending`,
    );
  }
  return {
    pending: row.pending,
    retrying: row.retrying,
    deadLastDay: row.dead,
    oldestDueAgeMs: row.oldest_due_ms === null ? null : Math.round(row.oldest_due_ms),
    ...judged(problems, `${row.pending} pending, ${row.retrying} retrying, none dead`),
  };
}
