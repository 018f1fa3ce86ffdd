/** Load from another process: one autocannon run per scenario, with the same connections and duration for all. */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

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
}

export const loadSettings = (): LoadSettings => ({
  connections: Number(process.env.BENCH_CONNECTIONS ?? 32),
  seconds: Number(process.env.BENCH_SECONDS ?? 10),
});

export async function measureLoad(
  url: string,
  settings: LoadSettings,
  request: { method?: string; headers?: Record<string, string> } = {},
): Promise<LoadResult> {
  const options = { url, connections: settings.connections, duration: settings.seconds, ...request };
  const { stdout } = await run(process.execPath, [worker, JSON.stringify(options)], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout) as LoadResult;
}
