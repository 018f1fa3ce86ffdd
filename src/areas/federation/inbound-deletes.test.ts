/**
 * Deletes from the fediverse (docs/api.md, Federation): an actor's Delete of itself erases its local
 * shadow, and with it its follows and likes (the counters repaired): signed and checked (Pixelfed, or
 * a key still cached), or as Mastodon sends it, signed by the deleted account's key whose document now
 * answers 410 Gone. A Delete of a note changes nothing (no remote object is kept).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
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

describe('federation: deletes from remote actors', () => {
  let t: TestApp;
  let remote: FediverseServer;
  let ana: RemoteActor;
  let bea: RemoteActor;
  let dana: TestUser;
  let photoId: string;

  async function send(actor: RemoteActor, fixture: string, values: Record<string, string> = {}) {
    const body = remote.fixture(fixture, { username: actor.username, ...values });
    const response = await deliver(t, await remote.signedPost(actor, `${publicUrl}/ap/inbox`, body));
    await drainFederationQueue(t);
    return response;
  }

  async function followerNames(): Promise<string[]> {
    const response = await t.request({ method: 'GET', url: `/api/users/${dana.id}/followers`, token: dana.token });
    return response.json.data.map((user: { attributes: { username: string } }) => user.attributes.username).sort();
  }

  const handleOf = (actor: RemoteActor) => `${actor.username}@${new URL(remote.origin).host}`;

  before(async () => {
    t = await createTestApp({
      env: { FEDERATION: 'on', FEDERATION_ALLOW_PRIVATE_ADDRESS: 'on', PUBLIC_URL: publicUrl },
    });
    remote = await startFediverseServer();
    ana = await remote.addActor('mastodon-actor', 'ana');
    bea = await remote.addActor('pixelfed-actor', 'bea');
    dana = await createUser(t, { username: 'dana' });
    photoId = (await createMediaRow(t, dana.id)).id;
    const object = `${publicUrl}/ap/users/${dana.id}`;
    await send(ana, 'mastodon-follow', { object, followId: crypto.randomUUID() });
    await send(bea, 'pixelfed-follow', { object, followNumber: '1' });
    await send(ana, 'mastodon-like', { object: `${publicUrl}/ap/posts/${photoId}` });
    await send(bea, 'pixelfed-like', { object: `${publicUrl}/ap/posts/${photoId}`, likeNumber: '1' });
  });
  after(async () => {
    await remote.close();
    await t.close();
  });

  it('changes nothing on the Delete of a note', async () => {
    const response = await send(ana, 'mastodon-delete-note');
    assert.equal(response.statusCode, 202, response.body);
    assert.deepEqual(await followerNames(), [handleOf(ana), handleOf(bea)].sort());
    assert.equal((await readMediaRow(t, photoId)).likesCount, 2);
  });

  it('erases the shadow of an actor deleting itself in a signed Delete, with its follow and like', async () => {
    const shadow = await t.services.areas.federation.federation?.remoteActor(bea.id);
    assert.ok(shadow);
    const response = await send(bea, 'mastodon-delete-actor');
    assert.equal(response.statusCode, 202, response.body);
    assert.deepEqual(await followerNames(), [handleOf(ana)]);
    assert.equal((await readMediaRow(t, photoId)).likesCount, 1);
    assert.equal(await t.services.areas.accounts.users.find(shadow.userId), null);
  });

  it("erases the shadow on Mastodon's Delete, whose key answers 410 Gone", async () => {
    const shadow = await t.services.areas.federation.federation?.remoteActor(ana.id);
    assert.ok(shadow);
    remote.removeActor(ana);
    // Fedify's cache of ana's key has expired: the key is fetched, and its document is gone.
    await t.services.platform.transactions.db.execute(sql`DELETE FROM federation_kv`);
    const response = await send(ana, 'mastodon-delete-actor');
    assert.equal(response.statusCode, 202, response.body);
    assert.deepEqual(await followerNames(), []);
    assert.equal((await readMediaRow(t, photoId)).likesCount, 0);
    assert.equal(await t.services.areas.accounts.users.find(shadow.userId), null);
  });

  it('refuses (401) a Delete of an actor signed with another key, and erases nothing', async () => {
    const cem = await remote.addActor('mastodon-actor', 'cem');
    await send(cem, 'mastodon-follow', { object: `${publicUrl}/ap/users/${dana.id}`, followId: crypto.randomUUID() });
    assert.deepEqual(await followerNames(), [handleOf(cem)]);
    const forger = { ...cem, privateKey: bea.privateKey };
    const response = await send(forger, 'mastodon-delete-actor');
    assert.equal(response.statusCode, 401);
    assert.deepEqual(await followerNames(), [handleOf(cem)]);
  });
});
