import { z } from 'zod';
import { caseDecisions } from '../../../projections/cases/queries.js';
import { listAlerts, listRuns } from '../../../projections/monitoring/activityQueries.js';
import { listMonitoringConfigViews } from '../../../projections/monitoring/queries.js';
import { type ApiRoute, defineRoute } from '../../api/route.js';
import type { CaseRouteDependencies } from '../../cases/http/caseRouteDependencies.js';
import { ApiError } from '../../server/errors.js';
import { SUBJECT_REFERENCE } from '../../subjects/subjectEvents.js';
import { keyMonitoringRequester } from '../monitoringAccess.js';
import { MONITORING_CONFIG_ID } from '../monitoringEvents.js';
import { catchUpMonitoringConfig } from '../monitoringReadModel.js';
import { canSeeConfig, findConfigForRequester } from '../monitoringService.js';
import type { MonitoringConfigState } from '../monitoringState.js';
import { configResource, configResources } from './monitoringConfigResources.js';
import {
  ListAlertsQuery,
  ListMonitoringConfigsQuery,
  type ListMonitoringConfigsRequest,
  ListRunsQuery,
  MonitoringConfigIdParams,
  monitoringConfigNotFound,
} from './monitoringRequestSchemas.js';
import { alertResource, runResource } from './monitoringResources.js';
import {
  MonitoringAlertList,
  MonitoringConfig,
  MonitoringConfigList,
  MonitoringRunList,
} from './monitoringSchemas.js';

/**
 * The monitoring reads (docs/monitoring.md, "API"). A configuration is read from `monitoring_configs`
 * caught up with its stream (readMonitoringConfig), so GET by id reflects every acknowledged write;
 * the list selects rows from the read model and shows each caught up. Runs and alerts come from
 * `monitoring_activity`, written by the monitoring worker, so they appear once projected.
 */

/** What a list cursor stands for; its encoding is opaque to clients. */
interface ConfigCursor {
  createdAt: string;
  monitoringConfigId: string;
  /** The filters it was issued with: a cursor is only valid with the same ones. */
  filters: string;
}

const CursorPayload = z.strictObject({
  v: z.literal(1),
  // Year 1 at the earliest: PostgreSQL refuses year 0, and a cursor is any client's to forge.
  c: z.iso.datetime({ offset: true }).refine((value) => Number(value.slice(0, 4)) >= 1),
  i: z.string().regex(MONITORING_CONFIG_ID),
  f: z.string(),
});

function filtersKey(query: ListMonitoringConfigsRequest): string {
  return JSON.stringify([query.subject_reference ?? null, query.status ?? null, query.latest_result ?? null]);
}

export function encodeConfigCursor(cursor: ConfigCursor): string {
  const payload: z.input<typeof CursorPayload> = {
    v: 1,
    c: cursor.createdAt,
    i: cursor.monitoringConfigId,
    f: cursor.filters,
  };
  return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
}

function decodeConfigCursor(value: string): ConfigCursor | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(value)) return undefined;
  const bytes = Buffer.from(value, 'base64url');
  if (bytes.toString('base64url') !== value) return undefined;
  try {
    const parsed = CursorPayload.safeParse(JSON.parse(bytes.toString('utf8')));
    if (!parsed.success) return undefined;
    return { createdAt: parsed.data.c, monitoringConfigId: parsed.data.i, filters: parsed.data.f };
  } catch {
    return undefined;
  }
}

function invalidCursor(message: string): ApiError {
  return ApiError.invalidRequest('The request has invalid fields.', { fieldErrors: { cursor: [message] } });
}

function cursorFor(query: ListMonitoringConfigsRequest): ConfigCursor | undefined {
  if (query.cursor === undefined) return undefined;
  const cursor = decodeConfigCursor(query.cursor);
  if (!cursor) throw invalidCursor('Not a cursor of this endpoint; pass a `next_cursor` as returned.');
  if (cursor.filters !== filtersKey(query)) {
    throw invalidCursor('The cursor was issued for other filters; send the same filters with it.');
  }
  return cursor;
}

function matchesFilters(state: MonitoringConfigState, query: ListMonitoringConfigsRequest): boolean {
  return (
    (query.subject_reference === undefined || state.subject.subjectReference === query.subject_reference) &&
    (query.status === undefined || state.status === query.status) &&
    (query.latest_result === undefined || state.latestResult === query.latest_result)
  );
}

export function monitoringQueryRoutes(deps: CaseRouteDependencies): ApiRoute[] {
  const { pool, store } = deps;

  /** The configuration, or the endpoint's one 404 (missing, another account's, another group's). */
  async function visibleConfig(key: Parameters<typeof keyMonitoringRequester>[0], id: string) {
    const state = await findConfigForRequester(deps, keyMonitoringRequester(key), id);
    if (!state) throw monitoringConfigNotFound(id)();
    return state;
  }

  return [
    defineRoute({
      method: 'GET',
      path: '/v1/monitoring-configs',
      operationId: 'listMonitoringConfigs',
      summary: 'List monitoring configurations, newest first',
      description:
        'The configurations of the key’s account in the groups the key can see, newest first (by creation time, then id). Filters combine. `next_cursor` continues after the last configuration of the page with the same filters (400 with other filters); it is null on the last page. A configuration enrolled a moment ago may take a moment to be listed; GET by id always shows it.',
      tag: 'Monitoring',
      scopes: ['monitoring:read'],
      query: ListMonitoringConfigsQuery,
      response: MonitoringConfigList,
      successStatuses: [200],
      errorStatuses: [400, 401, 403, 404, 429],
      async handle({ key, query }) {
        const cursor = cursorFor(query);
        // No subject has a reference of another shape (and one with a NUL byte would not even reach
        // PostgreSQL's text): nothing is monitored under it.
        if (query.subject_reference !== undefined && !SUBJECT_REFERENCE.test(query.subject_reference)) {
          return { status: 200, data: { monitoring_configs: [], next_cursor: null } };
        }
        const requester = keyMonitoringRequester(key);
        const rows = await listMonitoringConfigViews(pool, {
          accountId: key.accountId,
          groupIds: requester.visibleGroupIds,
          subjectReference: query.subject_reference,
          status: query.status,
          latestResult: query.latest_result,
          after: cursor && { createdAt: cursor.createdAt, monitoringConfigId: cursor.monitoringConfigId },
          limit: query.limit + 1,
        });
        const page = rows.slice(0, query.limit);
        // Each row caught up with its stream: a change not projected yet is shown, and a
        // configuration that no longer fits the filters or the key's groups is left out.
        const states = (
          await Promise.all(page.map((row) => catchUpMonitoringConfig(store, row.monitoringConfigId, row)))
        ).filter(
          (state): state is MonitoringConfigState =>
            state !== undefined && canSeeConfig(requester, state) && matchesFilters(state, query),
        );
        const last = page.at(-1);
        return {
          status: 200,
          data: {
            monitoring_configs: await configResources(pool, key, states),
            next_cursor:
              last && rows.length > page.length
                ? encodeConfigCursor({
                    createdAt: last.createdAt.toISOString(),
                    monitoringConfigId: last.monitoringConfigId,
                    filters: filtersKey(query),
                  })
                : null,
          },
        };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/monitoring-configs/:monitoring_config_id',
      operationId: 'getMonitoringConfig',
      summary: 'Get a monitoring configuration with its latest result',
      description:
        'Always reflects every write acknowledged before the request. A configuration outside the key’s account or groups is `not_found`.',
      tag: 'Monitoring',
      scopes: ['monitoring:read'],
      params: MonitoringConfigIdParams,
      response: MonitoringConfig,
      successStatuses: [200],
      errorStatuses: [400, 401, 403, 404, 429],
      async handle({ key, params }) {
        const state = await visibleConfig(key, params.monitoring_config_id);
        return { status: 200, data: await configResource(pool, key, state) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/monitoring-configs/:monitoring_config_id/runs',
      operationId: 'listMonitoringRuns',
      summary: 'List the runs of a monitoring configuration, newest first',
      tag: 'Monitoring',
      scopes: ['monitoring:read'],
      params: MonitoringConfigIdParams,
      query: ListRunsQuery,
      response: MonitoringRunList,
      successStatuses: [200],
      errorStatuses: [400, 401, 403, 404, 429],
      async handle({ key, params, query }) {
        const state = await visibleConfig(key, params.monitoring_config_id);
        const runs = await listRuns(pool, state.monitoringConfigId, query.limit);
        return {
          status: 200,
          data: {
            monitoring_config_id: state.monitoringConfigId,
            subject_reference: state.subject.subjectReference,
            group_id: state.groupId,
            runs: runs.map(runResource),
          },
        };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/monitoring-configs/:monitoring_config_id/alerts',
      operationId: 'listMonitoringAlerts',
      summary: 'List the alerts of a monitoring configuration, newest first',
      description:
        'Alerts are material changes of matches the configuration observed, and new matches. No public operation changes an alert: the service resolves it, into a follow-up case or as needing no action.',
      tag: 'Monitoring',
      scopes: ['monitoring:read'],
      params: MonitoringConfigIdParams,
      query: ListAlertsQuery,
      response: MonitoringAlertList,
      successStatuses: [200],
      errorStatuses: [400, 401, 403, 404, 429],
      async handle({ key, params, query }) {
        const state = await visibleConfig(key, params.monitoring_config_id);
        const alerts = await listAlerts(pool, state.monitoringConfigId, {
          resolutionStatus: query.resolution_status,
          limit: query.limit,
        });
        const decisions = await caseDecisions(
          pool,
          alerts.flatMap((alert) => alert.record.created_case_reference ?? []),
        );
        return {
          status: 200,
          data: {
            monitoring_config_id: state.monitoringConfigId,
            subject_reference: state.subject.subjectReference,
            group_id: state.groupId,
            alerts: alerts.map((alert) => alertResource(alert, decisions)),
          },
        };
      },
    }),
  ];
}
