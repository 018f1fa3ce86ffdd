/**
 * Content warnings in a real browser (Debian's chromium through playwright-core), on the demo world: a
 * photo its author marked sensitive is blurred behind its warning on the profile page and shown once the
 * warning is clicked (or its control is pressed with the keyboard), with no script; a signed-in viewer
 * whose blurSensitiveMedia setting is off sees it unblurred, with the warning in words.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createUser } from '../helpers/factories.ts';
import { browserUnavailable, screenshot, startWebWorld, type WatchedPage, type WebWorld } from '../support/browser.ts';

const generous = 120_000;
const warning = 'Vertigo: a drop of 300 m';

async function load(watched: WatchedPage, path: string) {
  watched.page.setDefaultTimeout(generous);
  const response = await watched.page.goto(path, { waitUntil: 'load', timeout: generous });
  await watched.page.waitForLoadState('networkidle', { timeout: generous });
  assert.equal(response?.status(), 200, `${path} answered ${response?.status()}`);
}

/** The CSS filter the photo of a card is drawn with ('none' when not blurred). */
const photoFilter = (watched: WatchedPage, hex: string) =>
  watched.page.$eval(`figure[data-media="${hex}"] img`, (image) => {
    // The blur is on a wrapper of the photo; any ancestor's filter blurs it.
    const filters: string[] = [];
    for (let element: Element | null = image; element !== null; element = element.parentElement) {
      const filter = getComputedStyle(element).filter;
      if (filter !== 'none') filters.push(filter);
      if (element.tagName === 'FIGURE') break;
    }
    return filters.join(' ') || 'none';
  });

describe('content warnings in a browser', { skip: browserUnavailable() }, () => {
  let world: WebWorld;
  let hex: string;

  before(async () => {
    world = await startWebWorld();
    const { accounts, media } = world.t.services.areas;
    const amelie = await accounts.users.findByUsername('amelie.voyage');
    assert.ok(amelie, 'the demo world has amelie.voyage');
    const posts = await world.t.request({ method: 'GET', url: `/api/users/${amelie.id}/media?limit=1` });
    const [first] = posts.json.data;
    assert.ok(first, 'amelie.voyage has a public post');
    hex = first.attributes.hex;
    // The author's own write path (PUT /api/users/me/media/{mediaId}/content-warning).
    await media.media.setContentWarning(amelie.id, first.id, { sensitive: true, contentWarning: warning });
  });
  after(() => world?.close());

  it('blurs the photo behind its warning for a visitor, and shows it when the warning is clicked', async () => {
    const watched = await world.open();
    await load(watched, '/@amelie.voyage');
    const cover = watched.page.locator(`figure[data-media="${hex}"] .sensitive__cover`);
    assert.equal(await cover.isVisible(), true, 'the warning covers the photo');
    assert.match(await cover.innerText(), new RegExp(warning));
    assert.match(await photoFilter(watched, hex), /blur\(/, 'the photo is blurred');
    await screenshot(watched.page, 'content-warning-blurred');

    await cover.click();
    assert.equal(await photoFilter(watched, hex), 'none', 'shown once clicked');
    assert.equal(await cover.isVisible(), false, 'the warning steps aside');
    await screenshot(watched.page, 'content-warning-revealed');
    assert.deepEqual(watched.problems, []);
  });

  it('reveals it from the keyboard too (the control is focusable)', async () => {
    const watched = await world.open();
    await load(watched, '/@amelie.voyage');
    await watched.page.focus(`figure[data-media="${hex}"] .sensitive__reveal`);
    await watched.page.keyboard.press('Space');
    assert.equal(await photoFilter(watched, hex), 'none');
    assert.deepEqual(watched.problems, []);
  });

  it('does not blur for a signed-in viewer whose setting says so, and says the warning instead', async () => {
    const viewer = await createUser(world.t, { username: 'unblurred' });
    const off = await world.t.request({
      method: 'PATCH',
      url: '/api/users/me/settings',
      token: viewer.token,
      body: { blurSensitiveMedia: false },
    });
    assert.equal(off.statusCode, 200);
    const watched = await world.open();
    await watched.context.addCookies([{ name: 'tm_session', value: viewer.token, url: world.url }]);
    await load(watched, '/@amelie.voyage');
    assert.equal(await photoFilter(watched, hex), 'none', 'not blurred');
    assert.equal(await watched.page.locator(`figure[data-media="${hex}"] .sensitive__cover`).count(), 0);
    const note = watched.page.locator(`figure[data-media="${hex}"] .sensitive-note`);
    assert.equal((await note.innerText()).trim(), warning);
    await screenshot(watched.page, 'content-warning-unblurred');
    assert.deepEqual(watched.problems, []);
  });
});
