import { CREATED_MONITORING_CONFIG_EXAMPLE } from '../../api/examples.js';
import type { IdempotencyContext } from '../../api/idempotentExecution.js';
import { rejectionError, valueOrThrow } from '../../api/rejections.js';
import { type ApiRoute, defineRoute } from '../../api/route.js';
import { resolveGroup } from '../../cases/createCase.js';
import type { CaseRouteDependencies } from '../../cases/http/caseRouteDependencies.js';
import { keyMonitoringRequester } from '../monitoringAccess.js';
import { enrollSubject, updateMonitoringConfig } from '../monitoringService.js';
import { configResource } from './monitoringConfigResources.js';
import {
  CreateMonitoringConfigBody,
  MonitoringConfigIdParams,
  UpdateMonitoringConfigBody,
} from './monitoringRequestSchemas.js';
import { MonitoringConfig } from './monitoringSchemas.js';

/**
 * POST and PATCH /v1/monitoring-configs (docs/monitoring.md, "API"): each parses the request, calls
 * the use case (monitoringService.ts) with the request's deterministic event ids, and shapes the
 * configuration the command left (read-your-writes).
 */

function requireIdempotency(idempotency: IdempotencyContext | undefined): IdempotencyContext {
  if (!idempotency) throw new Error('A mutating route ran without an idempotency context');
  return idempotency;
}

export function monitoringCommandRoutes(deps: CaseRouteDependencies): ApiRoute[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/monitoring-configs',
      operationId: 'createMonitoringConfig',
      summary: 'Enroll a subject in ongoing monitoring, or update its configuration',
      description:
        'One configuration per subject and group: 201 when it is created, 200 when the subject was already monitored in the group and its configuration was updated with what the request sent. `group_id` null or absent selects the key’s default group. The subject must be one the key can see (404 otherwise, as for a missing one); owner and collaborators must be members of the group (422). A new configuration is `active` unless `status` says otherwise; its first run (the baseline) follows asynchronously.',
      tag: 'Monitoring',
      scopes: ['monitoring:write'],
      body: CreateMonitoringConfigBody,
      response: MonitoringConfig,
      successStatuses: [201, 200],
      errorStatuses: [400, 401, 403, 404, 409, 422, 429],
      examples: { response: CREATED_MONITORING_CONFIG_EXAMPLE },
      async handle({ key, body, idempotency }) {
        const { eventId } = requireIdempotency(idempotency);
        const group = await resolveGroup(deps, key, body.group_id ?? null);
        if ('code' in group) throw rejectionError(group);
        const change = valueOrThrow(
          await enrollSubject(
            deps,
            keyMonitoringRequester(key),
            {
              subjectReference: body.subject_reference,
              groupId: group.id,
              checkTypes: body.check_types,
              ownerUserId: body.owner_user_id ?? undefined,
              collaboratorUserIds: body.collaborator_user_ids,
              status: body.status,
              metadata: body.metadata,
              enrolledFrom: { kind: 'api' },
            },
            eventId,
          ),
        );
        return {
          status: change.created ? 201 : 200,
          data: await configResource(deps.pool, key, change.state),
        };
      },
    }),
    defineRoute({
      method: 'PATCH',
      path: '/v1/monitoring-configs/:monitoring_config_id',
      operationId: 'updateMonitoringConfig',
      summary: 'Change a monitoring configuration',
      description:
        'Changes the fields sent and only those; null `group_id` or `owner_user_id` changes nothing. Owner and collaborators must be members of the group the configuration ends up in (422). Moving it to another group needs a group the key can see (404) where the subject is not monitored yet (409 with `details.monitoring_config_id`).',
      tag: 'Monitoring',
      scopes: ['monitoring:write'],
      params: MonitoringConfigIdParams,
      body: UpdateMonitoringConfigBody,
      response: MonitoringConfig,
      successStatuses: [200],
      errorStatuses: [400, 401, 403, 404, 409, 422, 429],
      async handle({ key, params, body, idempotency }) {
        const { eventId } = requireIdempotency(idempotency);
        // The use case's 404s already have one text per kind: the configuration, the target group.
        const change = valueOrThrow(
          await updateMonitoringConfig(
            deps,
            keyMonitoringRequester(key),
            {
              monitoringConfigId: params.monitoring_config_id,
              ...(body.check_types && { checkTypes: body.check_types }),
              ...(body.group_id && { groupId: body.group_id }),
              ...(body.owner_user_id && { ownerUserId: body.owner_user_id }),
              ...(body.collaborator_user_ids && { collaboratorUserIds: body.collaborator_user_ids }),
              ...(body.status && { status: body.status }),
              ...(body.metadata && { metadata: body.metadata }),
            },
            eventId,
          ),
        );
        return { status: 200, data: await configResource(deps.pool, key, change.state) };
      },
    }),
  ];
}
