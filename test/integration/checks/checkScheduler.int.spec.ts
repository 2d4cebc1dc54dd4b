import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers } from '../../../src/app/workers.js';
import { caseStreamName } from '../../../src/cases/caseEvents.js';
import { CHECK_SCHEDULER_SUBSCRIPTION_ID } from '../../../src/checks/checkScheduler.js';
import { loadConfig } from '../../../src/config.js';
import { runCliCaptured } from '../../support/cli.js';
import { eventually } from '../../support/eventually.js';
import { openTestEventStore, type TestEventStore } from '../../support/testEventStore.js';
import { checkEnded, createCase, personSubject, testRunner } from './checkFixtures.js';

describe('check scheduler reactor', () => {
  let es: TestEventStore;

  beforeAll(async () => {
    es = await openTestEventStore();
  });
  afterAll(async () => {
    await es.close();
  });

  const jobs = async () =>
    (
      await es.db.pool.query<{
        check_reference: string;
        case_reference: string;
        check_type: string;
        status: string;
        attempts: number;
      }>('SELECT check_reference, case_reference, check_type, status, attempts FROM check_jobs ORDER BY 1')
    ).rows;

  it('queues one job per check of each new case, exactly once, also when the feed is replayed', async () => {
    const first = await createCase(es.store, personSubject('One'), ['sanctions', 'pep']);
    const second = await createCase(es.store, personSubject('Two'), [
      'business_entity_risk',
      'sanctions',
      'pep',
    ]);
    const scheduler = testRunner(es.db, es.store, { workers: 0 });
    await eventually(async () => expect(await jobs()).toHaveLength(5));
    expect(await jobs()).toEqual(
      expect.arrayContaining([
        {
          check_reference: `${first}-1`,
          case_reference: first,
          check_type: 'sanctions',
          status: 'queued',
          attempts: 0,
        },
        {
          check_reference: `${first}-2`,
          case_reference: first,
          check_type: 'pep',
          status: 'queued',
          attempts: 0,
        },
        {
          check_reference: `${second}-1`,
          case_reference: second,
          check_type: 'business_entity_risk',
          status: 'queued',
          attempts: 0,
        },
      ]),
    );
    const third = await createCase(es.store, personSubject('Three'), ['pep']);
    await eventually(async () => expect(await jobs()).toHaveLength(6));
    await scheduler.stop();

    // A job that moved on keeps its state when the scheduler sees its case again.
    await es.db.pool.query(`UPDATE check_jobs SET status = 'done' WHERE check_reference = $1`, [
      `${first}-1`,
    ]);
    const { rowCount } = await es.db.pool.query(
      'UPDATE es_checkpoints SET checkpoint = NULL WHERE subscription_id = $1',
      [CHECK_SCHEDULER_SUBSCRIPTION_ID],
    );
    expect(rowCount).toBe(1);
    // The last case's own position: the store's head can stop short of it while a transaction is
    // open elsewhere on the server.
    const { events } = await es.store.readStream(caseStreamName(third));
    const replay = testRunner(es.db, es.store, { workers: 0 });
    await replay.scheduler!.waitForCheckpoint(events.at(-1)!.position);
    await replay.stop();
    const after = await jobs();
    expect(after).toHaveLength(6);
    expect(after.find((job) => job.check_reference === `${first}-1`)?.status).toBe('done');
    expect(after.filter((job) => job.case_reference === third)).toHaveLength(1);
  });

  it('shows in `casescreen subscriptions status` as a subscription of its own', async () => {
    const status = await runCliCaptured(['subscriptions', 'status', '--json'], { DATABASE_URL: es.db.url });
    expect(status.code).toBe(0);
    const rows = JSON.parse(status.stdout) as { subscriptionId: string; status: string }[];
    expect(rows.find((row) => row.subscriptionId === CHECK_SCHEDULER_SUBSCRIPTION_ID)).toMatchObject({
      status: 'active',
    });
  });

  it('runs in the work role: startWorkers starts the scheduler and the workers, and stops them', async () => {
    const workers = await startWorkers({
      pool: es.db.pool,
      databaseUrl: es.db.url,
      store: es.store,
      logger: pino({ level: 'silent' }),
      config: loadConfig({ CHECK_WORKERS: '1', CHECK_POLL_INTERVAL_MS: '100', FEED_POLL_INTERVAL_MS: '100' }),
    });
    try {
      const caseReference = await createCase(es.store, personSubject('Four'), ['sanctions']);
      // No list is loaded in this database: the check runs and fails as unavailable, never "no matches".
      expect(await checkEnded(es.store, `${caseReference}-1`)).toMatchObject({
        lifecycleStatus: 'failed',
        failureReason: 'source_unavailable: no current source list provides sanctions screening',
      });
    } finally {
      await workers.stop();
    }
  });
});
