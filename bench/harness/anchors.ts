/**
 * What every figure is compared with, measured in the same run: a bare node:http hello-world in its
 * own process, and PostgreSQL's own `pgbench -S` (select-only, simple and prepared protocol) when the
 * binary is there and the engine is PostgreSQL.
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type LoadResult, type LoadSettings, measureLoad } from './load.ts';

const run = promisify(execFile);

export async function measureHelloWorld(settings: LoadSettings): Promise<LoadResult> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./hello-server.ts', import.meta.url))], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  try {
    return await measureLoad(`http://127.0.0.1:${chunk.toString().trim()}/`, settings);
  } finally {
    child.kill('SIGTERM');
  }
}

export interface PgbenchResult {
  mode: 'simple' | 'prepared';
  tps: number;
}

/** pgbench -S on a scratch database (scale 1), or null without the binary. */
export async function measurePgbench(url: string, settings: LoadSettings): Promise<PgbenchResult[] | null> {
  try {
    await run('pgbench', ['--version']);
  } catch {
    return null;
  }
  await run('pgbench', ['-i', '-s', '1', '-q', url]);
  const results: PgbenchResult[] = [];
  for (const mode of ['simple', 'prepared'] as const) {
    const { stdout } = await run('pgbench', [
      '-S',
      '-M',
      mode,
      '-c',
      String(settings.connections),
      '-j',
      '2',
      '-T',
      String(settings.seconds),
      url,
    ]);
    const tps = Number(/tps = ([\d.]+)/.exec(stdout)?.[1] ?? 0);
    results.push({ mode, tps });
  }
  return results;
}
