import type { Checkpoint } from '../eventStore.js';

/** A feed position: the writer's transaction id and the row's global position, compared in that order. */
export interface FeedPosition {
  transactionId: bigint;
  globalPosition: bigint;
}

export const FEED_START: FeedPosition = { transactionId: 0n, globalPosition: 0n };

export function encodePosition(position: FeedPosition): Checkpoint {
  return `${position.transactionId}:${position.globalPosition}` as Checkpoint;
}

export function decodePosition(checkpoint: Checkpoint): FeedPosition {
  const match = /^(\d+):(\d+)$/.exec(checkpoint);
  if (!match) throw new TypeError(`Not a PostgreSQL feed checkpoint: "${checkpoint}"`);
  return { transactionId: BigInt(match[1]!), globalPosition: BigInt(match[2]!) };
}

export function comparePositions(a: Checkpoint, b: Checkpoint): -1 | 0 | 1 {
  const x = decodePosition(a);
  const y = decodePosition(b);
  if (x.transactionId !== y.transactionId) return x.transactionId < y.transactionId ? -1 : 1;
  if (x.globalPosition !== y.globalPosition) return x.globalPosition < y.globalPosition ? -1 : 1;
  return 0;
}
