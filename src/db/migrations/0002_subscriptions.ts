import type { Migration } from './index.js';

// Owned by the subscription runner and projection registry (src/subscriptions, projections).
export const subscriptionsMigration: Migration = {
  id: 2,
  name: 'subscriptions',
  sql: `SELECT 1;`,
};
