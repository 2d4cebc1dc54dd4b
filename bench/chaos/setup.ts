import path from 'node:path';
import { closePool, createPool } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { sourceFormats } from '../../src/screening/parsers/registry.js';
import { loadSnapshot } from '../../src/screening/snapshots/loadSnapshot.js';
import { createWorkspace } from '../../src/workspace/workspaceStore.js';
import { createLoadKeys } from '../support/apiKeys.js';

/**
 * The run's workspace, made before any service process starts (as `bench/cases.bench.ts` does):
 * the schema, the repository's small UN list fixture as the one source snapshot (so the service
 * screens without ../shared data, and its index builds in moments after every restart of `work`),
 * one account and enough API keys that the spec's 120 requests a minute per key never limit the
 * load (a write and all its retries keep the key it started with: the Idempotency-Key is per key).
 */
export interface Workspace {
  accountId: string;
  keys: string[];
  /** A name on the fixture list: cases for it get matches, which the load reviews. */
  listedName: string;
}

export const FIXTURE = path.join('test', 'fixtures', 'screening', 'un-xml', 'consolidated.xml');

export async function prepareWorkspace(url: string, keyCount: number): Promise<Workspace> {
  await migrate(url);
  const pool = createPool(url, { max: 2, applicationName: 'casescreen-chaos-setup' });
  try {
    await loadSnapshot(pool, { format: sourceFormats['un-xml']!, paths: [path.resolve(FIXTURE)] });
    const { account } = await createWorkspace(pool, { name: 'Chaos' });
    const keys = await createLoadKeys(pool, account.id, keyCount, 'chaos');
    return { accountId: account.id, keys, listedName: 'Muhammad Taher Anwari' };
  } finally {
    await closePool(pool);
  }
}
