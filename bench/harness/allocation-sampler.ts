/**
 * Loaded with `--import` into the service's and the twin's process when a run counts allocations
 * (BENCH_COUNT=allocations, allocations.ts). SIGUSR2 starts V8's sampling heap profiler on every object
 * allocated, those the collector frees included (by default the profiler keeps only what is still
 * alive, which says nothing of a request's garbage), and says so in BENCH_ALLOCATION_PROFILE`.started`;
 * the next SIGUSR2 stops it and writes the profile to BENCH_ALLOCATION_PROFILE (whole, then renamed, so
 * the harness never reads half of it). What fails is written to BENCH_ALLOCATION_PROFILE`.failed`.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

const target: string = process.env.BENCH_ALLOCATION_PROFILE ?? '';
if (target === '') throw new Error('allocation-sampler.ts needs BENCH_ALLOCATION_PROFILE');

/** One object in this many bytes allocated is sampled, at random: small enough for a request's objects. */
const samplingIntervalBytes = 1024;

const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');
let sampling = false;

/** Starts sampling, or stops it and writes the profile; a failure is written where the harness waits. */
async function toggle(): Promise<void> {
  if (!sampling) {
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: samplingIntervalBytes,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    sampling = true;
    writeFileSync(`${target}.started`, '');
    return;
  }
  const { profile } = await session.post('HeapProfiler.stopSampling');
  sampling = false;
  writeFileSync(`${target}.partial`, JSON.stringify(profile));
  renameSync(`${target}.partial`, target);
}

process.on('SIGUSR2', () => {
  toggle().catch((error: Error) => writeFileSync(`${target}.failed`, String(error.stack ?? error)));
});
