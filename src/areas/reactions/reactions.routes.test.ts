import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { createMediaRow, readMediaRow } from '../../../test/helpers/media-factory.ts';

const reactionUrl = (mediaId: string) => `/api/users/me/media/${mediaId}/reaction`;

describe('reactions: PUT and DELETE my reaction', () => {
  let t: TestApp;
  let owner: TestUser;
  let fan: TestUser;
  before(async () => {
    t = await createTestApp();
    owner = await createUser(t);
    fan = await createUser(t);
  });
  after(() => t.close());

  it('likes, repeats idempotently, switches to dislike and removes, with both counters following', async () => {
    const photo = await createMediaRow(t, owner.id);
    const liked = await t.request({
      method: 'PUT',
      url: reactionUrl(photo.id),
      token: fan.token,
      body: { type: 'like' },
    });
    assert.equal(liked.statusCode, 200);
    assert.match(String(liked.headers['content-type']), /^application\/vnd\.api\+json/);
    const { data } = liked.json;
    assert.equal(data.type, 'reactions');
    assert.equal(data.attributes.reaction, 'like');
    assert.equal(data.attributes.likesCount, 1);
    assert.equal(data.attributes.dislikesCount, 0);
    assert.equal(data.attributes.createdAt, '2026-11-21T12:00:00.000+00:00');
    assert.deepEqual(data.relationships.media.data, { type: 'media', id: photo.id });
    assert.deepEqual(data.relationships.user.data, { type: 'users', id: fan.id });
    assert.equal(liked.json.meta.change, 'created');

    t.clock.advanceMinutes(1);
    const again = await t.request({
      method: 'PUT',
      url: reactionUrl(photo.id),
      token: fan.token,
      body: { type: 'like' },
    });
    assert.equal(again.statusCode, 200);
    assert.equal(again.json.meta.change, 'unchanged');
    assert.equal(again.json.data.id, data.id);
    assert.equal(again.json.data.attributes.likesCount, 1, 'a repeated like counts once');
    assert.equal(
      again.json.data.attributes.createdAt,
      data.attributes.createdAt,
      'a repeat keeps the time of the like',
    );

    const switched = await t.request({
      method: 'PUT',
      url: reactionUrl(photo.id),
      token: fan.token,
      body: { type: 'dislike' },
    });
    assert.equal(switched.statusCode, 200);
    assert.equal(switched.json.meta.change, 'switched');
    assert.equal(switched.json.data.id, data.id);
    assert.equal(switched.json.data.attributes.reaction, 'dislike');
    assert.equal(switched.json.data.attributes.likesCount, 0);
    assert.equal(switched.json.data.attributes.dislikesCount, 1);
    assert.equal(switched.json.data.attributes.createdAt, '2026-11-21T12:01:00.000+00:00');

    const removed = await t.request({ method: 'DELETE', url: reactionUrl(photo.id), token: fan.token });
    assert.equal(removed.statusCode, 204);
    assert.equal(removed.body, '');
    const row = await readMediaRow(t, photo.id);
    assert.deepEqual([row.likesCount, row.dislikesCount], [0, 0]);

    const removedAgain = await t.request({ method: 'DELETE', url: reactionUrl(photo.id), token: fan.token });
    assert.equal(removedAgain.statusCode, 404);
    assert.equal(removedAgain.json.errors[0].code, 'notFound');
    assert.equal(removedAgain.json.errors[0].source.parameter, 'mediaId');
  });

  it('accepts the 32-hex form of the media id', async () => {
    const photo = await createMediaRow(t, owner.id);
    const hex = photo.id.replaceAll('-', '').toUpperCase();
    const res = await t.request({ method: 'PUT', url: reactionUrl(hex), token: fan.token, body: { type: 'dislike' } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json.data.relationships.media.data.id, photo.id);
    assert.equal((await t.request({ method: 'DELETE', url: reactionUrl(hex), token: fan.token })).statusCode, 204);
  });

  it('keeps reactions of different users apart', async () => {
    const photo = await createMediaRow(t, owner.id);
    await t.request({ method: 'PUT', url: reactionUrl(photo.id), token: fan.token, body: { type: 'like' } });
    const ownerLike = await t.request({
      method: 'PUT',
      url: reactionUrl(photo.id),
      token: owner.token,
      body: { type: 'like' },
    });
    assert.equal(ownerLike.json.data.attributes.likesCount, 2);
    assert.notEqual(ownerLike.json.data.relationships.user.data.id, fan.id);
    assert.equal(
      (await t.request({ method: 'DELETE', url: reactionUrl(photo.id), token: owner.token })).statusCode,
      204,
    );
    const row = await readMediaRow(t, photo.id);
    assert.equal(row.likesCount, 1, "deleting my reaction leaves the other user's");
  });

  it('answers 404 for a media that does not exist or that the caller may not see, writing nothing', async () => {
    const unpublished = await createMediaRow(t, owner.id, { published: false });
    const hidden = await createMediaRow(t, owner.id, { flag: 2 });
    const avatar = await createMediaRow(t, owner.id, { kind: 'avatar' });
    for (const id of [randomUUID(), unpublished.id, hidden.id, avatar.id]) {
      const res = await t.request({ method: 'PUT', url: reactionUrl(id), token: fan.token, body: { type: 'like' } });
      assert.equal(res.statusCode, 404, id);
      assert.equal(res.json.errors[0].code, 'notFound');
      assert.equal(res.json.errors[0].source.parameter, 'mediaId');
    }
    for (const row of [unpublished, hidden, avatar]) assert.equal((await readMediaRow(t, row.id)).likesCount, 0);
  });

  it('lets the owner react to their own unpublished media, and a sensitive media can be reacted to by its link', async () => {
    const draft = await createMediaRow(t, owner.id, { published: false });
    const own = await t.request({
      method: 'PUT',
      url: reactionUrl(draft.id),
      token: owner.token,
      body: { type: 'like' },
    });
    assert.equal(own.statusCode, 200);
    const sensitive = await createMediaRow(t, owner.id, { flag: 1 });
    const res = await t.request({
      method: 'PUT',
      url: reactionUrl(sensitive.id),
      token: fan.token,
      body: { type: 'like' },
    });
    assert.equal(res.statusCode, 200);
  });

  it('refuses malformed ids with 422 and bad bodies with 422 or 400, writing nothing', async () => {
    const photo = await createMediaRow(t, owner.id);
    const badId = await t.request({
      method: 'PUT',
      url: reactionUrl('not-an-id'),
      token: fan.token,
      body: { type: 'like' },
    });
    assert.equal(badId.statusCode, 422);
    assert.equal(badId.json.errors[0].code, 'invalidId');
    assert.equal(badId.json.errors[0].source.parameter, 'mediaId');
    const badDelete = await t.request({ method: 'DELETE', url: reactionUrl('1234'), token: fan.token });
    assert.equal(badDelete.statusCode, 422);
    assert.equal(badDelete.json.errors[0].code, 'invalidId');

    const cases: Array<[unknown, string]> = [
      [{ type: 'love' }, '/type'],
      [{}, '/type'],
      [{ type: 'like', extra: true }, '/extra'],
      [{ type: 1 }, '/type'],
      [['like'], ''], // the whole document: the root pointer of RFC 6901
    ];
    for (const [body, pointer] of cases) {
      const res = await t.request({ method: 'PUT', url: reactionUrl(photo.id), token: fan.token, body });
      assert.equal(res.statusCode, 422, JSON.stringify(body));
      assert.ok(
        res.json.errors.some((error: any) => error.code === 'validationFailed' && error.source.pointer === pointer),
        `${JSON.stringify(body)} -> ${JSON.stringify(res.json.errors)}`,
      );
    }
    const love = await t.request({
      method: 'PUT',
      url: reactionUrl(photo.id),
      token: fan.token,
      body: { type: 'love' },
    });
    assert.equal(love.json.errors.length, 1, 'one error for a bad type, not one per allowed value');
    assert.equal(love.json.errors[0].detail, 'must be one of "like", "dislike"');
    const noBody = await t.request({ method: 'PUT', url: reactionUrl(photo.id), token: fan.token });
    assert.equal(noBody.statusCode, 422);
    const malformed = await t.request({
      method: 'PUT',
      url: reactionUrl(photo.id),
      token: fan.token,
      payload: '{"type":',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(malformed.statusCode, 400);
    assert.equal(malformed.json.errors[0].code, 'malformedJson');
    const row = await readMediaRow(t, photo.id);
    assert.deepEqual([row.likesCount, row.dislikesCount], [0, 0]);
  });

  it('refuses every reaction route of mine without a token (401)', async () => {
    const photo = await createMediaRow(t, owner.id);
    const calls = [
      { method: 'PUT' as const, url: reactionUrl(photo.id), body: { type: 'like' } },
      { method: 'DELETE' as const, url: reactionUrl(photo.id) },
      { method: 'GET' as const, url: '/api/users/me/likes' },
      { method: 'GET' as const, url: '/api/users/me/dislikes' },
    ];
    for (const call of calls) {
      const res = await t.request(call);
      assert.equal(res.statusCode, 401, `${call.method} ${call.url}`);
      assert.equal(res.json.errors[0].code, 'unauthenticated');
      assert.match(String(res.headers['www-authenticate']), /^Bearer/);
    }
    assert.equal((await readMediaRow(t, photo.id)).likesCount, 0);
  });
});
