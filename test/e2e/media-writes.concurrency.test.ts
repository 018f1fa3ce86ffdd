/**
 * A user's writes on one media at the same moment, and many users' at once. Every writer takes its
 * locks in the one order (the users it changes, ascending id, then the media; docs/development.md), so
 * none waits on another in a cycle: a bookmark and a comment at once answered 500 on PostgreSQL
 * (`deadlock detected`), as did a like racing the owner's own comment. Counters and experience stay exact.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { MediaRow } from '../../src/areas/media/read-model.ts';
import { LockOrderViolation } from '../../src/platform/db/lock-order.ts';
import { createTestApp, type TestApp, type TestResponse } from '../helpers/app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { createMediaRow } from '../helpers/media-factory.ts';

type Write = 'like' | 'dislike' | 'bookmark' | 'comment' | 'follow' | 'report';
/** A request and the status it should answer. */
interface Call {
  what: string;
  expected: number;
  send: () => Promise<TestResponse>;
}
const writes: readonly Write[] = ['like', 'dislike', 'bookmark', 'comment', 'follow', 'report'];
const pairs: [Write, Write][] = writes.flatMap((first, i) =>
  writes.slice(i + 1).map((second): [Write, Write] => [first, second]),
);

/** What each write answers when it succeeds. */
const successStatus: Record<Write, number> = {
  like: 200,
  dislike: 200,
  bookmark: 200,
  comment: 201,
  follow: 201,
  report: 201,
};

/**
 * Experience (docs/api.md, Gamification) a fresh actor and a fresh owner end with after the actor's writes
 * on one media of the owner: a like pays the owner 2 (like then dislike, or dislike then like, one like
 * each way); a follow pays 10 and the ambassador badge's first level 10; a bookmark pays the actor the
 * curator badge's first level, 10; a comment 1 and the storyteller badge's first level, 10.
 */
function experienceAfter(done: readonly Write[]): { actor: number; owner: number } {
  const has = (write: Write) => done.includes(write);
  return {
    actor: (has('bookmark') ? 10 : 0) + (has('comment') ? 11 : 0),
    owner: (has('like') ? 2 : 0) + (has('follow') ? 20 : 0),
  };
}

describe('writes on one media at the same moment', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  /** The actor's write on the owner's media. */
  function call(write: Write, actor: TestUser, mediaId: string, ownerId: string): Call {
    const as = { token: actor.token };
    const send = {
      like: () =>
        t.request({ method: 'PUT', url: `/api/users/me/media/${mediaId}/reaction`, ...as, body: { type: 'like' } }),
      dislike: () =>
        t.request({ method: 'PUT', url: `/api/users/me/media/${mediaId}/reaction`, ...as, body: { type: 'dislike' } }),
      bookmark: () => t.request({ method: 'PUT', url: `/api/users/me/media/${mediaId}/bookmark`, ...as, body: {} }),
      comment: () =>
        t.request({ method: 'POST', url: `/api/media/${mediaId}/comments`, ...as, body: { body: 'What a light!' } }),
      follow: () => t.request({ method: 'POST', url: `/api/users/me/following/${ownerId}`, ...as }),
      report: () =>
        t.request({ method: 'POST', url: `/api/media/${mediaId}/reports`, ...as, body: { reason: 'spam' } }),
    }[write];
    return { what: write, expected: successStatus[write], send };
  }

  /** A DELETE that answers 204. */
  const removal = (url: string, actor: TestUser): Call => ({
    what: `DELETE ${url}`,
    expected: 204,
    send: () => t.request({ method: 'DELETE', url, token: actor.token }),
  });

  /**
   * Sends each group of calls at once (one user's writes on one media), whole groups in waves of about
   * 24 requests: more than the pool's 10 connections, so writers always meet at their locks, and few
   * enough that no request waits the 5 s a pooled connection is waited for (503) on a slow machine.
   * Returns what did not answer as expected ("what: status body").
   */
  async function inWaves(groups: Call[][]): Promise<string[]> {
    const failures: string[] = [];
    for (let start = 0; start < groups.length; ) {
      const wave: Call[] = [];
      while (start < groups.length && (wave.length === 0 || wave.length + groups[start]!.length <= 24))
        wave.push(...groups[start++]!);
      const answers = await Promise.all(wave.map((one) => one.send()));
      for (const [i, res] of answers.entries()) {
        const { what, expected } = wave[i]!;
        if (res.statusCode !== expected) failures.push(`${what}: ${res.statusCode} ${res.body}`);
      }
    }
    return failures;
  }

  const experienceOf = async (user: TestUser): Promise<number> =>
    (await t.request({ method: 'GET', url: '/api/auth/me', token: user.token })).json.data.attributes.experience;

  /** The owner's media as their own list shows it (counters included). */
  async function countersOf(owner: TestUser, mediaId: string) {
    const res = await t.request({ method: 'GET', url: '/api/users/me/media?limit=100', token: owner.token });
    const item = res.json.data.find((media: { id: string }) => media.id === mediaId);
    assert.ok(item, `media ${mediaId} in its owner's list`);
    const { likesCount, dislikesCount, bookmarksCount, commentsCount } = item.attributes;
    return { likes: likesCount, dislikes: dislikesCount, bookmarks: bookmarksCount, comments: commentsCount };
  }

  const followersOf = async (user: TestUser): Promise<number> =>
    (await t.request({ method: 'GET', url: `/api/users/${user.id}/followers?limit=100` })).json.data.length;

  /** Whether the user's own likes list shows the media (the reaction stored is a like). */
  const likes = async (user: TestUser, mediaId: string): Promise<boolean> =>
    (await t.request({ method: 'GET', url: '/api/users/me/likes?limit=100', token: user.token })).json.data.some(
      (media: { id: string }) => media.id === mediaId,
    );

  it("lets every pair of one user's writes on one media succeed together, round after round, with exact counters and experience", async () => {
    for (let round = 0; round < 3; round++) {
      const runs = [];
      for (const pair of pairs) {
        const owner = await createUser(t);
        const actor = await createUser(t);
        runs.push({ pair, owner, actor, media: await createMediaRow(t, owner.id) });
      }
      const failures = await inWaves(
        runs.map(({ pair, owner, actor, media }) => pair.map((write) => call(write, actor, media.id, owner.id))),
      );
      assert.deepEqual(failures, [], `round ${round}`);
      for (const { pair, owner, actor, media } of runs) {
        const what = `round ${round}, ${pair.join(' + ')}`;
        const reacted = pair.includes('like') || pair.includes('dislike');
        const liked = reacted && (await likes(actor, media.id));
        assert.deepEqual(
          await countersOf(owner, media.id),
          {
            likes: liked ? 1 : 0,
            dislikes: reacted && !liked ? 1 : 0,
            bookmarks: pair.includes('bookmark') ? 1 : 0,
            comments: pair.includes('comment') ? 1 : 0,
          },
          what,
        );
        if (pair.includes('like') && !pair.includes('dislike')) assert.ok(liked, what);
        assert.equal(await followersOf(owner), pair.includes('follow') ? 1 : 0, what);
        const expected = experienceAfter(pair);
        assert.deepEqual({ actor: await experienceOf(actor), owner: await experienceOf(owner) }, expected, what);
      }
    }
  });

  it('keeps 40 users bookmarking and commenting one media at once, 10 others liking it and following and reporting its owner, and its owner commenting, exact', async () => {
    const owner = await createUser(t);
    const media = await createMediaRow(t, owner.id);
    const savers: TestUser[] = [];
    for (let i = 0; i < 40; i++) savers.push(await createUser(t));
    const fans: TestUser[] = [];
    for (let i = 0; i < 10; i++) fans.push(await createUser(t));
    const saverWrites: Write[] = ['bookmark', 'comment'];
    const fanWrites: Write[] = ['like', 'follow', 'report'];
    const by = (actor: TestUser, some: Write[]) => some.map((write) => call(write, actor, media.id, owner.id));
    // Savers and fans mixed, so each wave has both; the owner's comments go with the first wave.
    const groups = savers.map((saver, i) => [
      ...by(saver, saverWrites),
      ...(i < fans.length ? by(fans[i]!, fanWrites) : []),
    ]);
    groups[0]!.push(...by(owner, ['comment', 'comment', 'comment']));
    assert.deepEqual(await inWaves(groups), []);
    assert.deepEqual(await countersOf(owner, media.id), { likes: 10, dislikes: 0, bookmarks: 40, comments: 43 });
    assert.equal(await followersOf(owner), 10);
    for (const actor of savers) assert.equal(await experienceOf(actor), experienceAfter(saverWrites).actor);
    for (const actor of fans) assert.equal(await experienceOf(actor), 0);
    // 10 likes: 2 each, and the crowd-pleaser badge's first level (10 likes received): 20. 10 follows:
    // 10 each, and the ambassador badge's levels 1 and 2 (1 and 10 followers): 10 + 40. Its own 3
    // comments earn no comment experience, only the storyteller badge's first level: 10.
    assert.equal(await experienceOf(owner), 10 * 2 + 20 + 10 * 10 + 50 + 10);
  });

  it('keeps a ring of users acting on one another at once exact, then undoing it all at once', async () => {
    // Each user writes on the next one's media: every user is an actor and an owner at the same moment,
    // so writers lock the same users from both sides.
    const ring: TestUser[] = [];
    for (let i = 0; i < 12; i++) ring.push(await createUser(t));
    const medias: MediaRow[] = [];
    for (const user of ring) medias.push(await createMediaRow(t, user.id));
    const next = (i: number) => (i + 1) % ring.length;
    const onNext = (i: number) => ({ owner: ring[next(i)]!, mediaId: medias[next(i)]!.id });
    assert.deepEqual(
      await inWaves(
        ring.map((actor, i) => writes.map((write) => call(write, actor, onNext(i).mediaId, onNext(i).owner.id))),
      ),
      [],
    );
    const all = experienceAfter(writes);
    for (const [i, user] of ring.entries()) {
      const liked = await likes(user, onNext(i).mediaId);
      assert.deepEqual(await countersOf(onNext(i).owner, onNext(i).mediaId), {
        likes: liked ? 1 : 0,
        dislikes: liked ? 0 : 1,
        bookmarks: 1,
        comments: 1,
      });
      assert.equal(await followersOf(user), 1);
      assert.equal(await experienceOf(user), all.actor + all.owner);
    }

    const undo = [];
    for (const [i, actor] of ring.entries()) {
      const { owner, mediaId } = onNext(i);
      const comments = await t.request({ method: 'GET', url: `/api/media/${mediaId}/comments` });
      undo.push([
        removal(`/api/users/me/media/${mediaId}/reaction`, actor),
        removal(`/api/users/me/media/${mediaId}/bookmark`, actor),
        removal(`/api/media/comments/${comments.json.data[0].id}`, actor),
        removal(`/api/users/me/following/${owner.id}`, actor),
      ]);
    }
    assert.deepEqual(await inWaves(undo), []);
    for (const [i, user] of ring.entries()) {
      assert.deepEqual(await countersOf(user, medias[i]!.id), { likes: 0, dislikes: 0, bookmarks: 0, comments: 0 });
      assert.equal(await followersOf(user), 0);
      assert.equal(await experienceOf(user), all.actor + all.owner, 'undoing takes no experience back');
    }
  });

  it('lets the owner delete a media while others like, bookmark and comment it and the owner comments it', async () => {
    // Deleting takes back what publishing earned (the owner's lock) after the media row: the owner first.
    const owner = await createUser(t);
    const others: TestUser[] = [];
    for (let i = 0; i < 6; i++) others.push(await createUser(t));
    for (let round = 0; round < 3; round++) {
      const media = await createMediaRow(t, owner.id);
      const answers = await Promise.all([
        t.request({ method: 'DELETE', url: `/api/users/me/media/${media.id}`, token: owner.token }),
        call('comment', owner, media.id, owner.id).send(),
        ...others.map((other, i) => call(i % 2 ? 'like' : 'bookmark', other, media.id, owner.id).send()),
        ...others.slice(0, 2).map((other) => call('comment', other, media.id, owner.id).send()),
      ]);
      assert.equal(answers[0]!.statusCode, 204);
      const statuses = answers.slice(1).map((res) => res.statusCode);
      assert.deepEqual(
        statuses.filter((status) => ![200, 201, 404].includes(status)),
        [],
        `round ${round}: ${statuses.join(', ')}`,
      );
    }
  });

  it('refuses a user locked after a media in one transaction (the lock order check)', async () => {
    const { transactions } = t.services.platform;
    const { users } = t.services.areas.accounts;
    const { media } = t.services.areas.media;
    const owner = await createUser(t);
    const other = await createUser(t);
    const row = await createMediaRow(t, owner.id);
    await assert.rejects(
      transactions.run(async () => {
        await media.lockForCounters(row.id);
        await users.lock(other.id);
      }),
      LockOrderViolation,
    );
    // The one order, and a user locked again after the media once held before it, pass.
    await transactions.run(async () => {
      await users.lock(owner.id);
      await media.lockForCounters(row.id);
      await users.lock(owner.id);
    });
  });
});
