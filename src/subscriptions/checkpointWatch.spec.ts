import { describe, expect, it } from 'vitest';
import type { Checkpoint } from '../eventStore/eventStore.js';
import { CheckpointTimeoutError, CheckpointWatch } from './checkpointWatch.js';

const at = (n: number) => `0:${n}` as Checkpoint;
const compare = (a: Checkpoint, b: Checkpoint) => Math.sign(Number(a.slice(2)) - Number(b.slice(2)));

describe('CheckpointWatch', () => {
  it('resolves a waiter once a position at or past its own is reached', async () => {
    const watch = new CheckpointWatch(compare);
    let resolved = false;
    const waiting = watch.waitFor(at(5)).then(() => {
      resolved = true;
    });
    watch.advance(at(4));
    await Promise.resolve();
    expect(resolved).toBe(false);
    watch.advance(at(7));
    await waiting;
    expect(resolved).toBe(true);
  });

  it('never moves backwards', () => {
    const watch = new CheckpointWatch(compare);
    watch.advance(at(9));
    watch.advance(at(3));
    expect(watch.current).toBe(at(9));
  });

  it('rejects after the timeout and on abort', async () => {
    const watch = new CheckpointWatch(compare);
    await expect(watch.waitFor(at(1), { timeoutMs: 10 })).rejects.toBeInstanceOf(CheckpointTimeoutError);
    const controller = new AbortController();
    const waiting = watch.waitFor(at(1), { signal: controller.signal });
    controller.abort(new Error('gave up'));
    await expect(waiting).rejects.toThrow('gave up');
  });
});
