import type { Queryable } from '../../src/db/sql.js';
import type { ResolutionStatus } from '../../src/monitoring/monitoringEvents.js';
import type { AlertRecord, RunRecord } from './monitoringActivityRecords.js';

/**
 * The runs and alerts of one configuration as `monitoring_activity` stored them, newest first.
 * The caller has checked that the configuration is one the requester may see; the rows carry the
 * configuration's current group (they move with it).
 */

export interface StoredRun {
  groupId: string;
  record: RunRecord;
}

export interface StoredAlert {
  groupId: string;
  record: AlertRecord;
}

export async function listRuns(
  db: Queryable,
  monitoringConfigId: string,
  limit: number,
): Promise<StoredRun[]> {
  const { rows } = await db.query<{ group_id: string; record: RunRecord }>(
    `SELECT group_id, record FROM monitoring_runs WHERE monitoring_config_id = $1
      ORDER BY started_at DESC, monitoring_run_id DESC LIMIT $2`,
    [monitoringConfigId, limit],
  );
  return rows.map((row) => ({ groupId: row.group_id, record: row.record }));
}

export async function listAlerts(
  db: Queryable,
  monitoringConfigId: string,
  options: { resolutionStatus?: ResolutionStatus; limit: number },
): Promise<StoredAlert[]> {
  const { rows } = await db.query<{ group_id: string; record: AlertRecord }>(
    `SELECT group_id, record FROM monitoring_alerts
      WHERE monitoring_config_id = $1 AND ($2::text IS NULL OR resolution_status = $2)
      ORDER BY created_at DESC, alert_id DESC LIMIT $3`,
    [monitoringConfigId, options.resolutionStatus ?? null, options.limit],
  );
  return rows.map((row) => ({ groupId: row.group_id, record: row.record }));
}
