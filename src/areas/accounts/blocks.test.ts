/**
 * Blocks (docs/api.md, "Blocks and mutes"): a block works both ways at once. One walk over every reader
 * and write that shows a user or their things, for a viewer with a token (and the web pages with the
 * session cookie), in both directions: the viewer blocked the other, or the other blocked the viewer.
 * Before the block everything shows, during it nothing does (as for an account that does not exist),
 * and after the unblock everything shows again but the follows, which the block removed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp, type TestResponse } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { createMediaRow } from '../../../test/helpers/media-factory.ts';

/** The viewer, the other person, a third person, and what they did before any block. */
interface World {
  viewer: TestUser;
  other: TestUser;
  third: TestUser;
  /** The other's post, placed at `at` in `country`, liked by the third. */
  otherPost: string;
  /** The third's post: the other liked it and commented on it. */
  thirdPost: string;
  otherComment: string;
  at: { lat: number; lng: number };
  country: string;
  feedCode: string;
}

describe('a block works both ways at once', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  const request = (method: Method, url: string, token?: string, body?: unknown) =>
    t.request({ method, url, ...(token ? { token } : {}), ...(body !== undefined ? { body } : {}) });
  const page = (url: string, token: string) =>
    t.request({ method: 'GET', url, headers: { cookie: `tm_session=${token}` } });
  const expect = async (response: Promise<TestResponse>, status: number) => {
    const res = await response;
    assert.equal(res.statusCode, status, res.body);
    return res;
  };
  /** Whether a route about the other answers `statuses[0]` (shown), or 404 as for what does not exist. */
  const answers = async (response: Promise<TestResponse>, ...statuses: number[]) => {
    const res = await response;
    const shown = statuses.length === 0 ? [200] : statuses;
    assert.ok(shown.includes(res.statusCode) || res.statusCode === 404, `${res.statusCode} ${res.body}`);
    return shown.includes(res.statusCode);
  };
  const hex = (id: string) => id.replaceAll('-', '');
  const lists = async (response: Promise<TestResponse>, id: string) =>
    (await expect(response, 200)).json.data.some((item: { id: string }) => item.id === id);

  let worlds = 0;
  async function makeWorld(): Promise<World> {
    worlds += 1;
    const [viewer, other, third] = [await createUser(t), await createUser(t), await createUser(t)];
    // Each world in a place and country of its own, so the geographic lists hold its media only.
    const at = { lat: -40 + worlds * 7, lng: -120 + worlds * 13 };
    const country = ['PT', 'ES', 'IT', 'DE', 'BE', 'NL', 'AT'][worlds % 7]!;
    await expect(request('PATCH', '/api/users/me/settings', other.token, { showReactionsPublicly: true }), 200);
    const otherPost = await createMediaRow(t, other.id, {
      latitude: at.lat,
      longitude: at.lng,
      locationPublic: true,
      countryCode: country,
      hashtags: [`world${worlds}`],
    });
    const thirdPost = await createMediaRow(t, third.id);
    await expect(request('PUT', `/api/users/me/media/${otherPost.id}/reaction`, third.token, { type: 'like' }), 200);
    await expect(request('PUT', `/api/users/me/media/${thirdPost.id}/reaction`, other.token, { type: 'like' }), 200);
    await expect(request('POST', `/api/users/me/following/${third.id}`, other.token), 201);
    await expect(request('POST', `/api/users/me/following/${other.id}`, third.token), 201);
    const comment = await expect(
      request('POST', `/api/media/${thirdPost.id}/comments`, other.token, { body: 'Lovely light' }),
      201,
    );
    const feed = await expect(request('POST', '/api/users/me/social-feeds', other.token, { name: 'Mine' }), 201);
    await expect(request('PUT', `/api/users/me/media/${otherPost.id}/reaction`, viewer.token, { type: 'like' }), 200);
    await expect(request('PUT', `/api/users/me/media/${otherPost.id}/bookmark`, viewer.token, {}), 200);
    return {
      viewer,
      other,
      third,
      otherPost: otherPost.id,
      thirdPost: thirdPost.id,
      otherComment: comment.json.data.id,
      at,
      country,
      feedCode: feed.json.data.attributes.code,
    };
  }

  /** Each reader and write, as the viewer: does it show the other, or let the viewer reach them? */
  const probes: { route: string; shows: (w: World) => Promise<boolean> }[] = [
    ...['media', 'likes', 'badges', 'followers', 'following'].map((list) => ({
      route: `GET /api/users/{userId}/${list}`,
      shows: (w: World) => answers(request('GET', `/api/users/${w.other.id}/${list}`, w.viewer.token)),
    })),
    {
      route: 'GET /api/users/{userId}/dislikes',
      // The other shows their reactions publicly: 200 (an empty list) when shown.
      shows: (w) => answers(request('GET', `/api/users/${w.other.id}/dislikes`, w.viewer.token)),
    },
    {
      route: 'GET /api/users/{userId}/relationship',
      shows: (w) => answers(request('GET', `/api/users/${w.other.id}/relationship`, w.viewer.token)),
    },
    {
      route: 'GET /api/users/search',
      shows: (w) => lists(request('GET', `/api/users/search?q=${w.other.username}`, w.viewer.token), w.other.id),
    },
    {
      route: 'GET /api/media/{mediaId}/likes (of a third)',
      shows: (w) => lists(request('GET', `/api/media/${w.thirdPost}/likes`, w.viewer.token), w.other.id),
    },
    {
      route: 'GET /api/users/{userId}/followers (of a third)',
      shows: (w) => lists(request('GET', `/api/users/${w.third.id}/followers`, w.viewer.token), w.other.id),
    },
    {
      route: 'GET /api/users/{userId}/following (of a third)',
      shows: (w) => lists(request('GET', `/api/users/${w.third.id}/following`, w.viewer.token), w.other.id),
    },
    {
      route: 'GET /api/media/{mediaId}/comments (their media)',
      shows: (w) => answers(request('GET', `/api/media/${w.otherPost}/comments`, w.viewer.token)),
    },
    {
      route: 'GET /api/media/{mediaId}/comments (their comment on a third media)',
      shows: async (w) => {
        const res = await expect(request('GET', `/api/media/${w.thirdPost}/comments`, w.viewer.token), 200);
        const comment = res.json.data.find((item: { id: string }) => item.id === w.otherComment);
        return comment.attributes.deleted === false && comment.relationships.author.data?.id === w.other.id;
      },
    },
    {
      route: 'GET /api/media/comments/{commentId}/thread (their comment)',
      shows: async (w) => {
        const res = await expect(request('GET', `/api/media/comments/${w.otherComment}/thread`, w.viewer.token), 200);
        const comment = res.json.data.find((item: { id: string }) => item.id === w.otherComment);
        return comment.attributes.deleted === false;
      },
    },
    {
      route: 'GET /api/media/nearby',
      shows: (w) =>
        lists(request('GET', `/api/media/nearby?lat=${w.at.lat}&lng=${w.at.lng}`, w.viewer.token), w.otherPost),
    },
    {
      route: 'GET /api/media/recommended/nearby',
      shows: (w) =>
        lists(
          request('GET', `/api/media/recommended/nearby?lat=${w.at.lat}&lng=${w.at.lng}`, w.viewer.token),
          w.otherPost,
        ),
    },
    {
      route: 'GET /api/media/in-bounds',
      shows: (w) => {
        const box = `south=${w.at.lat - 0.1}&north=${w.at.lat + 0.1}&west=${w.at.lng - 0.1}&east=${w.at.lng + 0.1}`;
        return lists(request('GET', `/api/media/in-bounds?${box}`, w.viewer.token), w.otherPost);
      },
    },
    {
      route: 'GET /api/media/trending',
      shows: (w) => lists(request('GET', `/api/media/trending?country=${w.country}`, w.viewer.token), w.otherPost),
    },
    {
      route: 'GET /api/social-feeds/{code}',
      shows: (w) => answers(request('GET', `/api/social-feeds/${w.feedCode}`, w.viewer.token)),
    },
    {
      route: 'GET /@{username} (web, session cookie)',
      shows: (w) => answers(page(`/@${w.other.username}`, w.viewer.token)),
    },
    {
      route: 'GET /travel?country= (web, session cookie)',
      shows: async (w) =>
        (await expect(page(`/travel?country=${w.country}`, w.viewer.token), 200)).body.includes(hex(w.otherPost)),
    },
    {
      route: 'GET / (web, session cookie: the newest photos)',
      shows: async (w) => (await expect(page('/', w.viewer.token), 200)).body.includes(hex(w.otherPost)),
    },
    {
      route: 'GET /explorer/photos/{mediaId} (web, session cookie)',
      shows: (w) => answers(page(`/explorer/photos/${w.otherPost}`, w.viewer.token)),
    },
    {
      route: 'POST /api/users/me/following/{targetUserId}',
      shows: async (w) => {
        // 409 alreadyFollowing before the block (the world's follow), 201 after the unblock.
        const res = await request('POST', `/api/users/me/following/${w.other.id}`, w.viewer.token);
        const shown = await answers(Promise.resolve(res), 201, 409);
        if (res.statusCode === 201)
          await expect(request('DELETE', `/api/users/me/following/${w.other.id}`, w.viewer.token), 204);
        return shown;
      },
    },
    {
      // The viewer liked and bookmarked it before (makeWorld): both writes are idempotent.
      route: 'PUT /api/users/me/media/{mediaId}/reaction',
      shows: (w) =>
        answers(request('PUT', `/api/users/me/media/${w.otherPost}/reaction`, w.viewer.token, { type: 'like' })),
    },
    {
      route: 'PUT /api/users/me/media/{mediaId}/bookmark',
      shows: (w) => answers(request('PUT', `/api/users/me/media/${w.otherPost}/bookmark`, w.viewer.token, {})),
    },
    {
      route: 'GET /api/users/me/likes (their media I liked)',
      shows: (w) => lists(request('GET', '/api/users/me/likes', w.viewer.token), w.otherPost),
    },
    {
      route: 'GET /api/users/me/bookmarks (their media I bookmarked)',
      shows: async (w) => {
        const res = await expect(request('GET', '/api/users/me/bookmarks', w.viewer.token), 200);
        return JSON.stringify(res.json.data).includes(w.otherPost);
      },
    },
    {
      route: 'POST /api/media/{mediaId}/comments (their media)',
      shows: (w) => answers(request('POST', `/api/media/${w.otherPost}/comments`, w.viewer.token, { body: 'Hi' }), 201),
    },
    {
      route: 'POST /api/media/{mediaId}/comments (a reply to their comment)',
      shows: async (w) => {
        const body = { body: 'Indeed', parentId: w.otherComment };
        const res = await request('POST', `/api/media/${w.thirdPost}/comments`, w.viewer.token, body);
        assert.ok([201, 422].includes(res.statusCode), res.body);
        if (res.statusCode === 422)
          assert.equal(res.json.errors[0].code, 'invalidParentComment', 'as for no such comment');
        return res.statusCode === 201;
      },
    },
    {
      route: 'POST /api/media/{mediaId}/comments (a mention of them)',
      shows: async (w) => {
        const body = { body: `Look, @${w.other.username}!` };
        const res = await expect(request('POST', `/api/media/${w.thirdPost}/comments`, w.viewer.token, body), 201);
        return res.json.data.attributes.mentions.some((mention: { id: string }) => mention.id === w.other.id);
      },
    },
    {
      route: 'POST /api/users/{userHex}/reports',
      // A second report of the same is 409 alreadyReported: it reached them too.
      shows: (w) =>
        answers(request('POST', `/api/users/${w.other.hex}/reports`, w.viewer.token, { reason: 'spam' }), 201, 409),
    },
    {
      route: 'POST /api/media/{mediaId}/reports',
      shows: (w) =>
        answers(request('POST', `/api/media/${w.otherPost}/reports`, w.viewer.token, { reason: 'spam' }), 201, 409),
    },
    {
      route: 'POST /api/media/comments/{commentId}/reports',
      shows: (w) =>
        answers(
          request('POST', `/api/media/comments/${w.otherComment}/reports`, w.viewer.token, { reason: 'spam' }),
          201,
          409,
        ),
    },
  ];

  async function walk(w: World): Promise<{ shown: string[]; hidden: string[] }> {
    const result = { shown: [] as string[], hidden: [] as string[] };
    for (const probe of probes) ((await probe.shows(w)) ? result.shown : result.hidden).push(probe.route);
    return result;
  }
  const everyRoute = probes.map((probe) => probe.route);
  const followsOf = async (user: TestUser) => {
    const [following, followers] = await Promise.all(
      ['following', 'followers'].map(async (side) =>
        (await expect(request('GET', `/api/users/me/${side}`, user.token), 200)).json.data.map(
          (item: { id: string }) => item.id,
        ),
      ),
    );
    return { following, followers };
  };
  const followNotificationsFrom = async (user: TestUser, actor: TestUser) =>
    (await expect(request('GET', '/api/users/me/notifications', user.token), 200)).json.data.filter(
      (item: { attributes: { type: string; data: { actorId: string } } }) =>
        item.attributes.type === 'follow.received' && item.attributes.data.actorId === actor.id,
    ).length;

  const directions = {
    'the viewer blocks the other': (w: World) => ({ blocker: w.viewer, blocked: w.other }),
    'the other blocks the viewer': (w: World) => ({ blocker: w.other, blocked: w.viewer }),
  };

  for (const [direction, roles] of Object.entries(directions)) {
    it(`${direction}: every reader and write answers as for what does not exist, until the unblock`, async () => {
      const w = await makeWorld();
      await expect(request('POST', `/api/users/me/following/${w.other.id}`, w.viewer.token), 201);
      await expect(request('POST', `/api/users/me/following/${w.viewer.id}`, w.other.token), 201);
      assert.equal(await followNotificationsFrom(w.viewer, w.other), 1);
      assert.deepEqual(await walk(w), { shown: everyRoute, hidden: [] });

      const { blocker, blocked } = roles(w);
      const blocking = await expect(request('PUT', `/api/users/me/blocks/${blocked.id}`, blocker.token), 200);
      assert.equal(blocking.json.data.type, 'blocks');
      assert.equal(blocking.json.data.id, blocked.id);
      assert.deepEqual(await walk(w), { shown: [], hidden: everyRoute });
      assert.deepEqual(await followsOf(w.viewer), { following: [], followers: [] }, 'the follows both ways are gone');
      assert.deepEqual(await followsOf(w.other), { following: [w.third.id], followers: [w.third.id] });
      assert.equal(await followNotificationsFrom(w.viewer, w.other), 0, 'the follow notification left the feed');
      assert.equal(await followNotificationsFrom(w.other, w.viewer), 0);
      const blocks = await expect(request('GET', '/api/users/me/blocks', blocker.token), 200);
      assert.deepEqual(
        blocks.json.data.map((item: { id: string }) => item.id),
        [blocked.id],
      );
      assert.equal(blocks.json.data[0].attributes.user.attributes.username, blocked.username);
      const theirs = await expect(request('GET', '/api/users/me/blocks', blocked.token), 200);
      assert.deepEqual(theirs.json.data, [], 'the blocked person is never told');

      await expect(request('DELETE', `/api/users/me/blocks/${blocked.id}`, blocker.token), 204);
      assert.deepEqual(await walk(w), { shown: everyRoute, hidden: [] });
      assert.deepEqual(await followsOf(w.viewer), { following: [], followers: [] }, 'follows do not come back');
    });
  }

  it('blocking is idempotent; oneself is 422 and an unknown user 404, changing nothing', async () => {
    const [me, other] = [await createUser(t), await createUser(t)];
    const first = await expect(request('PUT', `/api/users/me/blocks/${other.id}`, me.token), 200);
    t.clock.advanceMinutes(1);
    const again = await expect(request('PUT', `/api/users/me/blocks/${other.hex}`, me.token), 200);
    assert.equal(again.json.data.attributes.createdAt, first.json.data.attributes.createdAt, 'the first block stays');
    const self = await expect(request('PUT', `/api/users/me/blocks/${me.id}`, me.token), 422);
    assert.equal(self.json.errors[0].code, 'cannotBlockSelf');
    const unknown = await expect(request('PUT', `/api/users/me/blocks/${'0'.repeat(32)}`, me.token), 404);
    assert.equal(unknown.json.errors[0].code, 'notFound');
    await expect(request('PUT', '/api/users/me/blocks/not-an-id', me.token), 422);
    const list = await expect(request('GET', '/api/users/me/blocks', me.token), 200);
    assert.deepEqual(
      list.json.data.map((item: { id: string }) => item.id),
      [other.id],
    );
    await expect(request('DELETE', `/api/users/me/blocks/${other.id}`, me.token), 204);
    await expect(request('DELETE', `/api/users/me/blocks/${other.id}`, me.token), 204);
    await expect(request('DELETE', `/api/users/me/blocks/${'0'.repeat(32)}`, me.token), 404);
  });

  it('my blocks are keyset-paged, newest first', async () => {
    const me = await createUser(t);
    const others = [await createUser(t), await createUser(t), await createUser(t)];
    for (const other of others) {
      await expect(request('PUT', `/api/users/me/blocks/${other.id}`, me.token), 200);
      t.clock.advanceMinutes(1);
    }
    const first = await expect(request('GET', '/api/users/me/blocks?limit=2', me.token), 200);
    assert.deepEqual(
      first.json.data.map((item: { id: string }) => item.id),
      [others[2]!.id, others[1]!.id],
    );
    const next = await expect(request('GET', first.json.links.next.replace(/^https?:\/\/[^/]+/, ''), me.token), 200);
    assert.deepEqual(
      next.json.data.map((item: { id: string }) => item.id),
      [others[0]!.id],
    );
    assert.equal(next.json.links.next, null);
  });
});
