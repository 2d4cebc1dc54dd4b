import { type RebuildEvent, rebuildProjection } from '../../projections/rebuild.js';
import { findProjection, projections } from '../../projections/registry.js';
import { type ProjectionStatus, projectionStatuses, type VersionStatus } from '../../projections/status.js';
import { formatLag } from '../subscriptions/feedLag.js';
import type { CliContext } from './context.js';
import type { CliIo } from './io.js';
import { formatTable } from './table.js';

export async function projectionsStatus(
  context: CliContext,
  io: CliIo,
  options: { json?: boolean },
): Promise<number> {
  const statuses = await projectionStatuses(context.pool, context.store, projections);
  if (options.json) {
    io.stdout.write(`${JSON.stringify(statuses, null, 2)}\n`);
    return 0;
  }
  const rows = statuses.flatMap((status) => statusRows(status));
  io.stdout.write(
    formatTable(['PROJECTION', 'VERSION', 'CHECKPOINT', 'LAG', 'STATUS', 'ATTEMPTS', 'LAST ERROR'], rows),
  );
  return 0;
}

function statusRows(status: ProjectionStatus): string[][] {
  if (!status.active) return [[status.name, '-', '-', '-', 'not installed', '-', '-']];
  const note = status.needsRebuild ? `needs rebuild (code v${status.codeVersion})` : undefined;
  const rows = [versionRow(status.name, `v${status.active.version}`, status.active, note)];
  if (status.building)
    rows.push(versionRow(status.name, `v${status.building.version} (building)`, status.building));
  if (status.retiredVersion !== null) {
    rows.push([status.name, `v${status.retiredVersion} (replaced)`, '-', '-', 'awaiting drop', '-', '-']);
  }
  return rows;
}

function versionRow(name: string, version: string, status: VersionStatus, note?: string): string[] {
  const parked =
    status.status === 'parked' ? `parked on ${status.parkedEventId} at ${status.parkedPosition}` : '';
  return [
    name,
    version,
    status.checkpoint ?? 'start',
    formatLag(status.lag),
    [note ?? status.status ?? 'not started', parked].filter(Boolean).join(', '),
    String(status.attempts),
    status.lastError ?? '-',
  ];
}

export async function projectionsRebuild(context: CliContext, io: CliIo, name: string): Promise<number> {
  const definition = findProjection(name);
  if (!definition) {
    io.stderr.write(`Unknown projection "${name}". Known: ${projections.map((p) => p.name).join(', ')}\n`);
    return 1;
  }
  const startedAt = Date.now();
  const result = await rebuildProjection({
    pool: context.pool,
    databaseUrl: context.databaseUrl,
    store: context.store,
    definition,
    signal: io.signal,
    report: (event) => io.stdout.write(`${describeRebuildEvent(name, event)}\n`),
  });
  const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
  io.stdout.write(`Rebuilt ${name} v${result.toVersion}: ${result.processed} events in ${seconds} s\n`);
  return 0;
}

function describeRebuildEvent(name: string, event: RebuildEvent): string {
  switch (event.kind) {
    case 'started':
      return event.resumed
        ? `Resuming the build of ${name} v${event.toVersion}; v${event.fromVersion} keeps serving`
        : `Building ${name} v${event.toVersion} from the start of the feed; v${event.fromVersion} keeps serving`;
    case 'progress':
      return `${name} v${event.version}: ${event.processed} events, ${event.eventsPerSecond} events/s, lag ${formatLag(event.lag)} events`;
    case 'swapped':
      return `Swapped ${name} to v${event.toVersion} (${event.tailEvents} tail events handled in the swap transaction)`;
    case 'old-version-dropped':
      return `Dropped the tables of ${name} v${event.version}`;
    case 'old-version-in-use':
      return `A worker still runs ${name} v${event.version}; it drops those tables once it has switched`;
  }
}
