import { describe, expect, it } from 'vitest';
import type { Checkpoint, RecordedEvent, SubscriptionItem } from '../eventStore/eventStore.js';
import { type FeedBatch, feedBatches } from './feedBatches.js';

const position = (n: number) => `0:${n}` as Checkpoint;

function event(n: number): RecordedEvent {
  return {
    id: `e${n}`,
    type: 'Tested',
    data: {},
    metadata: {},
    streamName: `test-${n}`,
    category: 'test',
    revision: 0n,
    position: position(n),
    recordedAt: new Date(0),
  };
}

const caughtUp = (checkpoint: number | null, scannedTo: number | null): SubscriptionItem => ({
  kind: 'caughtUp',
  checkpoint: checkpoint === null ? null : position(checkpoint),
  scannedTo: scannedTo === null ? null : position(scannedTo),
});

/** A subscription that yields `items`, then ends; `pulled` counts the items handed out so far. */
function scriptedSubscription(items: SubscriptionItem[]) {
  const state = { pulled: 0 };
  async function* subscription(): AsyncGenerator<SubscriptionItem> {
    for (const item of items) {
      state.pulled += 1;
      yield item;
    }
  }
  return { state, subscription: subscription() };
}

const describeBatch = (batch: FeedBatch) =>
  `${batch.events.map((e) => e.id).join(',') || '-'}${batch.caughtUp ? ` | caughtUp ${batch.caughtUp.scannedTo}` : ''}`;

describe('feedBatches', () => {
  it('cuts a batch at batchSize events and where the subscription catches up', async () => {
    const { subscription } = scriptedSubscription([
      event(1),
      event(2),
      event(3),
      event(4),
      event(5),
      caughtUp(5, 9),
      event(10),
      caughtUp(10, 10),
    ]);
    const batches: string[] = [];
    for await (const batch of feedBatches(subscription, 2)) batches.push(describeBatch(batch));
    expect(batches).toEqual(['e1,e2', 'e3,e4', 'e5 | caughtUp 0:9', 'e10 | caughtUp 0:10']);
  });

  it('hands over a caughtUp with nothing new as an empty batch, so the runner still passes the head', async () => {
    const { subscription } = scriptedSubscription([event(1), event(2), caughtUp(2, 4), caughtUp(2, 7)]);
    const batches: string[] = [];
    for await (const batch of feedBatches(subscription, 2)) batches.push(describeBatch(batch));
    expect(batches).toEqual(['e1,e2', '- | caughtUp 0:4', '- | caughtUp 0:7']);
  });

  it('drops events the subscription delivered without catching up when it ends (read again on restart)', async () => {
    const { subscription } = scriptedSubscription([event(1), event(2), event(3)]);
    const batches: string[] = [];
    for await (const batch of feedBatches(subscription, 2)) batches.push(describeBatch(batch));
    expect(batches).toEqual(['e1,e2']);
  });

  it('reads nothing ahead while a batch is being handled, and ends the subscription when left', async () => {
    const { state, subscription } = scriptedSubscription([event(1), event(2), event(3), caughtUp(3, 3)]);
    const batches = feedBatches(subscription, 2);
    const first = await batches.next();
    expect(first.done).toBe(false);
    expect(state.pulled).toBe(2);
    await batches.return(undefined);
    expect(state.pulled).toBe(2);
    expect(await subscription.next()).toEqual({ done: true, value: undefined });
  });
});
