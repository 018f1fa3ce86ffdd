/**
 * The benchmarks' allocation count (bench/harness/allocations.ts, BENCH_COUNT=allocations): a process
 * started with the sampler reports what a request allocated on V8's heap, and where.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type AllocationSampler, allocationSampler, allocationsPerRequest } from '../../bench/harness/allocations.ts';

describe('the allocations a request makes, as the benchmarks count them', () => {
  let sampler: AllocationSampler;
  let server: ReturnType<typeof spawn>;
  let url: string;
  before(async () => {
    sampler = allocationSampler();
    const script = fileURLToPath(new URL('./fixtures/allocating-server.ts', import.meta.url));
    server = spawn(process.execPath, [...sampler.flags, script], {
      env: { ...process.env, ...sampler.env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const port = await new Promise<string>((resolve, reject) => {
      server.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
      server.once('exit', (code) => reject(new Error(`the fixture server exited (${code}) before printing its port`)));
    });
    url = `http://127.0.0.1:${port}`;
  });
  after(async () => {
    const exited = once(server, 'exit');
    server.kill('SIGTERM');
    await exited;
    sampler.remove();
  });

  it('counts what a request allocates and names where in the code', async () => {
    const big = await allocationsPerRequest(sampler, server.pid!, `${url}/big`);
    const small = await allocationsPerRequest(sampler, server.pid!, `${url}/small`);
    const [largest] = big.sites;
    // allocateBig, or the handler it was inlined into: a function of the fixture, its path from the checkout on.
    assert.match(largest!.site, /^\S+ test\/bench\/fixtures\/allocating-server\.ts:\d+$/);
    // 4,096 slots of 8 bytes and the array's header, give or take the sampling's estimate.
    assert.ok(
      Math.abs(largest!.bytesPerRequest - 32_800) < 32_800 * 0.15,
      `allocateBig: ${largest!.bytesPerRequest} B`,
    );
    assert.ok(
      Math.abs(big.bytesPerRequest - small.bytesPerRequest - 32_800) < 32_800 * 0.25,
      `the difference between the two paths: ${big.bytesPerRequest} - ${small.bytesPerRequest} B`,
    );
    assert.ok(small.bytesPerRequest < 32_800 / 2, `/small: ${small.bytesPerRequest} B`);
  });
});
