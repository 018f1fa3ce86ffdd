/**
 * One memory-reducing garbage collection once the server has started and gone quiet. Loading about
 * a thousand modules, compiling schemas and opening the database leave some 100 MB of garbage in V8's
 * young generation, which V8 grows during start-up and keeps at that size until allocation resumes:
 * an idle server held it for as long as it stayed idle (on PGlite 380 to 400 MB resident, about 270
 * after this collection; docs/benchmarks.md, start-up). Under load the young generation grows again
 * to what the load needs, as it would have anyway.
 *
 * The collection stops the event loop for 50 to 150 ms, so it waits for a quiet moment (half a second
 * with the event loop under 5 % busy) and is skipped when none comes within `maxWaitMs`: a server
 * busy from its first second has no idle memory to give back.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import v8 from 'node:v8';
import vm from 'node:vm';

type GarbageCollection = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

const quietWindowMs = 500;
const quietUtilization = 0.05;

/**
 * V8's gc() without starting Node with --expose-gc: the flag is set for the moment a new context
 * reads the function, then cleared, so no module ever sees a global gc.
 */
function garbageCollection(): GarbageCollection {
  v8.setFlagsFromString('--expose-gc');
  try {
    return vm.runInNewContext('gc') as GarbageCollection;
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
}

export interface StartupGarbageResult {
  collected: boolean;
  /** Resident memory before and after, in MB (before only when skipped). */
  rssBeforeMb: number;
  rssAfterMb?: number;
  pauseMs?: number;
}

const residentMb = () => Math.round(process.memoryUsage.rss() / 1_048_576);

/** Waits one window, then tells whether the event loop stayed quiet through it. */
export type QuietWindow = () => Promise<boolean>;

/** The event loop under 5 % busy for half a second. */
export const eventLoopQuiet: QuietWindow = async () => {
  const before = performance.eventLoopUtilization();
  await sleep(quietWindowMs);
  return performance.eventLoopUtilization(before).utilization < quietUtilization;
};

/** Waits for `startedWork` (the start-up's background work), then for a quiet moment, then collects. */
export async function collectStartupGarbage(
  startedWork: Promise<unknown>[],
  maxWaitMs = 15_000,
  quietWindow: QuietWindow = eventLoopQuiet,
): Promise<StartupGarbageResult> {
  await Promise.allSettled(startedWork);
  const deadline = performance.now() + maxWaitMs;
  for (;;) {
    if (await quietWindow()) break;
    if (performance.now() >= deadline) return { collected: false, rssBeforeMb: residentMb() };
  }
  const rssBeforeMb = residentMb();
  const started = performance.now();
  garbageCollection()({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return {
    collected: true,
    rssBeforeMb,
    rssAfterMb: residentMb(),
    pauseMs: Math.round(performance.now() - started),
  };
}
