import type { Queryable } from '../../src/db/sql.js';
import type { MonitoringConfigState } from '../../src/monitoring/monitoringState.js';
import { monitoringConfigsProjection } from './monitoringConfigProjection.js';

/** A configuration as `monitoring_configs` last stored it: possibly behind its stream. */
export interface MonitoringConfigView {
  monitoringConfigId: string;
  revision: number;
  state: MonitoringConfigState;
}

interface Row {
  monitoring_config_id: string;
  revision: string;
  state: MonitoringConfigState;
}

const toView = (row: Row): MonitoringConfigView => ({
  monitoringConfigId: row.monitoring_config_id,
  revision: Number(row.revision),
  state: row.state,
});

/** Only rows folded by this code's version of the projection (see findCaseView). */
const CURRENT_CODE = `JOIN projection_registry r ON r.name = '${monitoringConfigsProjection.name}'
  AND r.active_code_version = ${monitoringConfigsProjection.version}`;

export async function findMonitoringConfigView(
  db: Queryable,
  monitoringConfigId: string,
): Promise<MonitoringConfigView | undefined> {
  const { rows } = await db.query<Row>(
    `SELECT v.monitoring_config_id, v.revision, v.state FROM monitoring_configs v ${CURRENT_CODE}
      WHERE v.monitoring_config_id = $1`,
    [monitoringConfigId],
  );
  return rows[0] && toView(rows[0]);
}

/**
 * The configuration of a subject in a group, if one was moved there by a PATCH (a configuration
 * created in a group has the id derived from it, monitoringConfigId()).
 */
export async function findConfigIdsOfSubjectInGroup(
  db: Queryable,
  scope: { accountId: string; subjectReference: string; groupId: string },
): Promise<string[]> {
  const { rows } = await db.query<{ monitoring_config_id: string }>(
    `SELECT monitoring_config_id FROM monitoring_configs
      WHERE account_id = $1 AND subject_reference = $2 AND group_id = $3
      ORDER BY created_at, monitoring_config_id`,
    [scope.accountId, scope.subjectReference, scope.groupId],
  );
  return rows.map((row) => row.monitoring_config_id);
}

export interface ConfigListFilter {
  accountId: string;
  /** Lower case. */
  groupIds: readonly string[];
  subjectReference?: string;
  status?: string;
  latestResult?: string;
  /** Only rows after this one in the list's order (created_at desc, id desc). */
  after?: { createdAt: string; monitoringConfigId: string };
  limit: number;
}

/**
 * GET /v1/monitoring-configs: the account's configurations in the groups given, newest first
 * (created_at, then id, both descending: a keyset order, so a cursor neither skips nor repeats).
 * Rows of any code version: the caller catches each up with its stream (listMonitoringConfigs).
 */
export async function listMonitoringConfigViews(
  db: Queryable,
  filter: ConfigListFilter,
): Promise<
  (Omit<MonitoringConfigView, 'state'> & { state: MonitoringConfigState | null; createdAt: Date })[]
> {
  // A row folded by another code version keeps its place in the list, without its state: the
  // caller folds that configuration's stream from the start.
  const { rows } = await db.query<
    Omit<Row, 'state'> & { state: MonitoringConfigState | null; created_at: Date }
  >(
    `SELECT v.monitoring_config_id, v.revision, v.created_at, CASE WHEN r.name IS NULL THEN NULL ELSE v.state END AS state
       FROM monitoring_configs v
       LEFT JOIN projection_registry r ON r.name = '${monitoringConfigsProjection.name}'
            AND r.active_code_version = ${monitoringConfigsProjection.version}
      WHERE v.account_id = $1 AND v.group_id = ANY($2::uuid[])
        AND ($3::text IS NULL OR v.subject_reference = $3)
        AND ($4::text IS NULL OR v.status = $4)
        AND ($5::text IS NULL OR v.latest_result = $5)
        AND ($6::timestamptz IS NULL OR (v.created_at, v.monitoring_config_id) < ($6::timestamptz, $7::text))
      ORDER BY v.created_at DESC, v.monitoring_config_id DESC
      LIMIT $8`,
    [
      filter.accountId,
      [...filter.groupIds],
      filter.subjectReference ?? null,
      filter.status ?? null,
      filter.latestResult ?? null,
      filter.after?.createdAt ?? null,
      filter.after?.monitoringConfigId ?? null,
      filter.limit,
    ],
  );
  return rows.map((row) => ({ ...toView(row as Row), state: row.state, createdAt: row.created_at }));
}
