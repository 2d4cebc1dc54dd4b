import type { MonitoringConfigState } from '../../src/monitoring/monitoringState.js';
import { monitoringStream } from '../../src/monitoring/monitoringStream.js';
import { singleStreamProjection } from '../singleStreamProjection.js';

/**
 * One row per monitoring configuration: its state as the stream's `evolve` folds it, with what the
 * list filters, the scheduler and the delta re-screening query lifted out (docs/monitoring.md).
 */
export const monitoringConfigsProjection = singleStreamProjection({
  name: 'monitoring_configs',
  // 2: the indexes on observed_entity_ids and latest_result.
  version: 2,
  table: 'monitoring_configs',
  stream: monitoringStream,
  idColumn: 'monitoring_config_id',
  columns: {
    account_id: { type: 'uuid', value: (state: MonitoringConfigState) => state.accountId },
    group_id: { type: 'uuid', value: (state: MonitoringConfigState) => state.groupId },
    subject_reference: {
      type: 'text',
      value: (state: MonitoringConfigState) => state.subject.subjectReference,
    },
    status: { type: 'text', value: (state: MonitoringConfigState) => state.status },
    latest_result: { type: 'text', value: (state: MonitoringConfigState) => state.latestResult },
    // Arrays as jsonb: the helper writes a batch through unnest, which would flatten a text[][].
    check_types: { type: 'jsonb', value: (state: MonitoringConfigState) => JSON.stringify(state.checkTypes) },
    /** The listed parties the config has observed: a changed or delisted one re-runs it. */
    observed_entity_ids: {
      type: 'jsonb',
      value: (state: MonitoringConfigState) =>
        JSON.stringify([...new Set(Object.values(state.observations).map((o) => o.entityId))]),
    },
    last_run_at: {
      type: 'timestamptz',
      value: (state: MonitoringConfigState) => state.latestRun?.startedAt ?? state.createdAt,
    },
    created_at: { type: 'timestamptz', value: (state: MonitoringConfigState) => state.createdAt },
    updated_at: { type: 'timestamptz', value: (state: MonitoringConfigState) => state.updatedAt },
  },
  indexes: {
    account_group_created: ['account_id', 'group_id', 'created_at'],
    subject: ['account_id', 'subject_reference'],
    due: ['status', 'last_run_at'],
    // A sweep looks up the configurations that observed any of a list version's changed parties,
    // and those whose latest run was skipped (a rare value: the index finds them without a scan).
    observed: { gin: 'observed_entity_ids' },
    latest_result: ['latest_result'],
  },
});
