/**
 * Start-up and idle memory of `node src/main.ts`, on the engine the environment names: the time from
 * spawning the process to its first 200 of /api/ping, and its resident memory once idle (10 s after
 * that answer), on a fresh database (migrations and the job queue's schema are created) and on a warm
 * one (started again on the same data). Beside each time, the CPU the server had used by its first answer
 * (from /proc: on a machine busy with other work the clock time grows, the CPU time much less). Env: DATABASE_URL, STARTUP_BENCH_RUNS (2), STARTUP_BENCH_IDLE_SECONDS (10).
 */
import { loadavg } from 'node:os';
import { createScratchDatabase } from './harness/scratch-database.ts';
import { startServer } from './harness/server.ts';

const runs = Number(process.env.STARTUP_BENCH_RUNS ?? 2);
const idleSeconds = Number(process.env.STARTUP_BENCH_IDLE_SECONDS ?? 10);
const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';

async function measureStart(env: Record<string, string>) {
  const server = await startServer(env);
  await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
  const rss = server.rssMb();
  await server.stop();
  return { firstAnswerMs: server.firstAnswerMs, cpuMs: server.firstAnswerCpuMs, rss };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const rows: string[] = [];
for (let run = 1; run <= runs; run++) {
  // An empty database: the server migrates it itself (PGlite: an empty DATA_DIR, created at start).
  const scratch = await createScratchDatabase(async () => {}, { migrate: false });
  try {
    const fresh = await measureStart(scratch.serverEnv);
    const warm = await measureStart(scratch.serverEnv);
    rows.push(
      `| ${run} | ${seconds(fresh.firstAnswerMs)} (CPU ${seconds(fresh.cpuMs)}) | ${Math.round(fresh.rss)} MB | ${seconds(warm.firstAnswerMs)} (CPU ${seconds(warm.cpuMs)}) | ${Math.round(warm.rss)} MB |`,
    );
  } finally {
    await scratch.drop();
  }
}
const [load1, load5] = loadavg();
console.log(
  `\n${engine}, ${new Date().toISOString().slice(0, 10)}, idle RSS ${idleSeconds} s after the first answer; ` +
    `load average ${load1!.toFixed(2)} (1 min), ${load5!.toFixed(2)} (5 min) at the end\n`,
);
console.log('| run | fresh: first answer | fresh: idle RSS | warm: first answer | warm: idle RSS |');
console.log('|---|---:|---:|---:|---:|');
for (const row of rows) console.log(row);
