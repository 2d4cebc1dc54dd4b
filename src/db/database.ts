import pg from 'pg';
import type { Config } from '../config.js';
import { type EmbeddedServer, startEmbeddedPostgres } from './embeddedPostgres.js';

export const EMBEDDED_DATABASE = 'casescreen';

export interface Database {
  url: string;
  /** Set when the database lives on an embedded server this process found or started. */
  embedded: EmbeddedServer | undefined;
  close(): Promise<void>;
}

/**
 * DATABASE_URL when set; otherwise the embedded server under EMBEDDED_PG_DIR, with the
 * application database created on first use.
 */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'embeddedPgDir'>,
  log: (line: string) => void = () => {},
): Promise<Database> {
  if (config.databaseUrl) {
    return { url: config.databaseUrl, embedded: undefined, close: async () => {} };
  }
  const embedded = await startEmbeddedPostgres({ dataDir: config.embeddedPgDir, log });
  await createDatabaseIfMissing(embedded.adminUrl, EMBEDDED_DATABASE);
  const url = new URL(embedded.adminUrl);
  url.pathname = `/${EMBEDDED_DATABASE}`;
  return { url: url.toString(), embedded, close: () => embedded.stop() };
}

/** One line saying which database this process uses, with no password in it. */
export function describeDatabase(database: Database): string {
  const embedded = database.embedded;
  if (!embedded) {
    const url = new URL(database.url);
    return `PostgreSQL at ${url.host}${url.pathname} (DATABASE_URL)`;
  }
  const how = embedded.owned ? 'started by this process' : 'already running';
  const where = embedded.relocatedFrom
    ? `${embedded.dataDir} (instead of ${embedded.relocatedFrom.dataDir}: ${embedded.relocatedFrom.reason})`
    : embedded.dataDir;
  return `embedded PostgreSQL on 127.0.0.1:${embedded.port}, ${how}, data in ${where}`;
}

export async function createDatabaseIfMissing(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount === 0) {
      await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`).catch((error: { code?: string }) => {
        if (error.code !== '42P04') throw error; // created concurrently by another process
      });
    }
  } finally {
    await client.end();
  }
}

export interface PoolOptions {
  max?: number;
  applicationName?: string;
  /**
   * How long a caller waits for a free connection before the pool gives up with an error that
   * `isPoolWaitTimeout` recognizes; 0 or unset: forever. pg-pool also bounds opening a new
   * connection with it.
   */
  connectionTimeoutMillis?: number;
}

/** pg-pool's error for a caller that waited `connectionTimeoutMillis` in its queue (pg-pool 3.x). */
const POOL_WAIT_TIMEOUT_MESSAGE = 'timeout exceeded when trying to connect';

/**
 * Whether the pool gave up waiting for a free connection: the pool is saturated, nothing was sent
 * to the database for this call. pg-pool throws a plain Error, so its message is the only mark; the
 * overload integration test pins it.
 */
export function isPoolWaitTimeout(error: unknown): boolean {
  return error instanceof Error && error.message === POOL_WAIT_TIMEOUT_MESSAGE;
}

/** Node's errors of a connection that could not be made or was cut. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/**
 * PostgreSQL's own: a connection exception (class 08), the server shutting down or starting up
 * (57P01, 57P02, 57P03), no connection slot left (53300).
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** node-postgres's errors for a connection that ended under a query, or a client that lost its. */
const CONNECTION_LOST =
  /^(Connection terminated|Client has encountered a connection error|Client was closed)/;

/**
 * Whether an error says the database cannot be reached or went away (a restart, an outage, a full
 * server), as opposed to a statement it refused: the request can be retried once it is back.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (UNREACHABLE_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08')) return true;
  }
  return CONNECTION_LOST.test(error.message);
}

export function createPool(url: string, options: PoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    application_name: options.applicationName ?? 'casescreen',
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? 0,
    // Bounded so that a stuck session cannot hold back every feed reader of the cluster.
    options: '-c idle_in_transaction_session_timeout=60000',
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // Nor may a checked-out one (a subscription batch, a worker's claim, a request between two of its
  // statements) when the server ends its session (a restart, pg_terminate_backend): unlistened, that
  // 'error' event killed the process. The holder's next query fails instead, and it releases the
  // client as broken.
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  return pool;
}

/**
 * Ends the pool and resolves once every one of its connections has closed. `pool.end()` resolves as
 * soon as it has asked them to close; a server stopped right after it would cut connections whose
 * goodbye it had not read yet.
 */
export async function closePool(pool: pg.Pool): Promise<void> {
  let open = pool.totalCount;
  const closed = new Promise<void>((resolve) => {
    if (open === 0) resolve();
    pool.on('remove', () => {
      open -= 1;
      if (open <= 0) resolve();
    });
  });
  await pool.end();
  await closed;
}
