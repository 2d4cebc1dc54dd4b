import { prepared } from '../src/db/sql.js';
import { type SubscriptionHandler, SubscriptionRetiredError } from '../src/subscriptions/handler.js';
import { type ProjectionDefinition, projectionSubscriptionId, versionTables } from './projection.js';

/**
 * The subscription handler of one table version. Each batch first takes a share lock on the
 * registry row and checks the version still serves or is being built: a swap (which locks the row
 * for update) therefore waits for batches in flight, and later batches of the replaced version stop
 * the runner instead of writing tables that are about to be dropped.
 */
export function projectionHandler(definition: ProjectionDefinition, version: number): SubscriptionHandler {
  const tables = versionTables(definition, version);
  return {
    subscriptionId: projectionSubscriptionId(definition.name, version),
    categories: definition.categories,
    async handle(events, tx) {
      const { rows } = await tx.query<{ current: boolean }>(
        prepared(
          `SELECT $2 IN (active_version, building_version) AS current
           FROM projection_registry WHERE name = $1 FOR SHARE`,
          [definition.name, version],
        ),
      );
      if (rows[0]?.current !== true) {
        throw new SubscriptionRetiredError(
          `${definition.name} v${version} no longer serves and is not being built`,
        );
      }
      await definition.handle(events, tx, tables);
    },
  };
}
