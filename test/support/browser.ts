/**
 * The browser tests' harness: Debian's chromium driven by playwright-core, against the service
 * listening on loopback (a test app: fresh database, either engine) filled with the demo world
 * (seed:demo's seedDemoWorld, variants left to render on demand as pages ask for them).
 *
 * Without /usr/bin/chromium the tests are skipped with a message, except in CI (`CI` set), where
 * they must run: .ci/run installs the package when it is missing. Each launch gets a fresh
 * temporary profile (user-data dir), removed when the browser closes.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { type SeedReport, seedDemoWorld } from '../../src/cli/seed-demo/seed-demo.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { freePort } from '../helpers/processes.ts';

export const chromiumPath = '/usr/bin/chromium';
export const chromiumArgs = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

/**
 * Chromium for a test app listening at http://localhost:<port>: localhost mapped to the loopback address
 * (a host name, as a WebAuthn relying party id must be; a secure context, as service workers need).
 */
export const launchChromiumForLocalhost = (): Promise<Browser> =>
  chromium.launch({
    executablePath: chromiumPath,
    args: [...chromiumArgs, '--host-resolver-rules=MAP localhost 127.0.0.1'],
    headless: true,
  });

/** Where screenshots go (git-ignored): test-artifacts/screenshots/ at the repository's root. */
export const screenshotsDir = fileURLToPath(new URL('../../test-artifacts/screenshots/', import.meta.url));

/** The viewports every page is photographed at: a laptop and a phone. */
export const viewports = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

/** Why the browser tests cannot run here (for `describe(..., { skip })`), or undefined when they can. */
export function browserUnavailable(): string | undefined {
  if (existsSync(chromiumPath) || process.env.CI) return undefined;
  return `browser tests skipped: ${chromiumPath} is missing (apt-get install chromium; in CI they always run)`;
}

/** The report of a world with no demo seed. */
const emptySeed: SeedReport = {
  users: 0,
  photos: 0,
  cities: 0,
  follows: 0,
  likes: 0,
  comments: 0,
  catalogue: {},
  jobs: {},
  seconds: 0,
};

export interface WebWorld {
  /** The server's base URL, e.g. http://127.0.0.1:41234 (also its PUBLIC_URL). */
  url: string;
  t: TestApp;
  seed: SeedReport;
  browser: Browser;
  /** A fresh context (its own cookies) with a page of the given viewport, whose problems are watched. */
  open(options?: { viewport?: { width: number; height: number }; locale?: string }): Promise<WatchedPage>;
  close(): Promise<void>;
}

export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** Console errors, uncaught errors, failed requests and answers of 400 or more, since the page opened. */
  problems: string[];
}

/** Records what a user would see go wrong on a page (ERR_ABORTED is a request the page itself cancelled). */
export function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()} (${page.url()})`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message} (${page.url()})`));
  page.on('requestfailed', (request) => {
    const failure = request.failure()?.errorText ?? 'failed';
    if (!failure.includes('ERR_ABORTED'))
      problems.push(`request failed: ${request.method()} ${request.url()} ${failure}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400)
      problems.push(`${response.status()}: ${response.request().method()} ${response.url()}`);
  });
  return problems;
}

/**
 * The test app listening on a free port with a browser beside it. `demo: false` skips the demo world
 * (its seed is most of a browser test's time): for a test that makes the few rows it needs itself.
 */
export async function startWebWorld(options: { demo?: boolean } = {}): Promise<WebWorld> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // Real time, so cookies' expiry and "new" badges look as they would on a live site.
  const t = await createTestApp({ env: { PUBLIC_URL: url }, clock: new ManualClock(new Date().toISOString()) });
  let browser: Browser | null = null;
  try {
    const seed =
      options.demo === false
        ? emptySeed
        : await seedDemoWorld(t.services.platform, t.services.areas, { renderVariants: false });
    await t.app.listen({ port, host: '127.0.0.1' });
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs, headless: true });
    const launched = browser;
    const contexts: BrowserContext[] = [];
    return {
      url,
      t,
      seed,
      browser: launched,
      async open(options = {}) {
        const context = await launched.newContext({
          baseURL: url,
          viewport: options.viewport ?? viewports.desktop,
          locale: options.locale ?? 'en-US',
        });
        contexts.push(context);
        const page = await context.newPage();
        return { page, context, problems: watch(page) };
      },
      async close() {
        for (const context of contexts) await context.close().catch(() => undefined);
        await launched.close();
        await t.close();
      },
    };
  } catch (error) {
    await browser?.close().catch(() => undefined);
    await t.close().catch(() => undefined);
    throw error;
  }
}

/** Saves a full-page screenshot as test-artifacts/screenshots/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(screenshotsDir, { recursive: true });
  const path = join(screenshotsDir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
