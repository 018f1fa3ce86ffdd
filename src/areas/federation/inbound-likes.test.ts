/**
 * Likes from the fediverse (docs/api.md, Federation): a Like signed by a Mastodon or Pixelfed actor of
 * a local post (`{PUBLIC_URL}/ap/posts/{mediaId}`) counts as a like of the actor's shadow (the post's
 * counter, its list of likers with the actor's handle, the owner's experience), Undo(Like) takes it
 * back, and a Like of a post the actor may not see changes nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { deliver, drainFederationQueue } from '../../../test/helpers/fediverse-inbox.ts';
import { createMediaRow, readMediaRow } from '../../../test/helpers/media-factory.ts';
import {
  type FediverseServer,
  type RemoteActor,
  startFediverseServer,
} from '../../../test/support/fediverse-server.ts';

const publicUrl = 'https://travel.example';

describe('federation: likes from remote actors', () => {
  let t: TestApp;
  let remote: FediverseServer;
  let ana: RemoteActor;
  let bea: RemoteActor;
  let carol: TestUser;

  before(async () => {
    t = await createTestApp({
      env: { FEDERATION: 'on', FEDERATION_ALLOW_PRIVATE_ADDRESS: 'on', PUBLIC_URL: publicUrl },
    });
    remote = await startFediverseServer();
    ana = await remote.addActor('mastodon-actor', 'ana');
    bea = await remote.addActor('pixelfed-actor', 'bea');
    carol = await createUser(t, { username: 'carol' });
  });
  after(async () => {
    await remote.close();
    await t.close();
  });

  const handleOf = (actor: RemoteActor) => `${actor.username}@${new URL(remote.origin).host}`;
  const postUri = (mediaId: string) => `${publicUrl}/ap/posts/${mediaId}`;

  async function send(actor: RemoteActor, fixture: string, values: Record<string, string>) {
    const body = remote.fixture(fixture, { username: actor.username, ...values });
    const response = await deliver(t, await remote.signedPost(actor, `${publicUrl}/ap/inbox`, body));
    assert.equal(response.statusCode, 202, response.body);
    await drainFederationQueue(t);
  }

  async function likers(mediaId: string): Promise<string[]> {
    const response = await t.request({ method: 'GET', url: `/api/media/${mediaId}/likes` });
    assert.equal(response.statusCode, 200, response.body);
    return response.json.data.map((user: { attributes: { username: string } }) => user.attributes.username).sort();
  }

  async function experienceOf(user: TestUser): Promise<number> {
    const me = await t.request({ method: 'GET', url: '/api/auth/me', token: user.token });
    return me.json.data.attributes.experience;
  }

  it("counts a Like on the post, lists the actor's handle among its likers and rewards the owner", async () => {
    const photo = await createMediaRow(t, carol.id);
    const experience = await experienceOf(carol);
    await send(bea, 'pixelfed-like', { object: postUri(photo.id), likeNumber: '771' });
    assert.equal((await readMediaRow(t, photo.id)).likesCount, 1);
    assert.deepEqual(await likers(photo.id), [handleOf(bea)]);
    assert.ok((await experienceOf(carol)) > experience, 'a like received is rewarded');
  });

  it('takes a Like back on Undo(Like)', async () => {
    const photo = await createMediaRow(t, carol.id);
    await send(ana, 'mastodon-like', { object: postUri(photo.id) });
    await send(bea, 'pixelfed-like', { object: postUri(photo.id), likeNumber: '772' });
    assert.equal((await readMediaRow(t, photo.id)).likesCount, 2);
    await send(ana, 'mastodon-undo-like', { object: postUri(photo.id) });
    assert.equal((await readMediaRow(t, photo.id)).likesCount, 1);
    assert.deepEqual(await likers(photo.id), [handleOf(bea)]);
  });

  it('ignores the Like of a post the actor may not see, and of a URI that is no post', async () => {
    const draft = await createMediaRow(t, carol.id, { published: false });
    await send(bea, 'pixelfed-like', { object: postUri(draft.id), likeNumber: '773' });
    await send(bea, 'pixelfed-like', { object: `${publicUrl}/ap/users/${carol.id}`, likeNumber: '774' });
    assert.equal((await readMediaRow(t, draft.id)).likesCount, 0);
  });
});
