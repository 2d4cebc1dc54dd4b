import { caseViewsProjection } from './cases/caseProjection.js';
import { monitoringActivityProjection } from './monitoring/monitoringActivityProjection.js';
import { monitoringConfigsProjection } from './monitoring/monitoringConfigProjection.js';
import type { ProjectionDefinition } from './projection.js';
import { streamIndexProjection } from './streamIndex/streamIndexProjection.js';

/** Every read model the service maintains; `startProjections` and the CLI work from this list. */
export const projections: readonly ProjectionDefinition[] = [
  streamIndexProjection,
  caseViewsProjection,
  monitoringConfigsProjection,
  monitoringActivityProjection,
];

export function findProjection(
  name: string,
  definitions: readonly ProjectionDefinition[] = projections,
): ProjectionDefinition | undefined {
  return definitions.find((definition) => definition.name === name);
}
