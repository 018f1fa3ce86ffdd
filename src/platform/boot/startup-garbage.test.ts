import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { describe, it } from 'node:test';
import v8 from 'node:v8';
import { collectStartupGarbage, eventLoopQuiet } from './startup-garbage.ts';

const youngGenerationBytes = () =>
  v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')!.physical_space_size;

/** Short-lived objects, as loading modules makes: they fill the young generation and die there. */
function makeGarbage(): number {
  let kept = 0;
  for (let i = 0; i < 2_000_000; i++) kept += { index: i, label: `item ${i}` }.label.length;
  return kept;
}

/** A quiet-moment probe that answers `quiet` at once, counting its calls (no measure of this machine's load). */
function probe(quiet: boolean) {
  const quietWindow = async () => {
    quietWindow.calls += 1;
    await new Promise(setImmediate);
    return quiet;
  };
  quietWindow.calls = 0;
  return quietWindow;
}

describe('start-up garbage', () => {
  it('waits for the start-up work, then gives the young generation back at a quiet moment', async () => {
    makeGarbage();
    const before = youngGenerationBytes();
    let finishWork!: () => void;
    const work = new Promise<void>((resolve) => {
      finishWork = resolve;
    });
    const quiet = probe(true);
    const collecting = collectStartupGarbage([work], 10_000, quiet);
    await new Promise(setImmediate);
    assert.equal(quiet.calls, 0, 'no quiet moment is looked for before the start-up work ends');
    finishWork();
    const result = await collecting;
    assert.equal(quiet.calls, 1);
    assert.equal(result.collected, true);
    assert.ok(youngGenerationBytes() < before, `young generation ${youngGenerationBytes()} bytes, ${before} before`);
    assert.equal(typeof result.rssAfterMb, 'number');
    // No global gc is left behind for other modules to call.
    assert.equal(typeof (globalThis as { gc?: unknown }).gc, 'undefined');
  });

  it('leaves the memory alone when no quiet moment comes before the deadline (a server busy from its start)', async () => {
    const busy = probe(false);
    const result = await collectStartupGarbage([Promise.resolve()], 50, busy);
    assert.equal(result.collected, false);
    assert.equal(result.rssAfterMb, undefined);
    assert.ok(busy.calls >= 1);
  });

  it('does not call an event loop kept busy quiet, however loaded the machine', async () => {
    // A loop that never yields is busy whatever else runs on the machine: its utilization is its own.
    let busy = true;
    const spin = () => {
      const until = performance.now() + 20;
      while (performance.now() < until) {
        // the event loop is kept busy, as by requests arriving without pause
      }
      if (busy) setImmediate(spin);
    };
    spin();
    try {
      assert.equal(await eventLoopQuiet(), false);
    } finally {
      busy = false;
    }
  });
});
