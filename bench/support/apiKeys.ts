import type pg from 'pg';
import { SCOPES } from '../../src/workspace/keyPolicy.js';
import { createApiKey } from '../../src/workspace/keyStore.js';

/**
 * `count` API keys of one account with every scope and the final-decision permission: a load of
 * many clients, each under its own rate limit (120 a minute per key). Their raw keys, in order.
 */
export async function createLoadKeys(
  pool: pg.Pool,
  accountId: string,
  count: number,
  name?: string,
): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < count; i++) {
    const created = await createApiKey(pool, {
      accountId,
      ...(name !== undefined && { name: `${name} ${i}` }),
      scopes: [...SCOPES],
      actorType: 'api_client',
      finalDecision: true,
      groups: { kind: 'default' },
      expiresAt: null,
    });
    keys.push(created.rawKey);
  }
  return keys;
}
