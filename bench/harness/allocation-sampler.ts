/**
 * Loaded with `--import` into the service's and the twin's process when a run counts allocations
 * (BENCH_COUNT=allocations, allocations.ts). SIGUSR2 starts V8's sampling heap profiler on every object
 * allocated, those the collector frees included (by default the profiler keeps only what is still
 * alive, which says nothing of a request's garbage), and says so in BENCH_ALLOCATION_PROFILE`.started`;
 * the next SIGUSR2 stops it and writes the profile to BENCH_ALLOCATION_PROFILE (whole, then renamed, so
 * the harness never reads half of it).
 */
import { renameSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

const target = process.env.BENCH_ALLOCATION_PROFILE;
if (!target) throw new Error('allocation-sampler.ts needs BENCH_ALLOCATION_PROFILE');

/** One object in this many bytes allocated is sampled, at random: small enough for a request's objects. */
const samplingIntervalBytes = 1024;

const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');
let sampling = false;

process.on('SIGUSR2', async () => {
  if (!sampling) {
    sampling = true;
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: samplingIntervalBytes,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    writeFileSync(`${target}.started`, '');
    return;
  }
  sampling = false;
  const { profile } = await session.post('HeapProfiler.stopSampling');
  writeFileSync(`${target}.partial`, JSON.stringify(profile));
  renameSync(`${target}.partial`, target);
});
