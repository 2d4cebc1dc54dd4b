import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCaseCommand } from '../../../src/cases/caseStream.js';
import { matchId } from '../../../src/cases/references.js';
import { findJob } from '../../../src/checks/checkJobs.js';
import type { CheckRunner, CheckRunnerOptions, JobReport } from '../../../src/checks/checkRunner.js';
import type { CheckScreener } from '../../../src/checks/screenCheck.js';
import type { ReadySnapshot } from '../../../src/screening/snapshots/snapshotStore.js';
import { eventually } from '../../support/eventually.js';
import { openTestEventStore, type TestEventStore } from '../../support/testEventStore.js';
import {
  checkEnded,
  checkEvents,
  createCase,
  loadUnList,
  personSubject,
  testRunner,
} from './checkFixtures.js';

describe('check runner', () => {
  let es: TestEventStore;
  let un: ReadySnapshot;
  const runners: CheckRunner[] = [];

  beforeAll(async () => {
    es = await openTestEventStore();
    un = await loadUnList(es.db);
  });
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((runner) => runner.stop()));
  });
  afterAll(async () => {
    await es.close();
  });

  const start = (overrides: Partial<CheckRunnerOptions> = {}) => {
    const runner = testRunner(es.db, es.store, overrides);
    runners.push(runner);
    return runner;
  };

  it('completes a check with its matches, and fails a check type no list provides as source_unavailable', async () => {
    const reports: JobReport[] = [];
    const created = performance.now();
    const caseReference = await createCase(
      es.store,
      personSubject('Ivan Testov', { countries: ['ru'], birthDate: { year: 1970 } }),
      ['sanctions', 'pep'],
    );
    start().onJob((report) => reports.push(report));

    const sanctions = await checkEnded(es.store, `${caseReference}-1`);
    const endToEndMs = performance.now() - created;
    expect(sanctions).toMatchObject({
      lifecycleStatus: 'completed',
      decision: 'pending_review',
      attempts: 1,
      failureReason: null,
      screeningProfileId: 'default',
      threshold: 0.63,
      snapshots: [{ id: un.id, dataset: 'un_sc_sanctions', version: un.version }],
    });
    expect(sanctions.startedAt).not.toBeNull();
    expect(sanctions.checkedAt).not.toBeNull();
    const [top] = sanctions.matches;
    expect(top).toMatchObject({
      matchId: matchId(`${caseReference}-1`, 'un_sc_sanctions:900001'),
      rank: 1,
      displayName: 'IVAN TESTOV',
      matchedEntityId: 'un_sc_sanctions:900001',
      matchType: 'exact_name',
      sourceRecordRef: 'KPi.901',
      sourceSnapshotId: un.id,
      topics: ['sanction'],
      datasets: ['un_sc_sanctions'],
      reviewStatus: 'pending_review',
    });
    expect(top!.score).toBeGreaterThanOrEqual(0.9);
    expect(top!.sources[0]).toMatchObject({ dataset: 'un_sc_sanctions', priority: 1 });
    expect(top!.reason).toHaveProperty('summary');
    expect(top!.supportingFields).toHaveProperty('name.status', 'agreed');

    const pep = await checkEnded(es.store, `${caseReference}-2`);
    expect(pep).toMatchObject({
      lifecycleStatus: 'failed',
      failureReason: 'source_unavailable: no current source list provides pep screening',
      matches: [],
    });
    // A check that cannot be screened is refused before it starts: no CheckStarted for it.
    expect(await checkEvents(es.store, `${caseReference}-2`)).toMatchObject({ started: [], completed: [] });
    // The worker settles its job row after appending the check's outcome, so the row may lag the event.
    await eventually(async () => {
      expect((await findJob(es.db.pool, `${caseReference}-1`))?.status).toBe('done');
      expect((await findJob(es.db.pool, `${caseReference}-2`))?.status).toBe('done');
    });

    const completed = await eventually(() => {
      const report = reports.find((entry) => entry.checkReference === `${caseReference}-1`);
      expect(report?.outcome).toBe('completed');
      return report!;
    });
    console.log(
      `[measure] first check end to end (case created -> CheckCompleted read back, including the scheduler, the claim and the first index build): ${Math.round(endToEndMs)} ms; worker time ${Math.round(completed.durationMs)} ms, of which preparing (index) ${Math.round(completed.prepareMs ?? 0)} ms`,
    );
  });

  it('completes a check without matches as no_matches_found, and screens companies against entities', async () => {
    const nobody = await createCase(es.store, personSubject('Maria Nobody Smith'), ['sanctions']);
    const company = await createCase(
      es.store,
      personSubject('Example Ocean Trading Company', { type: 'company' }),
      ['sanctions'],
    );
    start();
    const none = await checkEnded(es.store, `${nobody}-1`);
    expect(none).toMatchObject({ lifecycleStatus: 'completed', decision: 'no_matches_found', matches: [] });
    expect(none.snapshots.map((snapshot) => snapshot.id)).toEqual([un.id]);
    const found = await checkEnded(es.store, `${company}-1`);
    expect(found.matches.map((match) => match.matchedEntityId)).toEqual(['un_sc_sanctions:900003']);
  });

  it('records a check started and completed in one append, at the revision it read', async () => {
    const caseReference = await createCase(es.store, personSubject('Oona Together'), ['sanctions']);
    start();
    await checkEnded(es.store, `${caseReference}-1`);
    const { rows } = await es.db.pool.query<{ event_type: string; transaction_id: string }>(
      `SELECT event_type, transaction_id::text FROM es_events WHERE stream_name = $1 ORDER BY stream_revision`,
      [`case-${caseReference}`],
    );
    expect(rows.map((row) => row.event_type)).toEqual(['CaseCreated', 'CheckStarted', 'CheckCompleted']);
    expect(rows[1]!.transaction_id).toBe(rows[2]!.transaction_id);
  });

  it('records the start, then the completion, on the newer case when the case changed while it screened', async () => {
    const caseReference = await createCase(es.store, personSubject('Paavo Meanwhile'), ['sanctions']);
    // The case moves on while the check is being prepared: a reviewer adds a note.
    const changing: CheckScreener = async () => {
      const eventId = randomUUID();
      await runCaseCommand(
        es.store,
        caseReference,
        {
          type: 'AddMaterial',
          materialId: `material_${eventId.replaceAll('-', '').slice(0, 24)}`,
          title: 'Meanwhile',
          note: null,
          url: null,
          attachments: [],
          actor: { type: 'human', id: null, displayName: 'Reviewer' },
          now: new Date().toISOString(),
        },
        () => eventId,
      );
      return {
        kind: 'ready',
        run: () => ({
          screeningProfileId: 'default',
          threshold: 0.63,
          snapshots: [{ id: un.id, dataset: un.dataset, version: un.version }],
          matches: [],
        }),
      };
    };
    start({ screen: changing });
    expect(await checkEnded(es.store, `${caseReference}-1`)).toMatchObject({
      lifecycleStatus: 'completed',
      attempts: 1,
    });
    const { events } = await es.store.readStream(`case-${caseReference}`);
    expect(events.map((event) => event.type)).toEqual([
      'CaseCreated',
      'MaterialAdded',
      'CheckStarted',
      'CheckCompleted',
    ]);
  });

  it('runs each check once with two competing runners of two workers each', async () => {
    const cases = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        createCase(es.store, personSubject(i % 2 === 0 ? 'Ahmad Exampli' : `Nobody Number ${i}`), [
          'sanctions',
          'business_entity_risk',
        ]),
      ),
    );
    const reports: JobReport[] = [];
    const first = start({ name: 'first' });
    const second = start({ name: 'second' });
    first.onJob((report) => reports.push(report));
    second.onJob((report) => reports.push(report));

    for (const caseReference of cases) {
      const sanctions = await checkEnded(es.store, `${caseReference}-1`);
      expect(sanctions.lifecycleStatus).toBe('completed');
      await checkEnded(es.store, `${caseReference}-2`);
    }
    for (const caseReference of cases) {
      const sanctions = await checkEvents(es.store, `${caseReference}-1`);
      expect(sanctions.started).toHaveLength(1);
      expect(sanctions.completed).toHaveLength(1);
      expect(sanctions.failed).toHaveLength(0);
      const risk = await checkEvents(es.store, `${caseReference}-2`);
      expect(risk.started).toHaveLength(0);
      expect(risk.failed).toHaveLength(1);
      expect(risk.failed[0]!.failureReason).toMatch(/^source_unavailable: /);
    }
    const ofThese = () => reports.filter((report) => cases.some((c) => report.checkReference.startsWith(c)));
    await eventually(() => expect(ofThese()).toHaveLength(24));
    const mine = ofThese();
    expect(new Set(mine.map((report) => report.checkReference)).size).toBe(24);
    expect(new Set(mine.map((report) => report.worker.split('/')[0])).size).toBe(2);
    const durations = mine
      .filter((report) => report.outcome === 'completed')
      .map((report) => report.durationMs)
      .sort((a, b) => a - b);
    console.log(
      `[measure] warm index, per completed check (claim -> job done): median ${Math.round(durations[Math.floor(durations.length / 2)]!)} ms, max ${Math.round(durations.at(-1)!)} ms over ${durations.length}`,
    );
  });
});
