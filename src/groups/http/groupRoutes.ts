import type pg from 'pg';
import { z } from 'zod';
import { GROUP_LIST_EXAMPLE } from '../../api/examples.js';
import { defineRoute } from '../../api/route.js';
import { listGroupsForKey, toGroupResource } from '../../workspace/workspaceStore.js';
import { Group } from './groupSchemas.js';

export function groupRoutes(pool: pg.Pool) {
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/groups',
      operationId: 'listGroups',
      summary: 'List the groups visible to the API key',
      description: 'The first call of the recommended flow: the default group comes first.',
      tag: 'Groups',
      scopes: ['cases:create', 'cases:read'],
      response: z.object({ groups: z.array(Group) }).meta({ examples: [GROUP_LIST_EXAMPLE] }),
      successStatuses: [200],
      errorStatuses: [401, 403, 429],
      async handle({ key }) {
        const groups = await listGroupsForKey(pool, key);
        return { status: 200, data: { groups: groups.map(toGroupResource) } };
      },
    }),
  ];
}
