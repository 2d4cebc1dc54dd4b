import { describe, expect, it } from 'vitest';
import { inSlices } from './sweep.js';

describe('inSlices', () => {
  it('yields to the event loop after each stretch of calls that reached the slice, never inside a call', async () => {
    const steps: string[] = [];
    let clock = 0;
    await inSlices(
      ['a', 'b', 'c', 'd', 'e'],
      (item) => {
        steps.push(item);
        // b and d take long; the others nothing.
        clock += item === 'b' || item === 'd' ? 25 : 0;
      },
      {
        sliceMs: 20,
        now: () => clock,
        yieldNow: async () => {
          steps.push('yield');
        },
      },
    );
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
    await inSlices(
      [1, 2, 3],
      (item) => {
        order.push(`item ${item}`);
        clock += 30;
      },
      { sliceMs: 20, now: () => clock },
    );
    await other;
    expect(order.indexOf('other')).toBeGreaterThan(0);
    expect(order.indexOf('other')).toBeLessThan(order.indexOf('item 3'));
  });
});
