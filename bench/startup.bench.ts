/**
 * Start-up and idle memory of `node src/main.ts`, on the engine the environment names: the time from
 * spawning the process to its first 200 of /api/ping, and its resident memory once idle (10 s after
 * that answer), and the first 200 of /health/ready (the job queue runs, since 2026-11-29 started after the
 * first answer), on a fresh database (migrations and the job queue's schema are created) and on a warm
 * one (started again on the same data). Beside each time, the CPU the server had used by its first answer
 * (from /proc: on a machine busy with other work the clock time grows, the CPU time much less). On PGlite
 * a fresh start copies the migrated template `npm ci` made (made here first if missing, outside the
 * measure), and a fresh start without one (DATABASE_TEMPLATE_DIR empty: initdb and every migration) is
 * measured too. Env: DATABASE_URL, STARTUP_BENCH_RUNS (2), STARTUP_BENCH_IDLE_SECONDS (10).
 */
import { loadavg } from 'node:os';
import { databaseTemplateDirOf } from '../src/config.ts';
import { ensurePgliteTemplate } from '../src/platform/db/pglite-template.ts';
import { createScratchDatabase } from './harness/scratch-database.ts';
import { startServer } from './harness/server.ts';

const runs = Number(process.env.STARTUP_BENCH_RUNS ?? 2);
const idleSeconds = Number(process.env.STARTUP_BENCH_IDLE_SECONDS ?? 10);
const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';

/** Waits for the first 200 of /health/ready (the job queue runs). */
async function waitForReady(url: string): Promise<void> {
  const deadline = Date.now() + 300_000; // a first start on a machine busy with other work
  while (Date.now() < deadline) {
    const response = await fetch(`${url}/health/ready`).catch(() => null);
    if (response?.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${url}/health/ready did not answer 200 within 300 s`);
}

async function measureStart(env: Record<string, string>) {
  const server = await startServer(env);
  const answeredAt = performance.now();
  await waitForReady(server.url);
  const readyMs = server.firstAnswerMs + (performance.now() - answeredAt);
  const readyCpuMs = server.cpuMs();
  await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
  const rss = server.rssMb();
  await server.stop();
  return { firstAnswerMs: server.firstAnswerMs, cpuMs: server.firstAnswerCpuMs, readyMs, readyCpuMs, rss };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
type Start = Awaited<ReturnType<typeof measureStart>>;
const times = (start: Start) =>
  `${seconds(start.firstAnswerMs)} (CPU ${seconds(start.cpuMs)}) | ${seconds(start.readyMs)} (CPU ${seconds(start.readyCpuMs)}) | ${Math.round(start.rss)} MB`;

/**
 * Starts on an empty database (PGlite: an empty DATA_DIR, created at start): the first fresh, the
 * others warm on the same data.
 */
async function startsOnEmpty(env: Record<string, string>, count: number): Promise<Start[]> {
  const scratch = await createScratchDatabase(async () => {}, { migrate: false });
  try {
    const starts: Start[] = [];
    for (let n = 0; n < count; n++) starts.push(await measureStart({ ...scratch.serverEnv, ...env }));
    return starts;
  } finally {
    await scratch.drop();
  }
}

const templateDir = engine === 'PGlite' ? databaseTemplateDirOf() : null;
if (templateDir !== null) await ensurePgliteTemplate(templateDir);
const rows: string[] = [];
for (let run = 1; run <= runs; run++) {
  const [fresh, warm] = (await startsOnEmpty({}, 2)) as [Start, Start];
  const [untemplated] = templateDir === null ? [] : await startsOnEmpty({ DATABASE_TEMPLATE_DIR: '' }, 1);
  rows.push(
    `| ${run} | ${times(fresh)} | ${times(warm)} |${untemplated === undefined ? '' : ` ${times(untemplated)} |`}`,
  );
}
const [load1, load5] = loadavg();
console.log(
  `\n${engine}, ${new Date().toISOString().slice(0, 10)}, idle RSS ${idleSeconds} s after the first answer; ` +
    `load average ${load1!.toFixed(2)} (1 min), ${load5!.toFixed(2)} (5 min) at the end\n`,
);
const columns = (start: string) => [`${start}: first answer`, `${start}: ready`, `${start}: idle RSS`];
const headings = [
  'run',
  ...columns('fresh'),
  ...columns('warm'),
  ...(templateDir === null ? [] : columns('fresh, no template')),
];
console.log(`| ${headings.join(' | ')} |`);
console.log(
  `|---|${headings
    .slice(1)
    .map(() => '---:|')
    .join('')}`,
);
for (const row of rows) console.log(row);
