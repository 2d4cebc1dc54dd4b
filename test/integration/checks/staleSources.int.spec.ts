import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CheckRunner } from '../../../src/checks/checkRunner.js';
import { openTestEventStore, type TestEventStore } from '../../support/testEventStore.js';
import {
  checkEnded,
  checkEvents,
  createCase,
  DAY_MS,
  loadUnList,
  personSubject,
  testRunner,
} from './checkFixtures.js';

/**
 * Availability at run time: a check type whose lists are missing or stale when its check runs fails
 * at once with `source_unavailable`, never "no matches"; a newly loaded version is screened as soon
 * as it is current (the index is rebuilt).
 */
describe('check runner and source availability', () => {
  let es: TestEventStore;
  let runner: CheckRunner;

  beforeAll(async () => {
    es = await openTestEventStore();
  });
  afterEach(async () => {
    await runner?.stop();
  });
  afterAll(async () => {
    await es.close();
  });

  it('fails a check with source_unavailable while no list is loaded, then while the only one is stale, then screens the fresh version', async () => {
    runner = testRunner(es.db, es.store);

    const missing = await createCase(es.store, personSubject('Ivan Testov'), ['sanctions']);
    expect(await checkEnded(es.store, `${missing}-1`)).toMatchObject({
      lifecycleStatus: 'failed',
      failureReason: 'source_unavailable: no current source list provides sanctions screening',
      decision: 'pending_review',
      matches: [],
    });

    const old = await loadUnList(es.db, { publishedAt: new Date(Date.now() - 30 * DAY_MS) });
    const day = old.publishedAt!.toISOString().slice(0, 10);
    const stale = await createCase(es.store, personSubject('Ivan Testov'), ['sanctions']);
    expect(await checkEnded(es.store, `${stale}-1`)).toMatchObject({
      lifecycleStatus: 'failed',
      failureReason: `source_unavailable: sanctions sources older than 14d: un_sc_sanctions (version 1, published ${day})`,
    });
    expect(await checkEvents(es.store, `${stale}-1`)).toMatchObject({ started: [], completed: [] });

    const fresh = await loadUnList(es.db, { file: 'list-v2.xml' });
    expect(fresh.version).toBe(2);
    const listedInV2 = await createCase(
      es.store,
      personSubject('Sample Shipping Line', { type: 'company' }),
      ['sanctions'],
    );
    const droppedInV2 = await createCase(es.store, personSubject('Ahmad Exampli'), ['sanctions']);
    const found = await checkEnded(es.store, `${listedInV2}-1`);
    expect(found).toMatchObject({
      lifecycleStatus: 'completed',
      snapshots: [{ id: fresh.id, dataset: 'un_sc_sanctions', version: 2 }],
    });
    expect(found.matches.map((match) => [match.matchedEntityId, match.sourceSnapshotId])).toEqual([
      ['un_sc_sanctions:900004', fresh.id],
    ]);
    expect(await checkEnded(es.store, `${droppedInV2}-1`)).toMatchObject({
      lifecycleStatus: 'completed',
      decision: 'no_matches_found',
    });
    expect(runner.indexManager.stats()).toMatchObject({ snapshotIds: [fresh.id] });
  });
});
