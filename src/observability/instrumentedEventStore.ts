import {
  type EventStore,
  type NewEvent,
  type StreamAppend,
  WrongExpectedVersionError,
} from '../eventStore/eventStore.js';
import type { ServiceMetrics } from './metrics.js';

/**
 * The event store with its appends timed into `casescreen_event_store_append_duration_seconds`;
 * everything else passes through untouched.
 */
export function instrumentEventStore(store: EventStore, metrics: ServiceMetrics): EventStore {
  const timed = async <T>(operation: string, append: () => Promise<T>): Promise<T> => {
    const end = metrics.appendDuration.startTimer({ operation });
    try {
      const result = await append();
      end({ outcome: 'ok' });
      return result;
    } catch (error) {
      end({ outcome: error instanceof WrongExpectedVersionError ? 'conflict' : 'error' });
      throw error;
    }
  };
  return {
    kind: store.kind,
    appendToStream: (streamName: string, events: NewEvent[], options) =>
      timed('appendToStream', () => store.appendToStream(streamName, events, options)),
    appendToStreams: (appends: StreamAppend[]) =>
      timed('appendToStreams', () => store.appendToStreams(appends)),
    readStream: (streamName, options) => store.readStream(streamName, options),
    readFeed: (options) => store.readFeed(options),
    countFeedEvents: (options) => store.countFeedEvents(options),
    subscribe: (options) => store.subscribe(options),
    waitForEvents: (options) => store.waitForEvents(options),
    headCheckpoint: () => store.headCheckpoint(),
    compareCheckpoints: (a, b) => store.compareCheckpoints(a, b),
    identity: () => store.identity(),
    close: () => store.close(),
  };
}
