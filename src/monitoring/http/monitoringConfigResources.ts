import type pg from 'pg';
import { caseDecisions } from '../../../projections/cases/queries.js';
import type { ApiKeyRecord } from '../../workspace/apiKeys.js';
import { listGroupsForKey } from '../../workspace/workspaceStore.js';
import type { MonitoringConfigState } from '../monitoringState.js';
import { monitoringConfigResource, openFollowUpCases } from './monitoringResources.js';

/**
 * The MonitoringConfig resources of some configurations the key may see, with what they need from
 * the database in two queries: the key's groups (for `group`) and the decisions of the follow-up
 * cases (for `open_follow_up_case_count`, from `case_views`).
 */
export async function configResources(
  pool: Pick<pg.Pool, 'query'>,
  key: ApiKeyRecord,
  states: readonly MonitoringConfigState[],
) {
  if (states.length === 0) return [];
  const groups = new Map((await listGroupsForKey(pool, key)).map((group) => [group.id.toLowerCase(), group]));
  const decisions = await caseDecisions(
    pool,
    states.flatMap((state) => state.followUpCaseReferences),
  );
  return states.map((state) =>
    monitoringConfigResource(state, key, {
      group: groups.get(state.groupId.toLowerCase()),
      openFollowUpCaseCount: openFollowUpCases(state.followUpCaseReferences, decisions).length,
    }),
  );
}

export async function configResource(
  pool: Pick<pg.Pool, 'query'>,
  key: ApiKeyRecord,
  state: MonitoringConfigState,
) {
  const [resource] = await configResources(pool, key, [state]);
  return resource!;
}
