import { EventStoreDBClient } from '@eventstore/db-client';
import { describe } from 'vitest';
import { toClientConnectionString } from '../../src/eventStore/esdb/connectionString.js';
import { createEsdbEventStore } from '../../src/eventStore/esdb/esdbEventStore.js';
import { ESDB_IMAGE, ESDB_TEST_ENVIRONMENT } from '../support/esdbServerImage.js';
import { CONTRACT_POLL_INTERVAL_MS, eventStoreContract } from './eventStore.contract.js';

/**
 * The contract against a real EventStoreDB: the one in ESDB_CONNECTION_STRING, else a throwaway
 * container when a Docker engine answers, else reported as skipped. The build and CI machines have
 * neither, so there this file must skip rather than fail. The decision is made at module load, before
 * vitest collects the tests.
 */

const IMAGE = ESDB_IMAGE;
const DOCKER_PROBE_TIMEOUT_MS = 5_000;

interface Server {
  connectionString: string;
  stop(): Promise<void>;
}

async function dockerUnavailableReason(): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer in ${DOCKER_PROBE_TIMEOUT_MS} ms`)),
        DOCKER_PROBE_TIMEOUT_MS,
      );
    });
    await Promise.race([getContainerRuntimeClient(), timeout]);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    clearTimeout(timer);
  }
}

async function startContainer(): Promise<Server> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const container = await new GenericContainer(IMAGE)
    .withExposedPorts(2113)
    .withEnvironment({ ...ESDB_TEST_ENVIRONMENT })
    .withWaitStrategy(Wait.forHealthCheck())
    .withStartupTimeout(180_000)
    .start();
  return {
    connectionString: `esdb://${container.getHost()}:${container.getMappedPort(2113)}?tls=false`,
    stop: async () => {
      await container.stop();
    },
  };
}

async function findServer(): Promise<{ server: Server; source: string } | { skip: string }> {
  const fromEnv = process.env.ESDB_CONNECTION_STRING;
  if (fromEnv) {
    return {
      server: { connectionString: fromEnv, stop: async () => undefined },
      source: 'ESDB_CONNECTION_STRING',
    };
  }
  const dockerProblem = await dockerUnavailableReason();
  if (dockerProblem !== null) {
    return { skip: `no ESDB_CONNECTION_STRING and no Docker engine reachable (${dockerProblem})` };
  }
  // Started here rather than in beforeAll: pulling the image can take longer than any hook timeout.
  return { server: await startContainer(), source: `a ${IMAGE} container (testcontainers)` };
}

const found = await findServer();

if ('skip' in found) {
  console.log(`[esdb contract] skipped: ${found.skip}`);
  // The contract is still registered, so the report lists every test it would have run as skipped.
  describe.skip('EventStoreDB (no server)', () => {
    eventStoreContract('EventStoreDB', async () => {
      throw new Error('unreachable: the suite is skipped');
    });
  });
} else {
  const { server, source } = found;
  console.log(`[esdb contract] running against ${source}`);
  eventStoreContract('EventStoreDB', async () => {
    // Live delivery must come from the doorbell: the fallback poll never runs within a test.
    const store = createEsdbEventStore({
      connectionString: server.connectionString,
      pollIntervalMs: CONTRACT_POLL_INTERVAL_MS,
    });
    // The operator's own client: the adapter never deletes a stream.
    const operator = EventStoreDBClient.connectionString(toClientConnectionString(server.connectionString));
    return {
      store,
      async cleanup() {
        await operator.dispose();
        await store.close();
        await server.stop();
      },
      streamDeletion: {
        async tombstone(streamName) {
          await operator.tombstoneStream(streamName);
        },
      },
      anotherStore: {
        unsupported: 'the contract is given one EventStoreDB server; another store needs a second',
      },
    };
  });
}
