import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminToken, createTestApp, type TestApp } from '../../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../../test/helpers/factories.ts';
import { createMediaRow } from '../../../../test/helpers/media-factory.ts';
import { upload } from '../../../../test/helpers/media-uploads.ts';
import { makeJpeg } from '../../../../test/support/test-images.ts';
import { cityId } from '../../geography/reference-data/ids.ts';

const paris = cityId(2988507);
const reykjavik = cityId(3413829);
const atlantic = { latitude: 30, longitude: -40 };

describe('reverse geocoding of media', () => {
  let t: TestApp;
  let ada: TestUser;
  const placeOf = async (userId: string, mediaId: string, token?: string) => {
    const url = token ? '/api/users/me/media?limit=100' : `/api/users/${userId}/media?limit=100`;
    const list = await t.request({ method: 'GET', url, ...(token ? { token } : {}) });
    return list.json.data.find((item: any) => item.id === mediaId)?.attributes.place;
  };
  const backfill = (token = adminToken) => t.request({ method: 'POST', url: '/admin/media/backfill-geo', token });

  before(async () => {
    t = await createTestApp();
    ada = await createUser(t);
  });
  after(() => t.close());

  it('stores the nearest city and its country at upload, none at sea, and shows them only with a public position', async () => {
    const inParis = await upload(
      t,
      '/api/users/me/media',
      ada.token,
      await makeJpeg({ width: 64, height: 48, gps: { latitude: 48.8584, longitude: 2.2945 } }),
    );
    assert.equal(inParis.statusCode, 201, inParis.body);
    assert.deepEqual(inParis.json.data.attributes.place, { cityId: paris, countryCode: 'FR' });
    assert.deepEqual(await placeOf(ada.id, inParis.json.data.id), { cityId: paris, countryCode: 'FR' });

    const atSea = await upload(
      t,
      '/api/users/me/media',
      ada.token,
      await makeJpeg({ width: 64, height: 48, gps: atlantic }),
    );
    assert.equal(atSea.statusCode, 201);
    assert.deepEqual(atSea.json.data.attributes.place, { cityId: null, countryCode: null });

    const hidden = await upload(
      t,
      '/api/users/me/media',
      ada.token,
      await makeJpeg({ width: 64, height: 48, gps: { latitude: 64.1466, longitude: -21.9426 } }),
      { locationPublic: 'false' },
    );
    assert.equal(hidden.statusCode, 201);
    assert.equal(await placeOf(ada.id, hidden.json.data.id), null, 'a hidden position hides the place');
    assert.deepEqual(await placeOf(ada.id, hidden.json.data.id, ada.token), { cityId: reykjavik, countryCode: 'IS' });

    const nowhere = await upload(t, '/api/users/me/media', ada.token, await makeJpeg({ width: 64, height: 48 }));
    assert.equal(nowhere.json.data.attributes.place, null);

    const again = await backfill();
    assert.deepEqual(again.json.data.attributes, { examined: 0, located: 0, notLocated: 0, batches: 0 });
  });

  it('backfills media never geocoded in batches, remembers those at sea, and does nothing the second time', async () => {
    const bob = await createUser(t);
    const inReykjavik = await createMediaRow(t, bob.id, { latitude: 64.1466, longitude: -21.9426, countryCode: null });
    const sea = await createMediaRow(t, bob.id, { ...atlantic, countryCode: null });
    const unplaced = await createMediaRow(t, bob.id, { latitude: null, longitude: null, countryCode: null });
    assert.deepEqual(await placeOf(bob.id, inReykjavik.id), { cityId: null, countryCode: null });

    const first = await backfill();
    assert.equal(first.statusCode, 200);
    assert.equal(first.json.data.type, 'geoBackfillRuns');
    assert.deepEqual(first.json.data.attributes, { examined: 2, located: 1, notLocated: 1, batches: 1 });
    assert.deepEqual(await placeOf(bob.id, inReykjavik.id), { cityId: reykjavik, countryCode: 'IS' });
    assert.deepEqual(await placeOf(bob.id, sea.id), { cityId: null, countryCode: null });
    assert.equal(await placeOf(bob.id, unplaced.id), null);

    const second = await backfill();
    assert.deepEqual(second.json.data.attributes, { examined: 0, located: 0, notLocated: 0, batches: 0 });

    const runs = (await t.services.platform.audit.recent(200)).filter((entry) => entry.action === 'media.backfillGeo');
    assert.ok(
      runs.some((entry) => entry.actor === 'admin' && entry.payload.examined === 2 && entry.payload.located === 1),
    );
    assert.ok(runs.some((entry) => entry.payload.examined === 0));
  });

  it('commits each batch: a run in small batches locates everything in several', async () => {
    const carl = await createUser(t);
    const rows = [];
    for (let i = 0; i < 5; i++)
      rows.push(await createMediaRow(t, carl.id, { latitude: 48.85 + i / 1000, longitude: 2.35 }));
    const report = await t.services.areas.media.geoBackfill.run(2);
    assert.deepEqual(report, { examined: 5, located: 5, notLocated: 0, batches: 3 });
    for (const row of rows) assert.deepEqual(await placeOf(carl.id, row.id), { cityId: paris, countryCode: 'FR' });
  });

  it('refuses a user token and a missing one', async () => {
    assert.equal((await backfill(ada.token)).statusCode, 401);
    assert.equal((await t.request({ method: 'POST', url: '/admin/media/backfill-geo' })).statusCode, 401);
  });
});
