import { EventEmitter } from 'node:events';
import type { EventStoreDBClient, SubscribeToAllOptions } from '@eventstore/db-client';
import { describe, expect, it, vi } from 'vitest';
import { ringOnNextEvent } from './doorbell.js';

class FakeSubscription extends EventEmitter {
  unsubscribe = vi.fn(async () => undefined);
}

function fakeClient() {
  const subscriptions: { options: SubscribeToAllOptions; subscription: FakeSubscription }[] = [];
  const client = {
    subscribeToAll(options: SubscribeToAllOptions) {
      const subscription = new FakeSubscription();
      subscriptions.push({ options, subscription });
      return subscription;
    },
  } as unknown as EventStoreDBClient;
  return { client, subscriptions };
}

const settled = async (promise: Promise<void>) => {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe('ringOnNextEvent', () => {
  it('subscribes to $all from the end, filtered by stream-name prefix per category', () => {
    const { client, subscriptions } = fakeClient();
    ringOnNextEvent(client, ['case', 'monitoringConfig']);
    expect(subscriptions[0]!.options).toMatchObject({
      fromPosition: 'end',
      filter: { filterOn: 'streamName', prefixes: ['case-', 'monitoringConfig-'] },
    });
    ringOnNextEvent(client);
    expect(subscriptions[1]!.options.filter).toMatchObject({ filterOn: 'eventType', regex: '^[^$].*' });
  });

  it('is ready on confirmation and rings on the first event', async () => {
    const { client, subscriptions } = fakeClient();
    const bell = ringOnNextEvent(client, ['case']);
    const subscription = subscriptions[0]!.subscription;
    expect(await settled(bell.ready)).toBe(false);
    subscription.emit('confirmation');
    expect(await settled(bell.ready)).toBe(true);
    expect(await settled(bell.rung)).toBe(false);
    subscription.emit('data', { event: {} });
    expect(await settled(bell.rung)).toBe(true);
  });

  it('turns a failed subscription into "ready, never rings" instead of an unhandled error', async () => {
    const { client, subscriptions } = fakeClient();
    const bell = ringOnNextEvent(client);
    subscriptions[0]!.subscription.emit('error', new Error('unavailable'));
    expect(await settled(bell.ready)).toBe(true);
    expect(await settled(bell.rung)).toBe(false);
  });

  it('settles both promises and unsubscribes once on close', async () => {
    const { client, subscriptions } = fakeClient();
    const bell = ringOnNextEvent(client);
    await Promise.all([bell.close(), bell.close()]);
    expect(await settled(bell.ready)).toBe(true);
    expect(await settled(bell.rung)).toBe(true);
    expect(subscriptions[0]!.subscription.unsubscribe).toHaveBeenCalledTimes(1);
  });
});
