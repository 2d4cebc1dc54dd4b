import { describe, expect, it } from 'vitest';
import { inSlices } from './sweep.js';

describe('inSlices', () => {
  it('yields to the event loop after each stretch of steps that reached the slice, never inside a step', async () => {
    const steps: string[] = [];
    let clock = 0;
    function* work() {
      for (const item of ['a', 'b', 'c', 'd', 'e']) {
        steps.push(item);
        // b and d take long; the others nothing.
        clock += item === 'b' || item === 'd' ? 25 : 0;
        yield;
      }
    }
    await inSlices(work(), {
      sliceMs: 20,
      now: () => clock,
      yieldNow: async () => {
        steps.push('yield');
      },
    });
    expect(steps).toEqual(['a', 'b', 'yield', 'c', 'd', 'yield', 'e']);
  });

  it('lets other work run between the stretches', async () => {
    const order: string[] = [];
    let clock = 0;
    const other = new Promise<void>((resolve) =>
      setImmediate(() => {
        order.push('other');
        resolve();
      }),
    );
    function* work() {
      for (const item of [1, 2, 3]) {
        order.push(`item ${item}`);
        clock += 30;
        yield;
      }
    }
    await inSlices(work(), { sliceMs: 20, now: () => clock });
    await other;
    expect(order.indexOf('other')).toBeGreaterThan(0);
    expect(order.indexOf('other')).toBeLessThan(order.indexOf('item 3'));
  });
});
