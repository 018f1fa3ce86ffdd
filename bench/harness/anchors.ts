/**
 * What every figure is compared with, measured in the same run: a bare node:http hello-world in its
 * own process, ping through Fastify alone (bare, and with a logger and the access line; PostgreSQL
 * only; counted under callgrind with BENCH_COUNT=instructions), @fastify/static serving a file (for
 * the media routes), and PostgreSQL's own `pgbench -S` (select-only, simple and prepared protocol)
 * when the binary is there and the engine is PostgreSQL.
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { endsWithBenchmark } from './children.ts';
import { countPerRequest, type InstructionCount, underCallgrind } from './instructions.ts';
import { type LoadResult, type LoadSettings, measureLoad } from './load.ts';

const run = promisify(execFile);

/** The command that runs an anchor server script of this folder with `args`. */
const anchorCommand = (script: string, args: string[]): string[] => [
  process.execPath,
  fileURLToPath(new URL(script, import.meta.url)),
  ...args,
];

/**
 * Runs an anchor (`command`: anchorCommand's, or it under callgrind) in its own process, gives `use`
 * its URL for `path` and its pid, and has stopped it when it returns.
 */
async function withAnchor<T>(
  [command, ...commandArgs]: string[],
  path: string,
  use: (url: string, pid: number) => Promise<T>,
): Promise<T> {
  const child = endsWithBenchmark(spawn(command!, commandArgs, { stdio: ['ignore', 'pipe', 'inherit'] }));
  const exited = once(child, 'exit');
  try {
    const port = await Promise.race([
      once(child.stdout!, 'data').then(([chunk]) => String(chunk).trim()),
      exited.then(([code]) =>
        Promise.reject(new Error(`the anchor ${commandArgs.join(' ')} exited (${code}) before listening`)),
      ),
    ]);
    return await use(`http://127.0.0.1:${port}${path}`, child.pid!);
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  }
}

/**
 * Measures `path` on an anchor, after `warmUpSeconds` of unmeasured load (its JIT, its pool's
 * connections and prepared statements, as the service's warm-up does).
 */
const measureAnchor = (
  script: string,
  args: string[],
  path: string,
  settings: LoadSettings,
  warmUpSeconds = 0,
): Promise<LoadResult> =>
  withAnchor(anchorCommand(script, args), path, async (url) => {
    if (warmUpSeconds > 0) await measureLoad(url, { ...settings, seconds: warmUpSeconds });
    return measureLoad(url, settings);
  });

export const measureHelloWorld = (settings: LoadSettings): Promise<LoadResult> =>
  measureAnchor('./hello-server.ts', [], '/', settings);

/** Ping's answer (its bytes and content type), which the Fastify anchor sends. */
export interface PingAnswer {
  body: Buffer;
  contentType: string;
}

const fastifyPingArgs = (databaseUrl: string, poolSize: number, answer: PingAnswer, mode: 'bare' | 'logged') => [
  databaseUrl,
  String(poolSize),
  answer.body.toString('base64'),
  answer.contentType,
  mode,
];

/**
 * Ping through Fastify alone (fastify-ping-server.ts): ping's statement and bytes, `bare` or `logged`
 * (a logger and the access line), on a pool of `poolSize` connections to `databaseUrl`.
 */
export const measureFastifyPing = (
  databaseUrl: string,
  poolSize: number,
  answer: PingAnswer,
  mode: 'bare' | 'logged',
  settings: LoadSettings,
): Promise<LoadResult> =>
  measureAnchor(
    './fastify-ping-server.ts',
    fastifyPingArgs(databaseUrl, poolSize, answer, mode),
    '/api/ping',
    settings,
    2,
  );

/** The same, counted (BENCH_COUNT=instructions): its instructions a request under callgrind, as the service's are. */
export async function countFastifyPing(
  databaseUrl: string,
  poolSize: number,
  answer: PingAnswer,
  mode: 'bare' | 'logged',
): Promise<InstructionCount> {
  const command = anchorCommand('./fastify-ping-server.ts', fastifyPingArgs(databaseUrl, poolSize, answer, mode));
  const callgrind = underCallgrind(command, process.env);
  try {
    // Counted as the service's ping, without its tables by function (the run prints the service's).
    return await withAnchor(callgrind.command, '/api/ping', (url, pid) =>
      countPerRequest(callgrind, pid, url, {}, false),
    );
  } finally {
    callgrind.remove();
  }
}

/** @fastify/static serving `file` (a path inside `root`). */
export const measureStaticFile = (root: string, file: string, settings: LoadSettings): Promise<LoadResult> =>
  measureAnchor('./static-server.ts', [root], `/static/${file}`, settings);

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
