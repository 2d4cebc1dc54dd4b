import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projections } from '../../../projections/registry.js';
import { installProjections } from '../../../projections/registryStore.js';
import { startProjections } from '../../../projections/startProjections.js';
import { IndexManager } from '../../../src/checks/indexManager.js';
import type { EventStore, NewEvent } from '../../../src/eventStore/eventStore.js';
import { queuedRun } from '../../../src/monitoring/monitoringScheduler.js';
import { runMonitoringJob } from '../../../src/monitoring/runJob.js';
import { sourceFormats } from '../../../src/screening/parsers/registry.js';
import { recordSnapshotBecameCurrent } from '../../../src/screening/snapshots/datasetStream.js';
import { loadSnapshot } from '../../../src/screening/snapshots/loadSnapshot.js';
import { silentLogger } from '../../../src/shared/logger.js';
import { createWorkspace } from '../../../src/workspace/workspaceStore.js';
import { eventually } from '../../support/eventually.js';
import { enrollNewSubject, startTestMonitoring } from '../../support/monitoringBuilders.js';
import { fixturePath } from '../../support/parsedEntities.js';
import { openTestEventStore, type TestEventStore } from '../../support/testEventStore.js';

/**
 * A list version that arrives while monitoring is busy: the sweep must not read the configurations'
 * observations before the read model has every run recorded before the version, and a run that
 * screened the version before must run again on the new one.
 */

const _ACTOR = { type: 'api_client' as const, id: 'key', displayName: 'test key' };
const STALE_AFTER_MS = 3650 * 86_400_000;

describe('a list version arriving while monitoring works', () => {
  let es: TestEventStore;
  let accountId = '';
  let groupId = '';

  beforeAll(async () => {
    es = await openTestEventStore();
    const workspace = await createWorkspace(es.db.pool, { name: 'Races' });
    accountId = workspace.account.id;
    groupId = workspace.defaultGroup.id;
    await installProjections(es.db.pool, projections);
  });

  afterAll(async () => {
    await es?.close();
  });

  const load = (file: string) =>
    loadSnapshot(es.db.pool, {
      format: sourceFormats['un-xml']!,
      paths: [fixturePath('un-xml', 'monitoring', file)],
    });

  const enrolled = async (name: string) =>
    (await enrollNewSubject({ pool: es.db.pool, store: es.store }, { accountId, groupId }, { name }))
      .configId;

  it('holds a sweep until the configurations read model has every run recorded before the list version', async () => {
    // A configuration event before the list version: the read model must fold it before the sweep reads.
    await enrolled('Ivan Testov');
    const v1 = await load('v1.xml');
    await recordSnapshotBecameCurrent(es.store, v1.snapshot);
    const indexManager = new IndexManager({ pool: es.db.pool });
    // Monitoring runs, but no projection does yet: the read model is behind the list version.
    const monitoring = startTestMonitoring(es, indexManager);
    try {
      await eventually(async () => {
        const { rows } = await es.db.pool.query(
          'SELECT status, last_error FROM monitoring_sweeps WHERE snapshot_id = $1',
          [v1.snapshot.id],
        );
        expect(rows[0]).toMatchObject({
          status: 'queued',
          last_error: expect.stringMatching(/waiting for monitoring_configs/),
        });
      });
      const running = await startProjections({
        pool: es.db.pool,
        databaseUrl: es.db.url,
        store: es.store,
        logger: silentLogger,
      });
      try {
        await eventually(async () => {
          const { rows } = await es.db.pool.query(
            'SELECT status FROM monitoring_sweeps WHERE snapshot_id = $1',
            [v1.snapshot.id],
          );
          expect(rows[0]?.status).toBe('done');
        }, 30_000);
      } finally {
        await running.stop();
      }
    } finally {
      await monitoring.stop();
      indexManager.close();
    }
  });

  it('queues the run of a list version that became current while a run screened the one before', async () => {
    const id = await enrolled('Ivan Testov');
    const indexManager = new IndexManager({ pool: es.db.pool });
    let v2: string | undefined;
    // The new version is made current between the run's screening and the append of its events.
    const racing: EventStore = {
      ...es.store,
      kind: es.store.kind,
      readStream: es.store.readStream.bind(es.store),
      async appendToStream(
        stream: string,
        events: NewEvent[],
        options?: Parameters<EventStore['appendToStream']>[2],
      ) {
        if (!v2 && events[0]?.type === 'MonitoringRunStarted') v2 = (await load('v2.xml')).snapshot.id;
        return es.store.appendToStream(stream, events, options);
      },
    } as EventStore;
    try {
      const job = queuedRun(id, { kind: 'operator' }, `operator:${randomUUID()}`);
      const outcome = await runMonitoringJob(
        {
          pool: es.db.pool,
          store: racing,
          indexManager,
          staleAfterMs: STALE_AFTER_MS,
          clock: () => new Date(),
        },
        job,
      );
      expect(outcome.kind).toBe('recorded');
      expect(v2).toBeDefined();
      const expected = queuedRun(id, { kind: 'snapshot', snapshotIds: [v2!] }, `snapshot:${v2}`);
      const { rows } = await es.db.pool.query(
        'SELECT run_id, trigger FROM monitoring_jobs WHERE monitoring_config_id = $1',
        [id],
      );
      expect(rows).toContainEqual({ run_id: expected.runId, trigger: expected.trigger });
    } finally {
      indexManager.close();
    }
  });
});
