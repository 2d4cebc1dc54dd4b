import { keyRequester } from '../cases/caseAccess.js';
import type { ApiKeyRecord } from '../workspace/apiKeys.js';
import type { MonitoringRequester } from './monitoringService.js';

/**
 * An API key as the monitoring use cases see it: its account, the actor its events record (as on
 * cases: the key's id and name), and the groups it may see. A configuration outside them is not
 * found (canSeeConfig).
 */
export function keyMonitoringRequester(key: ApiKeyRecord): MonitoringRequester {
  return {
    accountId: key.accountId,
    actor: keyRequester(key).actor,
    visibleGroupIds: key.groupIds.map((id) => id.toLowerCase()),
  };
}
