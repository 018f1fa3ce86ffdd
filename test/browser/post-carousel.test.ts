/**
 * A post of several photos in a real browser (Debian's chromium through playwright-core): the profile's
 * card says how many photos and opens the post's page, whose carousel moves one photo at a time with
 * the arrow keys (a small script) and with a finger's swipe (CSS scroll snapping, no script); without
 * script or styles it is still the list of every photo; the explorer's panel shows the same carousel.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { createUser } from '../helpers/factories.ts';
import { uploadPost } from '../helpers/media-uploads.ts';
import {
  browserUnavailable,
  screenshot,
  startWebWorld,
  viewports,
  type WatchedPage,
  type WebWorld,
  watch,
} from '../support/browser.ts';

const generous = 120_000;
const texts = ['Fourvière at dawn', 'The Saône from the footbridge', 'Bouchon lunch'];

async function load(page: Page, path: string) {
  page.setDefaultTimeout(generous);
  const response = await page.goto(path, { waitUntil: 'load', timeout: generous });
  await page.waitForLoadState('networkidle', { timeout: generous });
  assert.equal(response?.status(), 200, `${path} answered ${response?.status()}`);
}

/** Which photo the carousel shows: its scroll position in slides (0 first), once it stopped moving. */
async function shownSlide(page: Page): Promise<number> {
  const track = page.locator('.carousel__track');
  const position = () =>
    track.evaluate((element) => Math.round((element.scrollLeft / element.clientWidth) * 100) / 100);
  // Scrolling has ended when the position has not moved for a while and sits on a slide: on a loaded
  // machine a frame can take longer than one poll, and two equal reads may fall in the middle of the snap.
  let last = -1;
  let still = 0;
  for (let polls = 0; polls < 60 && (still < 3 || !Number.isInteger(last)); polls += 1) {
    await page.waitForTimeout(150);
    const now = await position();
    still = now === last ? still + 1 : 0;
    last = now;
  }
  return last;
}

describe('a post carousel in a browser', { skip: browserUnavailable() }, () => {
  let world: WebWorld;
  let hex: string;

  before(async () => {
    world = await startWebWorld({ demo: false });
    const ada = await createUser(world.t, { username: 'ada.lyon' });
    // The author's own write path.
    const sizes = [
      { width: 640, height: 480 },
      { width: 480, height: 640 },
      { width: 800, height: 400 },
    ];
    hex = await uploadPost(
      world.t,
      ada.token,
      sizes.map((size, index) => ({ ...size, description: texts[index] ?? '' })),
      'A weekend in #Lyon',
    );
  });
  after(() => world?.close());

  it("the profile shows the post once, says how many photos, and opens the post's page", async () => {
    const watched = await world.open();
    await load(watched.page, '/@ada.lyon');
    assert.equal(await watched.page.locator('.media-card').count(), 1, 'one card for the post');
    assert.match(await watched.page.locator('.media-card__photos').innerText(), /3 photos/);
    await watched.page.locator(`figure[data-media="${hex}"] a`).first().click();
    await watched.page.waitForURL(`**/posts/${hex}`);
    assert.equal(await watched.page.locator('.carousel__slide').count(), 3);
    assert.deepEqual(watched.problems, []);
  });

  it('moves one photo at a time with the arrow keys', async () => {
    const watched = await world.open();
    await load(watched.page, `/posts/${hex}`);
    assert.deepEqual(
      await watched.page
        .locator('.carousel__slide img')
        .evaluateAll((images) => images.map((image) => (image as HTMLImageElement).alt)),
      texts,
      'each photo is read by its own text',
    );
    assert.equal(await shownSlide(watched.page), 0);
    await screenshot(watched.page, 'post-carousel-first');
    await watched.page.locator('.carousel__track').focus();
    await watched.page.keyboard.press('ArrowRight');
    assert.equal(await shownSlide(watched.page), 1, 'the second photo');
    await watched.page.keyboard.press('ArrowRight');
    assert.equal(await shownSlide(watched.page), 2, 'the third');
    await watched.page.keyboard.press('ArrowLeft');
    assert.equal(await shownSlide(watched.page), 1, 'back to the second');
    await watched.page.getByRole('link', { name: 'Photo 1 of 3' }).click();
    assert.equal(await shownSlide(watched.page), 0, "a photo's numbered link brings it back");
    await watched.page.locator('.carousel__track').focus();
    await watched.page.keyboard.press('End');
    assert.equal(await shownSlide(watched.page), 2, 'End: the last photo');
    // Last: a full-page screenshot lays the page out again at another height.
    await screenshot(watched.page, 'post-carousel-last');
    assert.deepEqual(watched.problems, []);
  });

  it('follows a swipe on a touch screen', async () => {
    const context = await world.browser.newContext({
      baseURL: world.url,
      viewport: viewports.phone,
      hasTouch: true,
      isMobile: true,
      locale: 'en-US',
    });
    try {
      const page = await context.newPage();
      const problems = watch(page);
      await load(page, `/posts/${hex}`);
      const box = await page.locator('.carousel__track').boundingBox();
      assert.ok(box);
      const session = await context.newCDPSession(page);
      // A finger dragged from right to left over the photo, in small moves, then lifted.
      const y = Math.round(box.y + box.height / 2);
      const from = Math.round(box.x + box.width * 0.8);
      const to = Math.round(box.x + box.width * 0.2);
      const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x: number) =>
        session.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] });
      await touch('touchStart', from);
      for (let step = 1; step <= 10; step += 1) await touch('touchMove', from + ((to - from) * step) / 10);
      await touch('touchEnd', to);
      assert.equal(await shownSlide(page), 1, 'the next photo, snapped in place');
      await screenshot(page, 'post-carousel-phone-swiped');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  it('is the list of every photo without script or styles', async () => {
    const context = await world.browser.newContext({ baseURL: world.url, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.route('**/*.css*', (route) => route.abort());
      await page.goto(`/posts/${hex}`, { waitUntil: 'load', timeout: generous });
      const tops = await page
        .locator('.carousel__slide')
        .evaluateAll((slides) => slides.map((slide) => slide.getBoundingClientRect().top));
      assert.equal(tops.length, 3);
      assert.ok(tops[0]! < tops[1]! && tops[1]! < tops[2]!, 'one photo under the other');
      await screenshot(page, 'post-carousel-unstyled');
    } finally {
      await context.close();
    }
  });

  it("the explorer's panel shows the post as the same carousel", async () => {
    const panel = await world.t.request({ method: 'GET', url: `/explorer/photos/${hex}` });
    assert.equal(panel.statusCode, 200, panel.body);
    assert.equal(panel.body.match(/class="carousel__slide"/g)?.length, 3);
    const watched: WatchedPage = await world.open();
    await load(watched.page, `/posts/${hex}`);
    // The panel's fragment in the page's own layout, as the explorer's script puts it in its dialog.
    await watched.page.locator('article.post').evaluate((article, markup) => {
      article.innerHTML = markup;
    }, panel.body);
    await watched.page.locator('.carousel__track').focus();
    await watched.page.keyboard.press('ArrowRight');
    assert.equal(await shownSlide(watched.page), 1);
    await screenshot(watched.page, 'post-carousel-explorer-panel');
    assert.deepEqual(watched.problems, []);
  });
});
