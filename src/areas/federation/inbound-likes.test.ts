/**
 * Likes from the fediverse (docs/api.md, Federation): a Like signed by a Mastodon or Pixelfed actor of
 * a local post (`{PUBLIC_URL}/ap/posts/{mediaId}`) counts as a like of the actor's shadow (the post's
 * counter, its list of likers with the actor's handle, the owner's experience), Undo(Like) takes it
 * back, and a Like of a post the actor may not see changes nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import {
  type FederatedTest,
  federatedPublicUrl as publicUrl,
  startFederatedTest,
} from '../../../test/helpers/fediverse-inbox.ts';
import { createMediaRow, readMediaRow } from '../../../test/helpers/media-factory.ts';

describe('federation: likes from remote actors', () => {
  let fed: FederatedTest;
  let carol: TestUser;

  before(async () => {
    fed = await startFederatedTest();
    carol = await createUser(fed.t, { username: 'carol' });
  });
  after(() => fed.close());

  const postUri = (mediaId: string) => `${publicUrl}/ap/posts/${mediaId}`;

  async function send(actor: FederatedTest['ana'], fixture: string, values: Record<string, string>) {
    const response = await fed.send(actor, fixture, values);
    assert.equal(response.statusCode, 202, response.body);
  }

  async function likers(mediaId: string): Promise<string[]> {
    const response = await fed.t.request({ method: 'GET', url: `/api/media/${mediaId}/likes` });
    assert.equal(response.statusCode, 200, response.body);
    return response.json.data.map((user: { attributes: { username: string } }) => user.attributes.username).sort();
  }

  async function experienceOf(user: TestUser): Promise<number> {
    const me = await fed.t.request({ method: 'GET', url: '/api/auth/me', token: user.token });
    return me.json.data.attributes.experience;
  }

  it("counts a Like on the post, lists the actor's handle among its likers and rewards the owner", async () => {
    const photo = await createMediaRow(fed.t, carol.id);
    const experience = await experienceOf(carol);
    await send(fed.bea, 'pixelfed-like', { object: postUri(photo.id), likeNumber: '771' });
    assert.equal((await readMediaRow(fed.t, photo.id)).likesCount, 1);
    assert.deepEqual(await likers(photo.id), [fed.handleOf(fed.bea)]);
    assert.ok((await experienceOf(carol)) > experience, 'a like received is rewarded');
  });

  it('takes a Like back on Undo(Like)', async () => {
    const photo = await createMediaRow(fed.t, carol.id);
    await send(fed.ana, 'mastodon-like', { object: postUri(photo.id) });
    await send(fed.bea, 'pixelfed-like', { object: postUri(photo.id), likeNumber: '772' });
    assert.equal((await readMediaRow(fed.t, photo.id)).likesCount, 2);
    await send(fed.ana, 'mastodon-undo-like', { object: postUri(photo.id) });
    assert.equal((await readMediaRow(fed.t, photo.id)).likesCount, 1);
    assert.deepEqual(await likers(photo.id), [fed.handleOf(fed.bea)]);
  });

  it('ignores the Like of a post the actor may not see, and of a URI that is no post', async () => {
    const draft = await createMediaRow(fed.t, carol.id, { published: false });
    await send(fed.bea, 'pixelfed-like', { object: postUri(draft.id), likeNumber: '773' });
    await send(fed.bea, 'pixelfed-like', { object: `${publicUrl}/ap/users/${carol.id}`, likeNumber: '774' });
    assert.equal((await readMediaRow(fed.t, draft.id)).likesCount, 0);
  });
});
