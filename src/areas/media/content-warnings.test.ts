/**
 * Content warnings: an author marks a media sensitive (at upload or later) with an optional text; the
 * media stays listed and every presentation carries the warning; bad input is 422 and changes nothing;
 * a moderator may impose a warning that the author may then neither change nor lift.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { createMediaRow, readMediaRow } from '../../../test/helpers/media-factory.ts';
import { storedKeys, upload } from '../../../test/helpers/media-uploads.ts';
import { makeJpeg } from '../../../test/support/test-images.ts';

const marseille = { latitude: 43.2965, longitude: 5.3698 };
const warningUrl = (id: string) => `/api/users/me/media/${id}/content-warning`;

describe('content warnings', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let jpeg: Buffer;
  before(async () => {
    t = await createTestApp();
    ada = await createUser(t, { username: 'ada' });
    bob = await createUser(t, { username: 'bob' });
    jpeg = await makeJpeg({ width: 64, height: 48, gps: marseille });
  });
  after(() => t.close());

  const post = async (fields: Record<string, string> = {}) => {
    const res = await upload(t, '/api/users/me/media', ada.token, jpeg, fields);
    assert.equal(res.statusCode, 201, res.body);
    return res.json.data as { id: string; attributes: Record<string, unknown> };
  };
  const putWarning = (id: string, body: unknown, token = ada.token) =>
    t.request({ method: 'PUT', url: warningUrl(id), token, body: body as Record<string, unknown> });
  const warningOf = (attributes: Record<string, unknown>) => [attributes.sensitive, attributes.contentWarning];
  const ownCount = async () =>
    (await t.request({ method: 'GET', url: '/api/users/me/media?limit=100', token: ada.token })).json.data.length;

  it('an upload carries sensitive and contentWarning, and the media stays in public lists with them', async () => {
    const media = await post({ description: 'Cliff edge', sensitive: 'true', contentWarning: '  Heights, vertigo  ' });
    assert.deepEqual(warningOf(media.attributes), [true, 'Heights, vertigo'], 'the text is trimmed');
    assert.equal(media.attributes.contentWarningByModerator, false);

    const listed = await t.request({ method: 'GET', url: `/api/users/${ada.id}/media` });
    const shown = listed.json.data.find((item: { id: string }) => item.id === media.id);
    assert.ok(shown, "an author's warning leaves the media in the user's public list");
    assert.deepEqual(warningOf(shown.attributes), [true, 'Heights, vertigo']);
    assert.equal(shown.attributes.contentWarningByModerator, undefined, 'owner-only');

    const nearby = await t.request({
      method: 'GET',
      url: `/api/media/nearby?lat=${marseille.latitude}&lng=${marseille.longitude}&distance=5000`,
    });
    assert.equal(nearby.statusCode, 200);
    const near = nearby.json.data.find((item: { id: string }) => item.id === media.id);
    assert.deepEqual(warningOf(near.attributes), [true, 'Heights, vertigo'], 'discovery lists carry it');

    const bookmark = { method: 'PUT', url: `/api/users/me/media/${media.id}/bookmark`, token: bob.token, body: {} };
    assert.equal((await t.request(bookmark as Parameters<TestApp['request']>[0])).statusCode, 200);
    const bookmarks = await t.request({ method: 'GET', url: '/api/users/me/bookmarks', token: bob.token });
    const bookmarked = bookmarks.json.data.find((item: { id: string }) => item.id === media.id);
    assert.deepEqual(warningOf(bookmarked.attributes), [true, 'Heights, vertigo'], "others' lists carry it");
  });

  it('sensitive without a text is a warning without text; no field is no warning', async () => {
    assert.deepEqual(warningOf((await post({ sensitive: 'true' })).attributes), [true, null]);
    assert.deepEqual(warningOf((await post({ sensitive: 'false' })).attributes), [false, null]);
    assert.deepEqual(warningOf((await post()).attributes), [false, null]);
  });

  it('refuses a bad warning at upload with 422 and stores nothing', async () => {
    const before = { count: await ownCount(), keys: (await storedKeys(t.deps.storage)).length };
    const cases: [Record<string, string>, string][] = [
      [{ contentWarning: 'Spiders' }, '/contentWarning'],
      [{ sensitive: 'false', contentWarning: 'Spiders' }, '/contentWarning'],
      [{ sensitive: 'true', contentWarning: 'x'.repeat(201) }, '/contentWarning'],
      [{ sensitive: 'true', contentWarning: ' \u200b ' }, '/contentWarning'],
      [{ sensitive: 'yes' }, '/sensitive'],
    ];
    for (const [fields, pointer] of cases) {
      const res = await upload(t, '/api/users/me/media', ada.token, jpeg, fields);
      assert.equal(res.statusCode, 422, JSON.stringify(fields));
      assert.equal(res.json.errors[0].code, 'validationFailed');
      assert.equal(res.json.errors[0].source.pointer, pointer, JSON.stringify(fields));
    }
    assert.equal(await ownCount(), before.count, 'no media was made');
    assert.equal((await storedKeys(t.deps.storage)).length, before.keys, 'no file was stored');
    // 200 characters (emoji count as one each) are fine.
    const longest = '🌋'.repeat(200);
    assert.deepEqual(warningOf((await post({ sensitive: 'true', contentWarning: longest })).attributes), [
      true,
      longest,
    ]);
  });

  it('the author sets, changes and lifts the warning of a media', async () => {
    const media = await post({ description: 'Harbour at night' });
    const set = await putWarning(media.id, { sensitive: true, contentWarning: 'Blood' });
    assert.equal(set.statusCode, 200, set.body);
    assert.deepEqual(warningOf(set.json.data.attributes), [true, 'Blood']);
    assert.equal(set.json.data.attributes.description, 'Harbour at night', 'the rest is untouched');

    const changed = await putWarning(media.id, { sensitive: true, contentWarning: null });
    assert.deepEqual(warningOf(changed.json.data.attributes), [true, null]);

    const lifted = await putWarning(media.id, { sensitive: false });
    assert.deepEqual(warningOf(lifted.json.data.attributes), [false, null]);
    const mine = await t.request({ method: 'GET', url: '/api/users/me/media?limit=100', token: ada.token });
    const row = mine.json.data.find((item: { id: string }) => item.id === media.id);
    assert.deepEqual(warningOf(row.attributes), [false, null], 'the lists read what was written');
  });

  it('refuses a bad edit with 422 and changes nothing', async () => {
    const media = await post();
    assert.equal((await putWarning(media.id, { sensitive: true, contentWarning: 'Needles' })).statusCode, 200);
    const cases: [unknown, string][] = [
      [{ contentWarning: 'Spiders' }, '/sensitive'],
      [{ sensitive: false, contentWarning: 'Spiders' }, '/contentWarning'],
      [{ sensitive: true, contentWarning: 'x'.repeat(201) }, '/contentWarning'],
      [{ sensitive: true, contentWarning: 42 }, '/contentWarning'],
      [{ sensitive: true, contentWarning: ['Spiders'] }, '/contentWarning'],
      [{ sensitive: true, contentWarning: '   ' }, '/contentWarning'],
      [{ sensitive: 'true' }, '/sensitive'],
      [{ sensitive: true, spoiler: 'x' }, '/spoiler'],
      [{}, '/sensitive'],
    ];
    for (const [body, pointer] of cases) {
      const res = await putWarning(media.id, body);
      assert.equal(res.statusCode, 422, JSON.stringify(body));
      const pointers = res.json.errors.map((error: { source?: { pointer?: string } }) => error.source?.pointer);
      assert.ok(pointers.includes(pointer), `${JSON.stringify(body)}: ${JSON.stringify(pointers)}`);
    }
    const row = await readMediaRow(t, media.id);
    assert.deepEqual([row.authorSensitive, row.contentWarning], [true, 'Needles'], 'nothing changed');
  });

  it("refuses another user's media, an unknown one and a missing credential", async () => {
    const media = await post();
    const theirs = await putWarning(media.id, { sensitive: true }, bob.token);
    assert.equal(theirs.statusCode, 404);
    assert.equal(
      (await putWarning('00000000000000000000000000000000', { sensitive: true })).json.errors[0].code,
      'notFound',
    );
    const anonymous = await t.request({ method: 'PUT', url: warningUrl(media.id), body: { sensitive: true } });
    assert.equal(anonymous.statusCode, 401);
    assert.equal((await readMediaRow(t, media.id)).authorSensitive, false);
  });

  it('a moderator imposes a warning the author may neither change nor lift, then lifts it (audited)', async () => {
    const media = await post();
    const hex = String(media.attributes.hex);
    const imposed = await t.request({
      method: 'PUT',
      url: `/admin/media/${hex}/content-warning`,
      token: adminToken,
      body: { sensitive: true, contentWarning: 'Graphic injury' },
    });
    assert.equal(imposed.statusCode, 200, imposed.body);
    assert.deepEqual(warningOf(imposed.json.data.attributes), [true, 'Graphic injury']);
    assert.equal(imposed.json.data.attributes.contentWarningByModerator, true);

    for (const body of [{ sensitive: false }, { sensitive: true, contentWarning: 'Just a scratch' }]) {
      const refused = await putWarning(media.id, body);
      assert.equal(refused.statusCode, 403);
      assert.equal(refused.json.errors[0].code, 'contentWarningByModerator');
    }
    const mine = await t.request({ method: 'GET', url: '/api/users/me/media?limit=100', token: ada.token });
    const own = mine.json.data.find((item: { id: string }) => item.id === media.id);
    assert.deepEqual(warningOf(own.attributes), [true, 'Graphic injury']);
    assert.equal(own.attributes.contentWarningByModerator, true, 'the owner sees why');
    assert.equal(own.attributes.flag, 0, 'a warning is not the moderation flag');

    const bad = await t.request({
      method: 'PUT',
      url: `/admin/media/${hex}/content-warning`,
      token: adminToken,
      body: { sensitive: false, contentWarning: 'x' },
    });
    assert.equal(bad.statusCode, 422);

    const lifted = await t.request({
      method: 'PUT',
      url: `/admin/media/${hex}/content-warning`,
      token: adminToken,
      body: { sensitive: false },
    });
    assert.deepEqual(warningOf(lifted.json.data.attributes), [false, null]);
    assert.equal(lifted.json.data.attributes.contentWarningByModerator, false);
    assert.equal((await putWarning(media.id, { sensitive: true })).statusCode, 200, "the author's again");

    const audit = await t.services.platform.audit.recent(50);
    const entries = audit.filter((entry) => entry.action === 'media.contentWarning' && entry.targetId === media.id);
    assert.equal(entries.length, 2, 'each moderator change is audited, the refused one is not');
  });

  it("a moderator's sensitive flag still takes the media out of lists, warning or not", async () => {
    const media = await post({ sensitive: 'true', contentWarning: 'Storm damage' });
    const flagged = await t.request({
      method: 'PUT',
      url: `/admin/media/${media.attributes.hex}/flag`,
      token: adminToken,
      body: { flag: 1 },
    });
    assert.equal(flagged.statusCode, 200);
    const listed = await t.request({ method: 'GET', url: `/api/users/${ada.id}/media?limit=100` });
    assert.ok(!listed.json.data.some((item: { id: string }) => item.id === media.id));
  });
});

describe('content warnings: rate limit', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { RATE_LIMITS: 'on' } });
  });
  after(() => t.close());

  it('allows 30 edits a minute per user, then 429 with Retry-After; the next minute is open', async () => {
    const ada = await createUser(t);
    const media = await createMediaRow(t, ada.id);
    const send = () =>
      t.request({ method: 'PUT', url: warningUrl(media.id), token: ada.token, body: { sensitive: true } });
    for (let i = 0; i < 30; i++) assert.equal((await send()).statusCode, 200);
    const refused = await send();
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.json.errors[0].code, 'rateLimited');
    assert.ok(Number(refused.headers['retry-after']) > 0);
    t.clock.advance(61_000);
    assert.equal((await send()).statusCode, 200);
  });
});
