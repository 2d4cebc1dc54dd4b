import { sleep } from '../../shared/sleep.js';
import { EventStoreUnavailableError } from '../eventStore.js';

/**
 * Waits before the attempts after the first of a call the server refused before doing anything:
 * about two and a half seconds in all, what a leader election or a node finishing its start-up
 * takes. The client reconnects meanwhile (to the leader it was told of, or the same node).
 */
export const DEFAULT_UNAVAILABLE_RETRY_DELAYS_MS: readonly number[] = [100, 400, 2_000];

/**
 * Runs `operation` again while it fails with EventStoreUnavailableError, after each of `delaysMs`;
 * then the error goes to the caller. Only that error: it means nothing was done, so a retry is safe
 * for appends as for reads. An append whose outcome is unknown is never retried here (its caller
 * reads the stream to settle it).
 */
export async function retryWhileUnavailable<T>(
  operation: () => Promise<T>,
  delaysMs: readonly number[],
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      const delay = delaysMs[attempt];
      if (!(error instanceof EventStoreUnavailableError) || delay === undefined) throw error;
      await sleep(delay);
    }
  }
}
