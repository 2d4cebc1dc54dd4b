import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { findProjection } from '../../projections/registry.js';
import { CASE_CATEGORY } from '../../src/cases/caseEvents.js';
import { CHECK_SCHEDULER_SUBSCRIPTION_ID } from '../../src/checks/checkScheduler.js';
import type { Checkpoint, EventStore } from '../../src/eventStore/eventStore.js';
import { MONITORING_CATEGORY } from '../../src/monitoring/monitoringEvents.js';
import { MONITORING_SCHEDULER_SUBSCRIPTION_ID } from '../../src/monitoring/monitoringScheduler.js';
import { SOURCE_DATASET_CATEGORY } from '../../src/screening/snapshots/datasetStream.js';
import { SUBJECT_CATEGORY } from '../../src/subjects/subjectEvents.js';
import { countEventsAfter } from '../../src/subscriptions/feedLag.js';
import { WEBHOOK_FAN_OUT_SUBSCRIPTION_ID } from '../../src/webhooks/fanOut.js';
import { mappedStreams } from '../../src/webhooks/webhookEvents.js';
import type { Clock } from './clock.js';

/**
 * Subscription lag, sampled every half second from the run's own connection: for each subscription
 * that runs (the serving version of each projection, and each reactor), the events of its categories
 * on the feed after its checkpoint, as `casescreen projections status` counts them. It also answers
 * "caught up with the feed as it was at time T": no subscription has an event of its categories at or
 * before the head recorded at T still to handle. Samples taken while the database is down fail and
 * are counted as such.
 */
export interface LagSample {
  at: number;
  /** Sum over the subscriptions; undefined when the sample failed (database down). */
  total: number | undefined;
  bySubscription: Map<string, number>;
  parked: string[];
}

interface Target {
  head: Checkpoint | null;
  resolve: (at: number) => void;
}

const SAMPLE_INTERVAL_MS = 500;

/**
 * The categories a subscription reads (undefined: every event), or 'unknown' for a subscription this
 * code does not know, whose lag is then counted over every event.
 */
export function subscriptionCategories(id: string): string[] | undefined | 'unknown' {
  const projection = /^projection:(.+):v\d+$/.exec(id);
  if (projection) {
    const definition = findProjection(projection[1]!);
    return definition ? definition.categories : 'unknown';
  }
  switch (id) {
    case CHECK_SCHEDULER_SUBSCRIPTION_ID:
      return [CASE_CATEGORY];
    case WEBHOOK_FAN_OUT_SUBSCRIPTION_ID:
      return [...mappedStreams().keys()];
    case MONITORING_SCHEDULER_SUBSCRIPTION_ID:
      return [MONITORING_CATEGORY, CASE_CATEGORY, SOURCE_DATASET_CATEGORY, SUBJECT_CATEGORY];
    default:
      return 'unknown';
  }
}

interface LiveSubscription {
  id: string;
  checkpoint: Checkpoint | null;
  status: string;
  categories: string[] | undefined;
  known: boolean;
}

/** The subscriptions that run: reactors, and each projection's serving version (not builds or old ones). */
export async function liveSubscriptions(pool: pg.Pool): Promise<LiveSubscription[]> {
  const { rows } = await pool.query<{ subscription_id: string; checkpoint: string | null; status: string }>(
    `SELECT c.subscription_id, c.checkpoint, c.status
       FROM es_checkpoints c
      WHERE c.subscription_id NOT LIKE 'projection:%'
         OR c.subscription_id IN (SELECT 'projection:' || name || ':v' || active_version FROM projection_registry)
      ORDER BY c.subscription_id`,
  );
  return rows.map((row) => {
    const categories = subscriptionCategories(row.subscription_id);
    return {
      id: row.subscription_id,
      checkpoint: row.checkpoint as Checkpoint | null,
      status: row.status,
      categories: categories === 'unknown' ? undefined : categories,
      known: categories !== 'unknown',
    };
  });
}

export class LagMonitor {
  readonly samples: LagSample[] = [];
  /** Subscriptions seen whose categories this code does not know: their lag counts every event. */
  readonly unknown = new Set<string>();
  private running = true;
  private loop: Promise<void> | undefined;
  private targets: Target[] = [];

  constructor(
    private readonly pool: pg.Pool,
    private readonly store: EventStore,
    private readonly clock: Clock,
  ) {}

  start(): void {
    this.loop = (async () => {
      while (this.running) {
        await this.sampleOnce();
        await sleep(SAMPLE_INTERVAL_MS);
      }
    })();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
    for (const target of this.targets) target.resolve(Number.NaN);
    this.targets = [];
  }

  /** The feed's head now, retried while the database is down (undefined once the monitor stops). */
  async headNow(): Promise<Checkpoint | null | undefined> {
    while (this.running) {
      try {
        return await this.store.headCheckpoint();
      } catch {
        await sleep(200);
      }
    }
    return undefined;
  }

  /**
   * Resolves with the run time at which every subscription had handled every event of its
   * categories up to the feed's head as it is now (NaN if the monitor stops first).
   */
  async caughtUpWithNow(): Promise<number> {
    const head = await this.headNow();
    if (head === undefined) return Number.NaN;
    return new Promise((resolve) => this.targets.push({ head, resolve }));
  }

  /** Sum of lags of the latest successful sample at or after `from`, with its time, if any is 0. */
  firstZeroAfter(from: number): number | undefined {
    return this.samples.find((s) => s.at >= from && s.total === 0)?.at;
  }

  async sampleOnce(): Promise<LagSample> {
    const at = this.clock.now();
    const sample: LagSample = { at, total: undefined, bySubscription: new Map(), parked: [] };
    try {
      const subscriptions = await liveSubscriptions(this.pool);
      let total = 0;
      const reached = this.targets.map(() => true);
      for (const subscription of subscriptions) {
        if (!subscription.known) this.unknown.add(subscription.id);
        if (subscription.status === 'parked') sample.parked.push(subscription.id);
        const lag = await countEventsAfter(this.store, subscription.checkpoint, subscription.categories);
        sample.bySubscription.set(subscription.id, lag.events);
        total += lag.events;
        if (this.targets.length === 0 || lag.events === 0) continue;
        const [pending] = await this.store.readFeed({
          after: subscription.checkpoint,
          categories: subscription.categories,
          limit: 1,
        });
        this.targets.forEach((target, i) => {
          if (pending && target.head && this.store.compareCheckpoints(pending.position, target.head) <= 0) {
            reached[i] = false;
          }
        });
      }
      sample.total = total;
      const done = this.targets.filter((_, i) => reached[i]);
      this.targets = this.targets.filter((_, i) => !reached[i]);
      for (const target of done) target.resolve(at);
    } catch {
      // the database is down or restarting: a failed sample
    }
    this.samples.push(sample);
    return sample;
  }
}
