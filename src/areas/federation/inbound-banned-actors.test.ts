/**
 * What a banned remote actor (or one of a rejected domain) sends changes nothing here, whatever the
 * activity (docs/api.md, Federation): besides its Follow, Like and Create, refused before, its Undo of
 * a follow or a like, its Delete of a reply or of itself, and its Accept or Reject of a local user's
 * follow request are answered 202 as every activity the inbox takes, and ignored. Once unbanned, what
 * it did before is there again, untouched.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminToken } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import {
  deliver,
  drainFederationQueue,
  type FederatedTest,
  federatedPublicUrl as publicUrl,
  requestRemoteFollow,
  startFederatedTest,
} from '../../../test/helpers/fediverse-inbox.ts';
import { createMediaRow, readMediaRow } from '../../../test/helpers/media-factory.ts';
import type { ReceivedActivity } from '../../../test/support/fediverse-server.ts';

/** The status of mastodon-delete-note: the reply it deletes. */
const replyStatus = '113254109811046205';

describe('federation: a banned actor changes nothing', () => {
  let fed: FederatedTest;
  let carol: TestUser;
  let photoId: string;
  let anaShadow: string;
  let followOfAna: ReceivedActivity;
  const anaFollowId = crypto.randomUUID();
  const carolInbox = () => `${publicUrl}/ap/users/${carol.id}/inbox`;

  const admin = (method: 'GET' | 'PUT', url: string, body?: object) =>
    fed.t.request({ method, url, token: adminToken, ...(body ? { body } : {}) });

  async function followerNames(): Promise<string[]> {
    const response = await fed.t.request({ method: 'GET', url: `/api/users/${carol.id}/followers` });
    return response.json.data.map((user: { attributes: { username: string } }) => user.attributes.username);
  }

  async function commentAuthors(): Promise<string[]> {
    const response = await fed.t.request({ method: 'GET', url: `/api/media/${photoId}/comments` });
    return response.json.included.map((user: { attributes: { username: string } }) => user.attributes.username);
  }

  const pendingSince = () => fed.t.services.areas.federation.outboundFollows?.pendingSince(carol.id, anaShadow);
  const carolFollowsAna = async () =>
    (await fed.t.services.areas.follows.follows.relationship(carol.id, anaShadow)).following !== null;

  async function answer(kind: 'Accept' | 'Reject') {
    const response = await deliver(fed.t, await fed.remote.answerFollow(fed.ana, followOfAna, kind, carolInbox()));
    assert.equal(response.statusCode, 202, response.body);
    await drainFederationQueue(fed.t);
  }

  before(async () => {
    fed = await startFederatedTest();
    carol = await createUser(fed.t, { username: 'carol' });
    photoId = (await createMediaRow(fed.t, carol.id)).id;
    const post = `${publicUrl}/ap/posts/${photoId}`;
    await fed.send(fed.ana, 'mastodon-follow', { object: `${publicUrl}/ap/users/${carol.id}`, followId: anaFollowId });
    await fed.send(fed.ana, 'mastodon-like', { object: post });
    await fed.send(fed.ana, 'mastodon-reply-note', {
      inReplyTo: post,
      statusId: replyStatus,
      ownerActor: `${publicUrl}/ap/users/${carol.id}`,
      ownerProfile: `${publicUrl}/@carol`,
      ownerName: 'carol',
    });
    // carol asks to follow ana: pending until ana's server answers.
    ({ shadowId: anaShadow, follow: followOfAna } = await requestRemoteFollow(fed.t, carol, fed.remote, fed.ana));
    assert.deepEqual(await followerNames(), [fed.handleOf(fed.ana)]);
    assert.equal((await readMediaRow(fed.t, photoId)).likesCount, 1);
    assert.deepEqual(await commentAuthors(), [fed.handleOf(fed.ana)]);

    const ban = await admin('PUT', `/admin/users/${anaShadow}/ban`, { reason: 'Spam from afar' });
    assert.equal(ban.statusCode, 200, ban.body);
  });
  after(() => fed.close());

  it("ignores its Accept of a local user's follow request: still pending, no follow", async () => {
    await answer('Accept');
    assert.notEqual(await pendingSince(), null, 'no follow either (checked once unbanned: hidden meanwhile)');
  });

  it("ignores its Reject of a local user's follow request: still pending", async () => {
    await answer('Reject');
    assert.notEqual(await pendingSince(), null);
  });

  it('ignores its Undo of its follow and of its like, and its Delete of its reply', async () => {
    const object = `${publicUrl}/ap/users/${carol.id}`;
    for (const [fixture, values] of [
      ['mastodon-undo-follow', { object, followId: anaFollowId, followNumber: '1' }],
      ['mastodon-undo-like', { object: `${publicUrl}/ap/posts/${photoId}` }],
      ['mastodon-delete-note', {}],
    ] as const) {
      const response = await fed.send(fed.ana, fixture, values);
      assert.equal(response.statusCode, 202, `${fixture}: ${response.body}`);
    }
  });

  it('ignores its Delete of itself: the shadow and its ban stay', async () => {
    const response = await fed.send(fed.ana, 'mastodon-delete-actor');
    assert.equal(response.statusCode, 202, response.body);
    const shadow = await admin('GET', `/admin/users/${anaShadow}`);
    assert.equal(shadow.statusCode, 200, shadow.body);
    assert.equal(shadow.json.data.attributes.ban?.reason, 'Spam from afar');
  });

  it('has everything it did before once unbanned: its follow, like and reply, and the pending request', async () => {
    const unban = await admin('PUT', `/admin/users/${anaShadow}/unban`);
    assert.equal(unban.statusCode, 200, unban.body);
    assert.deepEqual(await followerNames(), [fed.handleOf(fed.ana)]);
    assert.equal((await readMediaRow(fed.t, photoId)).likesCount, 1);
    assert.deepEqual(await commentAuthors(), [fed.handleOf(fed.ana)]);
    assert.notEqual(await pendingSince(), null);
    assert.equal(await carolFollowsAna(), false, 'the Accept made while banned stored nothing');
    // Unbanned, its answer counts again.
    await answer('Accept');
    assert.equal(await carolFollowsAna(), true);
  });
});
