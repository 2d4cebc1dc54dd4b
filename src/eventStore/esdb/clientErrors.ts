/**
 * @eventstore/db-client's errors as the port's. What matters to a caller is whether anything was
 * written: a refusal the server gave before doing anything (not the leader, not ready, unreachable)
 * is EventStoreUnavailableError, safe to retry; a call that was sent and got no answer is, for an
 * append, AppendOutcomeUnknownError, resolved by reading the stream.
 */
import {
  CancelledError,
  DeadlineExceededError,
  StreamDeletedError as EsdbStreamDeletedError,
  WrongExpectedVersionError as EsdbWrongExpectedVersionError,
  MaxAppendSizeExceededError,
  NotLeaderError,
  TimeoutError,
  UnavailableError,
  UnknownError,
} from '@eventstore/db-client';
import {
  AppendOutcomeUnknownError,
  AppendTooLargeError,
  EventStoreUnavailableError,
  type ExpectedRevision,
  IdempotencyMismatchError,
  StreamDeletedError,
  WrongExpectedVersionError,
} from '../eventStore.js';
import { fromCurrentRevision } from './mapping.js';

/** The server's answer while it starts, or while a node has not joined its cluster yet. */
const NOT_READY = /server is not ready/i;
/** What the client throws when its reconnection (gossip discovery) found no node to talk to. */
const DISCOVERY_FAILED = /^Failed to discover after \d+ attempts/;

/** The call never did anything on the server: it refused, or was never reached. */
function refusalBeforeAnything(error: unknown): EventStoreUnavailableError | null {
  if (error instanceof NotLeaderError) {
    return new EventStoreUnavailableError(
      `EventStoreDB node is not the leader (leader: ${error.leader.address}:${error.leader.port}); the client reconnects to the leader`,
      { cause: error },
    );
  }
  if (error instanceof Error && NOT_READY.test(error.message)) {
    return new EventStoreUnavailableError(
      'EventStoreDB is not ready yet (starting, or joining its cluster)',
      {
        cause: error,
      },
    );
  }
  if (error instanceof Error && DISCOVERY_FAILED.test(error.message)) {
    return new EventStoreUnavailableError(`EventStoreDB cannot be reached: ${error.message}`, {
      cause: error,
    });
  }
  return null;
}

/** A call that may have reached the server and got no answer: lost connection, deadline, cancel. */
function unanswered(error: unknown): boolean {
  return (
    error instanceof UnavailableError ||
    error instanceof DeadlineExceededError ||
    error instanceof TimeoutError ||
    error instanceof CancelledError ||
    error instanceof UnknownError
  );
}

/**
 * Maps an append failure to the port's errors; anything unrecognised (access denied, a bug) passes
 * through unchanged. With `any` or `stream_exists` the server only reports a
 * conflict on an existing stream when the append repeats some, but not all, of an earlier append's
 * ids ("corrupted idempotency").
 */
export function mapAppendError(error: unknown, streamName: string, expected: ExpectedRevision): unknown {
  if (error instanceof EsdbWrongExpectedVersionError) {
    const actual = fromCurrentRevision(error.actualVersion);
    if ((expected === 'any' || expected === 'stream_exists') && actual >= 0n) {
      return new IdempotencyMismatchError(streamName);
    }
    return new WrongExpectedVersionError(streamName, expected, actual);
  }
  if (error instanceof EsdbStreamDeletedError) return new StreamDeletedError(streamName, { cause: error });
  if (error instanceof MaxAppendSizeExceededError) {
    return new AppendTooLargeError(streamName, null, error.maxAppendSize);
  }
  const refused = refusalBeforeAnything(error);
  if (refused) return refused;
  if (unanswered(error)) return new AppendOutcomeUnknownError(streamName, { cause: error });
  return error;
}

/** Maps a read failure: whatever kept the server from answering makes it unavailable for now. */
export function mapReadError(error: unknown): unknown {
  if (error instanceof EsdbStreamDeletedError) {
    return new StreamDeletedError(error.streamName, { cause: error });
  }
  const refused = refusalBeforeAnything(error);
  if (refused) return refused;
  if (unanswered(error)) {
    return new EventStoreUnavailableError(
      `EventStoreDB did not answer a read: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  return error;
}
