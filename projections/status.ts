import type pg from 'pg';
import type { Checkpoint, EventStore } from '../src/eventStore/eventStore.js';
import { type CheckpointRow, loadCheckpoint } from '../src/subscriptions/checkpointStore.js';
import { countEventsAfter, type FeedLag } from '../src/subscriptions/feedLag.js';
import { type ProjectionDefinition, projectionSubscriptionId } from './projection.js';
import { listRegistryEntries } from './registryStore.js';

export interface VersionStatus {
  version: number;
  subscriptionId: string;
  checkpoint: Checkpoint | null;
  /** Events of the projection's categories on the feed after the checkpoint. */
  lag: FeedLag;
  /** 'active' or 'parked'; null before any runner has started this version. */
  status: CheckpointRow['status'] | null;
  attempts: number;
  lastError: string | null;
  parkedEventId: string | null;
  parkedPosition: Checkpoint | null;
  updatedAt: Date | null;
}

export interface ProjectionStatus {
  name: string;
  codeVersion: number;
  installed: boolean;
  /** The stored tables were built by another code version: run a rebuild. */
  needsRebuild: boolean;
  active: VersionStatus | null;
  building: VersionStatus | null;
  retiredVersion: number | null;
  swappedAt: Date | null;
}

export async function projectionStatuses(
  pool: pg.Pool,
  store: Pick<EventStore, 'countFeedEvents'>,
  definitions: readonly ProjectionDefinition[],
): Promise<ProjectionStatus[]> {
  const entries = await listRegistryEntries(pool);
  const versionStatus = async (definition: ProjectionDefinition, version: number): Promise<VersionStatus> => {
    const subscriptionId = projectionSubscriptionId(definition.name, version);
    const row = await loadCheckpoint(pool, subscriptionId);
    const checkpoint = row?.checkpoint ?? null;
    return {
      version,
      subscriptionId,
      checkpoint,
      lag: await countEventsAfter(store, checkpoint, definition.categories),
      status: row?.status ?? null,
      attempts: row?.attempts ?? 0,
      lastError: row?.lastError ?? null,
      parkedEventId: row?.parkedEventId ?? null,
      parkedPosition: row?.parkedPosition ?? null,
      updatedAt: row?.updatedAt ?? null,
    };
  };
  const statuses: ProjectionStatus[] = [];
  for (const definition of definitions) {
    const entry = entries.get(definition.name);
    statuses.push({
      name: definition.name,
      codeVersion: definition.version,
      installed: entry !== undefined,
      needsRebuild: entry !== undefined && entry.activeCodeVersion !== definition.version,
      active: entry ? await versionStatus(definition, entry.activeVersion) : null,
      building:
        entry?.buildingVersion != null ? await versionStatus(definition, entry.buildingVersion) : null,
      retiredVersion: entry?.retiredVersion ?? null,
      swappedAt: entry?.swappedAt ?? null,
    });
  }
  return statuses;
}
