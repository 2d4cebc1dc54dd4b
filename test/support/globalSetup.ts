import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../src/db/embeddedPostgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A server where tests may CREATE DATABASE: DATABASE_URL's, or an embedded one. */
    pgAdminUrl: string;
    pgServerKind: 'external' | 'embedded';
  }
}

/**
 * One PostgreSQL server for the whole run. With DATABASE_URL set (CI's second pass, the machine's
 * server) it is used as is; otherwise a real embedded server starts in a temporary directory.
 * Every test file then works in a database of its own (test/support/testDatabase.ts).
 */
export default async function setup(project: TestProject) {
  const external = process.env.DATABASE_URL;
  if (external) {
    project.provide('pgAdminUrl', external);
    project.provide('pgServerKind', 'external');
    console.log(`[test] PostgreSQL: DATABASE_URL (${new URL(external).host})`);
    return;
  }
  const dataDir = path.join(await mkdtemp(path.join(os.tmpdir(), 'casescreen-test-')), 'pg');
  let server: Awaited<ReturnType<typeof startEmbeddedPostgres>>;
  try {
    server = await startEmbeddedPostgres({ dataDir, persistent: false });
  } catch (error) {
    // Vitest reports a failed global setup with no detail; say why, on one line, before it does.
    console.error(`[test] ${error instanceof Error ? error.message : String(error)}`);
    throw error;
  }
  project.provide('pgAdminUrl', server.adminUrl);
  project.provide('pgServerKind', 'embedded');
  console.log(`[test] PostgreSQL: embedded server on port ${server.port}`);
  return async () => {
    await server.stop();
  };
}
