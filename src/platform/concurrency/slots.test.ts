import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Slots } from './slots.ts';

describe('Slots', () => {
  it('runs at most its size at once, the others in their order of arrival, and frees a slot on failure', async () => {
    const slots = new Slots(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const task = (n: number) => async () => {
      running += 1;
      most = Math.max(most, running);
      await new Promise(setImmediate); // holds the slot while the others arrive
      running -= 1;
      order.push(n);
      if (n === 2) throw new Error('task 2 failed');
      return n;
    };
    const results = await Promise.allSettled([1, 2, 3, 4, 5].map((n) => slots.run(task(n))));
    assert.equal(most, 2);
    assert.deepEqual(order.slice(2), [3, 4, 5]);
    assert.deepEqual(
      results.map((result) => result.status),
      ['fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled'],
    );
    assert.equal(await slots.run(async () => 'free again'), 'free again');
  });
});
