import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { FoundMatch } from '../../src/cases/caseEvents.js';
import { SYSTEM_ACTOR } from '../../src/cases/caseEvents.js';
import { IndexManager } from '../../src/checks/indexManager.js';
import type { EventStore } from '../../src/eventStore/eventStore.js';
import { decideMonitoring, type MonitoringCommand } from '../../src/monitoring/monitoringDecide.js';
import type { MonitoringEvent, Observation } from '../../src/monitoring/monitoringEvents.js';
import { alertId, matchFingerprint, monitoringRunId } from '../../src/monitoring/monitoringReferences.js';
import { type MonitoringOptions, startMonitoring } from '../../src/monitoring/monitoringRunner.js';
import { enrollSubject } from '../../src/monitoring/monitoringService.js';
import { monitoringCommandHandler } from '../../src/monitoring/monitoringStream.js';
import type { RunJobDeps } from '../../src/monitoring/runJob.js';
import type { EntityKind } from '../../src/screening/model/listedEntity.js';
import { sourceFormats } from '../../src/screening/parsers/registry.js';
import { loadSnapshot } from '../../src/screening/snapshots/loadSnapshot.js';
import { decideSubject } from '../../src/subjects/subjectDecide.js';
import { subjectCommandHandler } from '../../src/subjects/subjectStream.js';
import { createWorkspace } from '../../src/workspace/workspaceStore.js';
import { fixturePath } from './parsedEntities.js';
import { openTestEventStore } from './testEventStore.js';

const TEN_YEARS_MS = 3650 * 86_400_000;

/**
 * A database with a workspace and the monitoring fixture list (v1) loaded, for tests that run
 * monitoring jobs by hand: `deps(store)` is what `runMonitoringJob` takes (the real store unless
 * another is given).
 */
export async function openRunJobBed(workspaceName: string) {
  const es = await openTestEventStore();
  const workspace = await createWorkspace(es.db.pool, { name: workspaceName });
  await loadSnapshot(es.db.pool, {
    format: sourceFormats['un-xml']!,
    paths: [fixturePath('un-xml', 'monitoring', 'v1.xml')],
  });
  const indexManager = new IndexManager({ pool: es.db.pool });
  return {
    es,
    where: { accountId: workspace.account.id, groupId: workspace.defaultGroup.id },
    indexManager,
    deps: (store: EventStore = es.store): RunJobDeps => ({
      pool: es.db.pool,
      store,
      indexManager,
      staleAfterMs: TEN_YEARS_MS,
      clock: () => new Date(),
    }),
    async close() {
      indexManager.close();
      await es.close();
    },
  };
}

/**
 * The monitoring workers as the tests run them: one worker polling every 50 ms, no safety-net run
 * within a test (every run has a trigger of its own), lists never too old; `options` overrides any.
 */
export function startTestMonitoring(
  es: { db: { pool: pg.Pool; url: string }; store: EventStore },
  indexManager: IndexManager,
  options: Partial<MonitoringOptions> = {},
) {
  return startMonitoring({
    pool: es.db.pool,
    databaseUrl: es.db.url,
    store: es.store,
    indexManager,
    workers: 1,
    intervalMs: TEN_YEARS_MS,
    staleAfterMs: TEN_YEARS_MS,
    pollMs: 50,
    ...options,
  });
}

/**
 * What a monitoring run records, written straight to a configuration's stream as the run worker
 * will write it (RecordRun and RecordFollowUpCase through the command handler), so the read side
 * can be tested without the worker.
 */

export async function runMonitoringCommand(store: EventStore, id: string, command: MonitoringCommand) {
  const ids = new Map<number, string>();
  const outcome = await monitoringCommandHandler.handle(
    store,
    id,
    (state) => decideMonitoring(command, state),
    (index) => {
      if (!ids.has(index)) ids.set(index, randomUUID());
      return ids.get(index)!;
    },
  );
  if (!outcome.ok) throw new Error(`${command.type} refused: ${outcome.rejection.message}`);
  return outcome.state!;
}

/** Records a run on the configuration as it is now (the run worker evaluates it on the revision it read). */
export async function recordRun(store: EventStore, id: string, events: MonitoringEvent[]) {
  const { state } = await monitoringCommandHandler.load(store, id);
  return runMonitoringCommand(store, id, {
    type: 'RecordRun',
    basedOnRevision: state?.revision ?? -1,
    events,
  });
}

const UN = { name: 'UN Security Council Consolidated List', recordReference: 'KPi.033' };

export function observation(entityId: string, fields: Partial<Observation> = {}): Observation {
  return {
    fingerprint: matchFingerprint('sanctions', entityId),
    checkType: 'sanctions',
    entityId,
    displayName: 'RI WON HO',
    source: UN,
    facts: {
      names: ['RI WON HO'],
      birth_dates: ['1964-07-17'],
      nationalities: ['KP'],
      countries: ['KP'],
      programs: ['DPRK'],
      topics: ['sanction'],
      identifiers: [],
      kind: ['person'],
    },
    score: 0.934,
    aboveThreshold: true,
    listed: true,
    snapshotId: 'snap_00000000000000000000000000000001',
    ...fields,
  };
}

export function foundMatch(entityId: string, score = 0.934): FoundMatch {
  return {
    matchId: `XXX000000-1.${entityId.slice(-12).padStart(12, '0')}`,
    rank: 1,
    displayName: 'RI WON HO',
    score,
    matchedEntityId: entityId,
    matchType: 'exact_name',
    reason: { summary: 'listed name "RI WON HO" scores 1' },
    sources: [{ name: UN.name, url: null, dataset: 'un_sc_sanctions', priority: 1 }],
    sourceRecordRef: 'KPi.033',
    sourceSnapshotId: 'snap_00000000000000000000000000000002',
    supportingFields: {},
    topics: ['sanction'],
    datasets: ['un_sc_sanctions'],
  };
}

/**
 * A completed run that found one changed match (an alias and a passport added: actionable) and one
 * delisting of a match (not actionable): its run id and alert ids, and the events.
 */
export function changedRun(configId: string, subjectReference: string, trigger: string, at: Date) {
  const t = (ms: number) => new Date(at.getTime() + ms).toISOString();
  const runId = monitoringRunId(configId, trigger);
  const changedEntity = 'un_sc_sanctions:6908555';
  const delistedEntity = 'un_sc_sanctions:6908999';
  const previous = observation(changedEntity);
  const current = observation(changedEntity, {
    facts: { ...previous.facts, names: ['RI WON HO', 'RI WON-HO'], identifiers: ['passport:381310014'] },
    snapshotId: 'snap_00000000000000000000000000000002',
  });
  const delistedBefore = observation(delistedEntity, { displayName: 'KIM OTHER', score: 0.71 });
  const delistedNow = { ...delistedBefore, listed: false, score: null, aboveThreshold: false };
  const changedAlert = alertId(runId, current.fingerprint);
  const delistedAlert = alertId(runId, delistedNow.fingerprint);
  const events: MonitoringEvent[] = [
    {
      type: 'MonitoringRunStarted',
      data: { runId, trigger: { kind: 'schedule' }, checkTypes: ['sanctions'], occurredAt: t(0) },
    },
    {
      type: 'MonitoringRunCompleted',
      data: {
        runId,
        subject: {
          subjectReference,
          type: 'person',
          displayName: 'Ri Won Ho',
          countries: ['KP'],
          birthDate: null,
          externalReference: null,
          metadata: {},
        },
        screeningProfileId: 'default',
        threshold: 0.63,
        snapshots: [
          { id: 'snap_00000000000000000000000000000002', dataset: 'un_sc_sanctions', version: 2 },
          { id: 'snap_00000000000000000000000000000003', dataset: 'us_ofac_sdn', version: 7 },
        ],
        result: 'changed_matches',
        resultSummary: '2 changed matches',
        counts: { matchCount: 1, newMatchCount: 0, changedMatchCount: 2, unchangedMatchCount: 0 },
        matches: [{ checkType: 'sanctions', match: foundMatch(changedEntity) }],
        observations: [current, delistedNow],
        occurredAt: t(100),
      },
    },
    {
      type: 'MonitoringAlertRaised',
      data: {
        alertId: changedAlert,
        runId,
        kind: 'changed_match',
        checkType: 'sanctions',
        fingerprint: current.fingerprint,
        entityId: changedEntity,
        displayName: 'RI WON HO',
        source: current.source,
        score: 0.934,
        changeSummary: 'The listing of RI WON HO (KPi.033) gained an alias and a passport number.',
        changes: [
          { field: 'names', previous: ['RI WON HO'], current: ['RI WON HO', 'RI WON-HO'] },
          { field: 'identifiers', previous: [], current: ['passport:381310014'] },
        ],
        previous,
        current,
        currentMatch: foundMatch(changedEntity),
        actionable: true,
        occurredAt: t(101),
      },
    },
    {
      type: 'MonitoringAlertRaised',
      data: {
        alertId: delistedAlert,
        runId,
        kind: 'changed_match',
        checkType: 'sanctions',
        fingerprint: delistedNow.fingerprint,
        entityId: delistedEntity,
        displayName: 'KIM OTHER',
        source: delistedNow.source,
        score: null,
        changeSummary: 'KIM OTHER was removed from the list.',
        changes: [{ field: 'listed', previous: 'true', current: 'false' }],
        previous: delistedBefore,
        current: delistedNow,
        currentMatch: null,
        actionable: false,
        occurredAt: t(102),
      },
    },
    {
      type: 'MonitoringAlertResolved',
      data: {
        alertId: delistedAlert,
        resolution: 'no_action_required',
        note: 'Delisting of a match reviewed not relevant.',
        occurredAt: t(103),
      },
    },
    { type: 'FollowUpCaseRequested', data: { runId, alertIds: [changedAlert], occurredAt: t(104) } },
  ];
  return { runId, changedAlert, delistedAlert, events, at: t };
}

/**
 * A new subject named `name`, created in the group as POST /v1/cases would create it, and enrolled
 * there through the enrollment use case: the configuration id and the subject reference.
 */
export async function enrollNewSubject(
  deps: { pool: pg.Pool; store: EventStore },
  where: { accountId: string; groupId: string },
  subject: { name: string; type?: EntityKind },
): Promise<{ configId: string; subjectReference: string }> {
  const subjectReference = `sub_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
  const groupId = where.groupId.toLowerCase();
  const created = await subjectCommandHandler.handle(
    deps.store,
    subjectReference,
    (state) =>
      decideSubject(
        {
          type: 'UseSubject',
          subjectReference,
          accountId: where.accountId,
          named: false,
          groupId,
          visibleGroupIds: [groupId],
          sent: { name: subject.name, type: subject.type ?? 'person' },
          now: new Date().toISOString(),
        },
        state,
      ),
    () => randomUUID(),
  );
  if (!created.ok) throw new Error(created.rejection.message);
  const outcome = await enrollSubject(
    { ...deps, clock: () => new Date() },
    { accountId: where.accountId, actor: SYSTEM_ACTOR, visibleGroupIds: [groupId] },
    {
      subjectReference,
      groupId,
      checkTypes: ['sanctions'],
      ownerUserId: undefined,
      collaboratorUserIds: undefined,
      status: undefined,
      metadata: undefined,
      enrolledFrom: { kind: 'api' },
    },
    () => randomUUID(),
  );
  if (!outcome.ok) throw new Error(outcome.rejection.message);
  return { configId: outcome.value.state.monitoringConfigId, subjectReference };
}
