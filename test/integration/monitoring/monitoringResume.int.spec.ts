import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projections } from '../../../projections/registry.js';
import { installProjections } from '../../../projections/registryStore.js';
import { type RunningProjections, startProjections } from '../../../projections/startProjections.js';
import { IndexManager } from '../../../src/checks/indexManager.js';
import { monitoringRunId } from '../../../src/monitoring/monitoringReferences.js';
import type { Monitoring } from '../../../src/monitoring/monitoringRunner.js';
import { monitoringCommandHandler } from '../../../src/monitoring/monitoringStream.js';
import { sourceFormats } from '../../../src/screening/parsers/registry.js';
import { recordSnapshotBecameCurrent } from '../../../src/screening/snapshots/datasetStream.js';
import { loadSnapshot } from '../../../src/screening/snapshots/loadSnapshot.js';
import { silentLogger } from '../../../src/shared/logger.js';
import { SCOPES } from '../../../src/workspace/keyPolicy.js';
import type { CreatedApiKey } from '../../../src/workspace/keyStore.js';
import { createCaseWorkspace, createKey, DAY_MS, startApiServer } from '../../support/caseApi.js';
import { eventually } from '../../support/eventually.js';
import { enrollNewSubject, startTestMonitoring } from '../../support/monitoringBuilders.js';
import { fixturePath } from '../../support/parsedEntities.js';
import { fastRunnerOptions } from '../../support/subscriptionFixtures.js';
import { openTestEventStore, type TestEventStore } from '../../support/testEventStore.js';

/**
 * A paused configuration moved back to `active` runs at once (docs/monitoring.md, "Run triggers":
 * `resume:<event id>`), through the monitoring scheduler on the real feed and a worker; a PATCH
 * that does not resume queues nothing. The subject matches nothing on the list, so no sweep of the
 * list version runs it: every run of the configuration is one of its own triggers.
 */

const STALE_AFTER_MS = 3650 * DAY_MS;

describe('resuming a paused monitoring configuration', () => {
  let es: TestEventStore;
  let running: RunningProjections;
  let monitoring: Monitoring;
  let indexManager: IndexManager;
  let api: { app: FastifyInstance; url: string };
  let key: CreatedApiKey;
  let accountId = '';
  let groupId = '';

  beforeAll(async () => {
    es = await openTestEventStore();
    const { pool } = es.db;
    await installProjections(pool, projections);
    const workspace = await createCaseWorkspace(pool, { account: 'Resume', groups: [], foreign: 'Other' });
    accountId = workspace.accountId;
    groupId = workspace.defaultGroupId;
    key = await createKey(pool, accountId, SCOPES);
    const v1 = await loadSnapshot(pool, {
      format: sourceFormats['un-xml']!,
      paths: [fixturePath('un-xml', 'monitoring', 'v1.xml')],
    });
    await recordSnapshotBecameCurrent(es.store, v1.snapshot);
    running = await startProjections({
      pool,
      databaseUrl: es.db.url,
      store: es.store,
      definitions: projections,
      runner: fastRunnerOptions,
      logger: silentLogger,
    });
    indexManager = new IndexManager({ pool });
    monitoring = startTestMonitoring(es, indexManager, { staleAfterMs: STALE_AFTER_MS });
    api = await startApiServer({ pool, store: es.store, sourceStaleAfterMs: STALE_AFTER_MS });
  }, 240_000);

  afterAll(async () => {
    await api?.app.close();
    await monitoring?.stop();
    indexManager?.close();
    await running?.stop();
    await es?.close();
  }, 240_000);

  async function call(method: 'POST' | 'PATCH', path: string, body: unknown) {
    const response = await fetch(`${api.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key.rawKey}`,
        'idempotency-key': `idem-${randomUUID()}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    });
    // biome-ignore lint/suspicious/noExplicitAny: a JSON body read field by field in the assertions
    return { status: response.status, body: (await response.json()) as { data: Record<string, any> } };
  }

  const load = (id: string) => monitoringCommandHandler.load(es.store, id);

  /** The id of the last `MonitoringConfigUpdated` that set the status to active. */
  async function lastResumeEventId(id: string): Promise<string> {
    const resumes = (await load(id)).events.filter(
      (stored) =>
        stored.event.type === 'MonitoringConfigUpdated' && stored.event.data.changes.status === 'active',
    );
    expect(resumes.length).toBeGreaterThan(0);
    return resumes.at(-1)!.id;
  }

  async function jobsOf(id: string) {
    const { rows } = await es.db.pool.query<{ run_id: string; trigger: { kind: string }; status: string }>(
      'SELECT run_id, trigger, status FROM monitoring_jobs WHERE monitoring_config_id = $1 ORDER BY created_at, run_id',
      [id],
    );
    return rows;
  }

  /** Waits until the run is recorded on the stream and completed, and its job closed. */
  async function recorded(id: string, runId: string, kind: string) {
    await eventually(async () => {
      const { state, events } = await load(id);
      const started = events.find(
        (stored) => stored.event.type === 'MonitoringRunStarted' && stored.event.data.runId === runId,
      );
      expect(started?.event.data).toMatchObject({ trigger: { kind } });
      expect(state?.latestRun).toMatchObject({ runId, status: 'completed' });
      expect((await jobsOf(id)).find((job) => job.run_id === runId)?.status).toBe('done');
    }, 60_000);
  }

  it('queues and records a resume run for a PATCH to active, and nothing for PATCHes that do not resume', async () => {
    const { configId: id, subjectReference } = await enrollNewSubject(
      { pool: es.db.pool, store: es.store },
      { accountId, groupId },
      { name: 'Quentin Zephyrbottom' },
    );
    const path = `/v1/monitoring-configs/${id}`;
    const baseline = monitoringRunId(id, 'enrollment');
    await recorded(id, baseline, 'enrollment');

    // Pausing, and changing the metadata while paused: neither is a trigger.
    const paused = await call('PATCH', path, { status: 'paused' });
    expect(paused.status, JSON.stringify(paused.body)).toBe(200);
    const retagged = await call('PATCH', path, { metadata: { tier: 'high' } });
    expect(retagged.status, JSON.stringify(retagged.body)).toBe(200);
    expect(retagged.body.data).toMatchObject({ status: 'paused', metadata: { tier: 'high' } });

    const resumed = await call('PATCH', path, { status: 'active' });
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
    expect(resumed.body.data.status).toBe('active');
    const resume = monitoringRunId(id, `resume:${await lastResumeEventId(id)}`);
    await recorded(id, resume, 'resume');

    // The scheduler reads the feed in order: having queued the resume, it has seen the two PATCHes
    // before it, and they queued nothing.
    expect(await jobsOf(id)).toEqual([
      { run_id: baseline, trigger: { kind: 'enrollment' }, status: 'done' },
      { run_id: resume, trigger: { kind: 'resume' }, status: 'done' },
    ]);

    // POST's create-or-update resumes as well: it is the same change of status.
    expect((await call('PATCH', path, { status: 'paused' })).status).toBe(200);
    const reenrolled = await call('POST', '/v1/monitoring-configs', {
      subject_reference: subjectReference,
      check_types: ['sanctions'],
      status: 'active',
    });
    expect(reenrolled.status, JSON.stringify(reenrolled.body)).toBe(200);
    const second = monitoringRunId(id, `resume:${await lastResumeEventId(id)}`);
    expect(second).not.toBe(resume);
    await recorded(id, second, 'resume');
    expect((await jobsOf(id)).map((job) => job.run_id)).toEqual([baseline, resume, second]);
  }, 180_000);
});
