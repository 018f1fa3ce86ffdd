import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyRequest } from 'fastify';
import { adminToken, createTestApp, type TestApp } from '../../../../test/helpers/app.ts';
import { contentSecurityPolicy, tileOrigin } from './csp.ts';
import { renderErrorPage } from './error-page.ts';
import { html as markup } from './html.ts';
import { safeNextPath } from './layout.routes.ts';
import type { PageContext } from './page-context.ts';
import { renderPage } from './render-page.ts';
import { siteCssUrl } from './site-css.ts';

const html = { accept: 'text/html' };

describe('web layout', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('draws the 404 page in the layout, with the page security headers', async () => {
    const res = await t.request({ method: 'GET', url: '/no/such/page', headers: html });
    assert.equal(res.statusCode, 404);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.match(res.body, /<main id="main"/);
    assert.match(res.body, /Page not found/);
    assert.match(res.body, /<meta name="robots" content="noindex"/);
    assert.ok(res.body.includes(`href="${siteCssUrl}"`));
    const csp = String(res.headers['content-security-policy']);
    assert.match(csp, /script-src 'self' 'nonce-[A-Za-z0-9+/=]{20,}'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(res.headers['referrer-policy'], 'same-origin');
    assert.match(String(res.headers['permissions-policy']), /camera=\(\)/);
  });

  it('keeps JSON errors on the API', async () => {
    const res = await t.request({ method: 'GET', url: '/api/no-such-route' });
    assert.equal(res.statusCode, 404);
    assert.match(String(res.headers['content-type']), /json/);
  });

  it('switches language with a cookie and goes back to a page of this site only', async () => {
    const res = await t.request({ method: 'GET', url: '/language/fr-FR?next=%2Ftravel%3Fcountry%3DFR' });
    assert.equal(res.statusCode, 302);
    assert.equal(res.headers.location, '/travel?country=FR');
    assert.equal(String(res.headers['set-cookie']), 'locale=fr-FR; Max-Age=31536000; Path=/; SameSite=Lax');
    const away = await t.request({ method: 'GET', url: '/language/en-US?next=%2F%2Fevil.example' });
    assert.equal(away.headers.location, '/');
    const bad = await t.request({ method: 'GET', url: '/language/de-DE' });
    assert.equal(bad.statusCode, 422);
    const french = await t.request({ method: 'GET', url: '/nowhere', headers: { ...html, cookie: 'locale=fr-FR' } });
    assert.match(french.body, /<html lang="fr"/);
    assert.match(french.body, /Page introuvable/);
    assert.equal(french.headers['content-language'], 'fr-FR');
  });

  it('serves the stylesheet, immutable at its current version', async () => {
    const res = await t.request({ method: 'GET', url: siteCssUrl });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/css/);
    assert.match(String(res.headers['cache-control']), /immutable/);
    const old = await t.request({ method: 'GET', url: '/assets/site.css?v=old' });
    assert.doesNotMatch(String(old.headers['cache-control']), /immutable/);
  });

  it('draws the maintenance page in the layout, its stylesheet still served', async () => {
    const set = (enabled: boolean) =>
      t.request({
        method: 'PUT',
        url: '/admin/maintenance',
        token: adminToken,
        body: { enabled, message: 'Back at 14:00 UTC.', retryAfterSeconds: 60 },
      });
    assert.equal((await set(true)).statusCode, 200);
    try {
      const page = await t.request({ method: 'GET', url: '/travel', headers: html });
      assert.equal(page.statusCode, 503);
      assert.equal(page.headers['retry-after'], '60');
      assert.match(page.body, /<h1>Back soon<\/h1>/);
      assert.match(page.body, /Back at 14:00 UTC\./);
      assert.match(String(page.headers['content-security-policy']), /'nonce-/);
      const css = await t.request({ method: 'GET', url: siteCssUrl });
      assert.equal(css.statusCode, 200);
    } finally {
      assert.equal((await set(false)).statusCode, 200);
    }
  });

  it('draws the 500 page without reading anything but the request', async () => {
    const request = {
      server: t.app,
      url: '/travel?country=FR',
      headers: { 'accept-language': 'fr-FR' },
      viewer: null,
      locale: 'fr-FR',
    } as unknown as FastifyRequest;
    const page = await renderErrorPage(request, { status: 500, code: 'internal', title: 'Something went wrong' });
    assert.match(page, /<p class="status">500<\/p><h1>Une erreur est survenue<\/h1>/);
    assert.match(page, /<p>Une erreur est survenue de notre côté.<\/p>/);
    assert.match(page, /<meta name="robots" content="noindex"\/>/);
  });

  it("gives the page's scripts and inline styles the nonce, and keeps inline code inside its element", () => {
    const context: PageContext = {
      locale: 'en-US',
      nonce: 'n0nce',
      viewer: { username: 'ana', nickname: 'Ana <3' },
      baseUrl: 'https://travel.example',
      path: '/x',
      url: '/x?a=1&b=<2>',
      blurSensitiveMedia: true,
      unreadNotifications: null,
    };
    const page = renderPage(context, {
      title: 'A "title"',
      description: 'd',
      canonicalPath: '/x',
      body: markup`<p>${'<b>not bold</b>'}</p>`,
      scripts: ['/assets/app.js', { code: 'window.x = "</script><script>alert(1)</script>";' }],
      styles: [{ code: 'p { color: red }' }],
      fullScreen: true,
    });
    assert.match(page, /<script nonce="n0nce" src="\/assets\/app.js" defer><\/script>/);
    assert.match(page, /<script nonce="n0nce">window.x = "<\\\/script><script>alert\(1\)<\\\/script>";<\/script>/);
    assert.match(page, /<style nonce="n0nce">p \{ color: red \}<\/style>/);
    assert.match(page, /<title>A &quot;title&quot; · Travel Media<\/title>/);
    assert.match(page, /<p>&lt;b>not bold&lt;\/b><\/p>/);
    assert.match(page, /<a class="site-account__me" href="\/@ana">Ana &lt;3<\/a>/);
    assert.match(page, /href="\/language\/fr-FR\?next=%2Fx%3Fa%3D1%26b%3D%3C2%3E"/);
    assert.match(page, /<link rel="canonical" href="https:\/\/travel.example\/x"\/>/);
    assert.match(page, /<body class="layout layout--full">/);
    assert.doesNotMatch(page, /<footer/);
  });

  it('builds the policy and the safe paths', () => {
    assert.equal(tileOrigin('https://{s}.tile.example.org/{z}/{x}/{y}.png'), 'https://*.tile.example.org');
    assert.equal(tileOrigin('https://tiles.example:8443/{z}/{x}/{y}.png'), 'https://tiles.example:8443');
    assert.equal(tileOrigin('javascript:alert(1)'), null);
    // CSP has no wildcard inside a label: such hosts give no source (and the config refuses them).
    assert.equal(tileOrigin('https://maps{s}.tile.example/{z}/{x}/{y}.png'), null);
    assert.equal(tileOrigin('https://{s}-tiles.example/{z}/{x}/{y}.png'), null);
    assert.match(contentSecurityPolicy('abc', ['https://t.example']), /img-src 'self' data: https:\/\/t\.example/);
    assert.equal(safeNextPath('/\\evil.example'), '/');
    assert.equal(safeNextPath('/café'), '/caf%C3%A9');
    assert.equal(safeNextPath('https://evil.example'), '/');
  });
});
