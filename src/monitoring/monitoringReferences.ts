import { createHash } from 'node:crypto';
import type { CheckType } from '../screening/checkTypes.js';

/**
 * The identifiers of monitoring (docs/monitoring.md, "Identifiers"): each derived from what it
 * names, so a retried request or a run taken over after a crash arrives at the same ones.
 */

function hex(parts: readonly unknown[], length: number): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, length);
}

/**
 * One configuration per subject and group: the id derives from the account, the subject and the
 * group it was created in, so two concurrent enrollments meet on one stream.
 */
export function monitoringConfigId(accountId: string, subjectReference: string, groupId: string): string {
  return `mon_${hex(['monitoring', accountId.toLowerCase(), subjectReference, groupId.toLowerCase()], 24)}`;
}

/** A run, from the config and what triggered it (the job that runs it). */
export function monitoringRunId(monitoringConfigId: string, triggerKey: string): string {
  return `run_${hex(['run', monitoringConfigId, triggerKey], 24)}`;
}

/** A (check type, listed party) pair, the same for every run and every config. */
export function matchFingerprint(checkType: CheckType, entityId: string): string {
  return `fp_${hex(['match', checkType, entityId], 24)}`;
}

export function alertId(runId: string, fingerprint: string): string {
  return `alt_${hex(['alert', runId, fingerprint], 24)}`;
}
