import type pg from 'pg';
import { rebuildProjection } from '../../projections/rebuild.js';
import { streamIndexProjection } from '../../projections/streamIndex/streamIndexProjection.js';
import type { Checkpoint, EventStore, NewEvent } from '../../src/eventStore/eventStore.js';
import { benchStream, sampleEvent } from './events.js';
import { now } from './stats.js';

export interface Rate {
  events: number;
  seconds: number;
  perSecond: number;
}

const SEEDERS = 4;

/** Fills the feed fast: `batch` events per append, each append a new stream, SEEDERS at a time. */
export async function seedFeed(store: EventStore, run: string, events: number, batch: number): Promise<Rate> {
  const appends = Math.ceil(events / batch);
  let next = 0;
  const seeder = async () => {
    for (let index = next++; index < appends; index = next++) {
      const size = Math.min(batch, events - index * batch);
      const page: NewEvent[] = Array.from({ length: size }, (_, seq) => sampleEvent('BenchSeeded', { seq }));
      await store.appendToStream(benchStream('benchSeed', run, index), page, {
        expectedRevision: 'no_stream',
      });
    }
  };
  const started = now();
  await Promise.all(Array.from({ length: SEEDERS }, seeder));
  return rate(events, started);
}

/** Pages through the whole feed and does nothing else: the read side of a rebuild alone. */
export async function readWholeFeed(store: EventStore, pageSize: number): Promise<Rate> {
  const started = now();
  let events = 0;
  let after: Checkpoint | null = null;
  for (;;) {
    const page = await store.readFeed({ after, limit: pageSize });
    if (page.length === 0) break;
    events += page.length;
    after = page.at(-1)!.position;
  }
  return rate(events, started);
}

export interface RebuildRate extends Rate {
  fromVersion: number;
  toVersion: number;
}

/**
 * A real blue/green rebuild of the stream_index projection through its public API (the one the
 * CLI runs): install, build v<n+1> from the start of the feed with the subscription runner, swap,
 * drop v<n>. Timed as a whole; the events are those it reports as processed.
 */
export async function rebuildStreamIndex(
  store: EventStore,
  pool: pg.Pool,
  databaseUrl: string,
  batchSize: number,
): Promise<RebuildRate> {
  const started = now();
  const result = await rebuildProjection({
    pool,
    databaseUrl,
    store,
    definition: streamIndexProjection,
    runner: { batchSize },
  });
  const timed = rate(result.processed, started);
  await assertStreamIndexComplete(pool);
  return { ...timed, fromVersion: result.fromVersion, toVersion: result.toVersion };
}

/** The rebuilt read model must account for every event: per-stream counts add up to the feed. */
async function assertStreamIndexComplete(pool: pg.Pool): Promise<void> {
  const { rows } = await pool.query<{ indexed: string; stored: string }>(
    `SELECT (SELECT coalesce(sum(event_count), 0) FROM stream_index)::text AS indexed,
            (SELECT count(*) FROM es_events)::text AS stored`,
  );
  const { indexed, stored } = rows[0]!;
  if (indexed !== stored) throw new Error(`stream_index counts ${indexed} events, the feed has ${stored}`);
}

function rate(events: number, started: number): Rate {
  const seconds = (now() - started) / 1000;
  return { events, seconds, perSecond: events / seconds };
}
