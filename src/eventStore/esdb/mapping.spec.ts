import {
  type RecordedEvent as EsdbRecordedEvent,
  StreamDeletedError,
  StreamNotFoundError,
} from '@eventstore/db-client';
import { describe, expect, it } from 'vitest';
import { assignEventIds, type Checkpoint } from '../eventStore.js';
import {
  compareCheckpoints,
  comparePositions,
  decodePosition,
  encodePosition,
  feedCategory,
  fromCurrentRevision,
  isOnFeed,
  isStreamNotFound,
  lastRevisionFromRead,
  toEsdbExpectedRevision,
  toEventData,
  toRecordedEvent,
} from './mapping.js';

const cp = (value: string) => value as Checkpoint;
const UUID = '5f0a3c1e-8d7b-4e2a-9c41-2b6f0e9d7a13';

describe('expected revision', () => {
  it('maps the port values to the client constants and passes revisions through', () => {
    expect(toEsdbExpectedRevision('any')).toBe('any');
    expect(toEsdbExpectedRevision('no_stream')).toBe('no_stream');
    expect(toEsdbExpectedRevision('stream_exists')).toBe('stream_exists');
    expect(toEsdbExpectedRevision(0n)).toBe(0n);
    expect(toEsdbExpectedRevision(41n)).toBe(41n);
  });

  it('refuses a negative revision instead of sending it as a huge unsigned one', () => {
    expect(() => toEsdbExpectedRevision(-1n)).toThrow(TypeError);
  });

  it('reads the server current revision, with no_stream as -1', () => {
    expect(fromCurrentRevision('no_stream')).toBe(-1n);
    expect(fromCurrentRevision(7n)).toBe(7n);
  });
});

describe('positions', () => {
  it('encodes commit:prepare and decodes it back', () => {
    const position = { commit: 18_446_744_073_709_551_000n, prepare: 12n };
    expect(encodePosition(position)).toBe('18446744073709551000:12');
    expect(decodePosition(encodePosition(position))).toEqual(position);
  });

  it('refuses checkpoints it did not make', () => {
    for (const bad of ['', '12', '1:2:3', 'a:b', '-1:0', ' 1:2']) {
      expect(() => decodePosition(cp(bad))).toThrow(TypeError);
    }
  });

  it('compares numerically, commit first, then prepare', () => {
    expect(compareCheckpoints(cp('9:9'), cp('10:0'))).toBe(-1);
    expect(compareCheckpoints(cp('10:0'), cp('9:9'))).toBe(1);
    expect(compareCheckpoints(cp('10:10'), cp('10:9'))).toBe(1);
    expect(compareCheckpoints(cp('10:9'), cp('10:10'))).toBe(-1);
    expect(compareCheckpoints(cp('10:10'), cp('10:10'))).toBe(0);
    expect(
      comparePositions({ commit: 2n ** 63n, prepare: 0n }, { commit: 2n ** 63n + 1n, prepare: 0n }),
    ).toBe(-1);
  });
});

describe('event ids and data', () => {
  it('keeps supplied ids (lower-cased) and generates the missing ones', () => {
    let n = 0;
    const generate = () => `00000000-0000-4000-8000-00000000000${n++}`;
    const ids = assignEventIds(
      'case-1',
      [
        { id: UUID.toUpperCase(), type: 'A', data: {} },
        { type: 'B', data: {} },
      ],
      generate,
    );
    expect(ids).toEqual([UUID, '00000000-0000-4000-8000-000000000000']);
  });

  it('refuses ids that are not UUIDs, and the same id twice in one append', () => {
    expect(() => assignEventIds('case-1', [{ id: 'not-a-uuid', type: 'A', data: {} }], () => UUID)).toThrow(
      TypeError,
    );
    expect(() =>
      assignEventIds(
        'case-1',
        [
          { id: UUID, type: 'A', data: {} },
          { id: UUID, type: 'B', data: {} },
        ],
        () => UUID,
      ),
    ).toThrow(TypeError);
  });

  it('writes JSON events, with null data and empty metadata when absent', () => {
    expect(toEventData({ type: 'Opened', data: { a: 1 }, metadata: { actor: 'x' } }, UUID)).toEqual({
      id: UUID,
      contentType: 'application/json',
      type: 'Opened',
      data: { a: 1 },
      metadata: { actor: 'x' },
    });
    expect(toEventData({ type: 'Noted', data: undefined }, UUID)).toMatchObject({ data: null, metadata: {} });
  });
});

describe('read errors', () => {
  it('recognises a missing stream on read', () => {
    expect(isStreamNotFound(new StreamNotFoundError(undefined, 'case-1'))).toBe(true);
    expect(isStreamNotFound(StreamDeletedError.fromStreamName('case-1'))).toBe(false);
    expect(isStreamNotFound(new Error('stream-not-found'))).toBe(false);
  });
});

describe('last revision from a read', () => {
  const forwards = { direction: 'forwards' as const, fromRevision: undefined, maxCount: undefined };
  const backwards = { direction: 'backwards' as const, fromRevision: undefined, maxCount: undefined };

  it('is the last event of a forwards read that ran into the end', () => {
    expect(lastRevisionFromRead(forwards, [0n, 1n, 2n])).toBe(2n);
    expect(lastRevisionFromRead({ ...forwards, fromRevision: 2n, maxCount: 5 }, [2n, 3n])).toBe(3n);
  });

  it('is unknown when a forwards read stopped at maxCount or returned nothing', () => {
    expect(lastRevisionFromRead({ ...forwards, maxCount: 2 }, [0n, 1n])).toBeNull();
    expect(lastRevisionFromRead({ ...forwards, fromRevision: 9n }, [])).toBeNull();
  });

  it('is the first event of a backwards read from the end, and unknown from elsewhere', () => {
    expect(lastRevisionFromRead({ ...backwards, maxCount: 2 }, [4n, 3n])).toBe(4n);
    expect(lastRevisionFromRead({ ...backwards, fromRevision: 1n }, [1n, 0n])).toBeNull();
    expect(lastRevisionFromRead(backwards, [])).toBeNull();
  });
});

describe('feed membership', () => {
  it('leaves out system events, system streams and streams not named <category>-<id>', () => {
    expect(feedCategory('case-1', 'Opened')).toBe('case');
    expect(feedCategory('monitoringConfig-a-b', 'Created')).toBe('monitoringConfig');
    expect(feedCategory('$ce-case', '$>')).toBeNull();
    expect(feedCategory('$$case-1', '$metadata')).toBeNull();
    expect(feedCategory('case-1', '$metadata')).toBeNull();
    expect(feedCategory('$stats-127.0.0.1:2113', 'StatsCollected')).toBeNull();
    expect(feedCategory('legacy_stream', 'Something')).toBeNull();
  });

  it('filters by category when categories are given', () => {
    expect(isOnFeed('case-1', 'Opened')).toBe(true);
    expect(isOnFeed('case-1', 'Opened', ['case'])).toBe(true);
    expect(isOnFeed('case-1', 'Opened', ['subject'])).toBe(false);
    expect(isOnFeed('case-1', 'Opened', [])).toBe(false);
    // A prefix is not a category.
    expect(isOnFeed('cases-1', 'Opened', ['case'])).toBe(false);
  });
});

describe('recorded events', () => {
  const base = {
    streamId: 'case-42',
    id: UUID,
    isJson: true as const,
    revision: 3n,
    type: 'Opened',
    created: new Date('2025-01-02T03:04:05.678Z'),
    data: { a: 1 },
    metadata: { actor: 'x' },
    position: { commit: 100n, prepare: 90n },
  };

  it('maps every field, with the category from the stream name', () => {
    expect(toRecordedEvent(base as EsdbRecordedEvent)).toEqual({
      id: UUID,
      type: 'Opened',
      data: { a: 1 },
      metadata: { actor: 'x' },
      streamName: 'case-42',
      category: 'case',
      revision: 3n,
      position: '100:90',
      recordedAt: new Date('2025-01-02T03:04:05.678Z'),
    });
  });

  it('gives empty metadata when there is none or it is not a JSON object', () => {
    for (const metadata of [undefined, new Uint8Array([1, 2]), ['a'], 'text']) {
      expect(toRecordedEvent({ ...base, metadata } as EsdbRecordedEvent).metadata).toEqual({});
    }
  });

  it('refuses an event without a position (servers before 22.6)', () => {
    expect(() => toRecordedEvent({ ...base, position: undefined } as EsdbRecordedEvent)).toThrow(/position/);
  });
});
