import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monitoringActivityProjection } from '../../../projections/monitoring/monitoringActivityProjection.js';
import { rebuildProjection } from '../../../projections/rebuild.js';
import { findProjection } from '../../../projections/registry.js';
import { installProjections, loadRegistryEntry } from '../../../projections/registryStore.js';
import { startProjections } from '../../../projections/startProjections.js';
import type { EventStore, RecordedEvent } from '../../../src/eventStore/eventStore.js';
import { MONITORING_CATEGORY } from '../../../src/monitoring/monitoringEvents.js';
import { monitoringConfigId } from '../../../src/monitoring/monitoringReferences.js';
import { monitoringCommandHandler } from '../../../src/monitoring/monitoringStream.js';
import { eventually } from '../../support/eventually.js';
import { changedRun, recordRun, runMonitoringCommand } from '../../support/monitoringBuilders.js';
import { fastRunnerOptions } from '../../support/subscriptionFixtures.js';
import type { TestDatabase } from '../../support/testDatabase.js';
import { openTestEventStore, type TestEventStore } from '../../support/testEventStore.js';

/**
 * The monitoring_activity projection on its own: rows from a run's events, a replayed batch
 * changing nothing, a gap refused, a group move carrying the rows, and a rebuild giving the same
 * rows (docs/monitoring.md, "API").
 */

const V1 = {
  monitoring_runs: 'monitoring_runs_v1',
  monitoring_alerts: 'monitoring_alerts_v1',
  monitoring_activity_streams: 'monitoring_activity_streams_v1',
};

describe('monitoring_activity projection', () => {
  let opened: TestEventStore | undefined;
  let db: TestDatabase;
  let store: EventStore;
  const accountId = randomUUID();

  beforeAll(async () => {
    opened = await openTestEventStore();
    ({ db, store } = opened);
    await installProjections(db.pool, [monitoringActivityProjection]);
  });
  afterAll(() => opened?.close());

  /** A configuration with one changed run, its follow-up case requested and created. */
  async function writeConfig(groupId = randomUUID()): Promise<string> {
    const subject = `sub_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
    const id = monitoringConfigId(accountId, subject, groupId);
    const now = new Date();
    await runMonitoringCommand(store, id, {
      type: 'Enroll',
      monitoringConfigId: id,
      accountId,
      groupId,
      subject: {
        subjectReference: subject,
        type: 'person',
        displayName: 'Ri Won Ho',
        countries: ['KP'],
        birthDate: null,
        externalReference: null,
        metadata: {},
      },
      checkTypes: ['sanctions'],
      ownerUserId: null,
      collaboratorUserIds: [],
      status: undefined,
      metadata: undefined,
      screeningProfileId: 'default',
      enrolledFrom: { kind: 'api' },
      groupMemberIds: [],
      actor: { type: 'api_client', id: randomUUID(), displayName: 'test' },
      now: now.toISOString(),
    });
    const run = changedRun(id, subject, 'snapshot:1', new Date(now.getTime() + 1000));
    await recordRun(store, id, run.events);
    await runMonitoringCommand(store, id, {
      type: 'RecordFollowUpCase',
      runId: run.runId,
      caseReference: 'ABC123456',
      now: run.at(200),
    });
    return id;
  }

  async function streamEvents(id: string): Promise<RecordedEvent[]> {
    const name = monitoringCommandHandler.streamName(id);
    return eventually(async () => {
      const events: RecordedEvent[] = [];
      let after: RecordedEvent['position'] | null = null;
      for (;;) {
        const page = await store.readFeed({ after, categories: [MONITORING_CATEGORY], limit: 500 });
        if (page.length === 0) break;
        events.push(...page.filter((event) => event.streamName === name));
        after = page.at(-1)!.position;
      }
      const expected = (await store.readStream(name)).events.length;
      if (events.length !== expected) throw new Error(`${events.length} of ${expected} events on the feed`);
      return events;
    });
  }

  async function handle(events: RecordedEvent[]) {
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await monitoringActivityProjection.handle(events, client, V1);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      client.release();
    }
  }

  const rowsOf = async (id: string, suffix = '_v1') => ({
    runs: (
      await db.pool.query(
        `SELECT * FROM monitoring_runs${suffix} WHERE monitoring_config_id = $1 ORDER BY monitoring_run_id`,
        [id],
      )
    ).rows,
    alerts: (
      await db.pool.query(
        `SELECT * FROM monitoring_alerts${suffix} WHERE monitoring_config_id = $1 ORDER BY alert_id`,
        [id],
      )
    ).rows,
  });

  it('writes a row per run and per alert, with the resolutions, and a replay changes nothing', async () => {
    const id = await writeConfig();
    const events = await streamEvents(id);
    // In pieces, with the middle given twice.
    await handle(events.slice(0, 4));
    await handle(events.slice(2));
    const applied = await rowsOf(id);
    expect(applied.runs).toHaveLength(1);
    expect(applied.runs[0]).toMatchObject({
      status: 'completed',
      result: 'changed_matches',
      created_case_reference: 'ABC123456',
    });
    expect(applied.alerts.map((a) => a.resolution_status).sort()).toEqual([
      'follow_up_case_created',
      'no_action_required',
    ]);

    const xmin = async () =>
      (
        await db.pool.query(
          `SELECT xmin::text FROM monitoring_runs_v1 WHERE monitoring_config_id = $1
           UNION ALL SELECT xmin::text FROM monitoring_alerts_v1 WHERE monitoring_config_id = $1`,
          [id],
        )
      ).rows;
    const before = await xmin();
    await handle(events);
    await handle([...events.slice(1), ...events.slice(1)]);
    expect(await rowsOf(id)).toEqual(applied);
    // Not even rewritten: the guard skipped every event.
    expect(await xmin()).toEqual(before);
  });

  it('refuses a batch that skips an event of a configuration', async () => {
    const id = await writeConfig();
    const events = await streamEvents(id);
    await handle(events.slice(0, 2));
    await expect(handle(events.slice(3))).rejects.toThrow(/an event is missing/);
    expect((await rowsOf(id)).alerts).toEqual([]);
  });

  it('moves the rows of a configuration with its group, also within one batch', async () => {
    const id = await writeConfig();
    const target = randomUUID();
    await runMonitoringCommand(store, id, {
      type: 'Update',
      changes: { groupId: target },
      groupMemberIds: [],
      actor: { type: 'api_client', id: randomUUID(), displayName: 'test' },
      now: new Date().toISOString(),
    });
    const events = await streamEvents(id);
    await handle(events.slice(0, -1));
    await handle(events.slice(-1));
    const rows = await rowsOf(id);
    expect([...rows.runs, ...rows.alerts].map((row) => row.group_id)).toEqual(Array(3).fill(target));

    const other = await writeConfig();
    await runMonitoringCommand(store, other, {
      type: 'Update',
      changes: { groupId: target },
      groupMemberIds: [],
      actor: { type: 'api_client', id: randomUUID(), displayName: 'test' },
      now: new Date().toISOString(),
    });
    await handle(await streamEvents(other));
    const all = await rowsOf(other);
    expect([...all.runs, ...all.alerts].map((row) => row.group_id)).toEqual(Array(3).fill(target));
  });

  it('is registered, and rebuilds into a new version with the same rows', async () => {
    expect(findProjection('monitoring_activity')).toBe(monitoringActivityProjection);
    const ids = [await writeConfig(), await writeConfig()];
    const workers = await startProjections({
      pool: db.pool,
      databaseUrl: db.url,
      store,
      definitions: [monitoringActivityProjection],
      runner: fastRunnerOptions,
    });
    try {
      await eventually(async () => {
        for (const id of ids) expect((await rowsOf(id, '')).alerts).toHaveLength(2);
      });
      const head = await store.headCheckpoint();
      if (head) await workers.waitForCheckpoint('monitoring_activity', head);
    } finally {
      await workers.stop();
    }
    const all = async (suffix = '') => ({
      runs: (await db.pool.query(`SELECT * FROM monitoring_runs${suffix} ORDER BY monitoring_run_id`)).rows,
      alerts: (await db.pool.query(`SELECT * FROM monitoring_alerts${suffix} ORDER BY alert_id`)).rows,
      streams: (
        await db.pool.query(
          `SELECT * FROM monitoring_activity_streams${suffix} ORDER BY monitoring_config_id`,
        )
      ).rows,
    });
    const before = await all();
    expect(before.runs.length).toBeGreaterThanOrEqual(ids.length);
    const entry = await loadRegistryEntry(db.pool, 'monitoring_activity');
    const result = await rebuildProjection({
      pool: db.pool,
      databaseUrl: db.url,
      store,
      definition: monitoringActivityProjection,
      runner: fastRunnerOptions,
      releaseWaitMs: 5_000,
    });
    expect(result).toMatchObject({ toVersion: entry!.activeVersion + 1 });
    expect(await all()).toEqual(before);
    expect(await all(`_v${entry!.activeVersion + 1}`)).toEqual(before);
  });
});
