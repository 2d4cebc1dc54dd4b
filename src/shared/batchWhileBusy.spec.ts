import { describe, expect, it } from 'vitest';
import { batchWhileBusy } from './batchWhileBusy.js';

/** A write whose calls the test sees and finishes when it chooses. */
function controlledWrite() {
  const calls: { items: number[]; finish(): void; fail(error: Error): void }[] = [];
  const write = (items: number[]) =>
    new Promise<string[]>((resolve, reject) => {
      calls.push({
        items,
        finish: () => resolve(items.map((item) => `wrote ${item}`)),
        fail: reject,
      });
    });
  return { calls, write };
}

describe('batchWhileBusy', () => {
  it('writes the first item at once, alone, and those that arrive meanwhile together next', async () => {
    const { calls, write } = controlledWrite();
    const add = batchWhileBusy(write, 10);
    const first = add(1);
    expect(calls.map((call) => call.items)).toEqual([[1]]);
    const later = [add(2), add(3), add(4)];
    expect(calls).toHaveLength(1);

    calls[0]!.finish();
    expect(await first).toBe('wrote 1');
    expect(calls.map((call) => call.items)).toEqual([[1], [2, 3, 4]]);
    calls[1]!.finish();
    expect(await Promise.all(later)).toEqual(['wrote 2', 'wrote 3', 'wrote 4']);
  });

  it('writes at most maxBatch items at once', async () => {
    const { calls, write } = controlledWrite();
    const add = batchWhileBusy(write, 2);
    const all = [1, 2, 3, 4, 5].map((item) => add(item));
    calls[0]!.finish();
    await all[0];
    calls[1]!.finish();
    await all[2];
    calls[2]!.finish();
    expect(await Promise.all(all)).toHaveLength(5);
    expect(calls.map((call) => call.items)).toEqual([[1], [2, 3], [4, 5]]);
  });

  it('rejects the items of a failed write only, and writes the next batch', async () => {
    const { calls, write } = controlledWrite();
    const add = batchWhileBusy(write, 10);
    const first = add(1);
    const second = add(2);
    calls[0]!.fail(new Error('the database is away'));
    await expect(first).rejects.toThrow('the database is away');
    calls[1]!.finish();
    expect(await second).toBe('wrote 2');
  });

  it('starts again at once after an idle spell', async () => {
    const { calls, write } = controlledWrite();
    const add = batchWhileBusy(write, 10);
    const first = add(1);
    calls[0]!.finish();
    await first;
    const next = add(2);
    expect(calls.map((call) => call.items)).toEqual([[1], [2]]);
    calls[1]!.finish();
    expect(await next).toBe('wrote 2');
  });

  it('rejects a write that returns the wrong number of results', async () => {
    const add = batchWhileBusy(async () => [], 10);
    await expect(add(1)).rejects.toThrow('a batch of 1 was written with 0 results');
  });
});
