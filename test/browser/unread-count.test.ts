/**
 * The header's unread notification count in a real browser (Debian's chromium through playwright-core):
 * rendered with the page for a signed-in viewer, then kept current by the page's EventSource on the
 * notification stream (the session cookie) as notifications come and are read, with no reload.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { dispatchFollow } from '../helpers/notification-dispatch.ts';
import { browserUnavailable, screenshot, startWebWorld, type WebWorld } from '../support/browser.ts';

const generous = 120_000;

describe('the live unread count in the header', { skip: browserUnavailable() }, () => {
  let world: WebWorld;
  let reader: TestUser;
  let actor: TestUser;

  before(async () => {
    world = await startWebWorld({ demo: false });
    reader = await createUser(world.t, { username: 'lena.reads' });
    actor = await createUser(world.t, { username: 'ana.follows', nickname: 'Ana' });
  });
  after(() => world?.close());

  const follow = () => dispatchFollow(world.t, reader, actor, 'Ana');

  it('shows the count rendered with the page, then follows new and read notifications live', async () => {
    await follow();
    const watched = await world.open();
    watched.page.setDefaultTimeout(generous);
    await watched.context.addCookies([{ name: 'tm_session', value: reader.token, url: world.url }]);
    const response = await watched.page.goto('/how-it-works', { waitUntil: 'load', timeout: generous });
    assert.equal(response?.status(), 200);
    const badge = watched.page.locator('.site-header [data-unread-count]');
    assert.equal((await badge.locator('.unread-count__number').innerText()).trim(), '1', 'rendered by the server');

    // Once the page's EventSource is open, each change reaches it.
    await watched.page.waitForSelector('.site-header [data-unread-count][data-live="open"]', { timeout: generous });
    await follow();
    await follow();
    await watched.page.waitForSelector('.site-header [data-unread-count="3"]', { timeout: generous });
    assert.equal((await badge.locator('.unread-count__number').innerText()).trim(), '3');
    await screenshot(watched.page, 'unread-count-live');

    const read = await world.t.request({
      method: 'POST',
      url: '/api/users/me/notifications/mark-all-read',
      token: reader.token,
    });
    assert.equal(read.statusCode, 200);
    await watched.page.waitForSelector('.site-header [data-unread-count="0"]', { timeout: generous });
    assert.deepEqual(watched.problems, []);
  });

  it('shows no count to a visitor', async () => {
    const watched = await world.open();
    await watched.page.goto('/how-it-works', { waitUntil: 'load', timeout: generous });
    assert.equal(await watched.page.locator('[data-unread-count]').count(), 0);
    assert.deepEqual(watched.problems, []);
  });
});
