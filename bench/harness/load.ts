/** Load from another process: one autocannon run per scenario, with the same connections and duration for all. */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { cpuSnapshot, cpuSpent, type ThreadsCpu } from './cpu.ts';

const run = promisify(execFile);
const worker = fileURLToPath(new URL('./load-worker.ts', import.meta.url));

export interface LoadSettings {
  connections: number;
  seconds: number;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  /** Answers that were not 2xx, errors and timeouts: a scenario with any is not a valid figure. */
  bad: number;
  /** CPU microseconds per answered request, by process, and the server's by thread (see cpu.ts). */
  cpuPerRequest: { server: number; database: number; load: number; serverThreads: ThreadsCpu };
}

export const loadSettings = (): LoadSettings => ({
  connections: Number(process.env.BENCH_CONNECTIONS ?? 32),
  seconds: Number(process.env.BENCH_SECONDS ?? 10),
});

/** What the load worker (load-worker.ts) prints of one autocannon run. */
type WorkerSummary = Omit<LoadResult, 'cpuPerRequest'> & { requests: number; loadCpuMs: number; badKinds: string };

/** One autocannon run with these options (duration or amount), in the worker's own process. */
export async function runLoadWorker(options: Record<string, unknown>): Promise<WorkerSummary> {
  const { stdout } = await run(process.execPath, [worker, JSON.stringify(options)], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout) as WorkerSummary;
}

export async function measureLoad(
  url: string,
  settings: LoadSettings,
  request: { method?: string; headers?: Record<string, string> } = {},
): Promise<LoadResult> {
  const options = { url, connections: settings.connections, duration: settings.seconds, ...request };
  const before = cpuSnapshot();
  const measured = await runLoadWorker(options);
  const spent = cpuSpent(before, cpuSnapshot());
  const perRequest = (ms: number) => (measured.requests > 0 ? (ms * 1000) / measured.requests : 0);
  return {
    rps: measured.rps,
    p50: measured.p50,
    p99: measured.p99,
    bad: measured.bad,
    cpuPerRequest: {
      server: perRequest(spent.server),
      database: perRequest(spent.database),
      load: perRequest(measured.loadCpuMs),
      serverThreads: {
        mainUser: perRequest(spent.serverThreads.mainUser),
        mainSystem: perRequest(spent.serverThreads.mainSystem),
        otherThreads: perRequest(spent.serverThreads.otherThreads),
      },
    },
  };
}
