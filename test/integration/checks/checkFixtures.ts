import { randomInt, randomUUID } from 'node:crypto';
import { v5 as uuidv5 } from 'uuid';
import { queuedChecks } from '../../../src/cases/caseDecide.js';
import type {
  CaseSubject,
  CheckCompleted,
  CheckFailed,
  CheckStarted,
} from '../../../src/cases/caseEvents.js';
import { caseStreamName } from '../../../src/cases/caseEvents.js';
import type { CheckState } from '../../../src/cases/caseState.js';
import { findCheck } from '../../../src/cases/caseState.js';
import { loadCase, runCaseCommand } from '../../../src/cases/caseStream.js';
import { checkId, checkReference } from '../../../src/cases/references.js';
import {
  type CheckRunner,
  type CheckRunnerOptions,
  startCheckRunner,
} from '../../../src/checks/checkRunner.js';
import type { EventStore } from '../../../src/eventStore/eventStore.js';
import type { CheckType } from '../../../src/screening/checkTypes.js';
import { sourceFormats } from '../../../src/screening/parsers/registry.js';
import { loadSnapshot } from '../../../src/screening/snapshots/loadSnapshot.js';
import { eventually } from '../../support/eventually.js';
import { fixturePath } from '../../support/parsedEntities.js';
import { fastRunnerOptions } from '../../support/subscriptionFixtures.js';
import type { TestDatabase } from '../../support/testDatabase.js';

export const DAY_MS = 86_400_000;
export const STALE_AFTER_MS = 14 * DAY_MS;

/** The three-party UN fixture list (IVAN TESTOV, AHMAD EXAMPLI, EXAMPLE OCEAN TRADING CO). */
export async function loadUnList(
  db: TestDatabase,
  options: { file?: 'list-v1.xml' | 'list-v2.xml'; publishedAt?: Date } = {},
) {
  const result = await loadSnapshot(db.pool, {
    format: sourceFormats['un-xml']!,
    paths: [fixturePath('un-xml', 'snapshots', options.file ?? 'list-v1.xml')],
    publishedAt: options.publishedAt ?? new Date(),
  });
  return result.snapshot;
}

export function newCaseReference(): string {
  const letters = Array.from({ length: 3 }, () => String.fromCharCode(65 + randomInt(26))).join('');
  return `${letters}${String(randomInt(1_000_000)).padStart(6, '0')}`;
}

export const personSubject = (displayName: string, fields: Partial<CaseSubject> = {}): CaseSubject => ({
  subjectReference: `sub_${randomUUID().replaceAll('-', '').slice(0, 24)}`,
  type: 'person',
  displayName,
  countries: [],
  birthDate: null,
  externalReference: null,
  metadata: {},
  ...fields,
});

/** Creates a case as POST /v1/cases will: its checks queued. Returns its reference. */
export async function createCase(
  store: EventStore,
  subject: CaseSubject,
  types: CheckType[],
  screeningProfileId = 'default',
): Promise<string> {
  const caseReference = newCaseReference();
  const base = randomUUID();
  const outcome = await runCaseCommand(
    store,
    caseReference,
    {
      type: 'CreateCase',
      now: new Date().toISOString(),
      groupMemberIds: [],
      caseReference,
      accountId: randomUUID(),
      groupId: randomUUID(),
      subject,
      ownerUserId: null,
      collaboratorUserIds: [],
      externalReference: null,
      notes: null,
      metadata: {},
      screeningProfileId,
      checks: queuedChecks(caseReference, types, { reference: checkReference, id: checkId }),
      monitoring: { enable: false, ownerUserId: null, collaboratorUserIds: [] },
      actor: { type: 'api_client', id: randomUUID(), displayName: 'test' },
    },
    (index) => uuidv5(String(index), base),
  );
  if (!outcome.ok) throw new Error(outcome.rejection.message);
  return caseReference;
}

export interface CheckEvents {
  started: CheckStarted['data'][];
  completed: CheckCompleted['data'][];
  failed: CheckFailed['data'][];
}

/** The runner's events of one check, as on the case stream. */
export async function checkEvents(store: EventStore, check: string): Promise<CheckEvents> {
  const read = await store.readStream(caseStreamName(check.slice(0, check.lastIndexOf('-'))));
  const of = <T>(type: string) =>
    read.events
      .filter(
        (event) => event.type === type && (event.data as { checkReference: string }).checkReference === check,
      )
      .map((event) => event.data as T);
  return {
    started: of<CheckStarted['data']>('CheckStarted'),
    completed: of<CheckCompleted['data']>('CheckCompleted'),
    failed: of<CheckFailed['data']>('CheckFailed'),
  };
}

export async function checkState(store: EventStore, check: string): Promise<CheckState> {
  const { state } = await loadCase(store, check.slice(0, check.lastIndexOf('-')));
  const found = state && findCheck(state, check);
  if (!found) throw new Error(`no check ${check}`);
  return found;
}

/** Waits until the check has completed or failed, and returns it. */
export function checkEnded(store: EventStore, check: string): Promise<CheckState> {
  return eventually(async () => {
    const state = await checkState(store, check);
    if (state.lifecycleStatus !== 'completed' && state.lifecycleStatus !== 'failed') {
      throw new Error(`check ${check} is ${state.lifecycleStatus}`);
    }
    return state;
  });
}

/**
 * Runs out the lease of a claimed check job at once, as if its worker had died and the lease had
 * passed; false when the job is not running. Tests never wait for a short real lease: a busy
 * machine can outlast one before the test looks, or keep a live worker from renewing it.
 */
export async function expireJobLease(db: TestDatabase, check: string): Promise<boolean> {
  const { rowCount } = await db.pool.query(
    `UPDATE check_jobs SET lease_until = now() - interval '1 second'
      WHERE check_reference = $1 AND status = 'running'`,
    [check],
  );
  return rowCount === 1;
}

/**
 * A check runner with test-sized timings. Its lease is longer than any test runs, so a claim ends
 * only by the worker's own doing or by expireJobLease.
 */
export function testRunner(
  db: TestDatabase,
  store: EventStore,
  overrides: Partial<CheckRunnerOptions> = {},
): CheckRunner {
  return startCheckRunner({
    pool: db.pool,
    databaseUrl: db.url,
    store,
    workers: 2,
    leaseMs: 600_000,
    retryDelaysMs: [20, 20, 20],
    pollIntervalMs: 50,
    staleAfterMs: STALE_AFTER_MS,
    indexRefreshMs: 50,
    schedulerRunner: fastRunnerOptions,
    ...overrides,
  });
}
