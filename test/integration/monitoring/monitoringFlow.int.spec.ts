import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers, type Workers } from '../../../src/app/workers.js';
import { loadCase } from '../../../src/cases/caseStream.js';
import { loadConfig } from '../../../src/config.js';
import type { MonitoringEvent } from '../../../src/monitoring/monitoringEvents.js';
import { monitoringConfigId } from '../../../src/monitoring/monitoringReferences.js';
import type { MonitoringConfigState } from '../../../src/monitoring/monitoringState.js';
import { monitoringCommandHandler } from '../../../src/monitoring/monitoringStream.js';
import { sourceFormats } from '../../../src/screening/parsers/registry.js';
import { recordSnapshotBecameCurrent } from '../../../src/screening/snapshots/datasetStream.js';
import { loadSnapshot } from '../../../src/screening/snapshots/loadSnapshot.js';
import { silentLogger } from '../../../src/shared/logger.js';
import { verifyWebhook } from '../../../src/webhooks/index.js';
import { createWebhookEndpoint } from '../../../src/webhooks/webhookEndpoints.js';
import { SCOPES } from '../../../src/workspace/keyPolicy.js';
import type { CreatedApiKey } from '../../../src/workspace/keyStore.js';
import { createCaseWorkspace, createKey, createMember, startApiServer } from '../../support/caseApi.js';
import { eventually } from '../../support/eventually.js';
import { fixturePath } from '../../support/parsedEntities.js';
import { openTestEventStore, type TestEventStore } from '../../support/testEventStore.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhookReceiver.js';

/**
 * Monitoring end to end in one process: cases created over real HTTP with `monitoring.enable`, the
 * work role (projections, check runner, webhooks, monitoring) on the real feed, a list version
 * loaded and recorded as the CLI does, and what monitoring made of the change: runs, alerts, their
 * resolution, follow-up cases through the case rules, and monitoring.alert_created webhooks at a
 * receiver on loopback. The list is a fixture of this repository (test/fixtures/screening/un-xml/
 * monitoring): v1 -> v2 changes one party, delists two and adds one.
 */

const STALE_AFTER = '3650d';

describe('monitoring when a list changes', () => {
  let es: TestEventStore;
  let workers: Workers;
  let api: { app: FastifyInstance; url: string };
  let receiver: WebhookReceiver;
  let key: CreatedApiKey;
  let accountId = '';
  let groupId = '';
  let ownerId = '';
  let secret = '';

  beforeAll(async () => {
    es = await openTestEventStore();
    const workspace = await createCaseWorkspace(es.db.pool, {
      account: 'Monitoring',
      groups: [],
      foreign: 'Other',
    });
    accountId = workspace.accountId;
    groupId = workspace.defaultGroupId;
    ownerId = await createMember(es.db.pool, { accountId, email: 'owner@example.test' }, [groupId]);
    key = await createKey(es.db.pool, accountId, SCOPES);
    receiver = await startWebhookReceiver();
    const endpoint = await createWebhookEndpoint(
      es.db.pool,
      { accountId, url: receiver.url, eventTypes: ['monitoring.alert_created'], mode: 'expanded' },
      { clock: () => new Date(), allowPrivateTargets: true },
    );
    secret = endpoint.secret;
    await loadList('v1.xml');
    const config = loadConfig({
      DATABASE_URL: es.db.url,
      SOURCE_STALE_AFTER: STALE_AFTER,
      CHECK_POLL_INTERVAL_MS: '100',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      LOG_LEVEL: 'silent',
    });
    workers = await startWorkers({
      pool: es.db.pool,
      databaseUrl: es.db.url,
      store: es.store,
      logger: silentLogger,
      config,
    });
    api = await startApiServer({ pool: es.db.pool, store: es.store, sourceStaleAfterMs: 3650 * 86_400_000 });
  }, 60_000);

  afterAll(async () => {
    await api?.app.close();
    await workers?.stop();
    await receiver?.close();
    await es?.close();
  });

  async function loadList(file: string) {
    const result = await loadSnapshot(es.db.pool, {
      format: sourceFormats['un-xml']!,
      paths: [fixturePath('un-xml', 'monitoring', file)],
    });
    // What `casescreen sources load` does once the version is current.
    await recordSnapshotBecameCurrent(es.store, result.snapshot, result.delta ?? null);
    return result.snapshot;
  }

  async function request(method: string, path: string, body?: unknown) {
    const response = await fetch(`${api.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key.rawKey}`,
        ...(body !== undefined && { 'content-type': 'application/json', 'idempotency-key': randomUUID() }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    return {
      status: response.status,
      body: (await response.json()) as {
        data: { case_reference: string; subject: { subject_reference: string } };
      },
    };
  }

  /** A case of the subject with monitoring enabled; its subject reference and the configuration id. */
  async function enrolledCase(name: string, type: 'person' | 'organization') {
    const created = await request('POST', '/v1/cases', {
      subject: { type, name, mode: 'create_or_reuse' },
      case: { owner_user_id: ownerId },
      checks: { types: ['sanctions'] },
      monitoring: { enable: true, owner_user_id: ownerId },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const subjectReference = created.body.data.subject.subject_reference;
    return {
      caseReference: created.body.data.case_reference,
      subjectReference,
      configId: monitoringConfigId(accountId, subjectReference, groupId),
    };
  }

  async function config(id: string): Promise<{ state: MonitoringConfigState; events: MonitoringEvent[] }> {
    const loaded = await monitoringCommandHandler.load(es.store, id);
    return { state: loaded.state!, events: loaded.events.map((stored) => stored.event) };
  }

  const alertsOf = (events: MonitoringEvent[]) =>
    events.filter(
      (event): event is Extract<MonitoringEvent, { type: 'MonitoringAlertRaised' }> =>
        event.type === 'MonitoringAlertRaised',
    );

  it('enrolls from the case, runs a quiet baseline, and alerts, resolves and follows up on the next list version', async () => {
    const ivan = await enrolledCase('Ivan Testov', 'person');
    const ahmad = await enrolledCase('Ahmad Exampli', 'person');
    const boris = await enrolledCase('Boris Quietov', 'person');
    const shipping = await enrolledCase('Sample Shipping Line', 'organization');
    const all = [ivan, ahmad, boris, shipping];

    // Baselines: once each case's check completed, the run finds what the case presented (no alert).
    await eventually(async () => {
      for (const enrolled of all) {
        const { state } = await config(enrolled.configId);
        expect(state?.latestResult, enrolled.subjectReference).toBe('no_change');
      }
    }, 60_000);
    for (const enrolled of all) {
      const { state, events } = await config(enrolled.configId);
      expect(alertsOf(events)).toEqual([]);
      expect(state.ownerUserId).toBe(ownerId);
      expect(state.enrolledFrom).toEqual({ kind: 'case', caseReference: enrolled.caseReference });
    }
    expect(Object.keys((await config(ivan.configId)).state.observations)).toHaveLength(1);
    expect(Object.keys((await config(shipping.configId)).state.observations)).toHaveLength(0);

    // A reviewer dismisses Ahmad's match: its delisting will need no action.
    const ahmadCase = (await loadCase(es.store, ahmad.caseReference)).state!;
    const ahmadMatch = ahmadCase.checks[0]!.matches[0]!;
    const reviewed = await request('PATCH', `/v1/matches/${ahmadMatch.matchId}/review`, {
      review_status: 'not_relevant',
      note: 'different person',
    });
    expect(reviewed.status, JSON.stringify(reviewed.body)).toBe(200);
    await eventually(async () => {
      const { rows } = await es.db.pool.query(
        `SELECT state->'checks'->0->'matches'->0->>'reviewStatus' AS status FROM case_views WHERE case_reference = $1`,
        [ahmad.caseReference],
      );
      expect(rows[0]?.status).toBe('not_relevant');
    });

    const v2 = await loadList('v2.xml');

    await eventually(async () => {
      for (const enrolled of [ivan, ahmad, boris, shipping]) {
        const { state, events } = await config(enrolled.configId);
        expect(state.latestRun?.trigger.kind, enrolled.subjectReference).toBe('snapshot');
        // The last completed run screened the new version: on a busy machine a run the new version
        // triggered can still find the old one serving, and is run again once the new one is.
        const completed = events.filter((event) => event.type === 'MonitoringRunCompleted').at(-1);
        expect(
          completed?.type === 'MonitoringRunCompleted' && completed.data.snapshots.map((used) => used.id),
          enrolled.subjectReference,
        ).toContain(v2.id);
        expect(Object.keys(state.followUpsInProgress)).toEqual([]);
      }
    }, 60_000);

    // Ivan: names and nationalities changed -> a changed match, a follow-up case.
    const ivanAfter = await config(ivan.configId);
    expect(ivanAfter.state.latestResult).toBe('changed_matches');
    const [ivanAlert] = alertsOf(ivanAfter.events);
    expect(ivanAlert?.data.kind).toBe('changed_match');
    expect(ivanAlert?.data.changes.map((change) => change.field)).toEqual([
      'names',
      'nationalities',
      'countries',
    ]);
    expect(ivanAlert?.data.changeSummary).toContain('Ivan Testovich');
    expect(ivanAfter.state.followUpCaseReferences).toHaveLength(1);
    const followUp = (await loadCase(es.store, ivanAfter.state.followUpCaseReferences[0]!)).state!;
    expect(followUp.origin).toMatchObject({ kind: 'monitoring', monitoringConfigId: ivan.configId });
    expect(followUp.subject.subjectReference).toBe(ivan.subjectReference);
    expect(followUp.ownerUserId).toBe(ownerId);
    expect(followUp.checks.map((check) => [check.type, check.lifecycleStatus])).toEqual([
      ['sanctions', 'completed'],
    ]);
    expect(followUp.checks[0]!.matches.map((match) => match.matchedEntityId)).toEqual([
      ivanAlert!.data.entityId,
    ]);

    // Ahmad: delisted, reviewed not relevant -> changed, resolved without action, no case.
    const ahmadAfter = await config(ahmad.configId);
    const [ahmadAlert] = alertsOf(ahmadAfter.events);
    expect(ahmadAlert?.data.changes).toEqual([{ field: 'listed', previous: 'listed', current: 'delisted' }]);
    expect(ahmadAlert?.data.actionable).toBe(false);
    expect(ahmadAfter.events.some((event) => event.type === 'MonitoringAlertResolved')).toBe(true);
    expect(ahmadAfter.state.followUpCaseReferences).toEqual([]);

    // Boris: delisted, never dismissed -> a reviewer looks at it in a follow-up case.
    const borisAfter = await config(boris.configId);
    expect(alertsOf(borisAfter.events)[0]?.data.actionable).toBe(true);
    expect(borisAfter.state.followUpCaseReferences).toHaveLength(1);

    // Sample Shipping Line: listed now -> a new match.
    const shippingAfter = await config(shipping.configId);
    expect(shippingAfter.state.latestResult).toBe('new_matches');
    expect(alertsOf(shippingAfter.events).map((alert) => alert.data.kind)).toEqual(['new_match']);
    expect(shippingAfter.state.followUpCaseReferences).toHaveLength(1);

    // One monitoring.alert_created per alert, signed, with the alert's ids.
    const alertIds = [ivanAfter, ahmadAfter, borisAfter, shippingAfter].flatMap((c) =>
      alertsOf(c.events).map((a) => a.data.alertId),
    );
    await eventually(() => {
      const received = receiver.received.filter(
        (delivery) => delivery.body.type === 'monitoring.alert_created',
      );
      expect(received.map((delivery) => delivery.body.data.alert_id).sort()).toEqual([...alertIds].sort());
    }, 30_000);
    for (const delivery of receiver.received) {
      expect(() =>
        verifyWebhook({ secrets: secret, headers: delivery.headers, rawBody: delivery.rawBody }),
      ).not.toThrow();
    }

    // A case that reuses Ivan's subject with newer details: his configuration runs on them.
    const updated = await request('POST', '/v1/cases', {
      subject: {
        mode: 'create_or_reuse',
        subject_reference: ivan.subjectReference,
        birth_date: { year: 1970, month: 1, day: 1 },
      },
      checks: { types: ['sanctions'] },
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(201);
    await eventually(async () => {
      const { state } = await config(ivan.configId);
      expect(state.latestRun?.trigger.kind).toBe('subject_changed');
      expect(state.latestRun?.status).toBe('completed');
      expect(state.subject.birthDate).toMatchObject({ year: 1970, month: 1, day: 1 });
    }, 60_000);
  }, 180_000);
});
