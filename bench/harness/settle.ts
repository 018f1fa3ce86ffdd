/**
 * Waits for the machine to go quiet before a measurement: after a seed, PostgreSQL's checkpoint and
 * autovacuum run on; after a start, the server bundles the pages' assets and starts its job queue.
 * Measured during that, the anchor (ping) came out 40 % slower than on a quiet machine, which made
 * every ratio to it look better than it was. Read from /proc/stat (Linux); elsewhere it returns at once.
 */
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** Total and idle jiffies of all CPUs together. */
function cpuTimes(): { total: number; idle: number } | null {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal: idle and iowait are the idle part.
    return { total: fields.slice(0, 8).reduce((sum, value) => sum + value, 0), idle: fields[3]! + fields[4]! };
  } catch {
    return null;
  }
}

/**
 * Resolves once a whole second has passed with the machine at least `idleShare` idle, or after
 * `maxMs` (then it says so, and the run's figures are to be read with that in mind).
 */
export async function settle(idleShare = 0.9, maxMs = 60_000): Promise<void> {
  const started = performance.now();
  while (performance.now() - started < maxMs) {
    const before = cpuTimes();
    await sleep(1000);
    const after = cpuTimes();
    if (before === null || after === null) return;
    const total = after.total - before.total;
    if (total > 0 && (after.idle - before.idle) / total >= idleShare) return;
  }
  console.log(`the machine did not go quiet within ${maxMs / 1000} s: figures measured under other load`);
}
