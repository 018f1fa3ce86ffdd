import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import v8 from 'node:v8';
import { collectStartupGarbage } from './startup-garbage.ts';

const youngGenerationBytes = () =>
  v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')!.physical_space_size;

/** Short-lived objects, as loading modules makes: they fill the young generation and die there. */
function makeGarbage(): number {
  let kept = 0;
  for (let i = 0; i < 2_000_000; i++) kept += { index: i, label: `item ${i}` }.label.length;
  return kept;
}

describe('start-up garbage', () => {
  it('waits for the start-up work, then gives the young generation back at a quiet moment', async () => {
    makeGarbage();
    const before = youngGenerationBytes();
    let workDone = false;
    const work = new Promise<void>((resolve) =>
      setTimeout(() => {
        workDone = true;
        resolve();
      }, 50),
    );
    const result = await collectStartupGarbage([work], 10_000);
    assert.equal(workDone, true);
    assert.equal(result.collected, true);
    assert.ok(youngGenerationBytes() < before, `young generation ${youngGenerationBytes()} bytes, ${before} before`);
    assert.equal(typeof result.rssAfterMb, 'number');
    // No global gc is left behind for other modules to call.
    assert.equal(typeof (globalThis as { gc?: unknown }).gc, 'undefined');
  });

  it('leaves the memory alone when the event loop never goes quiet (a server busy from its start)', async () => {
    let busy = true;
    const spin = () => {
      const until = Date.now() + 20;
      while (Date.now() < until) {
        // the event loop is kept busy, as by requests arriving without pause
      }
      if (busy) setImmediate(spin);
    };
    spin();
    try {
      const result = await collectStartupGarbage([Promise.resolve()], 1_500);
      assert.equal(result.collected, false);
      assert.equal(result.rssAfterMb, undefined);
    } finally {
      busy = false;
    }
  });
});
