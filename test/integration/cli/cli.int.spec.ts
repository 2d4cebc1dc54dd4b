import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main.js';
import type { EventStore } from '../../../src/eventStore/eventStore.js';
import { createPostgresEventStore } from '../../../src/eventStore/postgres/postgresEventStore.js';
import { captureOutput, runCliCaptured } from '../../support/cli.js';
import { feedOf, uniqueCategory } from '../../support/subscriptionFixtures.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';

describe('casescreen CLI', () => {
  let db: TestDatabase;
  let store: EventStore;

  beforeAll(async () => {
    db = await createTestDatabase({ migrate: false });
    store = createPostgresEventStore({ pool: db.pool, connectionString: db.url, pollIntervalMs: 100 });
  });
  afterAll(async () => {
    await store.close();
    await db.drop();
  });

  const cli = (...argv: string[]) =>
    runCliCaptured(argv, { DATABASE_URL: db.url, FEED_POLL_INTERVAL_MS: '100' });

  it('migrates the schema and installs the projections, then has nothing left to do', async () => {
    const first = await cli('migrate');
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toContain('Applied migration 1 event_store');
    expect(first.stdout).toContain('Applied migration 2 subscriptions');
    expect(first.stdout).toContain('Installed projection stream_index v1');
    expect(await cli('migrate')).toMatchObject({ code: 0, stdout: 'Database is up to date\n' });
  });

  it('shows each projection with its checkpoint and lag, as a table and as JSON', async () => {
    const category = uniqueCategory('cli');
    for (let n = 0; n < 3; n++) await store.appendToStream(`${category}-${n}`, [{ type: 'Made', data: {} }]);
    const head = (await feedOf(store, category, 3)).at(-1)!.position;
    const { rows } = await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM es_events');
    const total = Number(rows[0]!.n);

    const table = await cli('projections', 'status');
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^PROJECTION\s+VERSION\s+CHECKPOINT\s+LAG\s+STATUS/);
    expect(table.stdout).toMatch(new RegExp(`stream_index\\s+v1\\s+start\\s+${total}\\s+not started`));

    await cli('projections', 'rebuild', 'stream_index');
    const json = await cli('projections', 'status', '--json');
    expect(json.code).toBe(0);
    const statuses = JSON.parse(json.stdout) as { name: string }[];
    expect(statuses.find((status) => status.name === 'stream_index')).toMatchObject({
      name: 'stream_index',
      installed: true,
      needsRebuild: false,
      active: { version: 2, checkpoint: head, lag: { events: 0, capped: false }, status: 'active' },
      building: null,
      retiredVersion: null,
    });
  });

  it('rebuilds a projection with progress and swaps it in', async () => {
    const rebuilt = await cli('projections', 'rebuild', 'stream_index');
    expect(rebuilt.code).toBe(0);
    const lines = rebuilt.stdout.trim().split('\n');
    expect(lines[0]).toBe('Building stream_index v3 from the start of the feed; v2 keeps serving');
    expect(lines).toContain('Dropped the tables of stream_index v2');
    expect(lines.at(-1)).toMatch(/^Rebuilt stream_index v3: \d+ events in [\d.]+ s$/);
    expect(rebuilt.stdout).toMatch(/Swapped stream_index to v3/);
  });

  it('lists subscriptions and refuses to resume one that is not parked', async () => {
    const status = await cli('subscriptions', 'status');
    expect(status.stdout).toMatch(/projection:stream_index:v3\s+\d+:\d+\s+active\s+0/);
    expect(await cli('subscriptions', 'resume', 'projection:stream_index:v3')).toMatchObject({
      code: 1,
      stderr: 'projection:stream_index:v3 is not parked\n',
    });
    expect(await cli('subscriptions', 'resume', 'nothing')).toMatchObject({
      code: 1,
      stderr: 'No subscription "nothing"\n',
    });
  });

  it('resumes a parked subscription', async () => {
    await db.pool.query(
      `INSERT INTO es_checkpoints (subscription_id, status, parked_event_id, parked_at, last_error)
       VALUES ('reactor:test:v1', 'parked', gen_random_uuid(), now(), 'boom')`,
    );
    const parked = await cli('subscriptions', 'status', '--json');
    expect(JSON.parse(parked.stdout)).toContainEqual(
      expect.objectContaining({ subscriptionId: 'reactor:test:v1', status: 'parked', lastError: 'boom' }),
    );
    expect(await cli('subscriptions', 'resume', 'reactor:test:v1')).toMatchObject({ code: 0 });
    const { rows } = await db.pool.query(
      "SELECT status FROM es_checkpoints WHERE subscription_id = 'reactor:test:v1'",
    );
    expect(rows).toEqual([{ status: 'active' }]);
  });

  it('reports unknown projections, bad configuration and usage errors with exit codes', async () => {
    expect(await cli('projections', 'rebuild', 'nope')).toMatchObject({
      code: 1,
      stderr:
        'Unknown projection "nope". Known: stream_index, case_views, monitoring_configs, monitoring_activity\n',
    });
    const stderr = captureOutput();
    const badConfig = await runCli(['migrate'], {
      stdout: captureOutput(),
      stderr,
      env: { DATABASE_URL: 'mysql://nowhere' },
    });
    expect(badConfig).toBe(2);
    expect(stderr.text()).toContain('DATABASE_URL');
    const unknown = await cli('frobnicate');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'frobnicate'");
    const missingArgument = await cli('sources', 'retire');
    expect(missingArgument.code).toBe(2);
    expect(missingArgument.stderr).toContain("missing required argument 'dataset'");
    const help = await cli('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('projections');
  });
});
