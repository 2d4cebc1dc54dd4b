import { z } from 'zod';
import {
  CREATE_MONITORING_CONFIG_REQUEST_EXAMPLE,
  EXAMPLE_MONITORING_CONFIG_ID,
  UPDATE_MONITORING_CONFIG_REQUEST_EXAMPLE,
} from '../../api/examples.js';
import { CheckTypeList, FreeForm, Id, UserIds } from '../../cases/http/caseRequestSchemas.js';
import { ApiError } from '../../server/errors.js';
import { notFoundText } from '../../shared/notFound.js';
import {
  MONITORING_CONFIG_ID,
  MONITORING_RESULTS,
  MONITORING_STATUSES,
  RESOLUTION_STATUSES,
} from '../monitoringEvents.js';

/**
 * The requests of the monitoring endpoints (spec: the six /v1/monitoring-configs endpoints;
 * docs/monitoring.md, "API"). Rules that need stored state (the subject, the group, membership)
 * are the use cases'.
 */

export const DEFAULT_PAGE = 25;
export const MAX_PAGE = 100;

export const CreateMonitoringConfigBody = z
  .strictObject({
    subject_reference: z.string().min(1).max(200).meta({
      description:
        'A stored subject the key can see (through any of its groups); another group’s subject is `not_found`, like a missing one.',
    }),
    check_types: CheckTypeList,
    group_id: Id.nullish().meta({
      description:
        "Null or absent: the key's default group (as on POST /v1/cases). The subject joins the group if it was not in it.",
    }),
    owner_user_id: Id.nullish().meta({
      description:
        "Null or absent: an existing configuration keeps its owner; a new one gets the group's longest-standing member (null for a group without members).",
    }),
    collaborator_user_ids: UserIds.optional().meta({
      description:
        'At most 50. Absent: an existing configuration keeps its collaborators, a new one has none.',
    }),
    status: z.enum(MONITORING_STATUSES).optional().meta({
      description: 'Absent: `active` for a new configuration; an existing one keeps its status.',
    }),
    metadata: FreeForm.optional(),
  })
  .meta({ examples: [CREATE_MONITORING_CONFIG_REQUEST_EXAMPLE] });

export type CreateMonitoringConfigRequest = z.output<typeof CreateMonitoringConfigBody>;

export const UpdateMonitoringConfigBody = z
  .strictObject({
    check_types: CheckTypeList.optional(),
    group_id: Id.nullish().meta({
      description:
        'Moves the configuration to this group (404 when the key cannot see it; 409 when the subject is already monitored there). Null or absent: no move.',
    }),
    owner_user_id: Id.nullish().meta({ description: 'Null or absent: the owner stays.' }),
    collaborator_user_ids: UserIds.optional(),
    status: z.enum(MONITORING_STATUSES).optional(),
    metadata: FreeForm.optional(),
  })
  .meta({ examples: [UPDATE_MONITORING_CONFIG_REQUEST_EXAMPLE] });

export type UpdateMonitoringConfigRequest = z.output<typeof UpdateMonitoringConfigBody>;

export const MonitoringConfigIdParams = z.object({
  monitoring_config_id: z
    .string()
    .regex(MONITORING_CONFIG_ID, 'A monitoring config id is "mon_" and lower-case hex digits.')
    .meta({
      description: 'The `monitoring_config_id`, `^mon_[a-f0-9]+$`.',
      examples: [EXAMPLE_MONITORING_CONFIG_ID],
    }),
});

const Limit = z.coerce
  .number()
  .int()
  .min(1)
  .max(MAX_PAGE)
  .default(DEFAULT_PAGE)
  .meta({ description: 'Items per page, 1 to 100; default 25.', examples: [25] });

// No examples for filters and cursors: the reference page's "Try it out" would send them.
export const ListMonitoringConfigsQuery = z.object({
  subject_reference: z.string().min(1).max(200).optional().meta({
    description: 'Only the configurations of this subject.',
  }),
  status: z.enum(MONITORING_STATUSES).optional(),
  latest_result: z.enum(MONITORING_RESULTS).optional(),
  limit: Limit,
  cursor: z.string().min(1).max(400).optional().meta({
    description: 'The `next_cursor` of the previous page, sent with the same filters.',
  }),
});

export type ListMonitoringConfigsRequest = z.output<typeof ListMonitoringConfigsQuery>;

export const ListRunsQuery = z.object({ limit: Limit });

export const ListAlertsQuery = z.object({
  resolution_status: z.enum(RESOLUTION_STATUSES).optional(),
  limit: Limit,
});

// One 404 text per kind of object, whatever the reason (missing, another account's, another group's).
export const monitoringConfigNotFound = (monitoringConfigId: string) => () =>
  ApiError.notFound(notFoundText('monitoringConfig', monitoringConfigId));
