import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { createMediaRow, updateMediaRow } from '../../../test/helpers/media-factory.ts';

describe('reactions: lists', () => {
  let t: TestApp;
  let owner: TestUser;
  let fan: TestUser;
  let privateFan: TestUser;
  const react = async (user: TestUser, mediaId: string, type: 'like' | 'dislike') => {
    t.clock.advance(1000);
    const res = await t.request({
      method: 'PUT',
      url: `/api/users/me/media/${mediaId}/reaction`,
      token: user.token,
      body: { type },
    });
    assert.equal(res.statusCode, 200);
  };
  const ids = (res: { json: any }) => res.json.data.map((item: any) => item.id);
  /** A user who chose to show their reactions, as they would in their settings. */
  const publicUser = async () => {
    const user = await createUser(t);
    const res = await t.request({
      method: 'PATCH',
      url: '/api/users/me/settings',
      token: user.token,
      body: { showReactionsPublicly: true },
    });
    assert.equal(res.statusCode, 200);
    return user;
  };

  before(async () => {
    t = await createTestApp();
    owner = await createUser(t);
    fan = await publicUser();
    privateFan = await createUser(t); // never touched the setting: private by default
  });
  after(() => t.close());

  it('lists my likes and my dislikes apart, newest reaction first, as media resources, in keyset pages', async () => {
    const photos = [];
    for (let i = 0; i < 5; i++) photos.push(await createMediaRow(t, owner.id));
    // Liked in the order 2, 0, 4, 1 (so reaction time, not media time, orders the list); 3 disliked.
    for (const index of [2, 0, 4, 1]) await react(fan, photos[index]!.id, 'like');
    await react(fan, photos[3]!.id, 'dislike');

    const first = await t.request({ method: 'GET', url: '/api/users/me/likes?limit=3', token: fan.token });
    assert.equal(first.statusCode, 200);
    assert.deepEqual(ids(first), [photos[1]!.id, photos[4]!.id, photos[0]!.id]);
    const item = first.json.data[0];
    assert.equal(item.type, 'media');
    assert.equal(item.attributes.hex, photos[1]!.id.replaceAll('-', ''));
    assert.equal(item.attributes.likesCount, 1);
    assert.match(item.meta.reactedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
    assert.deepEqual(item.relationships.owner.data, { type: 'users', id: owner.id });
    // A photo never put in a post is a post of one, as in every list of media.
    assert.deepEqual(item.relationships.post.data, { type: 'posts', id: photos[1]!.id });
    assert.equal(first.json.meta.limit, 3);
    assert.equal(first.json.links.self, `${t.deps.config.publicUrl}/api/users/me/likes?limit=3`);
    assert.equal(first.json.links.prev, null);
    assert.ok(first.json.links.next);

    const second = await t.request({ method: 'GET', url: first.json.links.next, token: fan.token });
    assert.deepEqual(ids(second), [photos[2]!.id]);
    assert.equal(second.json.links.next, null);
    const back = await t.request({ method: 'GET', url: second.json.links.prev, token: fan.token });
    assert.deepEqual(ids(back), ids(first));

    const dislikes = await t.request({ method: 'GET', url: '/api/users/me/dislikes', token: fan.token });
    assert.deepEqual(ids(dislikes), [photos[3]!.id]);
    assert.equal(dislikes.json.data[0].attributes.dislikesCount, 1);
  });

  it('leaves out of my lists the media hidden by moderation since I reacted', async () => {
    const viewer = await createUser(t);
    const kept = await createMediaRow(t, owner.id);
    const later = await createMediaRow(t, owner.id);
    await react(viewer, kept.id, 'like');
    await react(viewer, later.id, 'like');
    await updateMediaRow(t, later.id, { flag: 2 });
    const res = await t.request({ method: 'GET', url: '/api/users/me/likes', token: viewer.token });
    assert.deepEqual(ids(res), [kept.id]);
  });

  it("shows a user's public likes to anyone, without their sensitive or unpublished media, and refuses private ones with 403", async () => {
    const visitor = await publicUser();
    const listed = await createMediaRow(t, owner.id);
    const sensitive = await createMediaRow(t, owner.id, { flag: 1 });
    const draft = await createMediaRow(t, visitor.id, { published: false });
    await react(visitor, listed.id, 'like');
    await react(visitor, sensitive.id, 'like');
    await react(visitor, draft.id, 'like');

    const anonymous = await t.request({ method: 'GET', url: `/api/users/${visitor.id}/likes` });
    assert.equal(anonymous.statusCode, 200);
    assert.deepEqual(ids(anonymous), [listed.id]);
    const byHex = await t.request({ method: 'GET', url: `/api/users/${visitor.hex}/likes`, token: fan.token });
    assert.deepEqual(ids(byHex), [listed.id]);
    const self = await t.request({ method: 'GET', url: `/api/users/${visitor.id}/likes`, token: visitor.token });
    assert.deepEqual(ids(self), [draft.id, listed.id], 'the owner of a draft sees it in lists');
    const dislikes = await t.request({ method: 'GET', url: `/api/users/${visitor.id}/dislikes` });
    assert.deepEqual(ids(dislikes), []);

    const photo = await createMediaRow(t, owner.id);
    await react(privateFan, photo.id, 'dislike');
    for (const path of ['likes', 'dislikes']) {
      const refused = await t.request({ method: 'GET', url: `/api/users/${privateFan.id}/${path}`, token: fan.token });
      assert.equal(refused.statusCode, 403);
      assert.equal(refused.json.errors[0].code, 'reactionsNotPublic');
      assert.equal(refused.json.errors[0].source.parameter, 'userId');
    }
    const own = await t.request({
      method: 'GET',
      url: `/api/users/${privateFan.id}/dislikes`,
      token: privateFan.token,
    });
    assert.equal(own.statusCode, 200, 'a user always sees their own');
    assert.deepEqual(ids(own), [photo.id]);
  });

  it('answers 404 for an unknown user, 422 for a malformed id and 400 for bad paging', async () => {
    const unknown = await t.request({ method: 'GET', url: `/api/users/${randomUUID()}/likes` });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json.errors[0].source.parameter, 'userId');
    const malformed = await t.request({ method: 'GET', url: '/api/users/nobody/dislikes' });
    assert.equal(malformed.statusCode, 422);
    assert.equal(malformed.json.errors[0].code, 'invalidId');
    for (const query of ['cursor=nope', 'before=%7B%7D', 'limit=0', 'limit=101', 'limit=abc', 'sort=new']) {
      for (const url of [`/api/users/me/likes?${query}`, `/api/users/${fan.id}/likes?${query}`]) {
        const res = await t.request({ method: 'GET', url, token: fan.token });
        assert.equal(res.statusCode, 400, url);
        assert.ok(['invalidCursor', 'invalidQueryParameter'].includes(res.json.errors[0].code), url);
        assert.ok(res.json.errors[0].source.parameter, url);
      }
    }
  });

  it("lists a media's likers and dislikers as public users, newest first, without users who keep reactions private", async () => {
    const photo = await createMediaRow(t, owner.id);
    const second = await publicUser();
    await react(fan, photo.id, 'like');
    await react(privateFan, photo.id, 'like');
    await react(second, photo.id, 'like');
    await react(owner, photo.id, 'dislike');

    const likers = await t.request({ method: 'GET', url: `/api/media/${photo.id}/likes` });
    assert.equal(likers.statusCode, 200);
    assert.deepEqual(ids(likers), [second.id, fan.id]);
    const user = likers.json.data[0];
    assert.equal(user.type, 'users');
    assert.equal(user.attributes.username, second.username);
    assert.equal(user.attributes.email, undefined, 'no private field of a public user');
    assert.ok(user.meta.reactedAt);
    const asPrivateFan = await t.request({
      method: 'GET',
      url: `/api/media/${photo.id}/likes`,
      token: privateFan.token,
    });
    assert.deepEqual(ids(asPrivateFan), [second.id, privateFan.id, fan.id], 'a private user still sees themself');

    const paged = await t.request({ method: 'GET', url: `/api/media/${photo.id.replaceAll('-', '')}/likes?limit=1` });
    assert.deepEqual(ids(paged), [second.id]);
    const next = await t.request({ method: 'GET', url: paged.json.links.next });
    assert.deepEqual(ids(next), [fan.id]);

    const dislikers = await t.request({ method: 'GET', url: `/api/media/${photo.id}/dislikes` });
    assert.deepEqual(ids(dislikers), [], 'the owner never chose to show their reactions');
    const asOwner = await t.request({ method: 'GET', url: `/api/media/${photo.id}/dislikes`, token: owner.token });
    assert.deepEqual(ids(asOwner), [owner.id]);
  });

  it('keeps the reactions of a user who never touched the setting private from anonymous and other users alike', async () => {
    const quiet = await createUser(t);
    const photo = await createMediaRow(t, owner.id);
    await react(quiet, photo.id, 'like');
    const settings = await t.request({ method: 'GET', url: '/api/users/me/settings', token: quiet.token });
    assert.equal(settings.json.data.attributes.showReactionsPublicly, false, 'the setting reads as its default');
    for (const token of [undefined, fan.token]) {
      const likers = await t.request({ method: 'GET', url: `/api/media/${photo.id}/likes`, token });
      assert.deepEqual(ids(likers), []);
      const likes = await t.request({ method: 'GET', url: `/api/users/${quiet.id}/likes`, token });
      assert.equal(likes.statusCode, 403);
      assert.equal(likes.json.errors[0].code, 'reactionsNotPublic');
    }
    const mine = await t.request({ method: 'GET', url: `/api/users/${quiet.id}/likes`, token: quiet.token });
    assert.deepEqual(ids(mine), [photo.id]);
  });

  it('answers 404 for the likers of a media the caller may not see, 422 for a malformed id', async () => {
    const hidden = await createMediaRow(t, owner.id, { flag: 2 });
    await react(owner, hidden.id, 'like');
    for (const id of [hidden.id, randomUUID()]) {
      const res = await t.request({ method: 'GET', url: `/api/media/${id}/likes`, token: fan.token });
      assert.equal(res.statusCode, 404);
      assert.equal(res.json.errors[0].source.parameter, 'mediaId');
    }
    const own = await t.request({ method: 'GET', url: `/api/media/${hidden.id}/likes`, token: owner.token });
    assert.deepEqual(ids(own), [owner.id]);
    const malformed = await t.request({ method: 'GET', url: '/api/media/xyz/dislikes' });
    assert.equal(malformed.statusCode, 422);
    assert.equal(malformed.json.errors[0].source.parameter, 'mediaId');
    const badCursor = await t.request({
      method: 'GET',
      url: `/api/media/${hidden.id}/likes?cursor=abc`,
      token: owner.token,
    });
    assert.equal(badCursor.statusCode, 400);
    assert.equal(badCursor.json.errors[0].code, 'invalidCursor');
  });
});
