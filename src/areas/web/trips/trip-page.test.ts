import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../../test/helpers/factories.ts';
import { createMediaRow } from '../../../../test/helpers/media-factory.ts';
import { places } from '../../trips/itineraries.ts';

describe('trip pages', () => {
  let t: TestApp;
  let owner: TestUser;
  let tripId: string;
  const get = (url: string, headers: Record<string, string> = {}) => t.request({ method: 'GET', url, headers });

  before(async () => {
    t = await createTestApp();
    owner = await createUser(t, { nickname: '<b>Ana</b> Travels' });
    const geography = t.services.areas.geography.geography;
    for (const [place, takenAt, extra] of [
      [places.rome, '2026-05-01T09:00:00Z', { description: 'The Forum at dawn' }],
      [places.vienna, '2026-05-03T09:00:00Z', { authorSensitive: true, contentWarning: 'Heights' }],
    ] as const) {
      const city = await geography.nearestCity(place.latitude, place.longitude);
      await createMediaRow(t, owner.id, {
        ...place,
        cityId: city!.id,
        countryCode: city!.countryCode,
        takenAt: new Date(takenAt),
        ...extra,
      });
    }
    await t.request({ method: 'PUT', url: '/api/users/me/trip-home', token: owner.token, body: places.paris });
    tripId = (await t.request({ method: 'GET', url: `/api/users/${owner.id}/trips` })).json.data[0].id;
  });
  after(() => t.close());

  it('shows the trip: title, dates, distance, cities, countries, the map and the photos in order', async () => {
    const res = await get(`/trips/${tripId}`, { 'accept-language': 'en-US' });
    assert.equal(res.statusCode, 200);
    assert.match(res.headers['content-type'] as string, /^text\/html/);
    assert.match(
      res.body,
      /<h1>Rome and Vienna · May 1 – 3, 2026<\/h1>|<h1>Rome and Vienna · May 1\s–\s3, 2026<\/h1>/u,
    );
    assert.match(res.body, /A trip by &lt;b>Ana&lt;\/b> Travels/);
    assert.match(res.body, /May 1, 2026 to May 3, 2026/);
    assert.match(res.body, /<li>Italy<\/li><li>Austria<\/li>|<li>Italy<\/li>\s*<li>Austria<\/li>/);
    assert.match(res.body, new RegExp(`data-route="/api/trips/${tripId}/route"`));
    assert.match(res.body, /<script[^>]+src="\/assets\/trip\.[\w-]+\.js"/);
    assert.match(res.body, /alt="The Forum at dawn"/);
    // The sensitive photo is behind its warning for a visitor.
    assert.match(res.body, /class="sensitive__warning">Heights</);
    const km = Math.round(Number(/([\d,]+) km along the route/.exec(res.body)![1]!.replace(',', '')));
    assert.ok(km > 700 && km < 800, `${km} km from Rome to Vienna`);
  });

  it('speaks French', async () => {
    const res = await get(`/trips/${tripId}`, { 'accept-language': 'fr-FR' });
    assert.match(res.body, /Rome et Vienne|Rome et Vienna/);
    assert.match(res.body, /<li>Italie<\/li>/);
    assert.match(res.body, /km de parcours/);
  });

  it('is listed on the profile, and 404 once hidden (but not to its owner)', async () => {
    const profile = await get(`/@${owner.username}`, { 'accept-language': 'en-US' });
    assert.match(profile.body, new RegExp(`<a href="/trips/${tripId}">Rome and Vienna`));
    await t.request({ method: 'DELETE', url: `/api/users/me/trips/${tripId}`, token: owner.token });
    assert.equal((await get(`/trips/${tripId}`)).statusCode, 404);
    assert.doesNotMatch((await get(`/@${owner.username}`)).body, /\/trips\//);
    const own = await get(`/trips/${tripId}`, { cookie: `tm_session=${owner.token}`, 'accept-language': 'en-US' });
    assert.equal(own.statusCode, 200);
    assert.match(own.body, /Only you see this trip/);
    assert.match(own.body, /<meta name="robots" content="noindex"/);
  });

  it('answers 404 for an unknown trip and 422 for a malformed id', async () => {
    assert.equal((await get('/trips/00000000-0000-4000-8000-000000000000')).statusCode, 404);
    assert.equal((await get('/trips/not-a-trip')).statusCode, 422);
  });
});
