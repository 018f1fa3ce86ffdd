/**
 * Embeds in a real browser (Debian's chromium through playwright-core): another site (a page served
 * from another origin, `localhost` on a port of its own) puts a post's oEmbed `html` in its page; the
 * card loads inside the sandboxed iframe under its own CSP, with the photo drawn and the author shown,
 * and nothing on either page goes wrong. A share link's page opens for a visitor with its password.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { upload, uploadPost } from '../helpers/media-uploads.ts';
import { freePort } from '../helpers/processes.ts';
import { browserUnavailable, screenshot, startWebWorld, type WebWorld } from '../support/browser.ts';
import { makeJpeg } from '../support/test-images.ts';

const generous = 120_000;

describe('embeds and share links in a browser', { skip: browserUnavailable() }, () => {
  let world: WebWorld;
  let lena: TestUser;
  let hex: string;
  let mediaId: string;
  let otherSite: Server;
  let otherOrigin: string;
  let hostPage = '';

  before(async () => {
    world = await startWebWorld({ demo: false });
    lena = await createUser(world.t, { username: 'lena.roams' });
    const uploaded = await upload(
      world.t,
      '/api/users/me/media',
      lena.token,
      await makeJpeg({ width: 96, height: 64 }),
      {
        description: 'Fog over the fjord',
      },
    );
    assert.equal(uploaded.statusCode, 201, uploaded.body);
    hex = uploaded.json.data.attributes.hex;
    mediaId = uploaded.json.data.id;
    const port = await freePort();
    otherOrigin = `http://localhost:${port}`;
    otherSite = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(hostPage);
    });
    await new Promise<void>((resolve) => otherSite.listen(port, '127.0.0.1', resolve));
  });
  after(async () => {
    await new Promise((resolve) => otherSite?.close(resolve));
    await world?.close();
  });

  it('shows a post’s card inside another site’s iframe, from its oEmbed html', async () => {
    const oembed = await world.t.request({
      method: 'GET',
      url: `/api/oembed?url=${encodeURIComponent(`${world.url}/embed/posts/${hex}`)}&maxwidth=400`,
    });
    assert.equal(oembed.statusCode, 200, oembed.body);
    const { html } = JSON.parse(oembed.body);
    hostPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A travel blog</title></head>
      <body><h1>My trip north</h1>${html}</body></html>`;

    const watched = await world.open();
    watched.page.setDefaultTimeout(generous);
    await watched.page.goto(otherOrigin, { waitUntil: 'load', timeout: generous });
    const frameElement = await watched.page.waitForSelector('iframe');
    const frame = await frameElement.contentFrame();
    assert.ok(frame, 'the iframe has a document');
    await frame.waitForLoadState('load');
    assert.equal(new URL(frame.url()).origin, world.url);
    const drawn = await frame.$eval(`figure[data-media="${hex}"] img`, async (image) => {
      const img = image as HTMLImageElement;
      if (!img.complete) await new Promise((resolve) => img.addEventListener('load', resolve, { once: true }));
      return img.naturalWidth;
    });
    assert.ok(drawn > 0, 'the photo is drawn inside the frame');
    assert.match(await frame.locator('.embed-card__text').innerText(), /Fog over the fjord/);
    assert.equal(await frame.locator('.embed-card__meta a').getAttribute('target'), '_blank');
    await screenshot(watched.page, 'embed-in-another-site');
    assert.deepEqual(watched.problems, []);
  });

  it('shows a post of several photos as a swipeable card in another site, and its share link shows them all', async () => {
    const texts = ['Harbour at dawn', 'The ferry', 'Snow on the ridge'];
    const postHex = await uploadPost(
      world.t,
      lena.token,
      texts.map((description, index) => ({ width: 96 + index * 16, height: 64, description })),
      'A week up north',
    );
    const oembed = await world.t.request({
      method: 'GET',
      url: `/api/oembed?url=${encodeURIComponent(`${world.url}/posts/${postHex}`)}&maxwidth=400`,
    });
    assert.equal(oembed.statusCode, 200, oembed.body);
    const answer = JSON.parse(oembed.body);
    assert.equal(answer.type, 'rich');
    hostPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A travel blog</title></head>
      <body><h1>North</h1>${answer.html}</body></html>`;

    const watched = await world.open();
    watched.page.setDefaultTimeout(generous);
    await watched.page.goto(otherOrigin, { waitUntil: 'load', timeout: generous });
    const frame = await (await watched.page.waitForSelector('iframe')).contentFrame();
    assert.ok(frame, 'the iframe has a document');
    await frame.waitForLoadState('load');
    const slides = frame.locator('.carousel__slide img');
    assert.equal(await slides.count(), 3);
    assert.deepEqual(await slides.evaluateAll((images) => images.map((image) => image.getAttribute('alt'))), texts);
    const lefts = await slides.evaluateAll((images) => images.map((image) => image.getBoundingClientRect().left));
    assert.ok(lefts[0]! < lefts[1]! && lefts[1]! < lefts[2]!, `side by side, a strip scrolled sideways: ${lefts}`);
    await frame.locator('.carousel__track').evaluate((track) => track.scrollTo({ left: track.scrollWidth }));
    const last = await slides.nth(2).evaluate(async (image) => {
      const img = image as HTMLImageElement;
      if (!img.complete) await new Promise((resolve) => img.addEventListener('load', resolve, { once: true }));
      return img.naturalWidth;
    });
    assert.ok(last > 0, 'the last photo is drawn once scrolled to, with no script');
    assert.match(await frame.locator('.embed-card__meta a').first().innerText(), /3 photos/);
    await screenshot(watched.page, 'embed-post-of-several-photos');
    assert.deepEqual(watched.problems, []);

    const link = await world.t.request({
      method: 'POST',
      url: '/api/users/me/share-links',
      token: lena.token,
      body: { targetKind: 'post', targetId: postHex },
    });
    assert.equal(link.statusCode, 201, link.body);
    const visitor = await world.open();
    visitor.page.setDefaultTimeout(generous);
    await visitor.page.goto(link.json.data.attributes.url, { waitUntil: 'load', timeout: generous });
    const shared = visitor.page.locator('.shared__photo img');
    assert.deepEqual(await shared.evaluateAll((images) => images.map((image) => image.getAttribute('alt'))), texts);
    assert.equal(await visitor.page.locator('.shared__caption').innerText(), 'A week up north');
    await screenshot(visitor.page, 'share-link-post-of-several-photos');
    assert.deepEqual(visitor.problems, []);
  });

  it('opens a share link for a visitor after its password', async () => {
    const created = await world.t.request({
      method: 'POST',
      url: '/api/users/me/share-links',
      token: lena.token,
      body: { targetKind: 'post', targetId: mediaId, password: 'northern lights' },
    });
    assert.equal(created.statusCode, 201, created.body);
    const watched = await world.open();
    watched.page.setDefaultTimeout(generous);
    await watched.page.goto(created.json.data.attributes.url, { waitUntil: 'load', timeout: generous });
    await watched.page.fill('#share-password', 'northern lights');
    await Promise.all([
      watched.page.waitForNavigation({ waitUntil: 'load' }),
      watched.page.click('.shared__form button'),
    ]);
    const photo = watched.page.locator('.shared__photo img');
    assert.equal(await photo.getAttribute('alt'), 'Fog over the fjord');
    assert.ok(await photo.evaluate((image) => (image as HTMLImageElement).naturalWidth > 0));
    assert.equal(await watched.page.locator(`a[href="/@lena.roams"]`).count(), 0, 'no link to the owner');
    await screenshot(watched.page, 'share-link-opened');
    assert.deepEqual(watched.problems, []);
  });
});
