/**
 * Start-up and idle memory of `node src/main.ts`, on the engine the environment names: the time from
 * spawning the process to its first 200 of /api/ping, and its resident memory once idle (10 s after
 * that answer), on a fresh database (migrations and the job queue's schema are created) and on a warm
 * one (started again on the same data). Env: DATABASE_URL, STARTUP_BENCH_RUNS (2), STARTUP_BENCH_IDLE_SECONDS (10).
 */
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
  return { firstAnswerMs: server.firstAnswerMs, rss };
}

const rows: string[] = [];
for (let run = 1; run <= runs; run++) {
  // An empty database: the server migrates it itself (PGlite: an empty DATA_DIR, created at start).
  const scratch = await createScratchDatabase(async () => {}, { migrate: false });
  try {
    const fresh = await measureStart(scratch.serverEnv);
    const warm = await measureStart(scratch.serverEnv);
    rows.push(
      `| ${run} | ${(fresh.firstAnswerMs / 1000).toFixed(2)} s | ${Math.round(fresh.rss)} MB | ${(warm.firstAnswerMs / 1000).toFixed(2)} s | ${Math.round(warm.rss)} MB |`,
    );
  } finally {
    await scratch.drop();
  }
}
console.log(
  `\n${engine}, ${new Date().toISOString().slice(0, 10)}, idle RSS ${idleSeconds} s after the first answer\n`,
);
console.log('| run | fresh: first answer | fresh: idle RSS | warm: first answer | warm: idle RSS |');
console.log('|---|---:|---:|---:|---:|');
for (const row of rows) console.log(row);
