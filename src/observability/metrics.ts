import {
  AggregatorRegistry,
  Counter,
  collectDefaultMetrics,
  Gauge,
  Histogram,
  type MetricObjectWithValues,
  type MetricValue,
  Registry,
} from 'prom-client';
import type { SystemStatus } from './systemStatus.js';

/**
 * The Prometheus metrics of one process (docs/operations.md, "Metrics"). What a process does itself
 * (HTTP requests, appends, rate-limited requests, checks screened) is counted where it happens;
 * what the whole system is (lag, queues, sources, deliveries) is read from the database at each
 * scrape (`exposeSystemStatus`), so any serving process reports it.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  readonly httpRequests: Counter<'route' | 'method' | 'status'>;
  readonly httpDuration: Histogram<'route' | 'method' | 'status'>;
  readonly appendDuration: Histogram<'operation' | 'outcome'>;
  readonly rateLimited: Counter;
  readonly checkDuration: Histogram<'check_type' | 'outcome'>;
  /** Metrics of the process's other registries (the `all` role's work thread), merged at each scrape. */
  private readonly peers: (() => Promise<MetricObjectWithValues<MetricValue<string>>[]>)[] = [];

  constructor(options: { processMetrics?: boolean } = {}) {
    const registers = [this.registry];
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry, prefix: 'casescreen_' });
    this.httpRequests = new Counter({
      name: 'casescreen_http_requests_total',
      help: 'HTTP requests answered, by route pattern (unmatched for no route), method and status.',
      labelNames: ['route', 'method', 'status'],
      registers,
    });
    this.httpDuration = new Histogram({
      name: 'casescreen_http_request_duration_seconds',
      help: 'Time from receiving a request to its response, by route pattern, method and status.',
      labelNames: ['route', 'method', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.appendDuration = new Histogram({
      name: 'casescreen_event_store_append_duration_seconds',
      help: 'Event store appends (appendToStream, appendToStreams) by outcome (ok, conflict, error).',
      labelNames: ['operation', 'outcome'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    });
    this.rateLimited = new Counter({
      name: 'casescreen_rate_limited_requests_total',
      help: 'Requests refused with 429 because their API key exceeded its limit.',
      registers,
    });
    this.checkDuration = new Histogram({
      name: 'casescreen_check_duration_seconds',
      help: 'Check attempts by check type and outcome (completed, failed, retry, ...), claim to record.',
      labelNames: ['check_type', 'outcome'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    });
  }

  /** Adds another registry's metrics (by their JSON form, as a worker thread can send them). */
  addPeer(read: () => Promise<MetricObjectWithValues<MetricValue<string>>[]>): void {
    this.peers.push(read);
  }

  /** The text exposition of this process's metrics, its peers' summed in. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    if (this.peers.length === 0) {
      return { contentType: this.registry.contentType, body: await this.registry.metrics() };
    }
    const peers = await Promise.all(this.peers.map((read) => read().catch(() => [])));
    // Metrics only this process has and prom-client would leave out of a sum (its start time is
    // 'omit') are this process's own: taken as they are.
    const own = (await this.registry.getMetricsAsJSON()).map((metric) =>
      metric.aggregator === 'omit' ? { ...metric, aggregator: 'first' as const } : metric,
    );
    const merged = AggregatorRegistry.aggregate([own, ...peers]);
    return { contentType: merged.contentType, body: await merged.metrics() };
  }
}

/** How long one status reading serves the gauges of a scrape (they all ask at once). */
const STATUS_READING_MS = 1_000;

/**
 * Gauges of the system's state, read through `readStatus` once per scrape. A reading that fails
 * (the database is away) leaves the gauges out of that scrape instead of failing it, except
 * `casescreen_system_ok`, which is then 0: the alert on it fires during an outage too.
 */
export function exposeSystemStatus(metrics: ServiceMetrics, readStatus: () => Promise<SystemStatus>): void {
  let reading: { at: number; status: Promise<SystemStatus | undefined> } | undefined;
  const status = () => {
    const now = performance.now();
    if (!reading || now - reading.at > STATUS_READING_MS) {
      reading = { at: now, status: readStatus().catch(() => undefined) };
    }
    return reading.status;
  };
  const registers = [metrics.registry];
  const gauge = <L extends string>(
    name: string,
    help: string,
    labelNames: L[],
    fill: (set: (labels: Partial<Record<L, string>>, value: number) => void, system: SystemStatus) => void,
    unread?: number,
  ) =>
    new Gauge<L>({
      name,
      help,
      labelNames,
      registers,
      // A label set that vanished (a dropped projection version) must not linger at its last value.
      aggregator: 'sum',
      async collect() {
        const system = await status();
        this.reset();
        if (system) fill((labels, value) => this.set(labels as never, value), system);
        else if (unread !== undefined) this.set(unread);
      },
    });

  gauge(
    'casescreen_subscription_lag_events',
    'Events of its categories on the feed after the subscription checkpoint (counting stops at 10,000).',
    ['subscription'],
    (set, s) => {
      for (const sub of s.subscriptions) set({ subscription: sub.subscriptionId }, sub.lag.events);
    },
  );
  gauge(
    'casescreen_subscription_last_progress_timestamp_seconds',
    'When the subscription checkpoint last moved (Unix time).',
    ['subscription'],
    (set, s) => {
      for (const sub of s.subscriptions)
        if (sub.lastProgressAt)
          set({ subscription: sub.subscriptionId }, sub.lastProgressAt.getTime() / 1000);
    },
  );
  gauge(
    'casescreen_subscription_parked',
    '1 when the subscription is parked on an event it could not handle.',
    ['subscription'],
    (set, s) => {
      for (const sub of s.subscriptions)
        set({ subscription: sub.subscriptionId }, sub.status === 'parked' ? 1 : 0);
    },
  );
  gauge(
    'casescreen_subscription_runner_alive',
    '1 when some process holds the subscription leadership lock (its runner is alive).',
    ['subscription'],
    (set, s) => {
      for (const sub of s.subscriptions) set({ subscription: sub.subscriptionId }, sub.runnerAlive ? 1 : 0);
    },
  );
  gauge(
    'casescreen_check_jobs',
    'Check jobs not done, by state: due (queued, may run now), waiting (for a retry), running, stuck (an expired lease nobody took over).',
    ['state'],
    (set, s) => {
      set({ state: 'due' }, s.checks.due);
      set({ state: 'waiting' }, s.checks.waitingForRetry);
      set({ state: 'running' }, s.checks.running);
      set({ state: 'stuck' }, s.checks.stuck);
    },
  );
  gauge(
    'casescreen_check_queue_oldest_age_seconds',
    'How long the oldest due check job has waited to be claimed (0 when none waits).',
    [],
    (set, s) => set({}, (s.checks.oldestDueAgeMs ?? 0) / 1000),
  );
  gauge(
    'casescreen_source_snapshot_age_seconds',
    "Age of each dataset's current list, from its publisher's date (absent when the list states none).",
    ['dataset'],
    (set, s) => {
      for (const d of s.sources.datasets) if (d.ageMs !== null) set({ dataset: d.dataset }, d.ageMs / 1000);
    },
  );
  gauge(
    'casescreen_source_stale',
    '1 when a dataset is older than SOURCE_STALE_AFTER (its check types are refused).',
    ['dataset'],
    (set, s) => {
      for (const d of s.sources.datasets) set({ dataset: d.dataset }, d.stale ? 1 : 0);
    },
  );
  gauge(
    'casescreen_webhook_deliveries',
    'Webhook deliveries by state: pending, retrying (failed, to be tried again), dead_24h (gave up in the last 24 hours).',
    ['state'],
    (set, s) => {
      set({ state: 'pending' }, s.webhooks.pending);
      set({ state: 'retrying' }, s.webhooks.retrying);
      set({ state: 'dead_24h' }, s.webhooks.deadLastDay);
    },
  );
  gauge(
    'casescreen_webhook_oldest_pending_age_seconds',
    'How long the oldest due webhook delivery has waited for its attempt (0 when none waits).',
    [],
    (set, s) => set({}, (s.webhooks.oldestDueAgeMs ?? 0) / 1000),
  );
  gauge(
    'casescreen_system_ok',
    '1 when casescreen status would exit 0; 0 also when the status cannot be read.',
    [],
    (set, s) => set({}, s.ok ? 1 : 0),
    0,
  );
}
