import { v5 as uuidv5 } from 'uuid';
import type { Queryable } from '../../db/sql.js';
import { commandHandler, type StreamType } from '../../eventSourcing/commandHandler.js';
import { accept, type Decision } from '../../eventSourcing/decision.js';
import type { EventStore, RecordedEvent } from '../../eventStore/eventStore.js';
import { type Clock, systemClock } from '../../shared/clock.js';
import type { DeltaSummary } from './loadSnapshot.js';
import { currentSnapshots, type ReadySnapshot } from './snapshotStore.js';

/**
 * "Snapshot became current" as a fact on a stream per dataset, `sourceDataset-<dataset>`, so that
 * auditors (and monitoring runs) can tell which list version was current when, and what it
 * replaced. PostgreSQL (`source_dataset_current`) stays the authority on what is current; the
 * stream records it after the fact: the loader commits the switch first and appends here second.
 * A process can die in between, so `reconcileCurrentSnapshots` appends whatever is missing.
 *
 * Rules (decideRecord, decideRetired):
 * - versions on the stream only go up: a snapshot whose version is not above the highest one
 *   recorded is not appended (a reconcile that read an older current than a concurrent load, a
 *   retry); so a lost event of version 2 stays lost once version 3 is recorded, and version 3
 *   names version 1 as its predecessor: the one the stream (and whatever ran on it) last saw;
 * - a retirement is recorded only for the snapshot the stream holds as current;
 * - event ids derive from the snapshot id and the event type, so a repeated record is recognised
 *   by the command handler ("already applied") and by the store's idempotent append.
 *
 * Dataset names (loadSnapshot's DATASET_PATTERN: lower case letters, digits, `_`, `.`, `-`, never
 * a leading `$`) are valid stream ids for both adapters: the category is everything before the
 * first `-`, always `sourceDataset`.
 */

export const SOURCE_DATASET_CATEGORY = 'sourceDataset';

export function datasetStreamName(dataset: string): string {
  return `${SOURCE_DATASET_CATEGORY}-${dataset}`;
}

export interface SnapshotBecameCurrentData {
  dataset: string;
  snapshotId: string;
  version: number;
  /** The snapshot the stream held as current before this one; null for the first, or after a retirement. */
  previousSnapshotId: string | null;
  format: string;
  publishedAt: string | null;
  entityCount: number;
  countsByTopic: Record<string, number>;
  /** For a delta load, its net change on its base; null for a full list (see snapshotDiff). */
  delta: { added: number; modified: number; deleted: number } | null;
  /** When PostgreSQL made it current (the snapshot's loaded_at), whenever the event is appended. */
  occurredAt: string;
}

export type SnapshotBecameCurrent = { type: 'SnapshotBecameCurrent'; data: SnapshotBecameCurrentData };

export type DatasetRetired = {
  type: 'DatasetRetired';
  data: { dataset: string; snapshotId: string; occurredAt: string };
};

export type DatasetEvent = SnapshotBecameCurrent | DatasetRetired;

export const DATASET_EVENT_TYPES: readonly DatasetEvent['type'][] = [
  'SnapshotBecameCurrent',
  'DatasetRetired',
];

/** What the stream says now: the current snapshot (null before the first and after a retirement). */
export interface DatasetState {
  current: SnapshotBecameCurrentData | null;
  /** The highest version ever recorded (0 for none): versions on the stream only go up. */
  lastVersion: number;
}

export function initialDatasetState(): DatasetState {
  return { current: null, lastVersion: 0 };
}

export function evolveDataset(state: DatasetState, event: DatasetEvent): DatasetState {
  switch (event.type) {
    case 'SnapshotBecameCurrent':
      return { current: event.data, lastVersion: Math.max(state.lastVersion, event.data.version) };
    case 'DatasetRetired':
      return state.current?.snapshotId === event.data.snapshotId ? { ...state, current: null } : state;
  }
}

/** A recorded event of a dataset stream as a domain event, for the reactor that follows them. */
export function toDatasetEvent(recorded: RecordedEvent): DatasetEvent {
  if (!(DATASET_EVENT_TYPES as readonly string[]).includes(recorded.type)) {
    throw new Error(`${recorded.streamName}: unknown event type ${recorded.type}`);
  }
  return { type: recorded.type, data: recorded.data } as DatasetEvent;
}

export const datasetStream: StreamType<DatasetState, DatasetEvent> = {
  category: SOURCE_DATASET_CATEGORY,
  initialState: initialDatasetState,
  evolve: evolveDataset,
  toEvent: toDatasetEvent,
};

const datasetCommands = commandHandler(datasetStream);

/** Fixed: a changed namespace would let a retry append a second event for one snapshot. */
const DATASET_EVENT_NAMESPACE = '9b4e2c71-5f0a-4d3e-8c6b-2a1f7e9d4b50';

export function datasetEventId(type: DatasetEvent['type'], snapshotId: string): string {
  return uuidv5(JSON.stringify([type, snapshotId]), DATASET_EVENT_NAMESPACE);
}

export function snapshotBecameCurrent(
  snapshot: ReadySnapshot,
  previousSnapshotId: string | null,
  delta: Pick<DeltaSummary, 'added' | 'modified' | 'deleted'> | null,
): SnapshotBecameCurrent {
  return {
    type: 'SnapshotBecameCurrent',
    data: {
      dataset: snapshot.dataset,
      snapshotId: snapshot.id,
      version: snapshot.version,
      previousSnapshotId,
      format: snapshot.format,
      publishedAt: snapshot.publishedAt?.toISOString() ?? null,
      entityCount: snapshot.entityCount,
      countsByTopic: snapshot.countsByTopic,
      delta: delta && { added: delta.added, modified: delta.modified, deleted: delta.deleted },
      occurredAt: snapshot.loadedAt.toISOString(),
    },
  };
}

export function decideRecord(
  state: DatasetState,
  snapshot: ReadySnapshot,
  delta: Pick<DeltaSummary, 'added' | 'modified' | 'deleted'> | null,
): Decision<DatasetEvent> {
  if (snapshot.version <= state.lastVersion) return accept();
  return accept(snapshotBecameCurrent(snapshot, state.current?.snapshotId ?? null, delta));
}

export function decideRetired(
  state: DatasetState,
  snapshotId: string,
  occurredAt: Date,
): Decision<DatasetEvent> {
  if (state.current?.snapshotId !== snapshotId) return accept();
  return accept({
    type: 'DatasetRetired',
    data: { dataset: state.current.dataset, snapshotId, occurredAt: occurredAt.toISOString() },
  });
}

/** The appended event, or null when the stream already had it (or a later version). */
export type RecordOutcome = DatasetEvent | null;

/**
 * Records that `snapshot` became current: call it after loadSnapshot returned a new snapshot (not
 * `unchanged`). Safe to repeat and to race with a reconcile.
 */
export async function recordSnapshotBecameCurrent(
  store: EventStore,
  snapshot: ReadySnapshot,
  delta: Pick<DeltaSummary, 'added' | 'modified' | 'deleted'> | null = null,
): Promise<RecordOutcome> {
  const outcome = await datasetCommands.handle(
    store,
    snapshot.dataset,
    (state) => decideRecord(state, snapshot, delta),
    () => datasetEventId('SnapshotBecameCurrent', snapshot.id),
  );
  return outcome.ok ? (outcome.appended[0] ?? null) : null;
}

/**
 * Records the retirement of `snapshot` (retireDataset's answer). When the stream lacks the
 * snapshot's own SnapshotBecameCurrent (lost in a crash), that is recorded first, so the stream
 * shows what was retired.
 */
export async function recordDatasetRetired(
  store: EventStore,
  snapshot: ReadySnapshot,
  occurredAt: Date,
): Promise<RecordOutcome> {
  await recordSnapshotBecameCurrent(store, snapshot);
  const outcome = await datasetCommands.handle(
    store,
    snapshot.dataset,
    (state) => decideRetired(state, snapshot.id, occurredAt),
    () => datasetEventId('DatasetRetired', snapshot.id),
  );
  return outcome.ok ? (outcome.appended[0] ?? null) : null;
}

/** The state of a dataset's stream (current snapshot as recorded, highest version). */
export async function readDatasetStream(store: EventStore, dataset: string): Promise<DatasetState> {
  return (await datasetCommands.load(store, dataset)).state;
}

/**
 * Appends what a crash between PostgreSQL's switch and the append left out: a SnapshotBecameCurrent
 * for every current snapshot newer than its stream's last version, and a DatasetRetired for a
 * dataset the stream holds as current that has no current snapshot any more. One query, plus one
 * stream read per dataset that ever had a ready snapshot; nothing is appended when nothing is
 * missing. For the monitoring worker, on start and now and then.
 */
export async function reconcileCurrentSnapshots(
  db: Queryable,
  store: EventStore,
  clock: Clock = systemClock,
): Promise<DatasetEvent[]> {
  const { rows } = await db.query<{ dataset: string }>(
    "SELECT DISTINCT dataset FROM source_snapshots WHERE status = 'ready' ORDER BY dataset",
  );
  const current = new Map((await currentSnapshots(db)).map((snapshot) => [snapshot.dataset, snapshot]));
  const appended: DatasetEvent[] = [];
  for (const { dataset } of rows) {
    const state = await readDatasetStream(store, dataset);
    const snapshot = current.get(dataset);
    if (snapshot && snapshot.version > state.lastVersion) {
      const event = await recordSnapshotBecameCurrent(store, snapshot);
      if (event) appended.push(event);
    } else if (!snapshot && state.current) {
      const retired = state.current.snapshotId;
      const outcome = await datasetCommands.handle(
        store,
        dataset,
        (latest) => decideRetired(latest, retired, clock()),
        () => datasetEventId('DatasetRetired', retired),
      );
      if (outcome.ok) appended.push(...outcome.appended);
    }
  }
  return appended;
}
