/**
 * Who sees whom (docs/api.md): a banned account, and one in its deletion's grace period, is to everyone
 * else an account that does not exist, on every route that names a user or lists users; operators
 * still see it, and once it is visible again (unban, cancelled deletion) everything shows as before.
 * One walk over those routes, for each way of being hidden.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { adminToken, createTestApp, type TestApp, type TestResponse } from '../../../test/helpers/app.ts';
import { createUser, strongPassword, type TestUser, updateUserRow } from '../../../test/helpers/factories.ts';
import { createMediaRow } from '../../../test/helpers/media-factory.ts';

/** The hidden user and the people around them, with what they did before the hiding. */
interface World {
  hidden: TestUser;
  owner: TestUser;
  viewer: TestUser;
  /** The owner's post: the hidden user liked it. */
  postId: string;
  /** The owner's comment that mentions the hidden user. */
  mentionId: string;
}

describe('a banned or deleting account does not exist to others', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const request = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, token?: string, body?: unknown) =>
    t.request({ method, url, ...(token ? { token } : {}), ...(body !== undefined ? { body } : {}) });
  const admin = (method: 'GET' | 'PUT', url: string, body?: unknown) => request(method, url, adminToken, body);
  const expect = async (response: Promise<TestResponse>, status: number) => {
    const res = await response;
    assert.equal(res.statusCode, status, res.body);
    return res;
  };
  /** Whether a route about the user answers (`status`), or answers 404 as for an unknown user. */
  const answers = async (response: Promise<TestResponse>, status = 200) => {
    const res = await response;
    assert.ok(res.statusCode === status || res.statusCode === 404, `${res.statusCode} ${res.body}`);
    return res.statusCode === status;
  };
  const lists = async (response: Promise<TestResponse>, userId: string) =>
    (await expect(response, 200)).json.data.some((item: { id: string }) => item.id === userId);
  const mentioned = (comment: { attributes: { mentions: { id: string }[] } }, userId: string) =>
    comment.attributes.mentions.some((mention) => mention.id === userId);
  /** The data of the follow notification in the user's feed (the only one they received). */
  const followNotificationData = async (user: TestUser) => {
    const res = await expect(request('GET', '/api/users/me/notifications', user.token), 200);
    const follows = res.json.data.filter(
      (item: { attributes: { type: string } }) => item.attributes.type === 'follow.received',
    );
    assert.equal(follows.length, 1, 'the notification stays in the feed');
    return follows[0].attributes.data;
  };

  async function makeWorld(): Promise<World> {
    const owner = await createUser(t);
    const viewer = await createUser(t);
    // Registered with the owner's sponsor code, so the owner's sponsorship list holds them.
    const registered = await t.services.areas.accounts.accounts.register(
      {
        email: `hidden${owner.hex}@example.test`,
        password: strongPassword,
        username: `hidden${owner.hex.slice(0, 12)}`,
        sponsorCode: owner.user.sponsorCode,
      },
      { ip: '127.0.0.1', userAgent: 'test' },
    );
    const hidden: TestUser = {
      user: registered.user,
      id: registered.user.id,
      hex: registered.user.id.replaceAll('-', ''),
      token: registered.accessToken,
      sessionId: registered.session.id,
      email: registered.user.email,
      username: registered.user.username!,
    };
    await expect(request('PATCH', '/api/users/me/settings', hidden.token, { showReactionsPublicly: true }), 200);
    await createMediaRow(t, hidden.id);
    const post = await createMediaRow(t, owner.id);
    await expect(request('PUT', `/api/users/me/media/${post.id}/reaction`, hidden.token, { type: 'like' }), 200);
    await expect(request('POST', `/api/users/me/following/${owner.id}`, hidden.token), 201);
    await expect(request('POST', `/api/users/me/following/${hidden.id}`, owner.token), 201);
    const mention = await expect(
      request('POST', `/api/media/${post.id}/comments`, owner.token, { body: `Thanks @${hidden.username}!` }),
      201,
    );
    return { hidden, owner, viewer, postId: post.id, mentionId: mention.json.data.id };
  }

  /** Each route that names a user or lists users: does it show the hidden user? */
  const probes: { route: string; shows: (w: World) => Promise<boolean> }[] = [
    ...['likes', 'dislikes', 'badges', 'media', 'followers', 'following'].map((list) => ({
      route: `GET /api/users/{userId}/${list}`,
      shows: (w: World) => answers(request('GET', `/api/users/${w.hidden.id}/${list}`)),
    })),
    {
      route: 'GET /api/users/{userId}/relationship',
      shows: (w) => answers(request('GET', `/api/users/${w.hidden.id}/relationship`, w.viewer.token)),
    },
    { route: 'GET /@{username}', shows: (w) => answers(request('GET', `/@${w.hidden.username}`)) },
    {
      route: 'GET /api/users/search',
      shows: (w) => lists(request('GET', `/api/users/search?q=${w.hidden.username}`), w.hidden.id),
    },
    {
      route: 'GET /api/media/{mediaId}/likes',
      shows: (w) => lists(request('GET', `/api/media/${w.postId}/likes`), w.hidden.id),
    },
    {
      route: 'GET /api/users/{userId}/followers (of someone they follow)',
      shows: (w) => lists(request('GET', `/api/users/${w.owner.id}/followers`), w.hidden.id),
    },
    {
      route: 'GET /api/users/{userId}/following (of someone who follows them)',
      shows: (w) => lists(request('GET', `/api/users/${w.owner.id}/following`), w.hidden.id),
    },
    {
      route: 'GET /api/users/me/followers',
      shows: (w) => lists(request('GET', '/api/users/me/followers', w.owner.token), w.hidden.id),
    },
    {
      route: 'GET /api/users/me/sponsorship',
      shows: async (w) => {
        const res = await expect(request('GET', '/api/users/me/sponsorship', w.owner.token), 200);
        const listed = res.json.data.some((item: { id: string }) => item.id === w.hidden.id);
        assert.equal(res.json.meta.total, listed ? 1 : 0, 'the total counts what the list shows');
        return listed;
      },
    },
    {
      route: 'GET /api/users/me/notifications (the follow they made)',
      shows: async (w) => {
        const { actorId, actorUsername } = await followNotificationData(w.owner);
        assert.equal(actorId === null, actorUsername === null, 'linked by both, or by neither');
        return actorId === w.hidden.id && actorUsername === w.hidden.username;
      },
    },
    {
      route: 'GET /api/media/{mediaId}/comments (an earlier mention)',
      shows: async (w) => {
        const res = await expect(request('GET', `/api/media/${w.postId}/comments`), 200);
        const comment = res.json.data.find((item: { id: string }) => item.id === w.mentionId);
        return mentioned(comment, w.hidden.id);
      },
    },
    {
      route: 'POST /api/media/{mediaId}/comments (a new mention)',
      shows: async (w) => {
        const body = { body: `Have you met @${w.hidden.username}?` };
        const res = await expect(request('POST', `/api/media/${w.postId}/comments`, w.viewer.token, body), 201);
        return mentioned(res.json.data, w.hidden.id);
      },
    },
    {
      route: 'POST /api/users/me/following/{targetUserId}',
      shows: async (w) =>
        answers(request('POST', `/api/users/me/following/${w.hidden.id}`, (await createUser(t)).token), 201),
    },
    {
      route: 'DELETE /api/users/me/following/{targetUserId}',
      shows: (w) => answers(request('DELETE', `/api/users/me/following/${w.hidden.id}`, w.viewer.token), 204),
    },
    {
      route: 'POST /api/users/{userHex}/reports',
      shows: async (w) =>
        answers(
          request('POST', `/api/users/${w.hidden.hex}/reports`, (await createUser(t)).token, { reason: 'spam' }),
          201,
        ),
    },
  ];

  /** The routes that show the user, and those that do not, by route. */
  async function walk(w: World): Promise<{ shown: string[]; hidden: string[] }> {
    const result = { shown: [] as string[], hidden: [] as string[] };
    for (const probe of probes) ((await probe.shows(w)) ? result.shown : result.hidden).push(probe.route);
    return result;
  }
  const everyRoute = probes.map((probe) => probe.route);
  const experienceOf = async (user: TestUser) =>
    (await expect(admin('GET', `/admin/users/${user.hex}`), 200)).json.data.attributes.experience as number;

  const ways: Record<string, { hide: (w: World) => Promise<void>; restore: (w: World) => Promise<void> }> = {
    banned: {
      hide: async (w) => {
        await expect(admin('PUT', `/admin/users/${w.hidden.hex}/ban`, { reason: 'spam' }), 200);
      },
      restore: async (w) => {
        await expect(admin('PUT', `/admin/users/${w.hidden.hex}/unban`), 200);
      },
    },
    deleting: {
      hide: async (w) => {
        await expect(request('DELETE', '/api/users/me', w.hidden.token, { password: strongPassword }), 202);
        await t.services.areas.accounts.mailFlows.drain();
        // The deletion mail, whatever mail to the address left last (the registration's may share its time).
        const mails = t.mail.sent.filter((mail) => mail.to === w.hidden.email);
        const token = mails.map((mail) => /tmd_[A-Za-z0-9_-]+/.exec(mail.text)?.[0]).find(Boolean);
        assert.ok(token, 'the deletion link was mailed');
        await expect(request('POST', '/api/account/deletion/confirm', undefined, { token }), 200);
      },
      // Signing in during the grace period cancels the deletion.
      restore: async (w) => {
        await expect(
          request('POST', '/api/auth/login', undefined, { login: w.hidden.email, password: strongPassword }),
          200,
        );
      },
    },
  };

  for (const [way, { hide, restore }] of Object.entries(ways)) {
    it(`${way}: every route answers as for an unknown user, operators still see it, and it all comes back`, async () => {
      const w = await makeWorld();
      assert.deepEqual(await walk(w), { shown: everyRoute, hidden: [] });

      await hide(w);
      const experience = await experienceOf(w.hidden);
      assert.deepEqual(await walk(w), { shown: [], hidden: everyRoute });
      assert.equal(await experienceOf(w.hidden), experience, 'a refused follow rewards no one');
      assert.equal((await request('GET', '/api/users/me/badges', w.hidden.token)).statusCode, 401, 'never the viewer');
      assert.equal(
        (await admin('GET', `/admin/users/${w.hidden.hex}`)).json.data.attributes.username,
        w.hidden.username,
      );

      await restore(w);
      assert.deepEqual(await walk(w), { shown: everyRoute, hidden: [] });
    });
  }

  it('the upgrade unlinks the follow notifications of accounts hidden before it (migration 0160)', async () => {
    const [followed, actor] = [await createUser(t), await createUser(t)];
    await expect(request('POST', `/api/users/me/following/${followed.id}`, actor.token), 201);
    await updateUserRow(t, actor.id, { bannedAt: t.clock.now() }); // as a ban made before the upgrade left it
    const actorOfFollow = () => followNotificationData(followed);
    assert.equal((await actorOfFollow()).actorId, actor.id);
    const migration = readFileSync(
      new URL('../../../migrations/0160_notifications_hidden_actors.sql', import.meta.url),
    );
    await t.deps.database.db.execute(sql.raw(migration.toString()));
    assert.deepEqual(await actorOfFollow(), {
      actorId: null,
      actorUsername: null,
      actorDisplayName: actor.user.nickname,
    });
  });
});
