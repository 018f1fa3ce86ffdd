/**
 * The service under test in its own process, started the way `npm start` starts it (node src/main.ts)
 * with the given environment, plus what a benchmark reads of it: the time from spawning to the first
 * 200 of /api/ping, and its resident memory. It logs at production's level (`info`: a line a request)
 * into a file, as a production server logs into whatever collects its output; the file's end is
 * shown if the server fails to start.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AllocationSampler, allocationSampler, countingAllocations } from './allocations.ts';
import { endsWithBenchmark } from './children.ts';
import { checkoutDir, cpuMsOf } from './cpu.ts';
import { type Callgrind, countingInstructions, underCallgrind } from './instructions.ts';

const passedThrough = ['DATABASE_POOL_SIZE', 'SESSION_CACHE_SECONDS', 'REDIS_URL', 'PGOPTIONS'];

export interface ServerProcess {
  url: string;
  pid: number;
  /** From spawning the process to the first 200 of /api/ping. */
  firstAnswerMs: number;
  /** The CPU time the process had used by then (its own, all threads): a busy machine slows the clock, not this. */
  firstAnswerCpuMs: number;
  /** The CPU time it has used so far. */
  cpuMs(): number;
  rssMb(): number;
  /** Its instruction counters, when it runs under callgrind (BENCH_COUNT=instructions, instructions.ts). */
  callgrind: Callgrind | null;
  /** Its allocation sampler, when the run counts allocations (BENCH_COUNT=allocations, allocations.ts). */
  allocations: AllocationSampler | null;
  stop(): Promise<void>;
}

/** A port free at this moment on loopback. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Resident memory of a process, from /proc (Linux). */
export function rssMbOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

async function waitForPing(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 600_000; // a first start under callgrind, on a machine busy with other work
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output()}`);
    try {
      const response = await fetch(`${url}/api/ping`);
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`the server did not answer within 600 s:\n${output()}`);
}

/**
 * `counted`: counted as the run counts (BENCH_COUNT): under callgrind (instructions.ts) or with the
 * allocation sampler (allocations.ts); by default when the run counts.
 */
export async function startServer(
  env: Record<string, string>,
  { counted = countingInstructions() || countingAllocations() }: { counted?: boolean } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  // BENCH_SERVER_FLAGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", profiles the server.
  const allocations = counted && countingAllocations() ? allocationSampler() : null;
  const flags = [...(process.env.BENCH_SERVER_FLAGS?.split(' ').filter(Boolean) ?? []), ...(allocations?.flags ?? [])];
  const childEnv = {
    PATH: process.env.PATH ?? '',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: url,
    RATE_LIMITS: 'off',
    // As in production: answers written by JSON.stringify alone (src/platform/http/serialization.ts).
    CHECK_ANSWERS: 'off',
    LOG_LEVEL: 'info',
    // Settings a run may vary, passed through from the benchmark's environment.
    ...Object.fromEntries(passedThrough.flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : []))),
    ...env,
    ...allocations?.env,
  };
  const plain = [process.execPath, ...flags, 'src/main.ts'];
  const callgrind = counted && countingInstructions() ? underCallgrind(plain, childEnv) : null;
  const [command, ...args] = callgrind?.command ?? plain;
  const logFolder = mkdtempSync(join(tmpdir(), 'tms-server-'));
  const logFile = join(logFolder, 'server.log');
  const log = openSync(logFile, 'a');
  const child = endsWithBenchmark(
    spawn(command!, args, { cwd: checkoutDir, env: childEnv, stdio: ['ignore', log, log] }),
  );
  closeSync(log);
  await waitForPing(url, child, () => readFileSync(logFile, 'utf8').slice(-20_000));
  const firstAnswerMs = performance.now() - started;
  const firstAnswerCpuMs = cpuMsOf(child.pid!);
  return {
    url,
    pid: child.pid!,
    firstAnswerMs,
    firstAnswerCpuMs,
    cpuMs: () => cpuMsOf(child.pid!),
    rssMb: () => rssMbOf(child.pid!),
    callgrind,
    allocations,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(logFolder, { recursive: true, force: true });
      callgrind?.remove();
      allocations?.remove();
    },
  };
}
