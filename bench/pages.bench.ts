/**
 * The web pages on the demo world (issue 15): how long `npm run cli -- seed:demo` takes (run as an
 * operator runs it, in its own process, variants rendered), then for each page its time to first
 * byte (sequential GETs from this process to the server in its own process: the time until the
 * answer's headers arrive, after a warm-up) and its weight as a browser loads it (Debian's chromium
 * through playwright-core, a fresh profile per page, 1280×800: the bytes transferred for the document,
 * stylesheets, scripts, images and data requests, until the network is idle; lazy images below the
 * fold are not loaded, as for a visitor who does not scroll). Without /usr/bin/chromium only the
 * times are measured.
 * Then each page under load (BENCH_CONNECTIONS, BENCH_SECONDS) against ping and, on PostgreSQL, its
 * floor twin (harness/twin.ts).
 * Env: DATABASE_URL, PAGES_BENCH_REQUESTS (40 per page), BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_ONLY.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { loadSettings } from './harness/load.ts';
import { machineLine, type Row } from './harness/report.ts';
import { measureScenarios, scenariosTable } from './harness/scenarios.ts';
import { createScratchDatabase } from './harness/scratch-database.ts';
import { startServer } from './harness/server.ts';

const requests = Number(process.env.PAGES_BENCH_REQUESTS ?? 40);
const settings = loadSettings();
const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
const root = fileURLToPath(new URL('..', import.meta.url));
const chromiumPath = '/usr/bin/chromium';

const pages = [
  '/',
  '/explorer',
  '/travel',
  '/travel?country=PT',
  '/sustainable-tourism',
  '/how-it-works',
  '/commissions',
  '/login',
  '/@amelie.voyage',
];

/** Runs seed:demo in its own process; its report and the wall-clock seconds. */
async function seed(env: Record<string, string>): Promise<{ seconds: number; report: Record<string, unknown> }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['src/cli.ts', 'seed:demo', '--json'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`seed:demo exited ${code}:\n${stderr}`);
  return { seconds: (performance.now() - started) / 1000, report: JSON.parse(stdout) };
}

const pageHeaders = { accept: 'text/html', 'accept-language': 'en-US' };

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

/** Time to first byte of `count` sequential GETs (after 5 unmeasured), and the HTML's size. */
async function timeToFirstByte(url: string, count: number) {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < count + 5; i += 1) {
    const started = performance.now();
    const response = await fetch(url, { headers: pageHeaders });
    const ttfb = performance.now() - started;
    const body = await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
    bytes = body.byteLength;
    if (i >= 5) times.push(ttfb);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p90: percentile(times, 0.9), htmlBytes: bytes };
}

type Kind = 'document' | 'stylesheet' | 'script' | 'image' | 'data' | 'other';

/** The bytes a fresh browser transfers to show the page (first screen), by kind, and the request count. */
async function weigh(browser: import('playwright-core').Browser, url: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const sizes: Array<Promise<{ kind: Kind; bytes: number }>> = [];
  page.on('requestfinished', (request) => {
    const type = request.resourceType();
    const kind: Kind =
      type === 'document' || type === 'stylesheet' || type === 'script' || type === 'image'
        ? type
        : type === 'fetch' || type === 'xhr'
          ? 'data'
          : 'other';
    sizes.push(request.sizes().then((size) => ({ kind, bytes: size.responseBodySize + size.responseHeadersSize })));
  });
  await page.goto(url, { waitUntil: 'networkidle', timeout: 120_000 });
  if (url.includes('/explorer')) await page.waitForSelector('.leaflet-marker-icon', { timeout: 120_000 });
  await page.waitForLoadState('networkidle');
  const done = await Promise.all(sizes);
  await context.close();
  const byKind: Record<Kind, number> = { document: 0, stylesheet: 0, script: 0, image: 0, data: 0, other: 0 };
  for (const { kind, bytes } of done) byKind[kind] += bytes;
  return { byKind, total: done.reduce((sum, { bytes }) => sum + bytes, 0), requests: done.length };
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

const [loadOne, loadFive] = loadavg();
const scratch = await createScratchDatabase(async () => {}, { migrate: false });
try {
  const seeded = await seed(scratch.serverEnv);
  const report = seeded.report as { users: number; photos: number; follows: number; likes: number; comments: number };
  console.log(`seed:demo: ${seeded.seconds.toFixed(1)} s, ${JSON.stringify(seeded.report)}`);
  const server = await startServer(scratch.serverEnv);
  const browser = existsSync(chromiumPath)
    ? await chromium.launch({
        executablePath: chromiumPath,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
        headless: true,
      })
    : null;
  const rows: string[] = [];
  let loadRows: Row[] = [];
  try {
    for (const path of pages) {
      const url = `${server.url}${path}`;
      // The weight first: a fresh browser, as a first visit; then the times, warm.
      const weight = browser === null ? null : await weigh(browser, url);
      const times = await timeToFirstByte(url, requests);
      const cells =
        weight === null
          ? ['–', '–', '–', '–', '–', '–', '–']
          : [
              kb(weight.byKind.document),
              kb(weight.byKind.stylesheet),
              kb(weight.byKind.script),
              kb(weight.byKind.image),
              kb(weight.byKind.data + weight.byKind.other),
              kb(weight.total),
              String(weight.requests),
            ];
      rows.push(
        `| \`${path}\` | ${times.p50.toFixed(1)} | ${times.p90.toFixed(1)} | ${kb(times.htmlBytes)} | ${cells.join(' | ')} |`,
      );
    }
    // Under load, each page against its floor twin (PostgreSQL), with ping as the anchor.
    loadRows = await measureScenarios({ server, databaseUrl: scratch.url, serverEnv: scratch.serverEnv, settings }, [
      { title: 'GET /api/ping (anchor)', path: '/api/ping' },
      ...pages.map((path) => ({ title: `\`${path}\``, path, headers: pageHeaders })),
    ]);
  } finally {
    await browser?.close();
    await server.stop();
  }
  console.log(
    `\n${engine}, ${new Date().toISOString().slice(0, 10)}: seed:demo took ${seeded.seconds.toFixed(1)} s ` +
      `(${report.users} users, ${report.photos} photos, ${report.follows} follows, ${report.likes} likes, ` +
      `${report.comments} comments, variants rendered); ${requests} GETs a page for the times; ` +
      `${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.version}; load average ` +
      `${loadOne!.toFixed(2)} (1 min), ${loadFive!.toFixed(2)} (5 min) at the start\n`,
  );
  console.log(
    '| page | TTFB p50 (ms) | TTFB p90 (ms) | HTML (KB, uncompressed) | document (KB sent) | CSS | JS | images | data | total (KB) | requests |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const row of rows) console.log(row);
  if (loadRows.length > 0) console.log(`\n${machineLine(engine, settings)}\n\n${scenariosTable(loadRows)}`);
} finally {
  await scratch.drop();
}
