import { eventStoreMigration } from './0001_eventStore.js';
import { subscriptionsMigration } from './0002_subscriptions.js';
import { workspaceMigration } from './0003_workspace.js';
import { idempotencyMigration } from './0004_idempotency.js';
import { rateLimitAndRequestLogMigration } from './0005_rateLimitAndRequestLog.js';
import { sourceSnapshotsMigration } from './0006_sourceSnapshots.js';
import { checkJobsMigration } from './0007_checkJobs.js';
import { caseAttachmentsMigration } from './0008_caseAttachments.js';
import { snapshotPublicationDatesMigration } from './0009_snapshotPublicationDates.js';
import { webhooksMigration } from './0010_webhooks.js';
import { monitoringMigration } from './0011_monitoring.js';
import { apiKeyChangesMigration } from './0012_apiKeyChanges.js';
import { multiStreamAppendMigration } from './0013_multiStreamAppend.js';
import { checkpointStoreMigration } from './0014_checkpointStore.js';
import { unloggedRateLimitWindowsMigration } from './0015_unloggedRateLimitWindows.js';

export interface Migration {
  id: number;
  name: string;
  sql: string;
}

/** Applied in id order, each in its own transaction; never edit one that has shipped. */
export const migrations: Migration[] = [
  eventStoreMigration,
  subscriptionsMigration,
  workspaceMigration,
  idempotencyMigration,
  rateLimitAndRequestLogMigration,
  sourceSnapshotsMigration,
  checkJobsMigration,
  caseAttachmentsMigration,
  snapshotPublicationDatesMigration,
  webhooksMigration,
  monitoringMigration,
  apiKeyChangesMigration,
  multiStreamAppendMigration,
  checkpointStoreMigration,
  unloggedRateLimitWindowsMigration,
];
