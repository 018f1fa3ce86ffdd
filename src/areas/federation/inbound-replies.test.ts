/**
 * Replies from the fediverse (docs/api.md, Federation): a Mastodon or Pixelfed Note replying to a
 * local post becomes a comment of its actor's shadow, listed with the actor's handle and counted on
 * the post; its text is plain (markup dropped, links and mentions kept as text, a mention of a local
 * user linked to them); Update edits it, Delete removes it; the same Note twice makes one comment; a
 * reply the actor may not make (a block, a post not there for them, not public) changes nothing.
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
import { createMediaRow, readMediaRow } from '../../../test/helpers/media-factory.ts';
import type { RemoteActor } from '../../../test/support/fediverse-server.ts';
import { RemoteCommentsRepository } from './remote-comments.repository.ts';
import { RemoteCommentsService } from './remote-comments.service.ts';

/** An activity as JSON, for the few fields a test changes. */
type Activity = Record<string, any>;

interface ListedComment {
  id: string;
  attributes: {
    body: string | null;
    depth: number;
    deleted: boolean;
    editedAt: string | null;
    hashtags: string[];
    mentions: { id: string; username: string }[];
  };
  relationships: { author: { data: { id: string } | null }; parent: { data: { id: string } | null } };
}

describe('federation: replies from remote actors', () => {
  let fed: FederatedTest;
  let carol: TestUser;
  let statusNumber = 0;

  before(async () => {
    fed = await startFederatedTest();
    carol = await createUser(fed.t, { username: 'carol' });
    // A local account named as a remote one: `@bea@host` must never mention it.
    await createUser(fed.t, { username: 'bea' });
  });
  after(() => fed.close());

  const postUri = (mediaId: string) => `${publicUrl}/ap/posts/${mediaId}`;
  const nextStatus = () => {
    statusNumber += 1;
    return `1132541098110463${String(statusNumber).padStart(2, '0')}`;
  };

  /** The values the reply fixtures take: carol's actor, profile page and name, and what is replied to. */
  const replyTo = (inReplyTo: string, statusId: string) => ({
    inReplyTo,
    statusId,
    ownerActor: `${publicUrl}/ap/users/${carol.id}`,
    ownerProfile: `${publicUrl}/@carol`,
    ownerName: 'carol',
  });

  async function send(actor: RemoteActor, fixture: string, values: Record<string, string>) {
    const response = await fed.send(actor, fixture, values);
    assert.equal(response.statusCode, 202, response.body);
  }

  /** A fixture changed by `edit` before it is signed and delivered (for what no fixture says). */
  async function sendEdited(
    actor: RemoteActor,
    fixture: string,
    values: Record<string, string>,
    edit: (activity: Activity) => void,
  ) {
    const activity = JSON.parse(fed.remote.fixture(fixture, { username: actor.username, ...values }));
    edit(activity);
    const body = JSON.stringify(activity);
    const response = await deliver(fed.t, await fed.remote.signedPost(actor, `${publicUrl}/ap/inbox`, body));
    assert.equal(response.statusCode, 202, response.body);
    await drainFederationQueue(fed.t);
  }

  async function comments(mediaId: string) {
    const response = await fed.t.request({ method: 'GET', url: `/api/media/${mediaId}/comments` });
    assert.equal(response.statusCode, 200, response.body);
    const authors = new Map<string, string>(
      response.json.included.map((user: { id: string; attributes: { username: string } }) => [
        user.id,
        user.attributes.username,
      ]),
    );
    return (response.json.data as ListedComment[]).map((comment) => ({
      ...comment,
      author: authors.get(comment.relationships.author.data?.id ?? '') ?? null,
    }));
  }

  it("lists a Mastodon reply as a comment with the actor's handle, its HTML as plain text", async () => {
    const photo = await createMediaRow(fed.t, carol.id);
    const unread = await fed.t.request({
      method: 'GET',
      url: '/api/users/me/notifications/unread-count',
      token: carol.token,
    });
    await send(fed.ana, 'mastodon-reply-note', replyTo(postUri(photo.id), nextStatus()));
    const [comment, ...others] = await comments(photo.id);
    assert.ok(comment);
    assert.equal(others.length, 0);
    assert.equal(comment.author, fed.handleOf(fed.ana));
    assert.equal(
      comment.attributes.body,
      '@carol What a light over the Tagus! Same spot as https://ana.example/lisbon/miradouro-de-santa-luzia & #lisbon\n' +
        `cc @bea@${new URL(fed.remote.origin).host}`,
    );
    assert.deepEqual(comment.attributes.mentions, [{ id: carol.id, username: 'carol' }]);
    assert.deepEqual(comment.attributes.hashtags, ['lisbon']);
    assert.equal((await readMediaRow(fed.t, photo.id)).commentsCount, 1);
    // The interface has no notification kind for a comment: the owner is told nothing, as of a local one.
    const after = await fed.t.request({
      method: 'GET',
      url: '/api/users/me/notifications/unread-count',
      token: carol.token,
    });
    assert.equal(after.json.data.attributes.count, unread.json.data.attributes.count);
  });

  it('makes one comment of the same Note delivered twice, in two activities', async () => {
    const photo = await createMediaRow(fed.t, carol.id);
    const values = replyTo(postUri(photo.id), nextStatus());
    await send(fed.ana, 'mastodon-reply-note', values);
    await sendEdited(fed.ana, 'mastodon-reply-note', values, (create) => {
      create.id = `${create.id}-again`;
    });
    assert.equal((await comments(photo.id)).length, 1);
    assert.equal((await readMediaRow(fed.t, photo.id)).commentsCount, 1);
  });

  it('makes one comment of the same Note received twice at once (the second loses on its URI)', async () => {
    const photo = await createMediaRow(fed.t, carol.id);
    const shadow = await fed.t.services.areas.federation.federation?.remoteActor(fed.ana.id);
    assert.ok(shadow);
    const { transactions } = fed.t.services.platform;
    const remoteComments = new RemoteCommentsService({
      transactions,
      repository: new RemoteCommentsRepository(transactions),
      comments: fed.t.services.areas.comments.comments,
      clock: fed.t.clock,
    });
    const note = `${fed.remote.origin}/users/ana/statuses/${nextStatus()}`;
    const made = await Promise.all(
      [1, 2, 3].map(() => remoteComments.receive(shadow.userId, note, { mediaId: photo.id }, 'Same note')),
    );
    assert.equal(made.filter((id) => id !== null).length, 1);
    assert.equal((await comments(photo.id)).length, 1);
    assert.equal((await readMediaRow(fed.t, photo.id)).commentsCount, 1);
  });

  it('edits the comment on Update(Note), and removes it on Delete, for good', async () => {
    const photo = await createMediaRow(fed.t, carol.id);
    // The status of mastodon-delete-note.
    const values = replyTo(postUri(photo.id), '113254109811046205');
    await send(fed.ana, 'mastodon-reply-note', values);
    await send(fed.ana, 'mastodon-update-note', values);
    const [edited] = await comments(photo.id);
    assert.equal(edited?.attributes.body, 'What a light over the Tagus! (edited: it was the Douro)');
    assert.notEqual(edited?.attributes.editedAt, null);

    // Another actor can neither edit nor delete it.
    await sendEdited(fed.bea, 'mastodon-delete-note', {}, (activity) => {
      activity.actor = fed.bea.id;
    });
    assert.equal((await comments(photo.id)).length, 1);

    await send(fed.ana, 'mastodon-delete-note', {});
    assert.deepEqual(await comments(photo.id), []);
    assert.equal((await readMediaRow(fed.t, photo.id)).commentsCount, 0);
    // A Note deleted does not come back when delivered again.
    await sendEdited(fed.ana, 'mastodon-reply-note', values, (create) => {
      create.id = `${create.id}-replayed`;
    });
    assert.deepEqual(await comments(photo.id), []);
  });

  it('takes a Pixelfed reply, and a reply to it from Mastodon as a reply in the thread', async () => {
    const photo = await createMediaRow(fed.t, carol.id);
    const pixelfedStatus = nextStatus();
    await send(fed.bea, 'pixelfed-reply-note', replyTo(postUri(photo.id), pixelfedStatus));
    const [top] = await comments(photo.id);
    assert.ok(top);
    assert.equal(top.author, fed.handleOf(fed.bea));
    assert.equal(top.attributes.body, '@carol Gorgeous colours, was this at sunrise?');
    assert.deepEqual(top.attributes.mentions, [{ id: carol.id, username: 'carol' }]);

    const pixelfedNote = `${fed.remote.origin}/p/bea/${pixelfedStatus}`;
    await send(fed.ana, 'mastodon-reply-note', replyTo(pixelfedNote, nextStatus()));
    const replies = await fed.t.request({ method: 'GET', url: `/api/media/comments/${top.id}/replies` });
    assert.equal(replies.statusCode, 200, replies.body);
    assert.equal(replies.json.data.length, 1);
    assert.equal(replies.json.data[0].attributes.depth, 1);
    assert.equal(replies.json.data[0].relationships.parent.data.id, top.id);
    assert.equal((await readMediaRow(fed.t, photo.id)).commentsCount, 2);
  });

  it('changes nothing for a blocked actor, a post not there for the actor, or a reply that is not public', async () => {
    const photo = await createMediaRow(fed.t, carol.id);
    const draft = await createMediaRow(fed.t, carol.id, { published: false });
    await send(fed.ana, 'mastodon-reply-note', replyTo(postUri(draft.id), nextStatus()));
    await send(fed.ana, 'mastodon-reply-note', replyTo(postUri(crypto.randomUUID()), nextStatus()));
    // A direct (mentioned-only) reply: a comment is public here.
    await sendEdited(fed.ana, 'mastodon-reply-note', replyTo(postUri(photo.id), nextStatus()), (create) => {
      for (const activity of [create, create.object]) {
        activity.to = [`${publicUrl}/ap/users/${carol.id}`];
        activity.cc = [];
      }
    });
    assert.deepEqual(await comments(photo.id), []);
    assert.deepEqual(await comments(draft.id).catch(() => []), []);

    const shadow = await fed.t.services.areas.federation.federation?.remoteActor(fed.bea.id);
    assert.ok(shadow);
    const block = await fed.t.request({
      method: 'PUT',
      url: `/api/users/me/blocks/${shadow.userId}`,
      token: carol.token,
    });
    assert.ok(block.statusCode < 300, block.body);
    await send(fed.bea, 'pixelfed-reply-note', replyTo(postUri(photo.id), nextStatus()));
    assert.deepEqual(await comments(photo.id), []);
    assert.equal((await readMediaRow(fed.t, photo.id)).commentsCount, 0);
  });

  it('changes nothing for an actor an operator banned, whose earlier replies leave the thread', async () => {
    const cem = await fed.remote.addActor('mastodon-actor', 'cem');
    const photo = await createMediaRow(fed.t, carol.id);
    const first = replyTo(postUri(photo.id), nextStatus());
    await send(cem, 'mastodon-reply-note', first);
    assert.equal((await comments(photo.id)).length, 1);
    const shadow = await fed.t.services.areas.federation.federation?.remoteActor(cem.id);
    assert.ok(shadow);
    const ban = await fed.t.request({
      method: 'PUT',
      url: `/admin/users/${shadow.userId}/ban`,
      token: adminToken,
      body: { reason: 'spam from the fediverse' },
    });
    assert.equal(ban.statusCode, 200, ban.body);
    await send(cem, 'mastodon-reply-note', replyTo(postUri(photo.id), nextStatus()));
    // Nor does its Update edit the reply it made before (seen again once the ban is lifted).
    await send(cem, 'mastodon-update-note', first);
    assert.deepEqual(await comments(photo.id), []);
    assert.equal((await readMediaRow(fed.t, photo.id)).commentsCount, 0);
    const unban = await fed.t.request({ method: 'PUT', url: `/admin/users/${shadow.userId}/unban`, token: adminToken });
    assert.equal(unban.statusCode, 200, unban.body);
    const [kept, ...more] = await comments(photo.id);
    assert.equal(more.length, 0);
    assert.equal(kept?.attributes.editedAt, null, 'not edited while banned');
  });

  it("meets the owner's keyword filters and mutes as a local comment does", async () => {
    const photo = await createMediaRow(fed.t, carol.id);
    await send(fed.ana, 'mastodon-reply-note', replyTo(postUri(photo.id), nextStatus()));
    const asCarol = () => fed.t.request({ method: 'GET', url: `/api/media/${photo.id}/comments`, token: carol.token });
    assert.equal((await asCarol()).json.data.length, 1);

    const filter = await fed.t.request({
      method: 'POST',
      url: '/api/users/me/filters',
      token: carol.token,
      body: { title: 'rivers', context: ['comments'], action: 'hide', keywords: [{ keyword: 'tagus' }] },
    });
    assert.equal(filter.statusCode, 201, filter.body);
    assert.deepEqual((await asCarol()).json.data, []);
    assert.equal((await comments(photo.id)).length, 1, 'others still see it');
    const removed = await fed.t.request({
      method: 'DELETE',
      url: `/api/users/me/filters/${filter.json.data.id}`,
      token: carol.token,
    });
    assert.equal(removed.statusCode, 204, removed.body);

    const shadow = await fed.t.services.areas.federation.federation?.remoteActor(fed.ana.id);
    assert.ok(shadow);
    const mute = await fed.t.request({
      method: 'PUT',
      url: `/api/users/me/mutes/${shadow.userId}`,
      token: carol.token,
      body: {},
    });
    assert.equal(mute.statusCode, 200, mute.body);
    const [muted] = (await asCarol()).json.data;
    assert.equal(muted?.attributes.deleted, true, "a muted author's comment is a placeholder to the owner");
    assert.equal(muted?.attributes.body, null);
    await fed.t.request({ method: 'DELETE', url: `/api/users/me/mutes/${shadow.userId}`, token: carol.token });
  });

  it('never renders markup of a remote reply: the API has its text, the post page none of its HTML', async () => {
    const photo = await createMediaRow(fed.t, carol.id);
    await sendEdited(fed.ana, 'mastodon-reply-note', replyTo(postUri(photo.id), nextStatus()), (create) => {
      create.object.content =
        '<p>Nice<script>alert("x")</script> <img src=x onerror="alert(1)"><b>shot</b> &lt;i&gt;really&lt;/i&gt;</p>';
      create.object.contentMap = { en: create.object.content };
    });
    const [comment] = await comments(photo.id);
    assert.equal(comment?.attributes.body, 'Nice shot <i>really</i>');
    const page = await fed.t.request({ method: 'GET', url: `/posts/${photo.id}` });
    assert.equal(page.statusCode, 200);
    assert.doesNotMatch(page.body, /<script>alert|onerror|<i>really/);
  });

  it("ignores a silenced domain's reply to the post of a user who does not follow the actor", async () => {
    const photo = await createMediaRow(fed.t, carol.id);
    const admin = (method: 'POST' | 'DELETE', url: string, body?: object) =>
      fed.t.request({ method, url, token: adminToken, ...(body ? { body } : {}) });
    const silenced = await admin('POST', '/admin/federation/domain-blocks', {
      domain: '127.0.0.1',
      severity: 'silence',
    });
    assert.equal(silenced.statusCode, 201, silenced.body);
    try {
      await send(fed.ana, 'mastodon-reply-note', replyTo(postUri(photo.id), nextStatus()));
      assert.deepEqual(await comments(photo.id), []);
    } finally {
      assert.equal((await admin('DELETE', '/admin/federation/domain-blocks/127.0.0.1')).statusCode, 204);
    }
    await send(fed.ana, 'mastodon-reply-note', replyTo(postUri(photo.id), nextStatus()));
    assert.equal((await comments(photo.id)).length, 1, 'the silence lifted, the reply is a comment');
  });
});
