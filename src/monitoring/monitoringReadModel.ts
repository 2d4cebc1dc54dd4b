import type pg from 'pg';
import { findMonitoringConfigView } from '../../projections/monitoring/queries.js';
import type { EventStore } from '../eventStore/eventStore.js';
import type { MonitoringConfigState } from './monitoringState.js';
import { monitoringCommandHandler } from './monitoringStream.js';

const UNDEFINED_TABLE = '42P01';

/**
 * A configuration's current state, read-your-writes (as readCase): the `monitoring_configs` row,
 * then whatever its stream holds past that row's revision.
 */
export async function readMonitoringConfig(
  pool: Pick<pg.Pool, 'query'>,
  store: EventStore,
  monitoringConfigId: string,
): Promise<MonitoringConfigState | undefined> {
  const view = await findMonitoringConfigView(pool, monitoringConfigId).catch((error: unknown) => {
    if ((error as { code?: unknown }).code === UNDEFINED_TABLE) return undefined;
    throw error;
  });
  return catchUpMonitoringConfig(store, monitoringConfigId, view);
}

/** A configuration read from the read model (or not), caught up with its stream. */
export async function catchUpMonitoringConfig(
  store: EventStore,
  monitoringConfigId: string,
  view: { state: MonitoringConfigState | null; revision: number } | undefined,
): Promise<MonitoringConfigState | undefined> {
  const loaded = await monitoringCommandHandler.load(
    store,
    monitoringConfigId,
    view?.state ? { state: view.state, revision: view.revision } : undefined,
  );
  return loaded.state ?? undefined;
}
