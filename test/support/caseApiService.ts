import type { FastifyInstance } from 'fastify';
import { projections } from '../../projections/registry.js';
import { installProjections } from '../../projections/registryStore.js';
import { unXmlFormat } from '../../src/screening/parsers/unXml.js';
import { loadSnapshot } from '../../src/screening/snapshots/loadSnapshot.js';
import { SCOPES } from '../../src/workspace/keyPolicy.js';
import type { CreatedApiKey } from '../../src/workspace/keyStore.js';
import { type CaseWorkspace, createCaseWorkspace, createKey, DAY_MS, startApiServer } from './caseApi.js';
import { fixturePath } from './parsedEntities.js';
import { openTestEventStore, type TestEventStore } from './testEventStore.js';

/** A database with the read models installed, a workspace, a key of every scope, the UN fixture loaded a day ago, and the API server. */
export interface CaseApiService {
  opened: TestEventStore;
  workspace: CaseWorkspace;
  key: CreatedApiKey;
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

export async function openCaseApiService(options: {
  account: string;
  maxInFlightRequests?: number;
}): Promise<CaseApiService> {
  const opened = await openTestEventStore();
  await installProjections(opened.db.pool, projections);
  const workspace = await createCaseWorkspace(opened.db.pool, {
    account: options.account,
    groups: [],
    foreign: `${options.account} (foreign)`,
  });
  const key = await createKey(opened.db.pool, workspace.accountId, SCOPES);
  await loadSnapshot(opened.db.pool, {
    format: unXmlFormat,
    paths: [fixturePath('un-xml', 'consolidated.xml')],
    publishedAt: new Date(Date.now() - DAY_MS),
  });
  const { app, url } = await startApiServer({
    pool: opened.db.pool,
    store: opened.store,
    rateLimit: 100_000,
    ...(options.maxInFlightRequests !== undefined && { maxInFlightRequests: options.maxInFlightRequests }),
  });
  return {
    opened,
    workspace,
    key,
    app,
    url,
    async close() {
      await app.close();
      await opened.close();
    },
  };
}
