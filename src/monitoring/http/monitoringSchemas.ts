import { z } from 'zod';
import { DateTime, Uuid } from '../../api/commonSchemas.js';
import {
  MONITORING_ALERT_EXAMPLE,
  MONITORING_ALERT_LIST_EXAMPLE,
  MONITORING_CONFIG_EXAMPLE,
  MONITORING_CONFIG_LIST_EXAMPLE,
  MONITORING_RUN_EXAMPLE,
  MONITORING_RUN_LIST_EXAMPLE,
} from '../../api/examples.js';
import { BirthDate } from '../../cases/http/caseSchemas.js';
import { CHECK_TYPES } from '../../screening/checkTypes.js';
import { CONFIDENCE_BANDS } from '../../screening/scoring/confidenceBand.js';
import {
  MONITORING_CONFIG_ID,
  MONITORING_RESULTS,
  MONITORING_STATUSES,
  RESOLUTION_STATUSES,
} from '../monitoringEvents.js';

/**
 * The spec's MonitoringConfig, MonitoringRun and MonitoringAlert, and the list answers of the
 * monitoring endpoints. Responses are checked against them and the OpenAPI document is generated
 * from them. Where the spec says "not shown" (the item shape of `changes`, the keys of the
 * snapshots and of `current_match`, the values of `confidence_band`), the shapes are ours:
 * docs/monitoring.md, "API".
 */

const FreeForm = z.record(z.string(), z.unknown());
const CheckType = z.enum(CHECK_TYPES);

export const MonitoringConfig = z
  .object({
    monitoring_config_id: z.string().regex(MONITORING_CONFIG_ID),
    group_id: Uuid,
    owner_user_id: Uuid.nullable().meta({
      description:
        'The spec makes it a required uuid; null only for a configuration enrolled in a group that had no members then.',
    }),
    status: z.enum(MONITORING_STATUSES),
    check_types: z.array(CheckType),
    latest_result: z.enum(MONITORING_RESULTS),
    created_at: DateTime,
    updated_at: DateTime,
    subject_reference: z.string().nullable().optional(),
    subject: z
      .object({
        subject_reference: z.string(),
        type: z.string(),
        display_name: z.string(),
        countries: z.array(z.string()),
        birth_date: BirthDate.nullable(),
        external_reference: z.string().nullable(),
      })
      .nullable()
      .optional()
      .meta({ description: 'The subject as the latest run screened it (as enrolled before the first run).' }),
    group: z.object({ id: Uuid, name: z.string(), slug: z.string() }).nullable().optional(),
    collaborator_user_ids: z.array(Uuid).optional(),
    metadata: FreeForm.optional().meta({
      description: 'As sent on POST or PATCH (not in the spec’s table).',
    }),
    last_checked_at: DateTime.nullable().optional(),
    last_change_detected_at: DateTime.nullable().optional(),
    latest_result_label: z.string().optional(),
    latest_result_summary: z.string().nullable().optional(),
    latest_run_id: z.string().nullable().optional(),
    open_follow_up_case_count: z.number().int().optional().meta({
      description: 'Follow-up cases opened by monitoring whose case decision is still `pending_decision`.',
    }),
    allowed_actions: z.array(z.string()).optional(),
    recommended_next_actions: z.array(z.string()).optional(),
  })
  .meta({ id: 'MonitoringConfig', examples: [MONITORING_CONFIG_EXAMPLE] });

export const MonitoringConfigList = z
  .object({
    monitoring_configs: z.array(MonitoringConfig),
    next_cursor: z.string().nullable().meta({
      description: 'Pass as `cursor` with the same filters for the next page; null on the last page.',
    }),
  })
  .meta({ id: 'MonitoringConfigList', examples: [MONITORING_CONFIG_LIST_EXAMPLE] });

export const MonitoringRun = z
  .object({
    monitoring_run_id: z.string(),
    monitoring_config_id: z.string(),
    group_id: Uuid,
    status: z.enum(['running', 'completed', 'failed', 'skipped']),
    check_types: z.array(CheckType),
    source_snapshot_ids: z.array(z.string()),
    source_snapshot_version: z.string().nullable().meta({
      description: '`<dataset>@<version>` of each list version the run used, by dataset, comma-separated.',
    }),
    started_at: DateTime,
    completed_at: DateTime.nullable(),
    result: z.enum(['running', 'no_change', 'new_matches', 'changed_matches', 'failed', 'skipped']),
    result_label: z.string(),
    result_summary: z.string().nullable(),
    match_count: z.number().int(),
    new_match_count: z.number().int(),
    changed_match_count: z.number().int(),
    unchanged_match_count: z.number().int(),
    created_case_reference: z.string().nullable(),
    error_message: z.string().nullable(),
    created_at: DateTime,
    updated_at: DateTime,
  })
  .partial()
  .meta({ id: 'MonitoringRun', examples: [MONITORING_RUN_EXAMPLE] });

const AlertSource = z.object({ name: z.string().nullable(), record_reference: z.string().nullable() });

export const MonitoringAlert = z
  .object({
    alert_id: z.string(),
    monitoring_config_id: z.string(),
    monitoring_run_id: z.string(),
    group_id: Uuid,
    check_type: CheckType,
    screening_type: CheckType,
    match_fingerprint: z.string(),
    matched_entity_id: z.string().nullable(),
    source: AlertSource,
    display_name: z.string(),
    score: z.number().int().min(0).max(100).nullable().meta({
      description:
        'The match score as a percentage (0 to 100); null for a party that was not scored (delisted).',
    }),
    confidence_band: z.enum(CONFIDENCE_BANDS).nullable().meta({
      description: '`high` from a score of 90, `medium` from 75, `low` below; null without a score.',
    }),
    change_summary: z.string(),
    changes: z.array(
      z.object({
        field: z.string(),
        previous: z.union([z.string(), z.array(z.string())]).nullable(),
        current: z.union([z.string(), z.array(z.string())]).nullable(),
      }),
    ),
    previous_snapshot: FreeForm.nullable(),
    current_snapshot: FreeForm.nullable(),
    current_match: FreeForm.nullable(),
    resolution_status: z.enum(RESOLUTION_STATUSES),
    resolution_note: z.string().nullable(),
    resolved_at: DateTime.nullable(),
    created_case_reference: z.string().nullable(),
    created_at: DateTime,
    updated_at: DateTime,
    allowed_actions: z.array(z.string()),
    recommended_next_actions: z.array(z.string()),
  })
  .partial()
  .meta({ id: 'MonitoringAlert', examples: [MONITORING_ALERT_EXAMPLE] });

export const MonitoringRunList = z
  .object({
    monitoring_config_id: z.string(),
    subject_reference: z.string().nullable(),
    group_id: Uuid,
    runs: z.array(MonitoringRun),
  })
  .meta({ id: 'MonitoringRunList', examples: [MONITORING_RUN_LIST_EXAMPLE] });

export const MonitoringAlertList = z
  .object({
    monitoring_config_id: z.string(),
    subject_reference: z.string().nullable(),
    group_id: Uuid,
    alerts: z.array(MonitoringAlert),
  })
  .meta({ id: 'MonitoringAlertList', examples: [MONITORING_ALERT_LIST_EXAMPLE] });
