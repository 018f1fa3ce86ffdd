/**
 * Reports from the fediverse (docs/api.md, Federation): a Flag as Mastodon sends it (from its instance
 * actor, naming the account and the statuses reported, with the reporter's comment) is filed in the
 * reports queue as a report of the posts (or, naming none, of the account), in the name of the
 * actor's shadow; operators list and resolve it as any report, and no mail goes to the remote reporter.
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
  startFederatedTest,
} from '../../../test/helpers/fediverse-inbox.ts';
import { createMediaRow } from '../../../test/helpers/media-factory.ts';
import type { RemoteActor } from '../../../test/support/fediverse-server.ts';
import { maxFlagObjects } from './inbound/flag-handlers.ts';

interface AdminReport {
  id: string;
  attributes: {
    kind: string;
    targetId: string;
    reason: string;
    details: string | null;
    status: string;
    reporterId: string;
    targetUserId: string;
  };
}

describe('federation: reports (Flag) from remote servers', () => {
  let fed: FederatedTest;
  let instance: RemoteActor;
  let reporterId: string;
  let dana: TestUser;
  let flags = 0;

  before(async () => {
    fed = await startFederatedTest();
    instance = await fed.remote.addActor('mastodon-instance-actor', 'mastodon.internal');
    dana = await createUser(fed.t, { username: 'dana' });
    const shadow = await fed.t.services.areas.federation.federation?.remoteActor(instance.id);
    assert.ok(shadow);
    reporterId = shadow.userId;
  });
  after(() => fed.close());

  async function flag(reportedPost: string) {
    flags += 1;
    const response = await fed.send(instance, 'mastodon-flag', {
      flagId: `${flags}4b9c0f7e-3a1d-4f57-9a52-c1f0e2b3d4a5`,
      reportedActor: `${publicUrl}/ap/users/${dana.id}`,
      reportedPost,
    });
    assert.equal(response.statusCode, 202, response.body);
  }

  async function reportsOf(targetId: string): Promise<AdminReport[]> {
    const response = await fed.t.request({ method: 'GET', url: '/admin/reports?limit=200', token: adminToken });
    assert.equal(response.statusCode, 200, response.body);
    return (response.json.data as AdminReport[]).filter((report) => report.attributes.targetId === targetId);
  }

  it("files a report of the post named, in the instance actor's name, with its comment as plain text", async () => {
    const photo = await createMediaRow(fed.t, dana.id);
    await flag(`${publicUrl}/ap/posts/${photo.id}`);
    const [report, ...others] = await reportsOf(photo.id);
    assert.ok(report);
    assert.equal(others.length, 0);
    assert.deepEqual(report.attributes, {
      ...report.attributes,
      kind: 'media',
      reason: 'other',
      details: 'Spam: the same link under every post & in the bio',
      status: 'open',
      reporterId,
      targetUserId: dana.id,
    });
    // The account named beside the post is not reported on its own.
    assert.deepEqual(await reportsOf(dana.id), []);
    // The same Flag again, while the report is open, files nothing more.
    await flag(`${publicUrl}/ap/posts/${photo.id}`);
    assert.equal((await reportsOf(photo.id)).length, 1);

    const resolved = await fed.t.request({
      method: 'PATCH',
      url: `/admin/reports/${report.id}`,
      token: adminToken,
      body: { resolution: 'actioned', action: 'hideMedia' },
    });
    assert.equal(resolved.statusCode, 200, resolved.body);
    assert.equal(resolved.json.data.attributes.status, 'resolved');
    const hidden = await fed.t.request({ method: 'GET', url: `/api/media/${photo.id}/comments` });
    assert.equal(hidden.statusCode, 404);
    const shadow = await fed.t.services.areas.accounts.users.find(reporterId);
    assert.ok(shadow);
    assert.ok(
      fed.t.mail.sent.some((mail) => mail.to === dana.email),
      'the owner is told of the decision',
    );
    assert.ok(!fed.t.mail.sent.some((mail) => mail.to === shadow.email), 'a remote reporter gets no mail');
  });

  it('reports the account when the Flag names no post of this server', async () => {
    await flag(`${fed.remote.origin}/users/ana/statuses/1`);
    const [report, ...others] = await reportsOf(dana.id);
    assert.ok(report);
    assert.equal(others.length, 0);
    assert.equal(report.attributes.kind, 'user');
    assert.equal(report.attributes.reporterId, reporterId);
  });

  it('reports a comment that came from another server, named by its Note', async () => {
    const photo = await createMediaRow(fed.t, dana.id);
    const note = `${fed.remote.origin}/users/ana/statuses/77001`;
    await fed.send(fed.ana, 'mastodon-reply-note', {
      statusId: '77001',
      inReplyTo: `${publicUrl}/ap/posts/${photo.id}`,
      ownerActor: `${publicUrl}/ap/users/${dana.id}`,
      ownerProfile: `${publicUrl}/@dana`,
      ownerName: 'dana',
    });
    const comments = await fed.t.request({ method: 'GET', url: `/api/media/${photo.id}/comments` });
    const commentId = comments.json.data[0]?.id;
    assert.ok(commentId);
    await flag(note);
    const [report] = await reportsOf(commentId);
    assert.equal(report?.attributes.kind, 'comment');
    const ana = await fed.t.services.areas.federation.federation?.remoteActor(fed.ana.id);
    assert.equal(report?.attributes.targetUserId, ana?.userId);
  });

  it(`reads only the first ${maxFlagObjects} objects of a Flag`, async () => {
    const photo = await createMediaRow(fed.t, dana.id);
    const activity = JSON.parse(
      fed.remote.fixture('mastodon-flag', {
        username: instance.username,
        flagId: 'many-objects',
        reportedActor: `${publicUrl}/ap/users/${dana.id}`,
        reportedPost: `${publicUrl}/ap/posts/${photo.id}`,
      }),
    );
    const statuses = Array.from({ length: maxFlagObjects }, (_, n) => `${fed.remote.origin}/users/ana/statuses/${n}`);
    activity.object = [...statuses, `${publicUrl}/ap/posts/${photo.id}`];
    const request = await fed.remote.signedPost(instance, `${publicUrl}/ap/inbox`, JSON.stringify(activity));
    assert.equal((await deliver(fed.t, request)).statusCode, 202);
    await drainFederationQueue(fed.t);
    assert.deepEqual(await reportsOf(photo.id), [], 'the post named after the limit is not read');
  });

  it('files nothing for a post the reporter may not see', async () => {
    const draft = await createMediaRow(fed.t, dana.id, { published: false });
    await flag(`${publicUrl}/ap/posts/${draft.id}`);
    assert.deepEqual(await reportsOf(draft.id), []);
  });
});
