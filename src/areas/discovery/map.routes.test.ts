/** The map: GET /api/media/in-bounds answers a box's media, or its clusters when it holds more than the limit. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { createMediaRow, updateMediaRow } from '../../../test/helpers/media-factory.ts';

let t: TestApp;
let owner: TestUser;

const inBounds = (query: string) => t.request({ method: 'GET', url: `/api/media/in-bounds?${query}` });
const ids = (response: { json: { data: Array<{ id: string }> } }) => response.json.data.map((item) => item.id);
const repairClusters = async () => {
  const response = await t.request({ method: 'POST', url: '/admin/jobs/flush/map-clusters', token: adminToken });
  assert.equal(response.statusCode, 200);
  return response.json.data.attributes.report as { media: number; cells: number };
};

before(async () => {
  t = await createTestApp();
  owner = await createUser(t);
});
after(() => t.close());

describe('GET /api/media/in-bounds: media', () => {
  it("answers every media of a small box, most liked first, with meta.mode 'media'", async () => {
    const low = await createMediaRow(t, owner.id, { latitude: 60.1, longitude: 24.9, likesCount: 1 });
    const high = await createMediaRow(t, owner.id, { latitude: 60.2, longitude: 25.0, likesCount: 5 });
    await createMediaRow(t, owner.id, { latitude: 60.2, longitude: 26.5 }); // east of the box
    const response = await inBounds('south=60&west=24.5&north=60.5&east=25.5');
    assert.equal(response.statusCode, 200);
    assert.deepEqual(ids(response), [high.id, low.id]);
    assert.equal(response.json.meta.mode, 'media');
    assert.equal(response.json.meta.limit, 100);
    assert.equal(typeof response.json.meta.zoom, 'number');
  });

  it('finds media on both sides of the antimeridian in a box around Fiji (west > east)', async () => {
    const suva = await createMediaRow(t, owner.id, { latitude: -18.14, longitude: 178.44 });
    const lau = await createMediaRow(t, owner.id, { latitude: -18.5, longitude: -178.8 });
    await createMediaRow(t, owner.id, { latitude: -18.3, longitude: 0 });
    const response = await inBounds('south=-21&west=176&north=-15&east=-178');
    assert.deepEqual(new Set(ids(response)), new Set([suva.id, lau.id]));
  });

  it('finds media at the poles', async () => {
    const north = await createMediaRow(t, owner.id, { latitude: 90, longitude: 0 });
    const south = await createMediaRow(t, owner.id, { latitude: -90, longitude: 180 });
    const arctic = await inBounds('south=89&west=-180&north=90&east=180');
    assert.deepEqual(ids(arctic), [north.id]);
    const antarctic = await inBounds('south=-90&west=179&north=-89&east=180');
    assert.deepEqual(ids(antarctic), [south.id]);
  });

  it('answers an empty box with no media', async () => {
    const response = await inBounds('south=-50&west=-140&north=-49&east=-139');
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json.data, []);
    assert.equal(response.json.meta.mode, 'media');
  });

  for (const [query, parameter] of [
    ['south=10&west=0&north=5&east=1', 'south'],
    ['south=-91&west=0&north=5&east=1', 'south'],
    ['south=0&west=NaN&north=5&east=1', 'west'],
    ['south=0&west=0&north=Infinity&east=1', 'north'],
    ['south=0&west=0&north=5', 'east'],
    ['south=0&west=0&north=5&east=1&zoom=23', 'zoom'],
    ['south=0&west=0&north=5&east=1&zoom=-1', 'zoom'],
    ['south=0&west=0&north=5&east=1&limit=0', 'limit'],
    ['south=0&west=0&north=5&east=1&limit=1000000000', 'limit'],
  ] as const) {
    it(`answers 400 naming ${parameter} for ?${query}`, async () => {
      const response = await inBounds(query);
      assert.equal(response.statusCode, 400);
      assert.equal(response.json.errors[0].source.parameter, parameter);
    });
  }
});

describe('GET /api/media/in-bounds: clusters', () => {
  const rome = { latitude: 41.9, longitude: 12.5 };
  const madrid = { latitude: 40.42, longitude: -3.7 };
  let romeStar: string;
  let madridStar: string;

  before(async () => {
    romeStar = (await createMediaRow(t, owner.id, { ...rome, likesCount: 50 })).id;
    for (let i = 1; i <= 3; i++) {
      await createMediaRow(t, owner.id, {
        latitude: rome.latitude + i * 0.001,
        longitude: rome.longitude,
        likesCount: i,
      });
    }
    madridStar = (await createMediaRow(t, owner.id, { ...madrid, likesCount: 7 })).id;
    await createMediaRow(t, owner.id, { latitude: madrid.latitude + 0.002, longitude: madrid.longitude });
  });

  it('shows clusters per cell of the zoom once the box holds more than the limit, after the job has counted them', async () => {
    const report = await repairClusters();
    assert.ok(report.media >= 6);
    const response = await inBounds('south=35&west=-10&north=45&east=20&zoom=4&limit=3');
    assert.equal(response.statusCode, 200);
    assert.equal(response.json.meta.mode, 'clusters');
    assert.equal(response.json.meta.zoom, 4);
    const clusters = response.json.data;
    assert.equal(clusters.length, 2);
    const byCount = [...clusters].sort((a, b) => b.attributes.count - a.attributes.count);
    const [romeCluster, madridCluster] = byCount;
    assert.equal(romeCluster.type, 'mapClusters');
    assert.equal(romeCluster.attributes.count, 4);
    assert.equal(madridCluster.attributes.count, 2);
    // Fewer than 5 media: drawn at the representative's own public position, not at their mean.
    assert.deepEqual(romeCluster.attributes.position, rome);
    const { bounds } = romeCluster.attributes;
    assert.equal(bounds.north - bounds.south, 45 / 16);
    assert.ok(bounds.south <= rome.latitude && rome.latitude < bounds.north);
    assert.ok(bounds.west <= rome.longitude && rome.longitude < bounds.east);
    assert.equal(romeCluster.relationships.representative.data.id, romeStar);
    assert.equal(madridCluster.relationships.representative.data.id, madridStar);
    assert.equal(romeCluster.attributes.thumbnail, `/media/${romeStar.replaceAll('-', '')}.webp?size=thumb`);
    assert.equal(response.json.included, undefined);
  });

  it("never clusters finer than one zoom above the box's own: a world box at zoom 22 is a world view", async () => {
    const response = await inBounds('south=-90&west=-180&north=90&east=180&zoom=22&limit=1');
    assert.equal(response.statusCode, 200);
    assert.equal(response.json.meta.mode, 'clusters');
    assert.equal(response.json.meta.zoom, 1);
    assert.ok(response.json.data.length <= 16 * 8);
  });

  it('merges the cells of a wider view: at zoom 0 (45-degree cells) one cluster per city', async () => {
    const response = await inBounds('south=0&west=-45&north=44&east=45&zoom=0&limit=3');
    assert.equal(response.json.meta.mode, 'clusters');
    const clusters = [...response.json.data].sort((a, b) => b.attributes.count - a.attributes.count);
    assert.deepEqual(
      clusters.map((cluster) => [cluster.attributes.count, cluster.relationships.representative.data.id]),
      [
        [4, romeStar],
        [2, madridStar],
      ],
    );
    assert.deepEqual(clusters[0].attributes.bounds, { south: 0, west: 0, north: 45, east: 45 });
  });

  it('counts a deep zoom live: new media show at once', async () => {
    await createMediaRow(t, owner.id, { latitude: rome.latitude + 0.0001, longitude: rome.longitude + 0.0001 });
    const response = await inBounds('south=41.89&west=12.49&north=41.91&east=12.51&zoom=14&limit=2');
    assert.equal(response.json.meta.mode, 'clusters');
    const total = response.json.data.reduce(
      (sum: number, cluster: { attributes: { count: number } }) => sum + cluster.attributes.count,
      0,
    );
    assert.equal(total, 5);
  });

  it('shows the media of a street view in a busy quarter, not the clusters of the cells around it', async () => {
    // Oslo: three media in one precomputed cell (zoom 12, about 1.2 km), two of them in the box.
    const inBox = [
      await createMediaRow(t, owner.id, { latitude: 59.9001, longitude: 10.7501, likesCount: 2 }),
      await createMediaRow(t, owner.id, { latitude: 59.9001, longitude: 10.7501, likesCount: 1 }),
    ];
    await createMediaRow(t, owner.id, { latitude: 59.9004, longitude: 10.7501 });
    await repairClusters();
    const response = await inBounds('south=59.9&west=10.75&north=59.9002&east=10.7502&zoom=14&limit=2');
    assert.equal(response.json.meta.mode, 'media');
    assert.deepEqual(
      ids(response),
      inBox.map((media) => media.id),
    );
  });

  it("answers a city's view (zoom 12) from the precomputed cells: a media inserted behind the API's back counts there after the next repair", async () => {
    const cityView = 'south=41.86&west=12.44&north=41.94&east=12.56&zoom=12&limit=2';
    const total = (response: { json: { data: { attributes: { count: number } }[] } }) =>
      response.json.data.reduce((sum, cluster) => sum + cluster.attributes.count, 0);
    await repairClusters();
    const before = await inBounds(cityView);
    assert.deepEqual([before.json.meta.mode, before.json.meta.zoom], ['clusters', 12]);
    await createMediaRow(t, owner.id, { latitude: rome.latitude - 0.0002, longitude: rome.longitude });
    assert.equal(total(await inBounds(cityView)), total(before));
    await repairClusters();
    assert.equal(total(await inBounds(cityView)), total(before) + 1);
  });

  it('never places a media that left public view behind the API: a small cell whose representative left is not drawn until the next repair', async () => {
    await updateMediaRow(t, madridStar, { flag: 2 });
    type Cluster = {
      attributes: { count: number; position: { latitude: number; longitude: number } };
      relationships: { representative: { data: { id: string } } };
    };
    const west = (response: { json: { data: Cluster[] } }) =>
      response.json.data.filter((cluster) => cluster.attributes.position.longitude < 0);
    const stale = await inBounds('south=35&west=-10&north=45&east=20&zoom=4&limit=3');
    assert.deepEqual(west(stale), []);

    await repairClusters();
    const fresh = await inBounds('south=35&west=-10&north=45&east=20&zoom=4&limit=3');
    const [rebuilt] = west(fresh);
    assert.equal(rebuilt!.attributes.count, 1);
    assert.notEqual(rebuilt!.relationships.representative.data.id, madridStar);
    assert.equal(rebuilt!.attributes.position.latitude, madrid.latitude + 0.002);
  });

  it('draws a cell of 5 media or more at their mean position, whatever its representative', async () => {
    const cairo = { latitude: 30.04, longitude: 31.23 };
    for (let i = 0; i < 5; i++) {
      await createMediaRow(t, owner.id, {
        latitude: cairo.latitude + i * 0.01,
        longitude: cairo.longitude,
        likesCount: i,
      });
    }
    await repairClusters();
    const response = await inBounds('south=25&west=25&north=35&east=35&zoom=4&limit=1');
    const [cluster] = response.json.data;
    assert.equal(cluster.attributes.count, 5);
    assert.ok(Math.abs(cluster.attributes.position.latitude - (cairo.latitude + 0.02)) < 1e-9);
  });

  it('clusters a box across the antimeridian from both sides', async () => {
    await createMediaRow(t, owner.id, { latitude: -17.8, longitude: 177.9 });
    await createMediaRow(t, owner.id, { latitude: -17.81, longitude: 177.91 });
    await createMediaRow(t, owner.id, { latitude: -16.5, longitude: -179.9 });
    await repairClusters();
    const response = await inBounds('south=-20&west=170&north=-10&east=-170&zoom=3&limit=1');
    assert.equal(response.json.meta.mode, 'clusters');
    const longitudes = response.json.data.map(
      (cluster: { attributes: { position: { longitude: number } } }) => cluster.attributes.position.longitude,
    );
    assert.ok(longitudes.some((longitude: number) => longitude > 170));
    assert.ok(longitudes.some((longitude: number) => longitude < -170));
  });
});
