/**
 * Deletes from the fediverse (docs/api.md, Federation): an actor's Delete of itself erases its local
 * shadow, and with it its follows and likes (the counters repaired): signed and checked (Pixelfed, or
 * a key still cached), or as Mastodon sends it, signed by the deleted account's key whose document now
 * answers 410 Gone. A Delete of a note changes nothing (no remote object is kept).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import {
  type FederatedTest,
  federatedPublicUrl as publicUrl,
  startFederatedTest,
} from '../../../test/helpers/fediverse-inbox.ts';
import { createMediaRow, readMediaRow } from '../../../test/helpers/media-factory.ts';

describe('federation: deletes from remote actors', () => {
  let fed: FederatedTest;
  let dana: TestUser;
  let photoId: string;

  async function followerNames(): Promise<string[]> {
    const response = await fed.t.request({ method: 'GET', url: `/api/users/${dana.id}/followers`, token: dana.token });
    return response.json.data.map((user: { attributes: { username: string } }) => user.attributes.username).sort();
  }

  before(async () => {
    fed = await startFederatedTest();
    dana = await createUser(fed.t, { username: 'dana' });
    photoId = (await createMediaRow(fed.t, dana.id)).id;
    const object = `${publicUrl}/ap/users/${dana.id}`;
    await fed.send(fed.ana, 'mastodon-follow', { object, followId: crypto.randomUUID() });
    await fed.send(fed.bea, 'pixelfed-follow', { object, followNumber: '1' });
    await fed.send(fed.ana, 'mastodon-like', { object: `${publicUrl}/ap/posts/${photoId}` });
    await fed.send(fed.bea, 'pixelfed-like', { object: `${publicUrl}/ap/posts/${photoId}`, likeNumber: '1' });
  });
  after(() => fed.close());

  it('changes nothing on the Delete of a note', async () => {
    const response = await fed.send(fed.ana, 'mastodon-delete-note');
    assert.equal(response.statusCode, 202, response.body);
    assert.deepEqual(await followerNames(), [fed.handleOf(fed.ana), fed.handleOf(fed.bea)].sort());
    assert.equal((await readMediaRow(fed.t, photoId)).likesCount, 2);
  });

  it('erases the shadow of an actor deleting itself in a signed Delete, with its follow and like', async () => {
    const shadow = await fed.t.services.areas.federation.federation?.remoteActor(fed.bea.id);
    assert.ok(shadow);
    const response = await fed.send(fed.bea, 'mastodon-delete-actor');
    assert.equal(response.statusCode, 202, response.body);
    assert.deepEqual(await followerNames(), [fed.handleOf(fed.ana)]);
    assert.equal((await readMediaRow(fed.t, photoId)).likesCount, 1);
    assert.equal(await fed.t.services.areas.accounts.users.find(shadow.userId), null);
  });

  it("erases the shadow on Mastodon's Delete, whose key answers 410 Gone", async () => {
    const shadow = await fed.t.services.areas.federation.federation?.remoteActor(fed.ana.id);
    assert.ok(shadow);
    fed.remote.removeActor(fed.ana);
    // Fedify's cache of ana's key has expired: the key is fetched, and its document is gone.
    await fed.t.services.platform.transactions.db.execute(sql`DELETE FROM federation_kv`);
    const response = await fed.send(fed.ana, 'mastodon-delete-actor');
    assert.equal(response.statusCode, 202, response.body);
    assert.deepEqual(await followerNames(), []);
    assert.equal((await readMediaRow(fed.t, photoId)).likesCount, 0);
    assert.equal(await fed.t.services.areas.accounts.users.find(shadow.userId), null);
  });

  it('refuses (401) a Delete of an actor signed with another key, and erases nothing', async () => {
    const cem = await fed.remote.addActor('mastodon-actor', 'cem');
    await fed.send(cem, 'mastodon-follow', {
      object: `${publicUrl}/ap/users/${dana.id}`,
      followId: crypto.randomUUID(),
    });
    assert.deepEqual(await followerNames(), [fed.handleOf(cem)]);
    const forger = { ...cem, privateKey: fed.bea.privateKey };
    const response = await fed.send(forger, 'mastodon-delete-actor');
    assert.equal(response.statusCode, 401);
    assert.deepEqual(await followerNames(), [fed.handleOf(cem)]);
  });
});
