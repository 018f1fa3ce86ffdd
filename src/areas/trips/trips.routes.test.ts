import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { createMediaRow } from '../../../test/helpers/media-factory.ts';
import { upload } from '../../../test/helpers/media-uploads.ts';
import { makeJpeg } from '../../../test/support/test-images.ts';
import { mediaFlags } from '../media/public.ts';
import { type Itinerary, itineraries, places } from './itineraries.ts';

type Place = { latitude: number; longitude: number };

describe('trips', () => {
  let t: TestApp;

  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  /** A placed photo as an upload stores it: its position reverse-geocoded to a city and country. */
  async function photo(owner: TestUser, place: Place | null, takenAt: string, extra: Record<string, unknown> = {}) {
    const city =
      place === null ? null : await t.services.areas.geography.geography.nearestCity(place.latitude, place.longitude);
    return createMediaRow(t, owner.id, {
      latitude: place?.latitude ?? null,
      longitude: place?.longitude ?? null,
      cityId: city?.id ?? null,
      countryCode: city?.countryCode ?? null,
      takenAt: new Date(takenAt),
      ...extra,
    });
  }

  const setHome = (user: TestUser, home: Place) =>
    t.request({ method: 'PUT', url: '/api/users/me/trip-home', token: user.token, body: home });
  const listTrips = (userId: string, token?: string, query = '') =>
    t.request({ method: 'GET', url: `/api/users/${userId}/trips${query}`, ...(token ? { token } : {}) });
  const getTrip = (id: string, token?: string, headers: Record<string, string> = {}) =>
    t.request({ method: 'GET', url: `/api/trips/${id}`, headers, ...(token ? { token } : {}) });
  const patchTrip = (user: TestUser, id: string, body: unknown) =>
    t.request({ method: 'PATCH', url: `/api/users/me/trips/${id}`, token: user.token, body });

  /** Uploads the itinerary's photos, sets the home (which recomputes), and names the photos by id. */
  async function travel(itinerary: Itinerary) {
    const user = await createUser(t);
    const names = new Map<string, string>();
    for (const p of itinerary.photos) {
      const place =
        p.latitude === null || p.longitude === null ? null : { latitude: p.latitude, longitude: p.longitude };
      names.set((await photo(user, place, p.takenAt)).id, p.name);
    }
    assert.equal((await setHome(user, itinerary.home)).statusCode, 200);
    return { user, names };
  }

  describe('the made-up itineraries, through the API', () => {
    for (const itinerary of itineraries) {
      it(itinerary.title, async () => {
        const { user, names } = await travel(itinerary);
        const res = await listTrips(user.id);
        assert.equal(res.statusCode, 200);
        const found = [...res.json.data].reverse();
        assert.deepEqual(
          found.map((trip: any) => trip.attributes.photoIds.map((id: string) => names.get(id))),
          itinerary.trips,
        );
        if (itinerary.countries)
          assert.deepEqual(
            found.map((trip: any) => trip.attributes.countries),
            itinerary.countries,
          );
      });
    }
  });

  it('draws Fiji to Samoa across the antimeridian: the short distance, a route cut at ±180° as GeoJSON', async () => {
    const fiji = itineraries.find((it) => it.title.startsWith('Fiji'))!;
    const { user } = await travel(fiji);
    const [trip] = (await listTrips(user.id)).json.data;
    // Nadi–Suva about 130 km, Suva–Apia about 1,150 km: nowhere near a trip round the world.
    assert.ok(trip.attributes.distanceMetres > 1_200_000 && trip.attributes.distanceMetres < 1_400_000);
    const route = await t.request({ method: 'GET', url: `/api/trips/${trip.id}/route` });
    assert.equal(route.statusCode, 200);
    assert.match(route.headers['content-type'] as string, /^application\/geo\+json/);
    const feature = JSON.parse(route.body);
    assert.equal(feature.type, 'Feature');
    assert.equal(feature.geometry.type, 'MultiLineString');
    const [west, east] = feature.geometry.coordinates;
    assert.equal(west.at(-1)[0], 180);
    assert.equal(east[0][0], -180);
    assert.deepEqual(east.at(-1), [places.apia.longitude, places.apia.latitude]);
    assert.equal(feature.properties.distanceMetres, trip.attributes.distanceMetres);
  });

  it('finds trips from uploads at once, with the birth city as home, and follows a deletion', async () => {
    const user = await createUser(t);
    const paris = await t.services.areas.geography.geography.nearestCity(places.paris.latitude, places.paris.longitude);
    const settings = await t.request({
      method: 'PATCH',
      url: '/api/users/me/settings',
      token: user.token,
      body: { birthCityId: paris!.id },
    });
    assert.equal(settings.statusCode, 200);
    const ids: string[] = [];
    for (const [day, place] of [
      ['2026-03-14T10:00:00Z', places.lyon],
      ['2026-03-15T10:00:00Z', places.lyon],
    ] as const) {
      const file = await makeJpeg({ width: 64, height: 48, gps: place, takenAt: new Date(day) });
      const res = await upload(t, '/api/users/me/media', user.token, file);
      assert.equal(res.statusCode, 201);
      ids.push(res.json.data.id);
    }
    let [trip] = (await listTrips(user.id)).json.data;
    assert.deepEqual(trip.attributes.photoIds, ids);
    assert.equal(trip.attributes.cities[0].name, 'Lyon');
    assert.equal(trip.attributes.coverMediaId, ids[0]);

    const removed = await t.request({ method: 'DELETE', url: `/api/users/me/media/${ids[0]}`, token: user.token });
    assert.equal(removed.statusCode, 204);
    [trip] = (await listTrips(user.id)).json.data;
    assert.deepEqual(trip.attributes.photoIds, [ids[1]]);
  });

  it('holds every photo of a post of several photos, and shows them all to others', async () => {
    const user = await createUser(t);
    assert.equal((await setHome(user, places.paris)).statusCode, 200);
    const ids: string[] = [];
    for (const day of ['2026-05-01T09:00:00Z', '2026-05-01T12:00:00Z', '2026-05-02T09:00:00Z']) {
      ids.push((await photo(user, places.lyon, day)).id);
    }
    const post = await t.request({
      method: 'POST',
      url: '/api/users/me/posts',
      token: user.token,
      body: { photos: ids.map((mediaId) => ({ mediaId })) },
    });
    assert.equal(post.statusCode, 201);
    const visitor = await createUser(t);
    for (const token of [user.token, visitor.token, undefined]) {
      const [trip] = (await listTrips(user.id, token)).json.data;
      assert.deepEqual(trip.attributes.photoIds, ids, 'the post’s three photos, in time order');
    }
  });

  it('titles a trip with its cities and dates in the viewer’s locale', async () => {
    const { user } = await travel(itineraries[0]!);
    const [trip] = (await listTrips(user.id)).json.data;
    const en = await getTrip(trip.id, undefined, { 'accept-language': 'en-US' });
    const fr = await getTrip(trip.id, undefined, { 'accept-language': 'fr-FR' });
    // ICU puts thin spaces around the range's dash: compared as plain spaces.
    const plain = (title: string) => title.replace(/\s/gu, ' ');
    assert.equal(plain(en.json.data.attributes.title), 'Lyon · Mar 14 – 15, 2026');
    assert.equal(plain(fr.json.data.attributes.title), 'Lyon · 14–15 mars 2026');
  });

  it('shows others cities, not points, for private positions; the owner sees the points', async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const offCentre = { latitude: places.lyon.latitude + 0.01, longitude: places.lyon.longitude + 0.01 };
    await photo(user, offCentre, '2026-09-01T10:00:00Z', { locationPublic: false });
    await photo(user, { latitude: 45.19, longitude: 5.72 }, '2026-09-02T10:00:00Z', { locationPublic: false });
    await setHome(user, places.paris);
    const [trip] = (await listTrips(user.id)).json.data;
    const routeFor = async (token?: string) =>
      JSON.parse(
        (await t.request({ method: 'GET', url: `/api/trips/${trip.id}/route`, ...(token ? { token } : {}) })).body,
      ).geometry.coordinates as number[][];
    const own = await routeFor(user.token);
    assert.deepEqual(own[0], [offCentre.longitude, offCentre.latitude]);
    for (const token of [other.token, undefined]) {
      const seen = await routeFor(token);
      const lyon = await t.services.areas.geography.geography.nearestCity(offCentre.latitude, offCentre.longitude);
      assert.deepEqual(seen[0], [lyon!.longitude, lyon!.latitude]);
      assert.ok(!JSON.stringify(seen).includes(String(offCentre.latitude)));
    }
    const seen = await getTrip(trip.id, other.token);
    assert.deepEqual(
      seen.json.data.attributes.cities.map((city: any) => city.name),
      ['Lyon', 'Grenoble'],
    );
  });

  it('follows media visibility, blocks and the owner’s hiding', async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const blocked = await createUser(t);
    const shown = await photo(user, places.rome, '2026-10-01T10:00:00Z');
    const hidden = await photo(user, places.rome, '2026-10-02T10:00:00Z', { flag: mediaFlags.hidden });
    await photo(user, places.prague, '2026-10-20T10:00:00Z', { flag: mediaFlags.hidden });
    await setHome(user, places.paris);

    const own = (await listTrips(user.id, user.token)).json.data;
    assert.equal(own.length, 2);
    const [pragueTrip, romeTrip] = own;
    assert.deepEqual(romeTrip.attributes.photoIds, [shown.id, hidden.id]);

    const seen = (await listTrips(user.id, other.token)).json.data;
    assert.deepEqual(
      seen.map((trip: any) => [trip.id, trip.attributes.photoIds]),
      [[romeTrip.id, [shown.id]]],
    );
    assert.equal((await getTrip(pragueTrip.id, other.token)).statusCode, 404);
    assert.equal((await getTrip(pragueTrip.id)).statusCode, 404);
    assert.equal((await getTrip(pragueTrip.id, user.token)).statusCode, 200);

    assert.equal(
      (await t.request({ method: 'PUT', url: `/api/users/me/blocks/${user.id}`, token: blocked.token })).statusCode,
      200,
    );
    assert.equal((await listTrips(user.id, blocked.token)).statusCode, 404);
    assert.equal((await getTrip(romeTrip.id, blocked.token)).statusCode, 404);

    // DELETE hides the grouping from others; the photos stay, and the owner can show it again.
    const deleted = await t.request({ method: 'DELETE', url: `/api/users/me/trips/${romeTrip.id}`, token: user.token });
    assert.equal(deleted.statusCode, 204);
    assert.equal((await getTrip(romeTrip.id, other.token)).statusCode, 404);
    assert.equal((await listTrips(user.id, other.token)).json.data.length, 0);
    assert.equal((await getTrip(romeTrip.id, user.token)).json.data.attributes.hidden, true);
    const media = await t.request({ method: 'GET', url: `/api/users/${user.id}/media`, token: other.token });
    assert.ok(media.json.data.some((item: any) => item.id === shown.id));
    const shownAgain = await patchTrip(user, romeTrip.id, { hidden: false });
    assert.equal(shownAgain.statusCode, 200);
    assert.equal((await getTrip(romeTrip.id, other.token)).statusCode, 200);
  });

  it('renames, splits and merges; the edits survive recomputation; bad edits change nothing', async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const three = itineraries.find((it) => it.title.startsWith('three countries'))!;
    const { user: stranger } = await travel(itineraries[0]!);
    const strangerTrip = (await listTrips(stranger.id)).json.data[0].id;
    const ids: string[] = [];
    for (const p of three.photos)
      ids.push((await photo(user, { latitude: p.latitude!, longitude: p.longitude! }, p.takenAt)).id);
    await setHome(user, three.home);
    const [trip] = (await listTrips(user.id)).json.data;
    const before = await getTrip(trip.id, user.token);

    // Bad input: the right 4xx, nothing changed.
    const outside = await patchTrip(user, trip.id, { splitAt: ids.at(-1) }); // the photo at home
    assert.equal(outside.statusCode, 422);
    assert.equal(outside.json.errors[0].source.pointer, '/splitAt');
    assert.equal((await patchTrip(user, trip.id, { splitAt: ids[0] })).statusCode, 422);
    const foreign = await patchTrip(user, trip.id, { mergeWith: strangerTrip });
    assert.equal(foreign.statusCode, 422);
    assert.equal(foreign.json.errors[0].source.pointer, '/mergeWith');
    assert.equal((await patchTrip(user, trip.id, { mergeWith: trip.id })).statusCode, 422);
    assert.equal((await patchTrip(user, trip.id, { title: 'x', splitAt: ids[1] })).statusCode, 422);
    assert.equal((await patchTrip(user, trip.id, {})).statusCode, 422);
    assert.equal((await patchTrip(user, trip.id, { title: 'x'.repeat(121) })).statusCode, 422);
    assert.equal((await patchTrip(other, trip.id, { title: 'Mine' })).statusCode, 404);
    assert.equal((await patchTrip(stranger, trip.id, { hidden: true })).statusCode, 404);
    assert.equal(
      (await t.request({ method: 'PATCH', url: `/api/users/me/trips/${trip.id}`, body: { title: 'x' } })).statusCode,
      401,
    );
    assert.deepEqual((await getTrip(trip.id, user.token)).json, before.json);
    assert.equal((await listTrips(stranger.id)).json.data[0].id, strangerTrip);

    // Split at Vienna: Rome stays, Vienna and Prague form a new trip.
    const split = await patchTrip(user, trip.id, { splitAt: ids[3] });
    assert.equal(split.statusCode, 200);
    assert.deepEqual(split.json.data.attributes.photoIds, ids.slice(0, 3));
    const newTripId = split.json.meta.newTripId;
    assert.deepEqual((await getTrip(newTripId)).json.data.attributes.photoIds, ids.slice(3, 7));
    assert.deepEqual((await getTrip(newTripId)).json.data.attributes.countries, ['AT', 'CZ']);

    const renamed = await patchTrip(user, trip.id, { title: '  Roma  ' });
    assert.equal(renamed.json.data.attributes.title, 'Roma');
    assert.equal(renamed.json.data.attributes.frozen, true);

    // A new photo and a recomputation: the edited trips keep their photos and title.
    await photo(user, places.vienna, '2026-05-06T10:00:00Z');
    await t.services.areas.trips.trips.recompute(user.id);
    const after = (await listTrips(user.id)).json.data;
    const rome = after.find((it: any) => it.id === trip.id);
    assert.equal(rome.attributes.title, 'Roma');
    assert.deepEqual(rome.attributes.photoIds, ids.slice(0, 3));
    assert.ok(after.some((it: any) => it.id === newTripId));

    // Merge them back: one trip, the other gone.
    const merged = await patchTrip(user, trip.id, { mergeWith: newTripId });
    assert.equal(merged.statusCode, 200);
    assert.deepEqual(merged.json.data.attributes.photoIds, ids.slice(0, 7));
    assert.equal((await getTrip(newTripId, user.token)).statusCode, 404);
  });

  it('pages a user’s trips latest first with a cursor', async () => {
    const user = await createUser(t);
    for (let week = 0; week < 3; week += 1) await photo(user, places.lyon, `2026-0${week + 1}-10T10:00:00Z`);
    await setHome(user, places.paris);
    const first = await listTrips(user.id, undefined, '?limit=2');
    assert.equal(first.json.data.length, 2);
    assert.ok(first.json.data[0].attributes.startsAt > first.json.data[1].attributes.startsAt);
    const next = await t.request({ method: 'GET', url: first.json.links.next });
    assert.equal(next.json.data.length, 1);
    assert.equal(next.json.links.next, null);
  });

  it('keeps the home position private, and refuses a bad one', async () => {
    const user = await createUser(t);
    assert.equal(
      (await t.request({ method: 'GET', url: '/api/users/me/trip-home', token: user.token })).statusCode,
      404,
    );
    assert.equal((await setHome(user, { latitude: 91, longitude: 0 })).statusCode, 422);
    assert.equal((await setHome(user, places.paris)).statusCode, 200);
    const home = await t.request({ method: 'GET', url: '/api/users/me/trip-home', token: user.token });
    assert.deepEqual(home.json.data.attributes, places.paris);
    assert.equal((await t.request({ method: 'GET', url: '/api/users/me/trip-home' })).statusCode, 401);
    assert.equal(
      (await t.request({ method: 'DELETE', url: '/api/users/me/trip-home', token: user.token })).statusCode,
      204,
    );
    assert.equal(
      (await t.request({ method: 'DELETE', url: '/api/users/me/trip-home', token: user.token })).statusCode,
      404,
    );
  });

  it('recomputes the users left queued when the job runs', async () => {
    const user = await createUser(t);
    await photo(user, places.paris, '2026-02-01T10:00:00Z');
    await photo(user, places.paris, '2026-02-02T10:00:00Z');
    await photo(user, places.rome, '2026-02-10T10:00:00Z');
    // Rows written behind the API's back (a lost event) are found once queued, by the job.
    assert.equal((await listTrips(user.id)).json.data.length, 0);
    await t.services.areas.trips.trips.queue(user.id);
    const run = await t.request({ method: 'POST', url: '/admin/jobs/flush/trips', token: adminToken });
    assert.equal(run.statusCode, 200);
    const [trip] = (await listTrips(user.id)).json.data;
    // No home set, no birth city: home is the most photographed city, Paris.
    assert.deepEqual(trip.attributes.countries, ['IT']);
  });

  it('hides a banned owner’s trips, and shows them again on unban', async () => {
    const { user } = await travel(itineraries[0]!);
    const [trip] = (await listTrips(user.id)).json.data;
    const ban = await t.request({
      method: 'PUT',
      url: `/admin/users/${user.hex}/ban`,
      token: adminToken,
      body: { reason: 'spam' },
    });
    assert.equal(ban.statusCode, 200);
    assert.equal((await listTrips(user.id)).statusCode, 404);
    assert.equal((await getTrip(trip.id)).statusCode, 404);
    assert.equal((await t.request({ method: 'GET', url: `/api/trips/${trip.id}/route` })).statusCode, 404);
    await t.request({ method: 'PUT', url: `/admin/users/${user.hex}/unban`, token: adminToken });
    assert.equal((await getTrip(trip.id)).statusCode, 200);
  });

  it('answers 404 for an unknown trip or user, 422 for a malformed id', async () => {
    assert.equal((await getTrip('00000000-0000-4000-8000-000000000000')).statusCode, 404);
    assert.equal((await getTrip('nope')).statusCode, 422);
    assert.equal((await listTrips('00000000-0000-4000-8000-000000000000')).statusCode, 404);
  });
});

describe('trips: rate limits', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { RATE_LIMITS: 'on' } });
  });
  after(() => t.close());

  it('counts an hour of edits per user: the 61st is 429 with Retry-After, and changes nothing', async () => {
    const user = await createUser(t);
    await createMediaRow(t, user.id, { ...places.lyon, takenAt: new Date('2026-03-14T10:00:00Z') });
    await t.request({ method: 'PUT', url: '/api/users/me/trip-home', token: user.token, body: places.paris });
    const [trip] = (await t.request({ method: 'GET', url: `/api/users/${user.id}/trips` })).json.data;
    const rename = (title: string) =>
      t.request({ method: 'PATCH', url: `/api/users/me/trips/${trip.id}`, token: user.token, body: { title } });
    for (let i = 1; i <= 60; i += 1) assert.equal((await rename(`Lyon ${i}`)).statusCode, 200);
    const refused = await rename('Lyon 61');
    assert.equal(refused.statusCode, 429);
    assert.ok(Number(refused.headers['retry-after']) > 0);
    const now = await t.request({ method: 'GET', url: `/api/trips/${trip.id}` });
    assert.equal(now.json.data.attributes.title, 'Lyon 60');
  });
});
