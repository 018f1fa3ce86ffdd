/**
 * A user's own domain blocks (docs/api.md, Blocks and mutes) and the ban of a remote actor: a blocked
 * domain's actors are to the user as users they block, through the one rule every area honours (their
 * follows removed, their comments and profiles hidden from the user alone, their Follow refused), and
 * an operator's ban of a remote actor's shadow hides its content and refuses its activities as a banned
 * local user's. Remote comments arrive through fed-in's handlers; here the shadow comments through the
 * comments area's own method, the one those handlers call.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { adminToken, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import {
  type FederatedTest,
  federatedPublicUrl as publicUrl,
  startFederatedTest,
} from '../../../test/helpers/fediverse-inbox.ts';
import { createMediaRow, readMediaRow } from '../../../test/helpers/media-factory.ts';
import { queryRows } from '../../platform/db/rows.ts';

describe('federation: a user blocks a domain; an operator bans a remote actor', () => {
  let fed: FederatedTest;
  let t: TestApp;
  let alice: TestUser;
  let carol: TestUser;
  let photo: { id: string };
  let anaShadow: string;
  let followNumber = 0;

  before(async () => {
    fed = await startFederatedTest();
    t = fed.t;
    alice = await createUser(t, { username: 'alice' });
    carol = await createUser(t, { username: 'carol' });
    photo = await createMediaRow(t, alice.id);
  });
  after(() => fed.close());

  const follow = async (actor: FederatedTest['ana'], fixture: string) => {
    followNumber += 1;
    const values = {
      object: `${publicUrl}/ap/users/${alice.id}`,
      followId: `f/${followNumber}`,
      followNumber: String(followNumber),
    };
    assert.equal((await fed.send(actor, fixture, values)).statusCode, 202);
    return JSON.parse(fed.remote.fixture(fixture, { username: actor.username, ...values })).id as string;
  };

  const answerTo = (followId: string) =>
    fed.remote.received.find((received) => (received.activity.object as { id?: string })?.id === followId)?.activity
      .type;

  async function followerNames(): Promise<string[]> {
    const response = await t.request({ method: 'GET', url: `/api/users/${alice.id}/followers`, token: alice.token });
    assert.equal(response.statusCode, 200, response.body);
    return response.json.data.map((user: { attributes: { username: string } }) => user.attributes.username);
  }

  async function commentAuthors(viewer: TestUser | null): Promise<string[]> {
    const response = await t.request({ method: 'GET', url: `/api/media/${photo.id}/comments`, token: viewer?.token });
    assert.equal(response.statusCode, 200, response.body);
    const authors = new Map<string, string>(
      (response.json.included ?? []).map((user: { id: string; attributes: { username: string } }) => [
        user.id,
        user.attributes.username,
      ]),
    );
    // A comment whose author is hidden from the viewer shows as a placeholder, with no author.
    return response.json.data.map((comment: { relationships: { author: { data: { id: string } | null } } }) => {
      const author = comment.relationships.author.data;
      return author === null ? 'placeholder' : (authors.get(author.id) ?? author.id);
    });
  }

  async function likers(viewer: TestUser): Promise<string[]> {
    const response = await t.request({ method: 'GET', url: `/api/media/${photo.id}/likes`, token: viewer.token });
    assert.equal(response.statusCode, 200, response.body);
    return response.json.data.map((user: { attributes: { username: string } }) => user.attributes.username);
  }

  it("hides a blocked domain's follower and commenter from the user as a block does, and refuses its Follow", async () => {
    await follow(fed.ana, 'mastodon-follow');
    const row = await t.services.areas.federation.federation?.remoteActor(fed.ana.id);
    assert.ok(row);
    anaShadow = row.userId;
    await t.services.areas.comments.comments.create(anaShadow, photo.id, { body: 'Lovely light!' });
    await fed.send(fed.ana, 'pixelfed-like', { object: `${publicUrl}/ap/posts/${photo.id}`, likeNumber: '30' });
    assert.deepEqual(await likers(alice), [fed.handleOf(fed.ana)]);
    assert.deepEqual(await followerNames(), [fed.handleOf(fed.ana)]);
    assert.deepEqual(await commentAuthors(alice), [fed.handleOf(fed.ana)]);

    const blocked = await t.request({
      method: 'PUT',
      url: `/api/users/me/domain-blocks/${encodeURIComponent(new URL(fed.remote.origin).host)}`,
      token: alice.token,
    });
    assert.equal(blocked.statusCode, 200, blocked.body);
    assert.equal(blocked.json.data.id, '127.0.0.1', 'the port is not part of the domain');

    assert.deepEqual(await followerNames(), [], 'the follow is removed');
    assert.deepEqual(
      await commentAuthors(alice),
      ['placeholder'],
      "ana's comment is hidden from alice, as a block does",
    );
    assert.deepEqual(await commentAuthors(carol), [fed.handleOf(fed.ana)], 'and shown to others');
    assert.deepEqual(await likers(alice), [], 'her like is not listed to alice');
    // The same rule for the readers that filter in memory, and for one pair (writes).
    const { users } = t.services.areas.accounts;
    assert.ok((await users.hiddenFrom(alice.id, 'none')).has(anaShadow));
    assert.equal((await users.hiddenFrom(carol.id, 'none')).has(anaShadow), false);
    assert.equal(await users.blockedEitherWay(alice.id, anaShadow), true);
    assert.equal(await users.blockedEitherWay(anaShadow, alice.id), true);
    assert.equal(await users.blockedEitherWay(carol.id, anaShadow), false);
    assert.deepEqual(await likers(carol), [fed.handleOf(fed.ana)]);

    // bea was never seen here: the rule covers the domain's actors met later too.
    const beaFollow = await follow(fed.bea, 'pixelfed-follow');
    assert.equal(answerTo(beaFollow), 'Reject');
    assert.deepEqual(await followerNames(), []);
  });

  it('lists my domain blocks, to me alone, and lifts one (what it ended does not come back)', async () => {
    const mine = await t.request({ method: 'GET', url: '/api/users/me/domain-blocks', token: alice.token });
    assert.equal(mine.statusCode, 200, mine.body);
    assert.deepEqual(
      mine.json.data.map((row: { id: string; attributes: { domain: string } }) => [row.id, row.attributes.domain]),
      [['127.0.0.1', '127.0.0.1']],
    );
    const theirs = await t.request({ method: 'GET', url: '/api/users/me/domain-blocks', token: carol.token });
    assert.deepEqual(theirs.json.data, []);
    assert.equal((await t.request({ method: 'GET', url: '/api/users/me/domain-blocks' })).statusCode, 401);
    assert.equal(
      (await t.request({ method: 'PUT', url: '/api/users/me/domain-blocks/example.social' })).statusCode,
      401,
    );
    const invalid = await t.request({
      method: 'PUT',
      url: '/api/users/me/domain-blocks/no_domain',
      token: alice.token,
    });
    assert.equal(invalid.statusCode, 422);
    assert.equal(invalid.json.errors[0].source.parameter, 'domain');

    const again = await t.request({ method: 'PUT', url: '/api/users/me/domain-blocks/127.0.0.1', token: alice.token });
    assert.equal(again.statusCode, 200, 'idempotent');
    const lifted = await t.request({
      method: 'DELETE',
      url: '/api/users/me/domain-blocks/127.0.0.1',
      token: alice.token,
    });
    assert.equal(lifted.statusCode, 204);
    assert.deepEqual(await commentAuthors(alice), [fed.handleOf(fed.ana)]);
    assert.deepEqual(await likers(alice), [fed.handleOf(fed.ana)]);
    assert.deepEqual(await followerNames(), [], 'follows do not come back');
  });

  it('bans a remote actor as a local user: its content hidden, its activities refused, until unbanned', async () => {
    await follow(fed.ana, 'mastodon-follow');
    assert.deepEqual(await followerNames(), [fed.handleOf(fed.ana)]);
    const ban = await t.request({
      method: 'PUT',
      url: `/admin/users/${anaShadow}/ban`,
      token: adminToken,
      body: { reason: 'Spam from afar' },
    });
    assert.equal(ban.statusCode, 200, ban.body);
    assert.deepEqual(await commentAuthors(carol), [], 'the comment is hidden from everyone');
    assert.deepEqual(await followerNames(), [], 'a banned follower is not listed');
    assert.deepEqual(await likers(carol), [], 'her like is hidden');
    const [mailed] = await queryRows<{ n: number }>(
      t.services.platform.transactions.db,
      sql`SELECT count(*)::int AS n FROM mail_outbox WHERE recipient LIKE '%remote.invalid'`,
    );
    assert.equal(mailed?.n, 0, 'no decision mail is filed for a remote account');

    // Her activities are refused: a Like of another post counts nothing, a Follow gets no answer.
    const other = await createMediaRow(t, carol.id);
    await fed.send(fed.ana, 'pixelfed-like', { object: `${publicUrl}/ap/posts/${other.id}`, likeNumber: '31' });
    assert.equal((await readMediaRow(t, other.id)).likesCount, 0);
    const newFollow = await follow(fed.ana, 'mastodon-follow');
    assert.equal(answerTo(newFollow), undefined, 'a banned actor gets no answer');

    const unban = await t.request({ method: 'PUT', url: `/admin/users/${anaShadow}/unban`, token: adminToken });
    assert.equal(unban.statusCode, 200, unban.body);
    assert.deepEqual(await commentAuthors(carol), [fed.handleOf(fed.ana)]);
    await fed.send(fed.ana, 'pixelfed-like', { object: `${publicUrl}/ap/posts/${other.id}`, likeNumber: '32' });
    assert.equal((await readMediaRow(t, other.id)).likesCount, 1);
  });
});
