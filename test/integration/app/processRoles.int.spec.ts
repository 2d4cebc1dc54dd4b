import { existsSync, readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projections } from '../../../projections/registry.js';
import { installProjections } from '../../../projections/registryStore.js';
import { listStreams } from '../../../projections/streamIndex/queries.js';
import type { EventStore } from '../../../src/eventStore/eventStore.js';
import { createPostgresEventStore } from '../../../src/eventStore/postgres/postgresEventStore.js';
import { runCliCaptured } from '../../support/cli.js';
import { eventually } from '../../support/eventually.js';
import {
  logged,
  SERVICE_START_TIMEOUT_MS,
  type ServiceProcess,
  servingUrl,
  startServiceProcess,
} from '../../support/serviceProcess.js';
import { uniqueCategory } from '../../support/subscriptionFixtures.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';

/** Every subscription runner logs its states, `stopped` last: a process that ran one says so. */
const RUNNER_STATE = 'subscription runner state';

describe('process roles', () => {
  let db: TestDatabase;
  let store: EventStore;
  const running: ServiceProcess[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    store = createPostgresEventStore({ pool: db.pool, connectionString: db.url, pollIntervalMs: 200 });
  });
  afterAll(async () => {
    for (const service of running) service.child.kill('SIGKILL');
    await store?.close();
    await db?.drop();
  });

  const start = (role: string, env: Record<string, string> = {}) => {
    const service = startServiceProcess(role, { DATABASE_URL: db.url, FEED_POLL_INTERVAL_MS: '200', ...env });
    running.push(service);
    return service;
  };

  const checkpointOf = async () =>
    (
      await db.pool.query<{ checkpoint: string | null }>(
        `SELECT checkpoint FROM es_checkpoints WHERE subscription_id LIKE 'projection:stream_index:%'`,
      )
    ).rows[0]?.checkpoint ?? null;

  it('serve answers health and readiness but runs no projection; SIGTERM exits cleanly', async () => {
    const service = start('serve');
    const url = await servingUrl(service);
    expect((await fetch(`${url}/health/live`)).status).toBe(200);
    const ready = await fetch(`${url}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: 'ready',
      checks: { postgres: 'ok', event_store: 'ok' },
    });
    // The scripted onboarding: an operator creates a workspace and a key, a client lists its groups.
    const admin = async (...argv: string[]) => {
      const run = await runCliCaptured([...argv, '--json'], { DATABASE_URL: db.url });
      expect(run.code, run.stderr).toBe(0);
      return JSON.parse(run.stdout) as Record<string, string>;
    };
    const workspace = await admin('workspace', 'create', '--name', 'Process Co');
    const key = await admin(
      'keys',
      'create',
      '--account',
      workspace.accountId!,
      '--scopes',
      'cases:read',
      '--actor',
      'agent',
    );
    const groups = await fetch(`${url}/v1/groups`, { headers: { authorization: `Bearer ${key.apiKey}` } });
    expect(groups.status).toBe(200);
    expect(await groups.json()).toMatchObject({
      data: { groups: [{ id: workspace.defaultGroupId, is_default: true }] },
    });
    expect((await fetch(`${url}/v1/groups`)).status).toBe(401);
    expect((await fetch(`${url}/v1/openapi.json`)).status).toBe(200);

    const category = uniqueCategory('serve');
    await store.appendToStream(`${category}-1`, [{ type: 'Seen', data: {} }]);
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
    const lines = service.logLines();
    expect(lines.some((line) => line.msg === 'shutdown complete')).toBe(true);
    // Its whole life is in the log now: no runner ever started, and nothing was indexed.
    expect(lines.filter((line) => line.msg === RUNNER_STATE)).toEqual([]);
    expect(await listStreams(db.pool, category)).toEqual([]);
  });

  it('all runs its workers on a thread with a pool of their own beside the HTTP server; SIGTERM stops both', async () => {
    const service = start('all');
    const url = await servingUrl(service);
    const category = uniqueCategory('all');
    await store.appendToStream(`${category}-1`, [{ type: 'Seen', data: {} }]);
    // The projections run (on the work thread) and index the stream...
    await eventually(async () => expect(await listStreams(db.pool, category)).toHaveLength(1));
    // ...through connections of their own, apart from the HTTP server's pool.
    const applications = async () =>
      (
        await db.pool.query<{ application_name: string }>(
          'SELECT DISTINCT application_name FROM pg_stat_activity WHERE datname = current_database()',
        )
      ).rows.map((row) => row.application_name);
    expect(await applications()).toContain('casescreen-all-work');
    expect((await fetch(`${url}/health/ready`)).status).toBe(200);
    // On Linux the work thread runs at a lower priority than the HTTP thread (nice 10 against 0).
    if (existsSync(`/proc/${service.child.pid}/task`)) {
      const niceness = readdirSync(`/proc/${service.child.pid}/task`).map((tid) => {
        const stat = readFileSync(`/proc/${service.child.pid}/task/${tid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      });
      expect(niceness).toContain(10);
      expect(niceness).toContain(0);
    } else {
      console.log('[test] no /proc: the work thread priority is not checked here');
    }
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
    const lines = service.logLines();
    expect(
      lines.filter((line) => line.msg === RUNNER_STATE && line.thread === 'work').length,
    ).toBeGreaterThan(0);
    expect(lines.at(-1)?.msg).toBe('shutdown complete');
    await eventually(async () => expect(await applications()).not.toContain('casescreen-all-work'));
  });

  it('work stops on SIGTERM in the middle of a backlog and a new process finishes it, missing nothing', async () => {
    const category = uniqueCategory('work');
    const streams = 40;
    const perStream = 100;
    await Promise.all(
      Array.from({ length: streams }, (_, s) =>
        store.appendToStream(
          `${category}-${s}`,
          Array.from({ length: perStream }, (_, n) => ({ type: 'Counted', data: { n } })),
        ),
      ),
    );
    // The barrier: a SHARE lock on the index table makes the worker's first batch wait, so it is
    // held at the start of the backlog until this transaction ends. The lock takes no transaction
    // id, so unlike a row written and left uncommitted it holds back no feed of the server.
    await installProjections(db.pool, projections);
    const barrier = new pg.Client({ connectionString: db.url });
    let firstOutput = () => '';
    await barrier.connect();
    try {
      await barrier.query('BEGIN');
      await barrier.query('LOCK TABLE stream_index IN SHARE MODE');
      const { rows } = await barrier.query<{ xid: string | null; pid: number }>(
        'SELECT pg_current_xact_id_if_assigned()::text AS xid, pg_backend_pid() AS pid',
      );
      expect(rows[0]!.xid).toBeNull();

      const first = start('work');
      firstOutput = first.output;
      // The worker's own session, writing the index, and nothing else, waits behind the barrier.
      await eventually(async () => {
        const blocked = await db.pool.query<{ waiting: number }>(
          `SELECT count(*)::int AS waiting FROM pg_stat_activity
            WHERE $1 = ANY (pg_blocking_pids(pid)) AND datname = current_database()
              AND application_name = 'casescreen-work' AND query ILIKE '%stream_index%'`,
          [rows[0]!.pid],
        );
        if (blocked.rows[0]!.waiting === 0) throw new Error('the worker has not reached the barrier yet');
      }, SERVICE_START_TIMEOUT_MS);
      first.child.kill('SIGTERM');
      await logged(first, 'shutting down');
      await barrier.query('ROLLBACK');
      expect(await first.exited).toBe(0);
      expect(first.logLines().some((line) => line.msg === RUNNER_STATE)).toBe(true);
    } finally {
      await barrier.end();
    }
    // Stopped in the middle: the batch it held when the signal came committed, and no more.
    const afterStop = await checkpointOf();
    expect(afterStop).not.toBeNull();
    const indexedAtStop = await listStreams(db.pool, category, { limit: streams });
    expect(indexedAtStop.length).toBeGreaterThan(0);
    expect(
      indexedAtStop.reduce((sum, entry) => sum + entry.eventCount, 0),
      firstOutput(),
    ).toBeLessThan(streams * perStream);

    const second = start('work');
    await eventually(async () => {
      const indexed = await listStreams(db.pool, category, { limit: streams });
      expect(indexed).toHaveLength(streams);
      for (const entry of indexed) {
        expect(entry.eventCount).toBe(perStream);
        expect(entry.lastRevision).toBe(BigInt(perStream - 1));
      }
    }, SERVICE_START_TIMEOUT_MS);
    expect(store.compareCheckpoints((await checkpointOf()) as never, afterStop as never)).toBe(1);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });

  it('refuses to start on invalid configuration, naming the variable', async () => {
    const service = start('all', { EVENT_STORE: 'esdb', ESDB_CONNECTION_STRING: '' });
    expect(await service.exited).toBe(2);
    expect(service.output()).toContain('ESDB_CONNECTION_STRING: is required when EVENT_STORE=esdb');
  });

  it('refuses an unknown role', async () => {
    const service = start('both');
    expect(await service.exited).toBe(2);
    expect(service.output()).toContain('Unknown role "both"');
  });
});
