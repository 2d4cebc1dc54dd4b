import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProjectionDefinition } from '../../../projections/projection.js';
import { rebuildProjection } from '../../../projections/rebuild.js';
import { startProjections } from '../../../projections/startProjections.js';
import { projectionStatuses } from '../../../projections/status.js';
import type { EventStore } from '../../../src/eventStore/eventStore.js';
import { resumeSubscription } from '../../../src/subscriptions/checkpointStore.js';
import { eventually } from '../../support/eventually.js';
import { fastRunnerOptions, feedOf, uniqueCategory } from '../../support/subscriptionFixtures.js';
import type { TestDatabase } from '../../support/testDatabase.js';
import { openTestEventStore, type TestEventStore } from '../../support/testEventStore.js';

/** A minimal projection over one category: a row per event, failing on 'Poison' events until cured. */
function probeProjection(name: string, category: string, version = 1) {
  const state = { cured: false };
  const table = `${name}_rows`;
  const definition: ProjectionDefinition = {
    name,
    version,
    categories: [category],
    tables: [table],
    ddl: (tables) => `CREATE TABLE ${pg.escapeIdentifier(tables[table]!)} (event_id uuid PRIMARY KEY)`,
    async handle(events, tx, tables) {
      if (!state.cured && events.some((event) => event.type === 'Poison'))
        throw new Error('cannot handle Poison');
      await tx.query(
        `INSERT INTO ${pg.escapeIdentifier(tables[table]!)} SELECT unnest($1::uuid[]) ON CONFLICT DO NOTHING`,
        [events.map((event) => event.id)],
      );
    },
  };
  return { definition, state };
}

describe('projection status', () => {
  let db: TestDatabase;
  let store: EventStore;
  let opened: TestEventStore | undefined;

  beforeAll(async () => {
    opened = await openTestEventStore();
    ({ db, store } = opened);
  });
  afterAll(() => opened?.close());

  it('shows the lag to the head, a parked subscription with its event and error, and its recovery', async () => {
    const category = uniqueCategory('st');
    const { definition, state } = probeProjection('probe_status', category);
    for (const type of ['Fine', 'Fine', 'Poison', 'Fine']) {
      await store.appendToStream(`${category}-1`, [{ type, data: {} }]);
    }
    const events = await feedOf(store, category, 4);

    const workers = await startProjections({
      pool: db.pool,
      databaseUrl: db.url,
      store,
      definitions: [definition],
      runner: fastRunnerOptions,
    });
    try {
      await eventually(async () => {
        const [status] = await projectionStatuses(db.pool, store, [definition]);
        expect(status?.active).toMatchObject({ status: 'parked', parkedEventId: events[2]!.id });
      });
      const [parked] = await projectionStatuses(db.pool, store, [definition]);
      expect(parked).toMatchObject({
        name: 'probe_status',
        installed: true,
        needsRebuild: false,
        active: {
          version: 1,
          subscriptionId: 'projection:probe_status:v1',
          checkpoint: events[1]!.position,
          lag: { events: 2, capped: false },
          parkedPosition: events[2]!.position,
        },
        building: null,
      });
      expect(parked?.active?.lastError).toContain('cannot handle Poison');

      state.cured = true;
      await resumeSubscription(db.pool, 'projection:probe_status:v1');
      await workers.waitForCheckpoint('probe_status', events.at(-1)!.position);
      const [recovered] = await projectionStatuses(db.pool, store, [definition]);
      expect(recovered?.active).toMatchObject({
        status: 'active',
        checkpoint: events.at(-1)!.position,
        lag: { events: 0, capped: false },
        lastError: null,
      });
    } finally {
      await workers.stop();
    }
  });

  it('does not run a projection whose tables another code version built, until it is rebuilt', async () => {
    const category = uniqueCategory('cv');
    await store.appendToStream(`${category}-1`, [{ type: 'Fine', data: {} }]);
    const v1 = probeProjection('probe_code', category, 1).definition;
    const v2 = { ...v1, version: 2 };
    const first = await startProjections({ pool: db.pool, databaseUrl: db.url, store, definitions: [v1] });
    await first.stop();

    const workers = await startProjections({
      pool: db.pool,
      databaseUrl: db.url,
      store,
      definitions: [v2],
      registryPollMs: 50,
      runner: fastRunnerOptions,
    });
    try {
      expect(workers.runners().size).toBe(0);
      const [stale] = await projectionStatuses(db.pool, store, [v2]);
      expect(stale).toMatchObject({ needsRebuild: true, codeVersion: 2, active: { version: 1 } });

      await rebuildProjection({
        pool: db.pool,
        databaseUrl: db.url,
        store,
        definition: v2,
        runner: fastRunnerOptions,
      });
      await eventually(() =>
        expect(workers.runners().get('probe_code')?.subscriptionId).toBe('projection:probe_code:v2'),
      );
      const [current] = await projectionStatuses(db.pool, store, [v2]);
      expect(current).toMatchObject({ needsRebuild: false, active: { version: 2, lag: { events: 0 } } });
    } finally {
      await workers.stop();
    }
  });
});
