/**
 * Mutes (docs/api.md, "Blocks and mutes"): one way and silent. The muted person's media and comments
 * leave the muter's lists and feeds; with `notifications: true` their notifications to the muter stop
 * too; an expired mute ends by itself. The muted person sees everything as before.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp, type TestResponse } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { createMediaRow } from '../../../test/helpers/media-factory.ts';
import { formatTimestamp } from '../../platform/http/time.ts';

describe('mutes', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const request = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token?: string, body?: unknown) =>
    t.request({ method, url, ...(token ? { token } : {}), ...(body !== undefined ? { body } : {}) });
  const expect = async (response: Promise<TestResponse>, status: number) => {
    const res = await response;
    assert.equal(res.statusCode, status, res.body);
    return res;
  };
  const ids = (res: TestResponse) => res.json.data.map((item: { id: string }) => item.id);
  const inHours = (hours: number) => formatTimestamp(new Date(t.clock.now().getTime() + hours * 3_600_000));

  let places = 0;
  /** The muter, the muted person with a placed post and a comment on a third post, and the third's post. */
  async function makeWorld() {
    places += 1;
    const [muter, muted, third] = [await createUser(t), await createUser(t), await createUser(t)];
    const at = { lat: 10 + places * 3, lng: 20 + places * 3 };
    const mutedPost = await createMediaRow(t, muted.id, { latitude: at.lat, longitude: at.lng, locationPublic: true });
    const muterPost = await createMediaRow(t, muter.id, { latitude: at.lat, longitude: at.lng, locationPublic: true });
    const thirdPost = await createMediaRow(t, third.id);
    const comment = await expect(
      request('POST', `/api/media/${thirdPost.id}/comments`, muted.token, { body: 'So blue' }),
      201,
    );
    return { muter, muted, third, at, mutedPost, muterPost, thirdPost, commentId: comment.json.data.id as string };
  }
  type World = Awaited<ReturnType<typeof makeWorld>>;
  const nearby = async (w: World, viewer: TestUser) =>
    ids(await expect(request('GET', `/api/media/nearby?lat=${w.at.lat}&lng=${w.at.lng}`, viewer.token), 200));
  const commentShown = async (w: World, viewer: TestUser) => {
    const res = await expect(request('GET', `/api/media/${w.thirdPost.id}/comments`, viewer.token), 200);
    return !res.json.data.find((item: { id: string }) => item.id === w.commentId).attributes.deleted;
  };
  const followsNotified = async (user: TestUser, actor: TestUser) =>
    (await expect(request('GET', '/api/users/me/notifications', user.token), 200)).json.data.some(
      (item: { attributes: { type: string; data: { actorId: string } } }) =>
        item.attributes.type === 'follow.received' && item.attributes.data.actorId === actor.id,
    );

  it("takes the muted person's media and comments out of the muter's lists, one way, and ends when it expires", async () => {
    const w = await makeWorld();
    assert.deepEqual((await nearby(w, w.muter)).sort(), [w.mutedPost.id, w.muterPost.id].sort());

    const expiresAt = inHours(2);
    const muting = await expect(request('PUT', `/api/users/me/mutes/${w.muted.id}`, w.muter.token, { expiresAt }), 200);
    assert.deepEqual(muting.json.data.attributes.notifications, false, 'content only by default');
    assert.equal(muting.json.data.attributes.expiresAt, expiresAt);

    assert.deepEqual(await nearby(w, w.muter), [w.muterPost.id]);
    assert.equal(await commentShown(w, w.muter), false, 'their comment is a placeholder to the muter');
    assert.deepEqual((await nearby(w, w.muted)).sort(), [w.mutedPost.id, w.muterPost.id].sort(), 'one way');
    assert.equal(await commentShown(w, w.third), true);
    const profile = await request('GET', `/api/users/${w.muted.id}/media`, w.muter.token);
    assert.equal(profile.statusCode, 200, 'a mute hides no profile: the muter may still look');
    const mine = await expect(request('GET', '/api/users/me/mutes', w.muter.token), 200);
    assert.deepEqual(ids(mine), [w.muted.id]);
    assert.deepEqual((await expect(request('GET', '/api/users/me/mutes', w.muted.token), 200)).json.data, []);

    t.clock.advanceMinutes(121);
    assert.deepEqual((await nearby(w, w.muter)).sort(), [w.mutedPost.id, w.muterPost.id].sort(), 'expired');
    assert.equal(await commentShown(w, w.muter), true);
    assert.deepEqual((await expect(request('GET', '/api/users/me/mutes', w.muter.token), 200)).json.data, []);
  });

  it('with notifications: true, their notifications to the muter stop too; unmuting brings everything back', async () => {
    const w = await makeWorld();
    await expect(request('PUT', `/api/users/me/mutes/${w.muted.id}`, w.muter.token, { notifications: false }), 200);
    await expect(request('POST', `/api/users/me/following/${w.muter.id}`, w.muted.token), 201);
    assert.equal(await followsNotified(w.muter, w.muted), true, 'a mute of content only still notifies');

    const other = await createUser(t);
    await expect(request('PUT', `/api/users/me/mutes/${other.id}`, w.muter.token, { notifications: true }), 200);
    await expect(request('POST', `/api/users/me/following/${w.muter.id}`, other.token), 201);
    assert.equal(await followsNotified(w.muter, other), false, 'no notification from them');
    const followers = ids(await expect(request('GET', '/api/users/me/followers', w.muter.token), 200));
    assert.ok(followers.includes(other.id), 'the follow itself stands: a mute is silent');

    await expect(request('DELETE', `/api/users/me/mutes/${w.muted.id}`, w.muter.token), 204);
    await expect(request('DELETE', `/api/users/me/mutes/${w.muted.id}`, w.muter.token), 204);
    assert.equal(await commentShown(w, w.muter), true);
    assert.deepEqual(ids(await expect(request('GET', '/api/users/me/mutes', w.muter.token), 200)), [other.id]);
  });

  it('refuses oneself (422), an unknown user (404) and an end in the past (422), changing nothing', async () => {
    const [me, other] = [await createUser(t), await createUser(t)];
    const self = await expect(request('PUT', `/api/users/me/mutes/${me.id}`, me.token, {}), 422);
    assert.equal(self.json.errors[0].code, 'cannotMuteSelf');
    const unknown = await expect(request('PUT', `/api/users/me/mutes/${'0'.repeat(32)}`, me.token, {}), 404);
    assert.equal(unknown.json.errors[0].code, 'notFound');
    const past = await expect(
      request('PUT', `/api/users/me/mutes/${other.id}`, me.token, { expiresAt: inHours(-1) }),
      422,
    );
    assert.equal(past.json.errors[0].code, 'expiryInPast');
    assert.equal(past.json.errors[0].source.pointer, '/expiresAt');
    await expect(request('PUT', `/api/users/me/mutes/${other.id}`, me.token, { expiresAt: 'tomorrow' }), 422);
    await expect(request('PUT', `/api/users/me/mutes/${other.id}`, me.token, { notifications: 'yes' }), 422);
    await expect(request('PUT', `/api/users/me/mutes/${other.id}`, me.token, { until: inHours(1) }), 422);
    assert.deepEqual((await expect(request('GET', '/api/users/me/mutes', me.token), 200)).json.data, []);
  });

  it('a mute again changes its terms; my mutes are keyset-paged, newest first', async () => {
    const me = await createUser(t);
    const others = [await createUser(t), await createUser(t), await createUser(t)];
    for (const other of others) {
      await expect(request('PUT', `/api/users/me/mutes/${other.id}`, me.token, {}), 200);
      t.clock.advanceMinutes(1);
    }
    const changed = await expect(
      request('PUT', `/api/users/me/mutes/${others[0]!.id}`, me.token, { notifications: true }),
      200,
    );
    assert.equal(changed.json.data.attributes.notifications, true);
    const first = await expect(request('GET', '/api/users/me/mutes?limit=2', me.token), 200);
    assert.deepEqual(ids(first), [others[2]!.id, others[1]!.id]);
    const next = await expect(request('GET', first.json.links.next.replace(/^https?:\/\/[^/]+/, ''), me.token), 200);
    assert.deepEqual(ids(next), [others[0]!.id]);
    assert.equal(next.json.data[0].attributes.notifications, true);
    assert.equal(next.json.data[0].attributes.user.attributes.username, others[0]!.username);
  });
});

describe('blocks and mutes: rate limits (RATE_LIMITS=on)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { RATE_LIMITS: 'on' } });
  });
  after(() => t.close());

  it('counts the four writes together: 60 a minute per account, then 429 with Retry-After', async () => {
    const [me, other] = [await createUser(t), await createUser(t)];
    const writes = [
      { method: 'PUT', url: `/api/users/me/blocks/${other.id}` },
      { method: 'DELETE', url: `/api/users/me/blocks/${other.id}` },
      { method: 'PUT', url: `/api/users/me/mutes/${other.id}`, body: {} },
      { method: 'DELETE', url: `/api/users/me/mutes/${other.id}` },
    ] as const;
    for (let i = 0; i < 60; i++) {
      const res = await t.request({ ...writes[i % 4]!, token: me.token });
      assert.ok(res.statusCode < 300, `write ${i + 1}: ${res.statusCode}`);
    }
    const refused = await t.request({ ...writes[0], token: me.token });
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.json.errors[0].code, 'rateLimited');
    assert.ok(Number(refused.headers['retry-after']) > 0);
    const list = await t.request({ method: 'GET', url: '/api/users/me/blocks', token: me.token });
    assert.equal(list.statusCode, 200, 'reading is not a write');
    t.clock.advanceMinutes(1);
    assert.equal((await t.request({ ...writes[0], token: me.token })).statusCode, 200);
  });
});
