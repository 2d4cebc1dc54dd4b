import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { projectRoot } from '../../../src/shared/projectRoot.js';
import { ESDB_IMAGE, ESDB_MINIMUM_PATCH, ESDB_TEST_ENVIRONMENT } from '../../support/esdbServerImage.js';

interface ComposeFile {
  services: Record<string, { image?: string; environment?: Record<string, string> }>;
}

const patchOf = (image: string) => /:(\d+)\.(\d+)\.(\d+)(?:-[a-z0-9-]+)?$/.exec(image)?.slice(1).map(Number);

describe('the EventStoreDB server image', () => {
  it('is an exact patch of the 24.10 line, at or above the supported minimum', () => {
    const patch = patchOf(ESDB_IMAGE);
    expect(patch, `${ESDB_IMAGE} names no exact x.y.z version`).toBeDefined();
    const [major, minor, fix] = patch!;
    const [, , minimumFix] = ESDB_MINIMUM_PATCH.split('.').map(Number);
    expect([major, minor]).toEqual([24, 10]);
    expect(fix).toBeGreaterThanOrEqual(minimumFix!);
  });

  it('is what docker-compose.yml runs, with projections off as in the tests', async () => {
    const compose = parse(
      await readFile(path.join(projectRoot, 'docker-compose.yml'), 'utf8'),
    ) as ComposeFile;
    const server = compose.services.eventstoredb;
    expect(server?.image).toBe(ESDB_IMAGE);
    expect(server?.environment).toMatchObject({
      EVENTSTORE_RUN_PROJECTIONS: ESDB_TEST_ENVIRONMENT.EVENTSTORE_RUN_PROJECTIONS,
      EVENTSTORE_START_STANDARD_PROJECTIONS: ESDB_TEST_ENVIRONMENT.EVENTSTORE_START_STANDARD_PROJECTIONS,
    });
  });
});
