/**
 * The web front in a real browser (Debian's chromium through playwright-core), against the service
 * on loopback filled with the demo world: every page renders without a console error or a failed
 * request (and is photographed at 1280×800 and 390×844 under test-artifacts/screenshots/), every
 * link of the layout answers 200, the sign-in round trip, the explorer's clusters and photo panel,
 * the French rendering, and the CSP refusing an injected inline script. One world for the whole
 * file: seeding it is most of the file's time.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { createUser, strongPassword } from '../helpers/factories.ts';
import { enableTwoFactor } from '../helpers/two-factor.ts';
import {
  browserUnavailable,
  screenshot,
  startWebWorld,
  viewports,
  type WatchedPage,
  type WebWorld,
} from '../support/browser.ts';

const messages = (locale: string): Record<string, string> =>
  JSON.parse(readFileSync(new URL(`../../src/areas/web/messages/${locale}.json`, import.meta.url), 'utf8'));
const english = messages('en-US');
const french = messages('fr-FR');

/** Every public page, with a name for its screenshots. */
const pages = [
  { name: 'home', path: '/' },
  { name: 'explorer', path: '/explorer' },
  { name: 'travel', path: '/travel' },
  { name: 'travel-portugal', path: '/travel?country=PT' },
  { name: 'sustainable-tourism', path: '/sustainable-tourism' },
  { name: 'how-it-works', path: '/how-it-works' },
  { name: 'commissions', path: '/commissions' },
  { name: 'login', path: '/login' },
  { name: 'profile', path: '/@amelie.voyage' },
] as const;

const generous = 120_000;

/** Loads a page and waits until nothing more is fetched (thumbnails render on first request). */
async function load(watched: WatchedPage, path: string) {
  watched.page.setDefaultTimeout(generous);
  const response = await watched.page.goto(path, { waitUntil: 'load', timeout: generous });
  await watched.page.waitForLoadState('networkidle', { timeout: generous });
  return response;
}

/** Every image of the page has loaded (none broken). */
async function brokenImages(watched: WatchedPage): Promise<string[]> {
  return watched.page.$$eval('img', (images) =>
    images
      .filter((image) => image.loading !== 'lazy' || image.getBoundingClientRect().top < window.innerHeight)
      .filter((image) => !image.complete || image.naturalWidth === 0)
      .map((image) => image.currentSrc || image.src),
  );
}

describe('the web front in a browser', { skip: browserUnavailable() }, () => {
  let world: WebWorld;

  before(async () => {
    world = await startWebWorld();
    const { seconds, follows, likes, comments } = world.seed;
    console.log(`demo world seeded in ${seconds} s (${follows} follows, ${likes} likes, ${comments} comments)`);
  });
  after(() => world?.close());

  for (const { name, path } of pages) {
    it(`renders ${path} without console errors or failed requests, at both sizes`, async () => {
      const watched = await world.open({ viewport: viewports.desktop });
      const response = await load(watched, path);
      assert.equal(response?.status(), 200, `${path} answered ${response?.status()}`);
      const headers = response!.headers();
      assert.match(headers['content-security-policy'] ?? '', /frame-ancestors 'none'/);
      assert.match(headers['content-security-policy'] ?? '', /'nonce-[^']+'/);
      assert.ok(headers['referrer-policy'], 'Referrer-Policy');
      assert.ok(headers['permissions-policy'], 'Permissions-Policy');
      if (name === 'explorer') await watched.page.waitForSelector('.leaflet-marker-icon');
      assert.equal(await watched.page.locator('main').count(), 1, 'one <main> landmark');
      assert.equal(await watched.page.locator('html').getAttribute('lang'), 'en');
      assert.deepEqual(await brokenImages(watched), [], 'every image shown');
      await screenshot(watched.page, `${name}-1280x800`);
      await watched.page.setViewportSize(viewports.phone);
      await load(watched, path);
      if (name === 'explorer') await watched.page.waitForSelector('.leaflet-marker-icon');
      // Nothing wider than a phone's screen: no sideways scrolling.
      const overflow = await watched.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 1, `${path} is ${overflow} px wider than a 390 px screen`);
      await screenshot(watched.page, `${name}-390x844`);
      assert.deepEqual(watched.problems, []);
    });
  }

  it('answers 200 for every link of the layout and of the home page', async () => {
    const watched = await world.open();
    await load(watched, '/');
    const hrefs = await watched.page.$$eval('a[href]', (links) => links.map((link) => link.getAttribute('href')!));
    const layout = await watched.page.$$eval('header a[href], footer a[href]', (links) =>
      links.map((link) => link.getAttribute('href')!),
    );
    assert.ok(layout.includes('/explorer') && layout.some((href) => href.startsWith('/login')));
    const local = [...new Set(hrefs)].filter((href) => href.startsWith('/') && !href.startsWith('//'));
    assert.ok(local.length >= 10, `${local.length} links`);
    const failures: string[] = [];
    for (const href of local) {
      // A plain client (no cookie): redirects followed, as a visitor's first click would be.
      const response = await fetch(`${world.url}${href}`, { headers: { accept: 'text/html' } });
      await response.arrayBuffer();
      if (response.status !== 200) failures.push(`${href}: ${response.status}`);
    }
    assert.deepEqual(failures, []);
    assert.deepEqual(watched.problems, []);
  });

  it('shows the layout 404 page for an unknown profile', async () => {
    const watched = await world.open();
    const response = await load(watched, '/@nobody.here.at.all');
    assert.equal(response?.status(), 404);
    assert.equal(await watched.page.locator('header nav a[href="/explorer"]').count(), 1, 'in the layout');
    assert.deepEqual(
      watched.problems.filter((problem) => !problem.includes('/@nobody.here.at.all')),
      [],
    );
  });

  it('signs in through the form with an HttpOnly cookie session, and signs out', async () => {
    const watched = await world.open();
    const { page, context } = watched;
    await load(watched, '/login');
    await page.fill('#login-name', 'amelie.voyage');
    await page.fill('#login-password', 'demo-travel-2026');
    await Promise.all([
      page.waitForURL((url) => url.pathname !== '/login'),
      page.click('#login-form button[type="submit"]'),
    ]);
    await page.waitForLoadState('networkidle');
    const cookie = (await context.cookies()).find((candidate) => candidate.name === 'tm_session');
    assert.ok(cookie, 'the session cookie is set');
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, 'Lax');
    assert.equal(cookie.path, '/');
    assert.equal(cookie.secure, false, 'plain http on loopback');
    assert.equal(await page.evaluate(() => document.cookie.includes('tm_session')), false, 'scripts cannot read it');
    assert.equal(await page.locator('.site-account__me').innerText(), 'Amélie Durand');

    // The cookie holds a session of the sessions table: the API lists it (with the token as Bearer)...
    const sessions = await world.t.request({ method: 'GET', url: '/api/auth/sessions', token: cookie.value });
    assert.equal(sessions.statusCode, 200);
    assert.ok(sessions.json.data.length >= 1);
    // ...but never takes the cookie itself.
    const withCookie = await fetch(`${world.url}/api/auth/me`, { headers: { cookie: `tm_session=${cookie.value}` } });
    assert.equal(withCookie.status, 401);

    const loggedOut = page.waitForResponse(
      (response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/logout',
    );
    await page.click('.site-account__logout button');
    assert.ok((await loggedOut).status() < 400);
    await page.locator('header a[href^="/login"]').waitFor();
    await page.waitForLoadState('networkidle');
    assert.equal(
      (await context.cookies()).find((candidate) => candidate.name === 'tm_session'),
      undefined,
    );
    assert.equal(await page.locator('header a[href^="/login"]').innerText(), english['web.account.signIn']);
    const after = await world.t.request({ method: 'GET', url: '/api/auth/me', token: cookie.value });
    assert.equal(after.statusCode, 401, 'the session ended');
    assert.deepEqual(watched.problems, []);
  });

  it('asks an account with two-factor on for a code after its password, and signs in with it', async () => {
    const user = await createUser(world.t);
    const device = await enableTwoFactor(world.t, user.token);
    const watched = await world.open();
    const { page, context } = watched;
    await load(watched, '/login');
    await page.fill('#login-name', user.username);
    await page.fill('#login-password', strongPassword);
    await page.click('#login-form button[type="submit"]');
    await page.locator('#two-factor-form').waitFor({ state: 'visible' });
    assert.equal(await page.locator('#login-form').isHidden(), true, 'the password form gives way');
    assert.equal(
      (await context.cookies()).find((candidate) => candidate.name === 'tm_session'),
      undefined,
    );
    await screenshot(page, 'login-two-factor');

    await page.fill('#two-factor-code', device.code(new Date(world.t.clock.now().getTime() + 600_000)));
    await page.click('#two-factor-form button[type="submit"]');
    await page.locator('#two-factor-error').waitFor({ state: 'visible' });
    assert.ok((await page.locator('#two-factor-error').innerText()).length > 0, 'a wrong code is said');

    await page.fill('#two-factor-code', device.code());
    await Promise.all([
      page.waitForURL((url) => url.pathname !== '/login'),
      page.click('#two-factor-form button[type="submit"]'),
    ]);
    await page.waitForLoadState('networkidle');
    const cookie = (await context.cookies()).find((candidate) => candidate.name === 'tm_session');
    assert.ok(cookie, 'the session cookie is set after the code');
    const sessions = await world.t.request({ method: 'GET', url: '/api/auth/sessions', token: cookie.value });
    const current = sessions.json.data.find((session: any) => session.attributes.current);
    assert.equal(current.attributes.secondFactor, 'totp');
    // The 401 challenge and the 422 of the wrong code are the answers the form shows.
    assert.deepEqual(
      watched.problems.filter((problem) => !problem.includes('401') && !problem.includes('422')),
      [],
    );
  });

  it('refuses a wrong password on the form without leaving the page', async () => {
    const watched = await world.open();
    const { page } = watched;
    await load(watched, '/login');
    await page.fill('#login-name', 'amelie.voyage');
    await page.fill('#login-password', 'not the password 1');
    await page.click('#login-form button[type="submit"]');
    await page.locator('#login-error').waitFor({ state: 'visible' });
    assert.ok((await page.locator('#login-error').innerText()).length > 0);
    assert.equal(new URL(page.url()).pathname, '/login');
    // The 401 of POST /login (and the browser's console line about it) is the answer the form shows.
    assert.deepEqual(
      watched.problems.filter((problem) => !problem.includes('401')),
      [],
    );
  });

  it('shows the seeded photos on the explorer as clusters, zooms into one, and opens a photo', async () => {
    const watched = await world.open();
    const { page } = watched;
    const inBounds = page.waitForResponse((response) => response.url().includes('/api/media/in-bounds'));
    await load(watched, '/explorer');
    const answer = await (await inBounds).json();
    assert.equal(answer.meta.mode, 'clusters');
    const total = answer.data.reduce((sum: number, cluster: any) => sum + cluster.attributes.count, 0);
    assert.equal(total, world.seed.photos, 'every seeded photo is in a cluster of the world view');
    await page.waitForSelector('.leaflet-marker-icon.cluster');
    assert.ok((await page.locator('.leaflet-marker-icon.cluster').count()) >= 5);
    assert.equal(await page.locator('#explorer').getAttribute('data-loaded'), String(world.seed.photos));

    // A cluster zooms the map in.
    await page.locator('.leaflet-marker-icon.cluster').first().click();
    await page.waitForFunction(() => Number(/^#(\d+)\//.exec(window.location.hash)?.[1] ?? 0) > 2);

    // Lisbon close up: photos as thumbnails; one opens in the panel with its place.
    await page.goto('/explorer#14/38.7167/-9.1333');
    await page.reload();
    await page.waitForSelector('.leaflet-marker-icon.photo-marker');
    await page.waitForLoadState('networkidle');
    await page.locator('.leaflet-marker-icon.photo-marker').first().click();
    const panel = page.locator('#photo-panel');
    await panel.waitFor({ state: 'visible' });
    await page.waitForFunction(() => {
      const image = document.querySelector<HTMLImageElement>('#photo-panel img');
      return image?.complete === true && image.naturalWidth > 0;
    });
    const text = await panel.innerText();
    assert.match(text, /Lisbon/);
    assert.match(text, /#\p{L}+/u, 'the description with its hashtags');
    await screenshot(page, 'explorer-photo-1280x800');
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });
    assert.deepEqual(watched.problems, []);
  });

  it('renders in French for a French browser, and switches language from the layout', async () => {
    const watched = await world.open({ locale: 'fr-FR' });
    const { page } = watched;
    await load(watched, '/');
    assert.equal(await page.locator('html').getAttribute('lang'), 'fr');
    const nav = await page.locator('header nav').first().innerText();
    for (const key of ['web.nav.travel', 'web.nav.sustainable', 'web.nav.howItWorks']) {
      assert.ok(nav.includes(french[key]!), `${french[key]} in ${nav}`);
      assert.notEqual(french[key], english[key]);
    }
    assert.equal(await page.locator('header a[href^="/login"]').innerText(), french['web.account.signIn']);
    await screenshot(page, 'home-fr-1280x800');

    // An English browser picks French from the switch, and keeps it on the next page.
    const other = await world.open({ locale: 'en-US' });
    await load(other, '/how-it-works');
    assert.equal(await other.page.locator('html').getAttribute('lang'), 'en');
    await other.page.click('a[hreflang="fr"]');
    await other.page.waitForFunction(() => document.documentElement.lang === 'fr');
    await other.page.waitForLoadState('networkidle');
    assert.equal(new URL(other.page.url()).pathname, '/how-it-works');
    assert.equal(await other.page.locator('html').getAttribute('lang'), 'fr');
    await load(other, '/travel');
    assert.equal(await other.page.locator('html').getAttribute('lang'), 'fr');
    assert.ok((await other.page.locator('header nav').first().innerText()).includes(french['web.nav.travel']!));
    assert.deepEqual([...watched.problems, ...other.problems], []);
  });

  it('blocks an inline script injected without the nonce (CSP), while the nonce-carrying ones run', async () => {
    const watched = await world.open();
    const { page } = watched;
    await load(watched, '/');
    const outcome = await page.evaluate(
      () =>
        new Promise<{ ran: boolean; violations: string[] }>((resolve) => {
          const violations: string[] = [];
          document.addEventListener('securitypolicyviolation', (event) => violations.push(event.effectiveDirective));
          const script = document.createElement('script');
          script.textContent = 'window.__injected = true;';
          document.body.appendChild(script);
          const handler = document.createElement('img');
          handler.setAttribute('onerror', 'window.__injectedHandler = true;');
          handler.src = 'data:,not-an-image';
          document.body.appendChild(handler);
          // The browser's own clock: long enough for the image's error handler to have had its turn.
          setTimeout(
            () =>
              resolve({
                ran: (window as any).__injected === true || (window as any).__injectedHandler === true,
                violations,
              }),
            500,
          );
        }),
    );
    assert.equal(outcome.ran, false, 'the injected code did not run');
    assert.ok(
      outcome.violations.some((directive) => directive.startsWith('script-src')),
      `a securitypolicyviolation was reported: ${outcome.violations.join(', ')}`,
    );
    // The page's own scripts carry the nonce and run: the explorer draws its map.
    const explorer = await world.open();
    await load(explorer, '/explorer');
    await explorer.page.waitForSelector('.leaflet-marker-icon');
    assert.deepEqual(explorer.problems, []);
  });
});
