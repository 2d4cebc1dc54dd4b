import { listenToChannel } from '../db/notifications.js';
import { sleep } from '../shared/sleep.js';
import type { KeyCache, KeyChange } from './keyCache.js';

/** The channel migration 0012's triggers announce key changes on. */
export const KEY_CHANGES_CHANNEL = 'api_key_changes';

/** A notification's payload as a change; undefined for anything else (treated as "something was lost"). */
export function parseKeyChange(payload: unknown): KeyChange | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const { epoch, prefixes } = payload as { epoch?: unknown; prefixes?: unknown };
  if (typeof epoch !== 'string' || !/^\d+$/.test(epoch)) return undefined;
  if (prefixes === null) return { epoch: BigInt(epoch), prefixes: 'all' };
  if (!Array.isArray(prefixes) || !prefixes.every((p) => typeof p === 'string')) return undefined;
  return { epoch: BigInt(epoch), prefixes };
}

/**
 * Keeps `cache` in step with the key changes of every process: a LISTEN session of its own (its
 * first connection retried until it succeeds), and after every (re)connection the current epoch read
 * through `readEpoch` (after LISTEN is in place, so no change falls between the two). From a lost
 * connection until then the cache is bypassed.
 */
export function listenForKeyChanges(
  connectionString: string,
  cache: KeyCache,
  readEpoch: () => Promise<bigint>,
): { close(): Promise<void> } {
  const closing = new AbortController();
  // Bumped on every connection loss: an epoch read begun before it must not resume the cache.
  let connection = 0;
  cache.disconnected();

  const resync = async () => {
    const mine = ++connection;
    for (let attempt = 0; !closing.signal.aborted && mine === connection; attempt++) {
      try {
        const epoch = await readEpoch();
        if (mine === connection && !closing.signal.aborted) cache.resumed(epoch);
        return;
      } catch {
        await sleep(Math.min(5000, 100 * 2 ** attempt), closing.signal);
      }
    }
  };

  const listening = listenToChannel(connectionString, KEY_CHANGES_CHANNEL, {
    notification: (payload) => {
      const change = parseKeyChange(payload);
      if (change) {
        cache.changed(change);
      } else {
        cache.disconnected();
        void resync();
      }
    },
    connected: () => void resync(),
    reconnecting: () => {
      connection++;
      cache.disconnected();
    },
  });
  return {
    async close() {
      closing.abort();
      connection++;
      cache.disconnected();
      await listening.close();
    },
  };
}
