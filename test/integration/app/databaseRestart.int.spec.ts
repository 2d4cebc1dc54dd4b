import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers, type Workers } from '../../../src/app/workers.js';
import { loadConfig } from '../../../src/config.js';
import { readSystemStatus } from '../../../src/observability/systemStatus.js';
import { silentLogger } from '../../../src/shared/logger.js';
import { type CaseApiService, openCaseApiService } from '../../support/caseApiService.js';
import { eventually } from '../../support/eventually.js';

/**
 * The deterministic short version of a database restart (`npm run chaos` restarts a real server,
 * fast and immediate): every session of the service's database is ended at once, under the HTTP
 * server, the projections, the reactors' leadership sessions and LISTEN connections, and the check
 * workers. Nothing may crash (an unhandled 'error' event fails the run), and everything carries on:
 * new cases are screened, every subscription has its runner again and catches up.
 */
describe('a database restart under a running service', () => {
  let service: CaseApiService;
  let workers: Workers;
  let admin: pg.Client;

  beforeAll(async () => {
    service = await openCaseApiService({ account: 'Restart Co' });
    const { db, store } = service.opened;
    workers = await startWorkers({
      pool: db.pool,
      databaseUrl: db.url,
      store,
      logger: silentLogger,
      config: loadConfig({
        DATABASE_URL: db.url,
        CHECK_POLL_INTERVAL_MS: '100',
        FEED_POLL_INTERVAL_MS: '100',
      }),
    });
    admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
  }, 60_000);
  afterAll(async () => {
    await admin?.end();
    await workers?.stop();
    await service?.close();
  });

  /** Creates a case, retrying while the service answers 503 (the database coming back). */
  async function createCase(name: string): Promise<string> {
    const idempotencyKey = `restart-${randomUUID()}`;
    return eventually(async () => {
      const response = await fetch(`${service.url}/v1/cases`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${service.key.rawKey}`,
          'content-type': 'application/json',
          'idempotency-key': idempotencyKey,
        },
        body: JSON.stringify({ subject: { name }, checks: { types: ['sanctions'] } }),
      });
      const body = (await response.json()) as { data?: { case_reference: string } };
      expect(response.status, JSON.stringify(body)).toBe(201);
      return body.data!.case_reference;
    });
  }

  async function checksCompleted(caseReference: string): Promise<void> {
    await eventually(async () => {
      const response = await fetch(`${service.url}/v1/cases/${caseReference}`, {
        headers: { authorization: `Bearer ${service.key.rawKey}` },
      });
      const body = (await response.json()) as { data?: { checks: { lifecycle_status: string }[] } };
      expect(response.status).toBe(200);
      expect(body.data!.checks.map((check) => check.lifecycle_status)).toEqual(['completed']);
    }, 60_000);
  }

  /** What a restart does to every session: ended by the server, whatever it was doing. */
  async function endEverySession(): Promise<number> {
    const { rows } = await admin.query<{ ended: boolean }>(
      `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    return rows.filter((row) => row.ended).length;
  }

  it('carries on after every session is ended, twice: cases are screened, every runner is back', async () => {
    await checksCompleted(await createCase('Ivan Before'));
    const { db, store } = service.opened;
    // Up and running: the leadership sessions, LISTEN connections and pool connections exist.
    await eventually(async () => {
      const status = await readSystemStatus(db.pool, store, { staleAfterMs: 14 * 86_400_000 });
      expect(status.subscriptions.filter((s) => !s.runnerAlive)).toEqual([]);
    });

    for (let restart = 0; restart < 2; restart++) {
      expect(await endEverySession()).toBeGreaterThan(3);
      await checksCompleted(await createCase(`Ivan After ${restart}`));
    }

    await eventually(async () => {
      const status = await readSystemStatus(db.pool, store, { staleAfterMs: 14 * 86_400_000 });
      expect(
        status.subscriptions.filter((s) => !s.runnerAlive || s.lag.events > 0).map((s) => s.subscriptionId),
      ).toEqual([]);
      expect(status.checks).toMatchObject({ due: 0, running: 0, stuck: 0 });
    }, 60_000);
  });
});
