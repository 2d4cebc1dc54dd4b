import type { EventStore, ExpectedRevision, StreamAppend } from '../../src/eventStore/eventStore.js';

/**
 * The store as the service's commands get it in API tests: an append that does not name the exact
 * place it writes to (a revision, or `no_stream`) fails the request. Only such appends are
 * deduplicated on a retry by every store (docs/event-store.md, "When a retried append is a no-op"),
 * so a command path that appends with `any` or `stream_exists` shows up here as a failing test.
 */
export function explicitRevisionsOnly(store: EventStore): EventStore {
  const check = (streamName: string, expected: ExpectedRevision | undefined) => {
    if (typeof expected !== 'bigint' && expected !== 'no_stream') {
      throw new Error(
        `A command appended to ${streamName} with expected revision ${String(expected ?? 'any (default)')}: commands must name the revision they read`,
      );
    }
  };
  return {
    ...store,
    kind: store.kind,
    appendToStream(streamName, events, options) {
      check(streamName, options?.expectedRevision);
      return store.appendToStream(streamName, events, options);
    },
    appendToStreams(appends: StreamAppend[]) {
      for (const append of appends) check(append.streamName, append.expectedRevision);
      return store.appendToStreams(appends);
    },
  };
}
