import {
  AccessDeniedError,
  convertToCommandError,
  StreamDeletedError as EsdbStreamDeletedError,
  WrongExpectedVersionError as EsdbWrongExpectedVersionError,
} from '@eventstore/db-client';
import { Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import {
  AppendOutcomeUnknownError,
  AppendTooLargeError,
  EventStoreUnavailableError,
  IdempotencyMismatchError,
  StreamDeletedError,
  WrongExpectedVersionError,
} from '../eventStore.js';
import { mapAppendError, mapReadError } from './clientErrors.js';

/** A failed gRPC call as @grpc/grpc-js reports it, turned into the client's error as the client does. */
function clientError(code: status, details: string, metadata: Record<string, string> = {}): unknown {
  const meta = new Metadata();
  for (const [key, value] of Object.entries(metadata)) meta.add(key, value);
  const serviceError = Object.assign(new Error(`${code} ${status[code]}: ${details}`), {
    code,
    details,
    metadata: meta,
  }) as ServiceError;
  return convertToCommandError(serviceError);
}

function wrongVersion(
  expected: 'any' | 'no_stream' | 'stream_exists' | bigint,
  current: 'no_stream' | bigint,
) {
  return new EsdbWrongExpectedVersionError(undefined, { streamName: 'case-1', expected, current });
}

const notLeader = () =>
  clientError(status.NOT_FOUND, 'Leader info available', {
    exception: 'not-leader',
    'leader-endpoint-host': 'node2',
    'leader-endpoint-port': '2113',
  });
const notReady = () => clientError(status.UNAVAILABLE, 'Server Is Not Ready');
const connectionDropped = () => clientError(status.UNAVAILABLE, 'Connection dropped');
const deadline = () => clientError(status.DEADLINE_EXCEEDED, 'Deadline exceeded');
const discoveryFailed = () => new Error('Failed to discover after 10 attempts.');

describe('EventStoreDB client errors as the port sees them', () => {
  it('maps a conflict to the port error with -1 for a missing stream', () => {
    const missing = mapAppendError(wrongVersion('stream_exists', 'no_stream'), 'case-1', 'stream_exists');
    expect(missing).toBeInstanceOf(WrongExpectedVersionError);
    expect(missing).toMatchObject({ streamName: 'case-1', expected: 'stream_exists', actual: -1n });
    expect(mapAppendError(wrongVersion('no_stream', 3n), 'case-1', 'no_stream')).toMatchObject({
      expected: 'no_stream',
      actual: 3n,
    });
    const behind = mapAppendError(wrongVersion(1n, 2n), 'case-1', 1n);
    expect(behind).toBeInstanceOf(WrongExpectedVersionError);
    expect(behind).toMatchObject({ expected: 1n, actual: 2n });
  });

  it('reads a conflict under any or stream_exists on an existing stream as a partly repeated append', () => {
    expect(mapAppendError(wrongVersion('any', 4n), 'case-1', 'any')).toBeInstanceOf(IdempotencyMismatchError);
    expect(mapAppendError(wrongVersion('stream_exists', 4n), 'case-1', 'stream_exists')).toBeInstanceOf(
      IdempotencyMismatchError,
    );
  });

  it("maps the server's append size refusal, with the server's limit", () => {
    const refused = mapAppendError(
      clientError(status.INVALID_ARGUMENT, 'Maximum Append Size Of 524288 Exceeded.', {
        exception: 'maximum-append-size-exceeded',
        'maximum-append-size': '524288',
      }),
      'case-1',
      0n,
    );
    expect(refused).toBeInstanceOf(AppendTooLargeError);
    expect(refused).toMatchObject({ streamName: 'case-1', bytes: null, limitBytes: 524_288 });
  });

  it('answers "not written, try again" where the server refused before doing anything', () => {
    for (const make of [notLeader, notReady, discoveryFailed]) {
      const error = make();
      for (const mapped of [mapAppendError(error, 'case-1', 0n), mapReadError(error)]) {
        expect(mapped).toBeInstanceOf(EventStoreUnavailableError);
        expect((mapped as Error).cause).toBe(error);
      }
    }
    expect((mapAppendError(notLeader(), 'case-1', 0n) as Error).message).toContain('node2:2113');
    expect((mapReadError(notReady()) as Error).message).toContain('not ready');
  });

  it('answers "outcome unknown" for an append sent without an answer, "unavailable" for such a read', () => {
    for (const make of [connectionDropped, deadline]) {
      const error = make();
      const append = mapAppendError(error, 'case-1', 0n);
      expect(append).toBeInstanceOf(AppendOutcomeUnknownError);
      expect(append).toMatchObject({ streamName: 'case-1', cause: error });
      expect(mapReadError(error)).toBeInstanceOf(EventStoreUnavailableError);
    }
  });

  it("maps a deleted stream to the port's StreamDeletedError, for appends and reads", () => {
    const deleted = clientError(status.FAILED_PRECONDITION, "Event stream 'case-1' is deleted.", {
      exception: 'stream-deleted',
      'stream-name': 'case-1',
    });
    expect(deleted).toBeInstanceOf(EsdbStreamDeletedError);
    for (const mapped of [mapAppendError(deleted, 'case-1', 'any'), mapReadError(deleted)]) {
      expect(mapped).toBeInstanceOf(StreamDeletedError);
      expect(mapped).toMatchObject({ streamName: 'case-1', cause: deleted });
    }
  });

  it('passes other errors through unchanged', () => {
    const denied = clientError(status.PERMISSION_DENIED, 'Access denied', { exception: 'access-denied' });
    expect(denied).toBeInstanceOf(AccessDeniedError);
    expect(mapAppendError(denied, 'case-1', 0n)).toBe(denied);
    expect(mapReadError(denied)).toBe(denied);
    const plain = new Error('a bug');
    expect(mapAppendError(plain, 'case-1', 0n)).toBe(plain);
    expect(mapReadError(plain)).toBe(plain);
  });
});
