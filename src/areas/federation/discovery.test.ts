/**
 * Discovery with FEDERATION=on: WebFinger, NodeInfo 2.1 and the Person actors as Mastodon and
 * Pixelfed fetch them (application/activity+json), their keys kept sealed, and a browser asking for
 * an actor sent to the profile page. With FEDERATION off none of it is served.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { createMediaRow } from '../../../test/helpers/media-factory.ts';
import { queryRows } from '../../platform/db/rows.ts';

const publicUrl = 'https://travel.example';
const activityJson = 'application/activity+json';

describe('federation discovery', () => {
  let t: TestApp;
  let alice: TestUser;

  before(async () => {
    t = await createTestApp({ env: { FEDERATION: 'on', PUBLIC_URL: publicUrl } });
    alice = await createUser(t, { username: 'alice.voyage', nickname: 'Alice Voyage' });
  });
  after(() => t.close());

  const actorUrl = (user: TestUser) => `${publicUrl}/ap/users/${user.id}`;

  it('answers WebFinger for acct:username@host with the actor URL and the profile page', async () => {
    const response = await t.request({
      method: 'GET',
      url: `/.well-known/webfinger?resource=${encodeURIComponent('acct:alice.voyage@travel.example')}`,
    });
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /application\/jrd\+json/);
    const jrd = JSON.parse(response.body);
    assert.equal(jrd.subject, 'acct:alice.voyage@travel.example');
    const self = jrd.links.find((link: { rel: string }) => link.rel === 'self');
    assert.equal(self.href, actorUrl(alice));
    assert.equal(self.type, activityJson);
    const profile = jrd.links.find((link: { rel: string }) => link.rel === 'http://webfinger.net/rel/profile-page');
    assert.equal(profile.href, `${publicUrl}/@alice.voyage`);

    const unknown = await t.request({
      method: 'GET',
      url: `/.well-known/webfinger?resource=${encodeURIComponent('acct:nobody@travel.example')}`,
    });
    assert.equal(unknown.statusCode, 404);
    const byActorUrl = await t.request({
      method: 'GET',
      url: `/.well-known/webfinger?resource=${encodeURIComponent(actorUrl(alice))}`,
    });
    assert.equal(byActorUrl.statusCode, 200);
    assert.ok(JSON.parse(byActorUrl.body).aliases.includes('acct:alice.voyage@travel.example'));
  });

  it('serves the Person actor at a URL keyed by the user id, with RSA and Ed25519 keys', async () => {
    const response = await t.request({
      method: 'GET',
      url: `/ap/users/${alice.id}`,
      headers: { accept: activityJson },
    });
    assert.equal(response.statusCode, 200);
    const actor = JSON.parse(response.body);
    assert.equal(actor.type, 'Person');
    assert.equal(actor.id, actorUrl(alice));
    assert.equal(actor.preferredUsername, 'alice.voyage');
    assert.equal(actor.name, 'Alice Voyage');
    assert.equal(actor.url, `${publicUrl}/@alice.voyage`);
    assert.equal(actor.inbox, `${actorUrl(alice)}/inbox`);
    assert.equal(actor.endpoints.sharedInbox, `${publicUrl}/ap/inbox`);
    assert.equal(actor.manuallyApprovesFollowers, false);
    assert.equal(actor.publicKey.owner, actorUrl(alice));
    assert.match(actor.publicKey.publicKeyPem, /^-----BEGIN PUBLIC KEY-----/);
    const multikeys = [actor.assertionMethod].flat();
    assert.equal(multikeys.length, 2, 'one Multikey per key pair (RSA and Ed25519)');
    assert.ok(multikeys.some((key: { publicKeyMultibase: string }) => key.publicKeyMultibase.startsWith('z6Mk')));

    const again = JSON.parse(
      (await t.request({ method: 'GET', url: `/ap/users/${alice.id}`, headers: { accept: activityJson } })).body,
    );
    assert.equal(again.publicKey.publicKeyPem, actor.publicKey.publicKeyPem, 'the keys are made once and kept');
  });

  it('keeps the private keys sealed in the database', async () => {
    const rows = await queryRows<{ algorithm: string; sealed: string }>(
      t.services.platform.transactions.db,
      sql`SELECT algorithm, sealed_private_jwk AS sealed FROM federation_actor_keys WHERE user_id = ${alice.id}`,
    );
    assert.deepEqual(rows.map((row) => row.algorithm).sort(), ['Ed25519', 'RSASSA-PKCS1-v1_5']);
    for (const row of rows) {
      assert.doesNotMatch(row.sealed, /"d"|"kty"|BEGIN/, 'no private key material in clear');
      assert.equal(row.sealed.split('.').length, 3);
    }
  });

  it('shows the avatar and the cover as images', async () => {
    const bob = await createUser(t, { username: 'bob' });
    const { id: avatarId } = await createMediaRow(t, bob.id, { kind: 'avatar' });
    await t.services.areas.accounts.users.setProfileImage(bob.id, 'avatar', avatarId);
    const { id: coverId } = await createMediaRow(t, bob.id, { kind: 'cover' });
    await t.services.areas.accounts.users.setProfileImage(bob.id, 'cover', coverId);
    const actor = JSON.parse(
      (await t.request({ method: 'GET', url: `/ap/users/${bob.id}`, headers: { accept: activityJson } })).body,
    );
    assert.equal(actor.icon.type, 'Image');
    assert.equal(actor.icon.url, `${publicUrl}/media/${avatarId.replaceAll('-', '')}.webp?size=thumb`);
    assert.equal(actor.icon.mediaType, 'image/webp');
    assert.equal(actor.image.type, 'Image');
    assert.equal(actor.image.url, `${publicUrl}/media/${coverId.replaceAll('-', '')}.webp?size=large`);
    const alices = JSON.parse(
      (await t.request({ method: 'GET', url: `/ap/users/${alice.id}`, headers: { accept: activityJson } })).body,
    );
    assert.equal(alices.icon, undefined, 'no avatar, no icon');
    assert.equal(alices.image, undefined, 'no cover, no image');
  });

  it('sends a browser asking for the actor to the profile page', async () => {
    const response = await t.request({ method: 'GET', url: `/ap/users/${alice.id}`, headers: { accept: 'text/html' } });
    assert.equal(response.statusCode, 302);
    assert.equal(response.headers.location, `${publicUrl}/@alice.voyage`);
  });

  it('answers 404 for an unknown, malformed or banned actor', async () => {
    const unknown = await t.request({
      method: 'GET',
      url: '/ap/users/0190a000-0000-7000-8000-0000000000ff',
      headers: { accept: activityJson },
    });
    assert.equal(unknown.statusCode, 404);
    const malformed = await t.request({ method: 'GET', url: '/ap/users/alice', headers: { accept: activityJson } });
    assert.equal(malformed.statusCode, 404);
    const carol = await createUser(t, { username: 'carol' });
    await t.services.areas.accounts.moderation.ban(carol.id, { reason: 'spam', until: null }, 'admin');
    const banned = await t.request({ method: 'GET', url: `/ap/users/${carol.id}`, headers: { accept: activityJson } });
    assert.equal(banned.statusCode, 404);
    const webfinger = await t.request({
      method: 'GET',
      url: `/.well-known/webfinger?resource=${encodeURIComponent('acct:carol@travel.example')}`,
    });
    assert.equal(webfinger.statusCode, 404);
  });

  it('serves NodeInfo 2.1, linked from /.well-known/nodeinfo', async () => {
    const links = await t.request({ method: 'GET', url: '/.well-known/nodeinfo' });
    assert.equal(links.statusCode, 200);
    const link = JSON.parse(links.body).links[0];
    assert.equal(link.rel, 'http://nodeinfo.diaspora.software/ns/schema/2.1');
    assert.equal(link.href, `${publicUrl}/nodeinfo/2.1`);
    const response = await t.request({ method: 'GET', url: '/nodeinfo/2.1' });
    assert.equal(response.statusCode, 200);
    const nodeInfo = JSON.parse(response.body);
    assert.equal(nodeInfo.version, '2.1');
    assert.equal(nodeInfo.software.name, 'travel-media-service');
    assert.deepEqual(nodeInfo.protocols, ['activitypub']);
    assert.ok(nodeInfo.usage.users.total >= 2);
  });
});

describe('federation off (the default)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('serves no federated path and has no runtime', async () => {
    assert.equal(t.services.areas.federation.federation, null);
    const user = await createUser(t, { username: 'dora' });
    for (const url of [
      `/.well-known/webfinger?resource=${encodeURIComponent('acct:dora@127.0.0.1')}`,
      '/.well-known/nodeinfo',
      '/nodeinfo/2.1',
      `/ap/users/${user.id}`,
    ]) {
      const response = await t.request({ method: 'GET', url, headers: { accept: activityJson } });
      assert.equal(response.statusCode, 404, url);
    }
  });
});
