import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRuntime } from '../../../src/app/runtime.js';
import { loadConfig } from '../../../src/config.js';
import { ofacCsvFormat } from '../../../src/screening/parsers/ofacCsv.js';
import { SCOPES } from '../../../src/workspace/keyPolicy.js';
import { createApiKey } from '../../../src/workspace/keyStore.js';
import { createWorkspace } from '../../../src/workspace/workspaceStore.js';
import { runCliCaptured } from '../../support/cli.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';
import { createDatabaseWithUndatedSnapshot } from '../../support/undatedSnapshot.js';

/**
 * Freshness as an operator sees it from every side: `sources status`, `screen` and the running
 * service (POST /v1/cases) read the staleness limit from the same configuration (SOURCE_STALE_AFTER
 * through loadConfig) and measure from the publisher's date, so they never contradict each other;
 * a snapshot loaded before publication dates were required is stale for all three.
 */

const fixture = (...segments: string[]) => path.resolve('test/fixtures/screening', ...segments);
const DAY = 86_400_000;

interface StatusJson {
  staleAfter: string;
  datasets: {
    dataset: string;
    publishedAt: string | null;
    ageMs: number | null;
    age: string | null;
    stale: boolean;
  }[];
  checkTypes: { checkType: string; available: boolean; staleDatasets: string[] }[];
}

/** What the three say about screening `name` for sanctions under `env`. */
async function verdicts(db: TestDatabase, env: Record<string, string>, name: string) {
  const cliEnv = { DATABASE_URL: db.url, ...env };
  const status = await runCliCaptured(['sources', 'status', '--json'], cliEnv);
  expect(status.code, status.stderr).toBe(0);
  const screen = await runCliCaptured(
    ['screen', '--name', name, '--check-types', 'sanctions', '--json'],
    cliEnv,
  );
  expect(screen.code, screen.stderr).toBe(0);
  const service = await serviceAnswer(db, cliEnv, name);
  return { status: JSON.parse(status.stdout) as StatusJson, screenStderr: screen.stderr, service };
}

/** The running service's answer to a sanctions case for `name`: its status and error code. */
async function serviceAnswer(db: TestDatabase, env: Record<string, string>, name: string) {
  const config = loadConfig({ ...env, ROLE: 'serve', PORT: '0', HOST: '127.0.0.1' });
  const runtime = await startRuntime(config, pino({ level: 'silent' }));
  try {
    const { account } = await createWorkspace(db.pool, { name: `Freshness ${Math.random()}` });
    const key = await createApiKey(db.pool, {
      accountId: account.id,
      scopes: [...SCOPES],
      actorType: 'api_client',
      finalDecision: false,
      groups: { kind: 'default' },
      expiresAt: null,
    });
    const response = await fetch(`${runtime.url}/v1/cases`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key.rawKey}`,
        'content-type': 'application/json',
        'idempotency-key': `freshness-${Math.random()}`,
      },
      body: JSON.stringify({ subject: { name }, checks: { types: ['sanctions'] } }),
    });
    const body = (await response.json()) as { error?: { code: string } };
    return { status: response.status, error: body.error?.code };
  } finally {
    await runtime.stop();
  }
}

describe('one staleness limit for sources status, screen and the service', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it('SOURCE_STALE_AFTER decides for all three, counted from the publication date', async () => {
    const twoDaysAgo = new Date(Date.now() - 2 * DAY).toISOString();
    const loaded = await runCliCaptured(
      [
        'sources',
        'load',
        '--format',
        'un-xml',
        fixture('un-xml', 'consolidated.xml'),
        '--published-at',
        twoDaysAgo,
      ],
      { DATABASE_URL: db.url },
    );
    expect(loaded.code, loaded.stderr).toBe(0);

    const strict = await verdicts(db, { SOURCE_STALE_AFTER: '1d' }, 'Ri Won Ho');
    expect(strict.status).toMatchObject({
      staleAfter: '1d',
      datasets: [{ dataset: 'un_sc_sanctions', age: '2d', stale: true }],
    });
    expect(strict.status.checkTypes[0]).toMatchObject({
      checkType: 'sanctions',
      available: false,
      staleDatasets: ['un_sc_sanctions'],
    });
    expect(strict.screenStderr).toMatch(
      /warning: un_sc_sanctions version 1 \(snap_[0-9a-f]{32}\) is stale \(published 2d ago, over 1d\); the service refuses checks against it\n/,
    );
    expect(strict.service).toEqual({ status: 503, error: 'source_unavailable' });

    const lenient = await verdicts(db, { SOURCE_STALE_AFTER: '3d' }, 'Ri Won Ho');
    expect(lenient.status).toMatchObject({
      staleAfter: '3d',
      datasets: [{ dataset: 'un_sc_sanctions', stale: false }],
    });
    expect(lenient.status.checkTypes[0]).toMatchObject({
      checkType: 'sanctions',
      available: true,
      staleDatasets: [],
    });
    expect(lenient.screenStderr).not.toContain('stale');
    expect(lenient.service).toEqual({ status: 201, error: undefined });
  });
});

describe('a snapshot loaded before every load needed a publication date', () => {
  let db: TestDatabase;
  let undatedId: string;
  beforeAll(async () => {
    const legacy = await createDatabaseWithUndatedSnapshot({
      format: ofacCsvFormat,
      paths: [fixture('ofac-csv', 'set')],
      dataset: 'us_ofac_sdn',
    });
    db = legacy.db;
    undatedId = legacy.snapshotId;
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('is stale, of unknown age, for status, screen and the service, until the list is loaded again with a date', async () => {
    // However long the limit: nothing shows how old the list is.
    const env = { SOURCE_STALE_AFTER: '3650d' };
    const before = await verdicts(db, env, 'AEROCARIBBEAN AIRLINES');
    expect(before.status.datasets).toEqual([
      expect.objectContaining({
        dataset: 'us_ofac_sdn',
        publishedAt: null,
        ageMs: null,
        age: null,
        stale: true,
      }),
    ]);
    expect(before.status.checkTypes[0]).toMatchObject({ available: false, staleDatasets: ['us_ofac_sdn'] });
    expect(before.screenStderr).toContain(
      `warning: us_ofac_sdn version 1 (${undatedId}) is stale (no publication date, so its age is unknown; load it again with --published-at); the service refuses checks against it\n`,
    );
    expect(before.service).toEqual({ status: 503, error: 'source_unavailable' });

    const table = await runCliCaptured(['sources', 'status'], { DATABASE_URL: db.url, ...env });
    expect(table.stdout).toMatch(
      new RegExp(
        `\\nus_ofac_sdn\\s+1\\s+${undatedId}\\s+ofac-csv\\s+7\\s+unknown\\s+\\S+\\s+unknown\\s+yes\\n`,
      ),
    );
    expect(table.stdout).toContain(
      '\nus_ofac_sdn: version 1 has no publication date (loaded before every load needed one), so its age is unknown and it counts as stale; load the list again with --published-at <date>, or sync it\n',
    );

    // The same files, now with the publisher's date: not "unchanged", a new version that is fresh.
    const today = new Date().toISOString().slice(0, 10);
    const reloaded = await runCliCaptured(
      [
        'sources',
        'load',
        '--format',
        'ofac-csv',
        fixture('ofac-csv', 'set'),
        '--published-at',
        today,
        '--json',
      ],
      { DATABASE_URL: db.url },
    );
    expect(reloaded.code, reloaded.stderr).toBe(0);
    expect(JSON.parse(reloaded.stdout)).toMatchObject({ unchanged: false, version: 2 });
    const after = await verdicts(db, env, 'AEROCARIBBEAN AIRLINES');
    expect(after.status.datasets).toEqual([
      expect.objectContaining({ dataset: 'us_ofac_sdn', stale: false }),
    ]);
    expect(after.screenStderr).not.toContain('stale');
    expect(after.service).toEqual({ status: 201, error: undefined });
  });
});
