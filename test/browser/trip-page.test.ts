/**
 * A trip's page in a real browser (Debian's chromium through playwright-core): photos uploaded with
 * their positions in Fiji and Samoa form a trip; the profile links to it, and the trip page draws its
 * route on the offline map across the antimeridian, as a short line over the Pacific, not a line across
 * the world.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { places } from '../../src/areas/trips/itineraries.ts';
import { createUser } from '../helpers/factories.ts';
import { upload } from '../helpers/media-uploads.ts';
import { browserUnavailable, screenshot, startWebWorld, type WebWorld } from '../support/browser.ts';
import { makeJpeg } from '../support/test-images.ts';

const generous = 120_000;

describe('the trip page in a browser', { skip: browserUnavailable() }, () => {
  let world: WebWorld;
  let tripId: string;

  before(async () => {
    world = await startWebWorld({ demo: false });
    const sione = await createUser(world.t, { username: 'sione.islands', nickname: 'Sione' });
    const home = await world.t.request({
      method: 'PUT',
      url: '/api/users/me/trip-home',
      token: sione.token,
      body: places.auckland,
    });
    assert.equal(home.statusCode, 200);
    for (const [place, takenAt] of [
      [places.nadi, '2026-08-01T02:00:00Z'],
      [places.suva, '2026-08-02T02:00:00Z'],
      [places.apia, '2026-08-03T02:00:00Z'],
    ] as const) {
      const jpeg = await makeJpeg({ width: 64, height: 48, gps: place, takenAt: new Date(takenAt) });
      const uploaded = await upload(world.t, '/api/users/me/media', sione.token, jpeg);
      assert.equal(uploaded.statusCode, 201, uploaded.body);
    }
    const trips = await world.t.request({ method: 'GET', url: `/api/users/${sione.id}/trips` });
    tripId = trips.json.data[0].id;
  });
  after(() => world?.close());

  it('goes from the profile to the trip, and draws the route across the antimeridian', async () => {
    const watched = await world.open();
    const { page } = watched;
    page.setDefaultTimeout(generous);
    await page.goto('/@sione.islands', { waitUntil: 'load', timeout: generous });
    await page.click(`a[href="/trips/${tripId}"]`);
    await page.waitForURL(`**/trips/${tripId}`);
    await page.waitForSelector('#trip-map[data-drawn]');
    await page.waitForLoadState('networkidle', { timeout: generous });

    // One line through the three places and the point where it crosses the antimeridian.
    assert.equal(await page.getAttribute('#trip-map', 'data-drawn'), '4');
    const line = page.locator('#trip-map path.leaflet-interactive').first();
    const box = await line.boundingBox();
    const map = await page.locator('#trip-map').boundingBox();
    assert.ok(box && map, 'the route is drawn');
    // Fitted to the route: it spans the map's width at most, never the whole world several times over.
    assert.ok(box.width <= map.width + 1, `route ${box.width}px wide on a ${map.width}px map`);
    assert.ok(box.width > map.width / 4, 'the route fills the map');
    assert.match(await page.locator('h1').innerText(), /Nadi|Suva|Apia/);
    await screenshot(page, 'trip-page-antimeridian');
    assert.deepEqual(watched.problems, []);
  });
});
