import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listStreams } from '../../../projections/streamIndex/queries.js';
import type { EventStore } from '../../../src/eventStore/eventStore.js';
import { createPostgresEventStore } from '../../../src/eventStore/postgres/postgresEventStore.js';
import { runCliCaptured } from '../../support/cli.js';
import { eventually } from '../../support/eventually.js';
import { uniqueCategory } from '../../support/subscriptionFixtures.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';

interface ServiceProcess {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Runs the real entry point (src/main.ts through tsx) as its own process. */
function startService(role: string, env: Record<string, string>): ServiceProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', role], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      FEED_POLL_INTERVAL_MS: '200',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    output += chunk;
  });
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return { child, output: () => output, exited };
}

function logLines(output: string): Record<string, unknown>[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

async function listeningUrl(service: ServiceProcess): Promise<string> {
  return eventually(() => {
    const serving = logLines(service.output()).find((line) => line.msg === 'serving');
    if (!serving) throw new Error(`not serving yet:\n${service.output()}`);
    return serving.url as string;
  }, 30_000);
}

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
    const service = startService(role, { DATABASE_URL: db.url, ...env });
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
    const url = await listeningUrl(service);
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
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(await listStreams(db.pool, category)).toEqual([]);
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
    expect(logLines(service.output()).some((line) => line.msg === 'shutdown complete')).toBe(true);
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
    const first = start('work');
    await eventually(async () => {
      if ((await checkpointOf()) === null) throw new Error('no batch committed yet');
    }, 30_000);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const afterStop = await checkpointOf();

    const second = start('work');
    await eventually(async () => {
      const indexed = await listStreams(db.pool, category, { limit: streams });
      expect(indexed).toHaveLength(streams);
      for (const entry of indexed) {
        expect(entry.eventCount).toBe(perStream);
        expect(entry.lastRevision).toBe(BigInt(perStream - 1));
      }
    }, 30_000);
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
