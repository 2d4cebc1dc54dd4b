import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_START_TIMEOUT_MS } from '../../support/serviceProcess.js';
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js';

/**
 * The operator CLI as an operator runs it: a real process through the bin npm links, from another
 * folder, one command of each family. Every other CLI test calls runCli in-process, which is the
 * same program without the process start.
 */

const built = existsSync('dist/src/cli/main.js');
if (!built)
  console.log('[npx casescreen] skipped: no build output in dist/ (npm install or npm run build makes it)');

const bin = path.resolve('node_modules/.bin/casescreen');
const fixture = (...segments: string[]) => path.resolve('test/fixtures/screening', ...segments);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe.skipIf(!built)('npx casescreen, as a real process', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  /** Runs the bin from the system's temporary folder, with the test database. */
  async function casescreen(...args: string[]): Promise<Run> {
    return casescreenWith({}, ...args);
  }

  async function casescreenWith(env: NodeJS.ProcessEnv, ...args: string[]): Promise<Run> {
    try {
      const { stdout, stderr } = await promisify(execFile)(bin, args, {
        cwd: os.tmpdir(),
        env: { ...process.env, DATABASE_URL: db.url, ...env },
        timeout: SERVICE_START_TIMEOUT_MS,
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      if (typeof failed.code !== 'number') throw error;
      return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
    }
  }

  it('runs the operator CLI through the bin npm links into node_modules/.bin', async () => {
    const help = await casescreen('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('projections');
    expect(help.stdout).toContain('migrate');
  });

  it('creates a workspace and a key', async () => {
    const workspace = await casescreen('workspace', 'create', '--name', 'Real Process Ltd', '--json');
    expect(workspace.code, workspace.stderr).toBe(0);
    const { accountId } = JSON.parse(workspace.stdout) as { accountId: string };
    const key = await casescreen(
      'keys',
      'create',
      '--account',
      accountId,
      '--scopes',
      'all',
      '--actor',
      'api_client',
      '--json',
    );
    expect(key.code, key.stderr).toBe(0);
    expect(JSON.parse(key.stdout)).toMatchObject({ apiKey: expect.any(String) });
  });

  it('loads a list, reports its status and screens a name against it', async () => {
    const load = await casescreen(
      'sources',
      'load',
      '--format',
      'un-xml',
      fixture('un-xml', 'consolidated.xml'),
      '--dataset',
      'fx_un',
      '--json',
    );
    expect(load.code, load.stderr).toBe(0);
    const status = await casescreen('sources', 'status', '--json');
    expect(JSON.parse(status.stdout).datasets).toEqual([expect.objectContaining({ dataset: 'fx_un' })]);
    // The sample is older than the default staleness limit: screening says so, and still answers.
    const screened = await casescreen('screen', '--name', 'Ri Won Ho', '--json');
    expect(screened.code, screened.stderr).toBe(0);
    expect(JSON.parse(screened.stdout).matches[0]).toMatchObject({ source_record_ref: 'KPi.033' });
    expect(screened.stderr).toMatch(/warning: .*fx_un.* is stale .*the service refuses checks against it/);
  });

  it('reports projections, and refuses bad input with exit status 2 and unknown cases with 1', async () => {
    const projections = await casescreen('projections', 'status', '--json');
    expect(projections.code).toBe(0);
    expect(JSON.parse(projections.stdout).map((p: { name: string }) => p.name)).toContain('case_views');
    expect(await casescreen('cases', 'show', 'not-a-reference')).toMatchObject({ code: 2 });
    expect(await casescreen('cases', 'show', 'ABC123456')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('Case ABC123456 was not found.'),
    });
  });

  it('creates and lists a webhook endpoint, lists monitoring configurations and reports the system', async () => {
    const workspace = await casescreen('workspace', 'create', '--name', 'Hooks Ltd', '--json');
    const { accountId } = JSON.parse(workspace.stdout) as { accountId: string };
    // A local receiver: private targets allowed, as for local development.
    const created = await casescreenWith(
      { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
      ...[
        'webhooks',
        'create',
        '--account',
        accountId,
        '--url',
        'https://localhost:9/hooks',
        '--events',
        'all',
      ],
      '--json',
    );
    expect(created.code, created.stderr).toBe(0);
    const { endpointId, signingSecret } = JSON.parse(created.stdout) as {
      endpointId: string;
      signingSecret: string;
    };
    expect(signingSecret).toMatch(/^whsec_/);
    const listed = await casescreen('webhooks', 'list', '--account', accountId, '--json');
    expect(listed.stdout).toContain(endpointId);
    expect(listed.stdout).not.toContain(signingSecret);

    const monitoring = await casescreen('monitoring', 'list', '--account', accountId, '--json');
    expect(monitoring.code, monitoring.stderr).toBe(0);
    expect(JSON.parse(monitoring.stdout)).toEqual({ monitoringConfigs: [] });

    // No runner is alive in this database: the status says so, and exits 1.
    const status = await casescreen('status', '--json');
    expect(status.code).toBe(1);
    expect(JSON.parse(status.stdout)).toMatchObject({ ok: false });
  });
});
