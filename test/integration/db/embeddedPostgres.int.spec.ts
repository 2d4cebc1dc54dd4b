import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeDatabase } from '../../../src/db/database.js';
import {
  EmbeddedPostgresError,
  RELOCATED_ROOT,
  startEmbeddedPostgres,
} from '../../../src/db/embeddedPostgres.js';
import { runCliCaptured } from '../../support/cli.js';
import { servingUrl, startServiceProcess } from '../../support/serviceProcess.js';

/**
 * The embedded server as a newcomer meets it: started for the service, stopped after it on Ctrl-C,
 * placed where PostgreSQL's own user can reach it when root runs the project from a private folder,
 * and one clear line when it cannot start.
 */

const isRoot = process.getuid?.() === 0;
const hasProc = existsSync('/proc/self/stat');
if (!isRoot)
  console.log(
    '[embedded PostgreSQL] the private-folder test skipped: it needs root (the server then runs as the postgres user)',
  );
if (!hasProc)
  console.log('[embedded PostgreSQL] the process-group test skipped: no /proc to read process groups from');

/** Process group and session of a process, from /proc/<pid>/stat. */
function groupAndSession(pid: number): { group: number; session: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { group: Number(fields[2]), session: Number(fields[3]) };
}

const postmasterPid = (dataDir: string) =>
  Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);

describe('embedded PostgreSQL', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'embedded-pg-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('fails with one line naming the cause and the remedy, in the CLI as in the code', async () => {
    const file = path.join(dir, 'a-file');
    await writeFile(file, 'not a folder');
    const dataDir = path.join(file, 'data', 'postgres');
    const failure = await startEmbeddedPostgres({ dataDir }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(EmbeddedPostgresError);
    expect((failure as Error).message).toMatch(
      /^embedded PostgreSQL could not start: .*cannot be created .*EMBEDDED_PG_DIR.*DATABASE_URL/,
    );
    expect((failure as Error).message).not.toContain('\n');

    const cli = await runCliCaptured(['migrate'], { EMBEDDED_PG_DIR: dataDir });
    expect(cli.code).toBe(1);
    expect(cli.stdout).toBe('');
    expect(cli.stderr).toBe(`error: ${(failure as Error).message}\n`);
  });

  it.skipIf(!isRoot)(
    'as root, keeps the data where the postgres user can reach it when the folder asked for is private, and says where',
    async () => {
      // mkdtemp makes a folder only root may enter, like a clone under /root.
      const privateFolder = dir;
      const asked = path.join(privateFolder, 'project', '.data', 'postgres');
      const server = await startEmbeddedPostgres({ dataDir: asked, persistent: false });
      try {
        expect(server.dataDir.startsWith(`${RELOCATED_ROOT}/data/project-`)).toBe(true);
        expect(server.relocatedFrom).toEqual({
          dataDir: asked,
          reason: `the postgres user that runs it as root cannot enter ${privateFolder}`,
        });
        const line = describeDatabase({ url: server.adminUrl, embedded: server, close: async () => {} });
        expect(line).toContain(`data in ${server.dataDir} (instead of ${asked}: the postgres user`);
        const client = new pg.Client({ connectionString: server.adminUrl });
        await client.connect();
        expect((await client.query<{ user: string }>('SELECT current_user AS user')).rows[0]!.user).toBe(
          'postgres',
        );
        await client.end();
        // The service and the CLI of one project find the same place.
        const again = await startEmbeddedPostgres({ dataDir: asked });
        expect({ dataDir: again.dataDir, owned: again.owned, port: again.port }).toEqual({
          dataDir: server.dataDir,
          owned: false,
          port: server.port,
        });
      } finally {
        await server.stop();
      }
      expect(existsSync(server.dataDir)).toBe(false);
    },
  );
});

describe.skipIf(!hasProc)('the service on its embedded PostgreSQL, stopped with Ctrl-C', () => {
  let dir: string;
  let child: ChildProcess | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'embedded-service-'));
  });
  afterAll(async () => {
    if (child?.exitCode === null) child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });

  it('drains the service first, then stops the server, which the terminal signal never reached', async () => {
    const dataDir = path.join(dir, 'postgres');
    const service = startServiceProcess(
      'all',
      { DATABASE_URL: '', EMBEDDED_PG_DIR: dataDir },
      { detached: true },
    );
    child = service.child;
    const messages = () => service.logLines() as { msg: string; level: number }[];
    await servingUrl(service);

    const postmaster = postmasterPid(dataDir);
    expect(groupAndSession(postmaster).group).not.toBe(service.child.pid);
    expect(groupAndSession(postmaster).session).not.toBe(groupAndSession(service.child.pid!).session);

    process.kill(-service.child.pid!, 'SIGINT');
    expect(await service.exited, service.output()).toBe(0);
    const order = messages().map((m) => m.msg);
    const stopped = order.indexOf('embedded PostgreSQL stopped');
    expect(order.indexOf('shutting down')).toBeGreaterThan(-1);
    expect(stopped).toBeGreaterThan(order.indexOf('shutting down'));
    expect(order.indexOf('shutdown complete'), service.output()).toBeGreaterThan(stopped);
    expect(
      messages().filter((m) => m.level >= 50),
      service.output(),
    ).toEqual([]);
    expect(existsSync(path.join(dataDir, 'postmaster.pid'))).toBe(false);
    // One shutdown request reached the server: the service's own, after it had drained.
    const serverLog = readFileSync(path.join(dataDir, 'postmaster.log'), 'utf8');
    expect(serverLog.match(/received fast shutdown request/g)).toHaveLength(1);
    expect(serverLog).not.toMatch(/terminating connection due to administrator command/);
  });
});
