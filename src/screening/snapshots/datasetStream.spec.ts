import { describe, it } from 'vitest';
import { deciderSpecification } from '../../../test/support/deciderSpecification.js';
import {
  type DatasetEvent,
  type DatasetState,
  decideRecord,
  decideRetired,
  evolveDataset,
  initialDatasetState,
  snapshotBecameCurrent,
} from './datasetStream.js';
import type { ReadySnapshot } from './snapshotStore.js';

// The dataset stream's two commands as the decider specification takes them.
type DatasetCommand =
  | {
      type: 'Record';
      snapshot: ReadySnapshot;
      delta: { added: number; modified: number; deleted: number } | null;
    }
  | { type: 'Retire'; snapshotId: string; at: Date };

const given = deciderSpecification<DatasetCommand, DatasetEvent, DatasetState>({
  decide: (command, state) =>
    command.type === 'Record'
      ? decideRecord(state, command.snapshot, command.delta)
      : decideRetired(state, command.snapshotId, command.at),
  evolve: evolveDataset,
  initialState: initialDatasetState,
});

function snapshot(version: number): ReadySnapshot {
  return {
    id: `snap_${version.toString(16).padStart(32, '0')}`,
    dataset: 'un_sc_sanctions',
    format: 'un-xml',
    status: 'ready',
    version,
    baseSnapshotId: null,
    contentHash: 'f'.repeat(64),
    publishedAt: new Date(Date.UTC(2026, 0, version)),
    missingFiles: [],
    startedAt: new Date(Date.UTC(2026, 0, version, 1)),
    loadedAt: new Date(Date.UTC(2026, 0, version, 2)),
    entityCount: 1000 + version,
    countsByKind: { person: 700 },
    countsByTopic: { sanction: 1000 + version },
    error: null,
  } as ReadySnapshot;
}

const record = (version: number): DatasetCommand => ({
  type: 'Record',
  snapshot: snapshot(version),
  delta: null,
});
const became = (version: number, previous: number | null) =>
  snapshotBecameCurrent(snapshot(version), previous === null ? null : snapshot(previous).id, null);
const retire = (version: number): DatasetCommand => ({
  type: 'Retire',
  snapshotId: snapshot(version).id,
  at: new Date('2026-02-01T00:00:00Z'),
});

describe('the sourceDataset stream', () => {
  it('records the first current snapshot with no previous one', () => {
    given([])
      .when(record(1))
      .then([became(1, null)]);
  });

  it('records a newer version with the one it replaced', () => {
    given([became(1, null)])
      .when(record(2))
      .then([became(2, 1)]);
  });

  it('records a version once, however often it is asked (a repeated load or a reconcile)', () => {
    given([became(1, null), became(2, 1)])
      .when(record(2))
      .thenNothingHappens();
  });

  it('never goes back to an older version: versions on the stream only go up', () => {
    given([became(1, null), became(3, 1)])
      .when(record(2))
      .thenNothingHappens();
  });

  it('retires the current snapshot, and after it a new one has no previous', () => {
    given([became(1, null)])
      .when(retire(1))
      .then([
        {
          type: 'DatasetRetired',
          data: {
            dataset: 'un_sc_sanctions',
            snapshotId: snapshot(1).id,
            occurredAt: '2026-02-01T00:00:00.000Z',
          },
        },
      ]);
    given([
      became(1, null),
      {
        type: 'DatasetRetired',
        data: { dataset: 'un_sc_sanctions', snapshotId: snapshot(1).id, occurredAt: 'x' },
      },
    ])
      .when(record(2))
      .then([became(2, null)]);
  });

  it('retires nothing when the snapshot named is not the current one', () => {
    given([became(1, null), became(2, 1)])
      .when(retire(1))
      .thenNothingHappens();
    given([]).when(retire(1)).thenNothingHappens();
  });
});
