/**
 * The map's precomputed cells follow the writes in their transaction, and their representatives the
 * likes right after theirs: a photo is counted in the world view as soon as it is public, and leaves
 * it as soon as it is not, and a cluster shows its most liked photo, without waiting for the daily
 * map-clusters job, which then finds nothing to repair.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { onPostgresOnly } from '../../../test/helpers/database.ts';
import { createUser, strongPassword, type TestUser } from '../../../test/helpers/factories.ts';
import { createMediaRow, readMediaRow, updateMediaRow } from '../../../test/helpers/media-factory.ts';
import { upload } from '../../../test/helpers/media-uploads.ts';
import { makeJpeg } from '../../../test/support/test-images.ts';
import { queryRows } from '../../platform/db/rows.ts';
import type { MediaRow } from '../media/read-model.ts';
import type { RepairReport } from './map-cells-repair.repository.ts';

interface Cluster {
  id: string;
  attributes: { count: number; thumbnail: string | null; position: { latitude: number; longitude: number } };
  relationships: { representative: { data: { id: string } | null } };
}
interface Place {
  latitude: number;
  longitude: number;
}

let t: TestApp;
let ada: TestUser;

const hexOf = (id: string) => id.replaceAll('-', '');
const admin = (method: 'PUT' | 'POST' | 'DELETE', url: string, body?: unknown) =>
  t.request({ method, url, token: adminToken, ...(body === undefined ? {} : { body }) });
const inBounds = (query: string) => t.request({ method: 'GET', url: `/api/media/in-bounds?${query}` });
const worldView = async () => {
  const response = await inBounds('south=-90&west=-180&north=90&east=180&limit=1');
  assert.equal(response.statusCode, 200);
  return response.json as { meta: { mode: string }; data: Cluster[] };
};
const total = (clusters: Cluster[]) => clusters.reduce((sum, cluster) => sum + cluster.attributes.count, 0);

/** The query of a box `margin` degrees around a place on each side. */
const boxAround = (place: Place, margin: number) =>
  `south=${place.latitude - margin}&west=${place.longitude - margin}&north=${place.latitude + margin}&east=${place.longitude + margin}`;

/**
 * How many media the map shows around a place, read from the precomputed cells of a zoom-4 view:
 * with limit 1, two media or more are answered as clusters (one media is read live, and answers 1).
 */
async function shownAround(place: Place): Promise<number> {
  const box = boxAround(place, 1);
  const response = await inBounds(`${box}&zoom=4&limit=1`);
  assert.equal(response.statusCode, 200);
  return response.json.meta.mode === 'media' ? response.json.data.length : total(response.json.data);
}

/** The representative of the cluster of a zoom-4 view around a place (a box inside one cell of zoom 4: 2.8 degrees). */
async function representativeAround(place: Place): Promise<string> {
  const box = boxAround(place, 0.2);
  const response = await inBounds(`${box}&zoom=4&limit=1`);
  assert.equal(response.statusCode, 200);
  const clusters = (response.json as { data: Cluster[] }).data;
  assert.equal(clusters.length, 1);
  return clusters[0]!.relationships.representative.data!.id;
}

/** Media of an owner put on the map the way an operator does it: created unpublished, then published. */
async function publishedMedia(owner: TestUser, place: Place, count: number, offset = 0): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const row = await createMediaRow(t, owner.id, {
      published: false,
      latitude: place.latitude + (offset + i) * 0.001,
      longitude: place.longitude,
    });
    const response = await admin('PUT', `/admin/media/${hexOf(row.id)}/published`, { published: true });
    assert.equal(response.statusCode, 200, response.body);
    ids.push(row.id);
  }
  return ids;
}

/** Every precomputed cell, positions rounded (sums of doubles added in another order differ in the last bits). */
const allCells = () =>
  queryRows<Record<string, unknown>>(
    t.deps.database.db,
    sql`SELECT zoom, cell_y, cell_x, media_count, round(latitude_sum::numeric, 6)::text AS latitude_sum,
               round(longitude_sum::numeric, 6)::text AS longitude_sum, representative_id, representative_likes
        FROM map_cells ORDER BY zoom, cell_y, cell_x`,
  );
const repair = async () => {
  const response = await admin('POST', '/admin/jobs/flush/map-clusters');
  assert.equal(response.statusCode, 200, response.body);
  return response.json.data.attributes.report as RepairReport;
};

/** The job finds the cells as the writes left them: nothing to repair, nothing written. */
async function expectNothingToRepair(): Promise<void> {
  const kept = await allCells();
  const report = await repair();
  assert.deepEqual(report.drift, { stale: 0, missing: 0 });
  assert.deepEqual(report.repaired, { removed: 0, written: 0 });
  assert.deepEqual(await allCells(), kept, 'the cells the writes left are the ones the job makes');
}

/** A like given through the API, or taken back. */
async function react(liker: TestUser, mediaId: string, like: boolean): Promise<void> {
  const url = `/api/users/me/media/${mediaId}/reaction`;
  const response = like
    ? await t.request({ method: 'PUT', url, token: liker.token, body: { type: 'like' } })
    : await t.request({ method: 'DELETE', url, token: liker.token });
  assert.equal(response.statusCode, like ? 200 : 204, response.body);
}

before(async () => {
  t = await createTestApp();
  ada = await createUser(t);
});
after(() => t.close());

describe('the map follows the writes at once', () => {
  it('counts uploaded photos in the world view at once, and a hidden one leaves it at once', async () => {
    const lisbon = { latitude: 38.7223, longitude: -9.1393 };
    const photos: string[] = [];
    for (let i = 0; i < 3; i++) {
      const jpeg = await makeJpeg({
        width: 32,
        height: 32,
        gps: { latitude: lisbon.latitude + i * 0.01, longitude: lisbon.longitude },
      });
      const response = await upload(t, '/api/users/me/media', ada.token, jpeg);
      assert.equal(response.statusCode, 201, response.body);
      photos.push(response.json.data.id);
    }
    const seen = await worldView();
    assert.equal(seen.meta.mode, 'clusters');
    assert.equal(seen.data.length, 1);
    const [cluster] = seen.data;
    assert.equal(cluster!.attributes.count, 3);
    const representative = cluster!.relationships.representative.data!.id;
    assert.ok(photos.includes(representative));
    assert.notEqual(cluster!.attributes.thumbnail, null);

    // Hiding the cluster's representative: the count drops and another photo of the cell stands for it.
    assert.equal((await admin('PUT', `/admin/media/${hexOf(representative)}/flag`, { flag: 2 })).statusCode, 200);
    const hidden = await worldView();
    assert.equal(hidden.meta.mode, 'clusters');
    assert.deepEqual(
      hidden.data.map((item) => item.attributes.count),
      [2],
    );
    const standIn = hidden.data[0]!.relationships.representative.data!.id;
    assert.ok(standIn !== representative && photos.includes(standIn), 'a photo still public represents the cell');
    assert.notEqual(hidden.data[0]!.attributes.thumbnail, null);

    assert.equal((await admin('PUT', `/admin/media/${hexOf(representative)}/flag`, { flag: 0 })).statusCode, 200);
    assert.equal(total((await worldView()).data), 3, 'shown again at once');
    assert.equal((await admin('PUT', `/admin/media/${hexOf(representative)}/flag`, { flag: 1 })).statusCode, 200);
    assert.equal(total((await worldView()).data), 2, 'a sensitive photo is not listed on the map');
  });

  it('leaves out a photo uploaded with its position private', async () => {
    const oslo = { latitude: 59.91, longitude: 10.75 };
    await publishedMedia(ada, oslo, 2);
    const jpeg = await makeJpeg({ width: 32, height: 32, gps: oslo });
    const response = await upload(t, '/api/users/me/media', ada.token, jpeg, { locationPublic: 'false' });
    assert.equal(response.statusCode, 201, response.body);
    assert.equal(await shownAround(oslo), 2);
  });

  it('follows publication: unpublished leaves, published again comes back', async () => {
    const rome = { latitude: 41.9, longitude: 12.5 };
    const [first] = await publishedMedia(ada, rome, 3);
    assert.equal(await shownAround(rome), 3);
    await admin('PUT', `/admin/media/${hexOf(first!)}/published`, { published: false });
    assert.equal(await shownAround(rome), 2);
    await admin('PUT', `/admin/media/${hexOf(first!)}/published`, { published: true });
    assert.equal(await shownAround(rome), 3);
  });

  it('follows deletions, by the owner and by an operator', async () => {
    const cairo = { latitude: 30.04, longitude: 31.23 };
    const [mine, moderated] = await publishedMedia(ada, cairo, 4);
    assert.equal(await shownAround(cairo), 4);
    const deleted = await t.request({ method: 'DELETE', url: `/api/users/me/media/${mine}`, token: ada.token });
    assert.equal(deleted.statusCode, 204, deleted.body);
    assert.equal(await shownAround(cairo), 3);
    assert.equal((await admin('DELETE', `/admin/media/${hexOf(moderated!)}`)).statusCode, 204);
    assert.equal(await shownAround(cairo), 2);
  });

  it("takes a banned owner's photos off the map and puts them back when the ban is lifted", async () => {
    const lima = { latitude: -12.05, longitude: -77.04 };
    const bob = await createUser(t);
    await publishedMedia(ada, lima, 2);
    await publishedMedia(bob, lima, 3, 10);
    assert.equal(await shownAround(lima), 5);
    assert.equal((await admin('PUT', `/admin/users/${bob.hex}/ban`, { reason: 'spam' })).statusCode, 200);
    assert.equal(await shownAround(lima), 2);
    assert.equal((await admin('PUT', `/admin/users/${bob.hex}/unban`)).statusCode, 200);
    assert.equal(await shownAround(lima), 5);
  });

  it('takes the photos of an account being deleted off the map, and of an erased one; a cancelled deletion puts them back', async () => {
    const nairobi = { latitude: -1.29, longitude: 36.82 };
    const cyd = await createUser(t);
    const dee = await createUser(t);
    await publishedMedia(ada, nairobi, 2);
    await publishedMedia(cyd, nairobi, 2, 10);
    await publishedMedia(dee, nairobi, 2, 20);
    assert.equal(await shownAround(nairobi), 6);

    const asked = await t.request({
      method: 'DELETE',
      url: '/api/users/me',
      token: cyd.token,
      body: { password: strongPassword },
    });
    assert.equal(asked.statusCode, 202, asked.body);
    await t.services.areas.accounts.mailFlows.drain();
    const token = /tmd_[A-Za-z0-9_-]+/.exec(t.mail.last(cyd.email)!.text)?.[0];
    const confirmed = await t.request({ method: 'POST', url: '/api/account/deletion/confirm', body: { token } });
    assert.equal(confirmed.statusCode, 200, confirmed.body);
    assert.equal(await shownAround(nairobi), 4);
    // Signing in during the grace period cancels the deletion.
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { login: cyd.username, password: strongPassword },
    });
    assert.equal(login.statusCode, 200, login.body);
    assert.equal(await shownAround(nairobi), 6);

    assert.equal((await admin('POST', `/admin/users/${dee.hex}/anonymize`)).statusCode, 200);
    assert.equal(await shownAround(nairobi), 4);
  });

  it("leaves no erased media as a representative, whichever of an owner's media the write takes off first", async () => {
    // Two media of one erased owner, alone in a cell of the finest level (about 1.2 km) and sharing the
    // coarser ones with others: the transaction deletes both, then takes them off the map one after
    // the other. While the first is taken off, the second is still counted but no longer placed, so it
    // cannot stand in for it; once both are off, no cell may show either.
    const zanzibar = { latitude: -6.165, longitude: 39.2 };
    const placeIn = async (owner: TestUser, likes: readonly number[], finestCell: number) => {
      for (const [i, likesCount] of likes.entries()) {
        const row = await createMediaRow(t, owner.id, {
          published: false,
          likesCount,
          latitude: zanzibar.latitude + finestCell * 0.02 + i * 0.0001,
          longitude: zanzibar.longitude,
        });
        const response = await admin('PUT', `/admin/media/${hexOf(row.id)}/published`, { published: true });
        assert.equal(response.statusCode, 200, response.body);
      }
    };
    const [eve, fay] = [await createUser(t), await createUser(t)];
    await placeIn(ada, [1, 1], 0);
    // The most liked first for one owner, last for the other: one of them is taken off before its sibling.
    await placeIn(eve, [9, 0], 1);
    await placeIn(fay, [0, 8], 2);
    assert.equal(await shownAround(zanzibar), 6);

    for (const erased of [eve, fay])
      assert.equal((await admin('POST', `/admin/users/${erased.hex}/anonymize`)).statusCode, 200);
    assert.equal(await shownAround(zanzibar), 2);
    await expectNothingToRepair();
  });

  it('moves the count when a media is moved, and drops it when its position is made private (media.changed)', async () => {
    // No route edits a position yet: the write is made here, and announced as every media write is.
    const quito = { latitude: -0.18, longitude: -78.47 };
    const perth = { latitude: -31.95, longitude: 115.86 };
    const [moved, hiddenPosition] = await publishedMedia(ada, quito, 4);
    await publishedMedia(ada, perth, 2);
    const announce = async (id: string) => {
      const media = await readMediaRow(t, id);
      await t.services.platform.events.publish('media.changed', { media });
    };
    await updateMediaRow(t, moved!, perth);
    await announce(moved!);
    assert.deepEqual([await shownAround(quito), await shownAround(perth)], [3, 3]);
    await updateMediaRow(t, hiddenPosition!, { locationPublic: false });
    await announce(hiddenPosition!);
    assert.equal(await shownAround(quito), 2);
    await updateMediaRow(t, hiddenPosition!, { locationPublic: true });
    await announce(hiddenPosition!);
    assert.equal(await shownAround(quito), 3);
  });

  it("moves a cluster's representative with likes at once: liked past it, a photo takes its place, and gives it back when unliked", async () => {
    const kyoto = { latitude: 35.01, longitude: 135.77 };
    const photos = await publishedMedia(ada, kyoto, 3);
    // Unliked, the representative is the highest id: the first liked is another, then a third beats it.
    const [first, second] = photos.filter((id) => id !== photos.toSorted().at(-1));
    const likers = [await createUser(t), await createUser(t), await createUser(t)];
    assert.notEqual(await representativeAround(kyoto), first);
    await react(likers[0]!, first!, true);
    assert.equal(await representativeAround(kyoto), first, 'one like puts it first');
    await react(likers[1]!, second!, true);
    await react(likers[2]!, second!, true);
    assert.equal(await representativeAround(kyoto), second, 'two likes put another first');
    await react(likers[1]!, second!, false);
    await react(likers[2]!, second!, false);
    assert.equal(await representativeAround(kyoto), first, 'unliked, it gives the place back');
    await expectNothingToRepair();
  });

  it('keeps the cells as the job makes them: the job finds nothing to repair, and writes nothing', async () => {
    assert.ok((await allCells()).length > 0);
    await expectNothingToRepair();
  });

  it('repairs cells changed behind the service, and only those: counts, positions, representatives, a cell lost, a stray cell', async () => {
    const kept = await allCells();
    const tamper = (statement: ReturnType<typeof sql>) => t.deps.database.db.execute(statement);
    const cellsAt = (zoom: number) => kept.filter((cell) => Number(cell.zoom) === zoom).length;
    await tamper(sql`UPDATE map_cells SET media_count = media_count + 1 WHERE zoom = 3`);
    await tamper(sql`UPDATE map_cells SET latitude_sum = latitude_sum + 0.5 WHERE zoom = 7`);
    await tamper(sql`UPDATE map_cells SET representative_id = gen_random_uuid() WHERE zoom = 9`);
    await tamper(sql`UPDATE map_cells SET representative_likes = representative_likes + 100 WHERE zoom = 11`);
    // Within the tolerance of sums added in another order (about a centimetre): not a difference.
    await tamper(sql`UPDATE map_cells SET longitude_sum = longitude_sum + 1e-10 WHERE zoom = 5`);
    await tamper(
      sql`DELETE FROM map_cells WHERE (zoom, cell_y, cell_x) IN (SELECT zoom, cell_y, cell_x FROM map_cells WHERE zoom = 12 LIMIT 1)`,
    );
    await tamper(sql`INSERT INTO map_cells VALUES (12, 1, 1, 1, -89.99, -179.99, gen_random_uuid(), 0)`);
    const rewritten = cellsAt(3) + cellsAt(7) + cellsAt(9) + cellsAt(11) + 1;
    const report = await repair();
    assert.deepEqual(report.drift, { stale: 0, missing: 0 }, 'the ledger was not touched');
    assert.deepEqual(report.repaired, { removed: 1, written: rewritten });
    assert.deepEqual(await allCells(), kept);
  });

  it("gives a representative's place back when its likes leave: an erased liker's, and an operator's recount", async () => {
    const hue = { latitude: 16.46, longitude: 107.59 };
    const photos = await publishedMedia(ada, hue, 2);
    const [favourite, other] = photos.toSorted();
    const [liker, erased] = [await createUser(t), await createUser(t)];
    await react(liker, other!, true);
    await react(erased, favourite!, true);
    await react(liker, favourite!, true);
    assert.equal(await representativeAround(hue), favourite);
    // Its deletion asked long ago (the grace period passed), the account-erasure job erases it and its likes.
    const asked = new Date(t.clock.now().getTime() - 400 * 86_400_000).toISOString();
    await t.deps.database.db.execute(sql`UPDATE users SET deletion_requested_at = ${asked} WHERE id = ${erased.id}`);
    const erasure = await admin('POST', '/admin/jobs/flush/account-erasure');
    assert.deepEqual(erasure.json.data.attributes.report, { erased: 1, failed: 0 });
    // One like each: the tie goes to the highest id.
    assert.equal(await representativeAround(hue), other, "the erased liker's like left it");
    // Likes counted behind the service's back: the representative does not move until a like or a recount.
    await updateMediaRow(t, favourite!, { likesCount: 40 });
    assert.equal(await representativeAround(hue), other);
    await react(liker, other!, false);
    assert.equal(await representativeAround(hue), favourite, 'the unlike repaired the cell from the media as they are');
    await react(liker, other!, true);
    assert.equal(await representativeAround(hue), favourite, 'one like does not beat the 40 the media row says');
    const recount = await admin('POST', `/admin/media/${hexOf(favourite!)}/recompute-stats`);
    assert.equal(recount.statusCode, 200, recount.body);
    assert.equal(await representativeAround(hue), other, 'recounted to its one like, it ties, and the highest id wins');
    await expectNothingToRepair();
  });

  it('repairs what no write told: media inserted, hidden and moved behind the API count as they are after the next repair', async () => {
    const hanoi = { latitude: 21.03, longitude: 105.85 };
    const manila = { latitude: 14.6, longitude: 120.98 };
    const [hiddenBehind, movedBehind] = await publishedMedia(ada, hanoi, 4);
    await publishedMedia(ada, manila, 2);
    await createMediaRow(t, ada.id, hanoi);
    await updateMediaRow(t, hiddenBehind!, { flag: 2 });
    await updateMediaRow(t, movedBehind!, manila);
    const report = await repair();
    assert.deepEqual(report.drift, { stale: 1, missing: 2 });
    assert.deepEqual([await shownAround(hanoi), await shownAround(manila)], [3, 3]);
  });
});

describe('the map under concurrent writes (PostgreSQL)', onPostgresOnly, () => {
  it('loses no count when media of one cell are published and unpublished at once', async () => {
    const reykjavik = { latitude: 64.1466, longitude: -21.9426 };
    const rows: MediaRow[] = [];
    for (let i = 0; i < 24; i++) {
      // All in one cell of the finest precomputed level (about 1.2 km).
      rows.push(
        await createMediaRow(t, ada.id, {
          published: false,
          latitude: reykjavik.latitude + i * 0.0001,
          longitude: reykjavik.longitude,
        }),
      );
    }
    const publishAll = (published: boolean) =>
      Promise.all(rows.map((row) => admin('PUT', `/admin/media/${hexOf(row.id)}/published`, { published })));
    assert.ok((await publishAll(true)).every((response) => response.statusCode === 200));
    assert.equal(await shownAround(reykjavik), 24);
    await expectNothingToRepair();

    assert.ok((await publishAll(false)).every((response) => response.statusCode === 200));
    assert.equal(await shownAround(reykjavik), 0);
  });

  it('moves the representatives of likes given and taken back at once, beside publications, to where the job puts them', async () => {
    const rows: MediaRow[] = [];
    for (let i = 0; i < 16; i++) {
      // Two places far apart, each in a few finest cells: the likes share every coarser cell.
      const latitude = (i % 2 === 0 ? 48.85 : -33.87) + (i % 4) * 0.01;
      rows.push(await createMediaRow(t, ada.id, { published: false, latitude, longitude: i % 2 === 0 ? 2.35 : 151.2 }));
    }
    const [liked, published] = [rows.slice(0, 10), rows.slice(10)];
    for (const row of liked) await admin('PUT', `/admin/media/${hexOf(row.id)}/published`, { published: true });
    const likers = await Promise.all(Array.from({ length: 5 }, () => createUser(t)));
    // Each liker likes a different share of the media, so the most liked differ from place to place.
    const likes = likers.flatMap((liker, i) =>
      liked.filter((_, j) => (i + j) % 3 !== 0).map((row) => ({ liker, row })),
    );
    const publish = async (row: MediaRow) =>
      assert.equal(
        (await admin('PUT', `/admin/media/${hexOf(row.id)}/published`, { published: true })).statusCode,
        200,
      );
    await Promise.all([...likes.map(({ liker, row }) => react(liker, row.id, true)), ...published.map(publish)]);
    await Promise.all(likes.filter((_, i) => i % 2 === 0).map(({ liker, row }) => react(liker, row.id, false)));
    await expectNothingToRepair();
  });

  // Unbounded, the like's move would wait for this test's lock forever: the timeout turns that into a failure.
  it("answers a like while the job's repair holds the map, and leaves its move to the retries", {
    timeout: 60_000,
  }, async () => {
    const tromso = { latitude: 69.65, longitude: 18.96 };
    const [liked, other] = (await publishedMedia(ada, tromso, 2)).toSorted();
    assert.equal(await representativeAround(tromso), other, 'unliked, the highest id');
    const liker = await createUser(t);
    await t.deps.database.db.transaction(async (repairing) => {
      await repairing.execute(sql`LOCK TABLE map_counted_media, map_cells IN EXCLUSIVE MODE`);
      await react(liker, liked!, true);
    });
    assert.equal(await representativeAround(tromso), other, 'the move gave up on the lock');
    const retried = await admin('POST', '/admin/jobs/flush/after-commit-retries');
    assert.equal(retried.statusCode, 200, retried.body);
    assert.deepEqual(retried.json.data.attributes.report, {
      retried: 1,
      succeeded: 1,
      failedAgain: 0,
      givenUp: 0,
      waiting: 0,
    });
    assert.equal(await representativeAround(tromso), liked, 'the retry moved it');
    await expectNothingToRepair();
  });

  it('publishes media of many cells at once without a deadlock (one lock order for every writer)', async () => {
    const rows: MediaRow[] = [];
    for (let i = 0; i < 24; i++) {
      // Spread over two continents: the writers share coarse cells, each in a different order of finer ones.
      const latitude = i % 2 === 0 ? 10 + i : -10 - i;
      rows.push(await createMediaRow(t, ada.id, { published: false, latitude, longitude: 20 + (i % 5) * 7 }));
    }
    const answers = await Promise.all(
      rows.map((row) => admin('PUT', `/admin/media/${hexOf(row.id)}/published`, { published: true })),
    );
    assert.deepEqual(
      answers.map((response) => response.statusCode),
      rows.map(() => 200),
    );
    await expectNothingToRepair();
  });
});
