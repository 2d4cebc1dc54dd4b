/**
 * The one EventStoreDB server this project supports and tests against (docs/event-store.md,
 * "Supported EventStoreDB servers"): `docker-compose.yml` runs the same image with the same settings,
 * which test/unit/eventStore/esdbServerImage.spec.ts checks.
 */
export const ESDB_IMAGE = 'eventstore/eventstore:24.10.6-bookworm-slim';

/** The lowest 24.10 patch supported; the image above must be at or above it. */
export const ESDB_MINIMUM_PATCH = '24.10.5';

/**
 * Single insecure node for tests. Projections off: the adapter reads `$all` and needs none of them,
 * and the standard ones write about two `$>` link records per event that every feed scan reads past.
 */
export const ESDB_TEST_ENVIRONMENT = {
  EVENTSTORE_CLUSTER_SIZE: '1',
  EVENTSTORE_INSECURE: 'true',
  EVENTSTORE_NODE_PORT: '2113',
  EVENTSTORE_RUN_PROJECTIONS: 'None',
  EVENTSTORE_START_STANDARD_PROJECTIONS: 'false',
} as const;
