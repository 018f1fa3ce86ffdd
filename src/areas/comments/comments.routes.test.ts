import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { createMediaRow, readMediaRow } from '../../../test/helpers/media-factory.ts';

const commentsUrl = (mediaId: string) => `/api/media/${mediaId}/comments`;
const commentUrl = (commentId: string) => `/api/media/comments/${commentId}`;

describe('comments', () => {
  let t: TestApp;
  let owner: TestUser;
  let alice: TestUser;
  let bob: TestUser;

  const post = (user: TestUser, mediaId: string, body: unknown) =>
    t.request({ method: 'POST', url: commentsUrl(mediaId), token: user.token, body });
  /** Posts a comment and returns its id (one millisecond later than the previous, for a stable order). */
  const comment = async (user: TestUser, mediaId: string, text: string, parentId?: string) => {
    t.clock.advance(1000);
    const res = await post(user, mediaId, parentId === undefined ? { body: text } : { body: text, parentId });
    assert.equal(res.statusCode, 201, res.body);
    return res.json.data.id as string;
  };
  const ids = (res: { json: any }) => res.json.data.map((item: any) => item.id);
  const listed = (res: { json: any }, id: string) => res.json.data.find((item: any) => item.id === id);

  before(async () => {
    t = await createTestApp();
    owner = await createUser(t);
    alice = await createUser(t);
    bob = await createUser(t);
  });
  after(() => t.close());

  it('comments a media with mentions and hashtags, shown with their authors, and counts it', async () => {
    const photo = await createMediaRow(t, owner.id);
    const created = await post(alice, photo.id.replaceAll('-', ''), {
      body: `  What a view @${bob.username.toUpperCase()} and @nobody_here! #Sunset #porto  `,
    });
    assert.equal(created.statusCode, 201);
    const data = created.json.data;
    assert.equal(data.type, 'comments');
    assert.equal(data.attributes.body, `What a view @${bob.username.toUpperCase()} and @nobody_here! #Sunset #porto`);
    assert.equal(data.attributes.deleted, false);
    assert.equal(data.attributes.placeholder, null);
    assert.equal(data.attributes.depth, 0);
    assert.equal(data.attributes.repliesCount, 0);
    assert.deepEqual(data.attributes.mentions, [{ id: bob.id, username: bob.username }]);
    assert.deepEqual(data.attributes.hashtags, ['sunset', 'porto']);
    assert.equal(data.attributes.createdAt, t.clock.now().toISOString().replace('Z', '+00:00'));
    assert.equal(data.attributes.editedAt, null);
    assert.deepEqual(data.relationships.media.data, { type: 'media', id: photo.id });
    assert.deepEqual(data.relationships.author.data, { type: 'users', id: alice.id });
    assert.equal(data.relationships.parent.data, null);
    assert.equal(created.json.included[0].id, alice.id);
    assert.equal(created.json.included[0].attributes.username, alice.username);
    assert.equal((await readMediaRow(t, photo.id)).commentsCount, 1);

    const list = await t.request({ method: 'GET', url: commentsUrl(photo.id) });
    assert.equal(list.statusCode, 200);
    assert.deepEqual(ids(list), [data.id]);
    assert.equal(list.json.meta.limit, 20);
    assert.deepEqual(
      list.json.included.map((user: any) => user.id),
      [alice.id],
    );
  });

  it('lists top-level comments oldest first in keyset pages, each with its repliesCount', async () => {
    const photo = await createMediaRow(t, owner.id);
    const first = await comment(alice, photo.id, 'first');
    const second = await comment(bob, photo.id, 'second');
    const third = await comment(alice, photo.id, 'third');
    await comment(bob, photo.id, 'a reply', first);
    await comment(owner, photo.id, 'another reply', first);

    const page1 = await t.request({ method: 'GET', url: `${commentsUrl(photo.id)}?limit=2` });
    assert.deepEqual(ids(page1), [first, second]);
    assert.equal(listed(page1, first).attributes.repliesCount, 2);
    assert.equal(listed(page1, second).attributes.repliesCount, 0);
    assert.equal(page1.json.links.prev, null);
    const next = new URL(page1.json.links.next).search;
    const page2 = await t.request({ method: 'GET', url: `${commentsUrl(photo.id)}${next}` });
    assert.deepEqual(ids(page2), [third]);
    assert.equal(page2.json.links.next, null);
    const back = new URL(page2.json.links.prev).search;
    assert.deepEqual(ids(await t.request({ method: 'GET', url: `${commentsUrl(photo.id)}${back}` })), [first, second]);
    assert.equal((await readMediaRow(t, photo.id)).commentsCount, 5);

    const bad = await t.request({ method: 'GET', url: `${commentsUrl(photo.id)}?cursor=nope` });
    assert.equal(bad.statusCode, 400);
    const tooMany = await t.request({ method: 'GET', url: `${commentsUrl(photo.id)}?limit=101` });
    assert.equal(tooMany.statusCode, 400);
  });

  it('keeps threads three levels deep: a reply to a reply to a reply joins its parent', async () => {
    const photo = await createMediaRow(t, owner.id);
    const root = await comment(alice, photo.id, 'root');
    const reply = await comment(bob, photo.id, 'reply', root);
    const deep = await comment(alice, photo.id, 'reply to reply', reply);
    t.clock.advance(1000);
    const deeper = await post(bob, photo.id, { body: 'and again', parentId: deep });
    assert.equal(deeper.statusCode, 201);
    assert.equal(deeper.json.data.attributes.depth, 2);
    assert.deepEqual(deeper.json.data.relationships.parent.data, { type: 'comments', id: reply });
    assert.deepEqual(deeper.json.data.relationships.root.data, { type: 'comments', id: root });
    const other = await comment(owner, photo.id, 'second reply', root);
    const otherDeep = await comment(alice, photo.id, 'under the second', other);

    const replies = await t.request({ method: 'GET', url: `${commentUrl(root)}/replies` });
    assert.equal(replies.statusCode, 200);
    assert.deepEqual(ids(replies), [reply, other]);
    assert.equal(listed(replies, reply).attributes.repliesCount, 2);
    const deepReplies = await t.request({ method: 'GET', url: `${commentUrl(reply)}/replies?limit=1` });
    assert.deepEqual(ids(deepReplies), [deep]);
    assert.notEqual(deepReplies.json.links.next, null);

    // The thread from any of its comments: root, then each reply followed by its own replies.
    for (const from of [root, deep, otherDeep]) {
      const thread = await t.request({ method: 'GET', url: `${commentUrl(from)}/thread` });
      assert.equal(thread.statusCode, 200);
      assert.deepEqual(ids(thread), [root, reply, deep, deeper.json.data.id, other, otherDeep]);
      assert.deepEqual(thread.json.meta, { truncated: false, cap: 500 });
    }
  });

  it('caps a thread at 500 comments in reading order and says it is truncated', async () => {
    const photo = await createMediaRow(t, owner.id);
    const root = await comment(alice, photo.id, 'a popular question');
    // 520 replies written straight into the table (the API would take minutes).
    await t.deps.database.db.execute(sql`
      INSERT INTO comments (id, media_id, author_id, parent_id, root_id, depth, body, created_at)
      SELECT gen_random_uuid(), ${photo.id}, ${bob.id}, ${root}, ${root}, 1, 'answer ' || n,
             ${t.clock.now().toISOString()}::timestamptz + n * interval '1 second'
      FROM generate_series(1, 520) AS n`);
    const thread = await t.request({ method: 'GET', url: `${commentUrl(root)}/thread` });
    assert.equal(thread.statusCode, 200);
    assert.equal(thread.json.data.length, 500);
    assert.deepEqual(thread.json.meta, { truncated: true, cap: 500 });
    assert.equal(thread.json.data[0].id, root);
    assert.equal(thread.json.data[1].attributes.body, 'answer 1');
    assert.equal(thread.json.data[499].attributes.body, 'answer 499');
    const rest = await t.request({ method: 'GET', url: `${commentUrl(root)}/replies?limit=100` });
    assert.equal(rest.json.data.length, 100);
    const list = await t.request({ method: 'GET', url: commentsUrl(photo.id) });
    assert.equal(list.json.data[0].attributes.repliesCount, 520);
  });

  it('refuses bad input with the right status and writes nothing', async () => {
    const photo = await createMediaRow(t, owner.id);
    const elsewhere = await createMediaRow(t, owner.id);
    const foreign = await comment(alice, elsewhere.id, 'on another photo');
    const cases: Array<[unknown, number, string, string]> = [
      [{ body: '' }, 422, 'validationFailed', '/body'],
      [{ body: '   \n ' }, 422, 'validationFailed', '/body'],
      [{ body: 'x'.repeat(100_000) }, 422, 'validationFailed', '/body'],
      [{ body: `  ${'é'.repeat(2001)}  ` }, 422, 'validationFailed', '/body'],
      [{}, 422, 'validationFailed', '/body'],
      [{ body: 42 }, 422, 'validationFailed', '/body'],
      [{ body: 'hi', extra: true }, 422, 'validationFailed', ''],
      [{ body: 'hi', parentId: 'not-an-id' }, 422, 'validationFailed', '/parentId'],
      [{ body: 'hi', parentId: foreign }, 422, 'invalidParentComment', '/parentId'],
      [{ body: 'hi', parentId: randomUUID() }, 422, 'invalidParentComment', '/parentId'],
    ];
    for (const [body, status, code, pointer] of cases) {
      const res = await post(alice, photo.id, body);
      assert.equal(res.statusCode, status, JSON.stringify(body).slice(0, 80));
      assert.equal(res.json.errors[0].code, code);
      if (pointer !== '') assert.equal(res.json.errors[0].source.pointer, pointer);
    }
    const longest = await post(alice, photo.id, { body: 'é'.repeat(2000) });
    assert.equal(longest.statusCode, 201);

    const parent = await comment(bob, photo.id, 'soon gone');
    assert.equal((await t.request({ method: 'DELETE', url: commentUrl(parent), token: bob.token })).statusCode, 204);
    for (const spelling of [parent.toUpperCase(), parent.replaceAll('-', '')]) {
      const misspelt = await post(alice, photo.id, { body: 'hello?', parentId: spelling });
      assert.equal(misspelt.statusCode, 422, spelling);
      assert.equal(misspelt.json.errors[0].code, 'validationFailed');
      assert.equal(misspelt.json.errors[0].source.pointer, '/parentId');
    }
    const toDeleted = await post(alice, photo.id, { body: 'hello?', parentId: parent });
    assert.equal(toDeleted.statusCode, 422);
    assert.equal(toDeleted.json.errors[0].code, 'parentCommentDeleted');

    const unknown = await post(alice, randomUUID(), { body: 'hi' });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json.errors[0].source.parameter, 'mediaId');
    const invalid = await post(alice, 'not-a-media', { body: 'hi' });
    assert.equal(invalid.statusCode, 422);
    assert.equal(invalid.json.errors[0].code, 'invalidId');
    const anonymous = await t.request({ method: 'POST', url: commentsUrl(photo.id), body: { body: 'hi' } });
    assert.equal(anonymous.statusCode, 401);
    assert.match(anonymous.headers['www-authenticate'] as string, /^Bearer/);
    const badToken = await t.request({
      method: 'POST',
      url: commentsUrl(photo.id),
      token: 'forged',
      body: { body: 'hi' },
    });
    assert.equal(badToken.statusCode, 401);
    const malformed = await t.request({
      method: 'POST',
      url: commentsUrl(photo.id),
      token: alice.token,
      payload: '{"body":',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(malformed.statusCode, 400);

    // Only the valid comment and the deleted one were written.
    assert.equal((await readMediaRow(t, photo.id)).commentsCount, 1);
    const list = await t.request({ method: 'GET', url: commentsUrl(photo.id) });
    assert.deepEqual(ids(list), [longest.json.data.id]);

    for (const [method, url] of [
      ['GET', '/api/media/not-a-media/comments'],
      ['GET', `${commentUrl('nope')}/thread`],
      ['GET', `${commentUrl('nope')}/replies`],
      ['PATCH', commentUrl('nope')],
      ['DELETE', commentUrl('nope')],
      ['GET', `${commentUrl(parent.replaceAll('-', ''))}/thread`],
      // Ids are lowercase: a comment's id in upper case names no comment (as every id but users' and media's).
      ['GET', `${commentUrl(parent.toUpperCase())}/thread`],
      ['GET', `${commentUrl(parent.toUpperCase())}/replies`],
      ['PATCH', commentUrl(longest.json.data.id.toUpperCase())],
      ['DELETE', commentUrl(longest.json.data.id.toUpperCase())],
    ] as const) {
      const res = await t.request({
        method,
        url,
        token: alice.token,
        body: method === 'PATCH' ? { body: 'x' } : undefined,
      });
      assert.equal(res.statusCode, 422, `${method} ${url}`);
      assert.equal(res.json.errors[0].code, 'invalidId');
    }
    for (const [method, url] of [
      ['GET', commentsUrl(randomUUID())],
      ['GET', `${commentUrl(randomUUID())}/thread`],
      ['GET', `${commentUrl(randomUUID())}/replies`],
      ['PATCH', commentUrl(randomUUID())],
      ['DELETE', commentUrl(randomUUID())],
    ] as const) {
      const res = await t.request({
        method,
        url,
        token: alice.token,
        body: method === 'PATCH' ? { body: 'x' } : undefined,
      });
      assert.equal(res.statusCode, 404, `${method} ${url}`);
    }
    for (const [method, url] of [
      ['PATCH', commentUrl(parent)],
      ['DELETE', commentUrl(parent)],
    ] as const) {
      const res = await t.request({ method, url, body: method === 'PATCH' ? { body: 'x' } : undefined });
      assert.equal(res.statusCode, 401, `${method} ${url}`);
    }
  });

  it('lets the author edit: editedAt set, mentions and hashtags read again; anyone else gets 404', async () => {
    const photo = await createMediaRow(t, owner.id);
    const id = await comment(alice, photo.id, `Thanks @${bob.username} #blue`);
    t.clock.advance(60_000);
    const edited = await t.request({
      method: 'PATCH',
      url: commentUrl(id),
      token: alice.token,
      body: { body: ` Thanks @${owner.username} #Green ` },
    });
    assert.equal(edited.statusCode, 200);
    assert.equal(edited.json.data.attributes.body, `Thanks @${owner.username} #Green`);
    assert.deepEqual(edited.json.data.attributes.mentions, [{ id: owner.id, username: owner.username }]);
    assert.deepEqual(edited.json.data.attributes.hashtags, ['green']);
    assert.equal(edited.json.data.attributes.editedAt, t.clock.now().toISOString().replace('Z', '+00:00'));
    assert.notEqual(edited.json.data.attributes.editedAt, edited.json.data.attributes.createdAt);

    for (const user of [bob, owner]) {
      const res = await t.request({
        method: 'PATCH',
        url: commentUrl(id),
        token: user.token,
        body: { body: 'mine now' },
      });
      assert.equal(res.statusCode, 404);
    }
    const empty = await t.request({ method: 'PATCH', url: commentUrl(id), token: alice.token, body: { body: ' ' } });
    assert.equal(empty.statusCode, 422);
    const huge = await t.request({
      method: 'PATCH',
      url: commentUrl(id),
      token: alice.token,
      body: { body: 'x'.repeat(100_000) },
    });
    assert.equal(huge.statusCode, 422);
    const list = await t.request({ method: 'GET', url: commentsUrl(photo.id) });
    assert.equal(listed(list, id).attributes.body, `Thanks @${owner.username} #Green`);

    assert.equal((await t.request({ method: 'DELETE', url: commentUrl(id), token: alice.token })).statusCode, 204);
    const afterDelete = await t.request({
      method: 'PATCH',
      url: commentUrl(id),
      token: alice.token,
      body: { body: 'back' },
    });
    assert.equal(afterDelete.statusCode, 404);
  });

  it('deletes as a placeholder kept while replies hang under it; the author or the media owner may', async () => {
    const photo = await createMediaRow(t, owner.id);
    const root = await comment(alice, photo.id, 'root by alice');
    const reply = await comment(bob, photo.id, 'reply by bob', root);
    const lonely = await comment(bob, photo.id, 'nobody answers this');
    assert.equal((await readMediaRow(t, photo.id)).commentsCount, 3);

    const stranger = await t.request({ method: 'DELETE', url: commentUrl(root), token: bob.token });
    assert.equal(stranger.statusCode, 404);
    const removed = await t.request({ method: 'DELETE', url: commentUrl(root), token: alice.token });
    assert.equal(removed.statusCode, 204);
    assert.equal(removed.body, '');
    assert.equal((await readMediaRow(t, photo.id)).commentsCount, 2);
    const again = await t.request({ method: 'DELETE', url: commentUrl(root), token: alice.token });
    assert.equal(again.statusCode, 404);

    const list = await t.request({
      method: 'GET',
      url: commentsUrl(photo.id),
      headers: { 'accept-language': 'fr-FR' },
    });
    assert.deepEqual(ids(list), [root, lonely]);
    const placeholder = listed(list, root);
    assert.equal(placeholder.attributes.deleted, true);
    assert.equal(placeholder.attributes.body, null);
    assert.equal(placeholder.attributes.placeholder, 'Ce commentaire n’est plus disponible.');
    assert.equal(placeholder.attributes.repliesCount, 1);
    assert.deepEqual(placeholder.attributes.mentions, []);
    assert.equal(placeholder.relationships.author.data, null);
    assert.ok(!list.json.included.some((user: any) => user.id === alice.id), 'no author for a placeholder');
    const thread = await t.request({ method: 'GET', url: `${commentUrl(reply)}/thread` });
    assert.deepEqual(ids(thread), [root, reply]);

    // The media owner deletes someone else's comment; a placeholder with no reply left is left out.
    assert.equal((await t.request({ method: 'DELETE', url: commentUrl(reply), token: owner.token })).statusCode, 204);
    assert.equal((await t.request({ method: 'DELETE', url: commentUrl(lonely), token: bob.token })).statusCode, 204);
    assert.equal((await readMediaRow(t, photo.id)).commentsCount, 0);
    assert.deepEqual(ids(await t.request({ method: 'GET', url: commentsUrl(photo.id) })), []);
    const gone = await t.request({ method: 'GET', url: `${commentUrl(root)}/thread` });
    assert.equal(gone.statusCode, 404);
    assert.equal((await t.request({ method: 'GET', url: `${commentUrl(root)}/replies` })).statusCode, 404);
  });

  it('answers 404 everywhere for media the viewer may not see; the owner reads and writes on their own', async () => {
    const draft = await createMediaRow(t, owner.id, { published: false });
    const hidden = await createMediaRow(t, owner.id, { flag: 2 });
    const own = await comment(owner, draft.id, 'note to self');
    const ownHidden = await comment(owner, hidden.id, 'still mine');
    const ownList = await t.request({ method: 'GET', url: commentsUrl(draft.id), token: owner.token });
    assert.equal(ownList.statusCode, 200);
    assert.deepEqual(ids(ownList), [own]);

    for (const [mediaId, commentId] of [
      [draft.id, own],
      [hidden.id, ownHidden],
    ] as const) {
      for (const token of [undefined, alice.token]) {
        assert.equal((await t.request({ method: 'GET', url: commentsUrl(mediaId), token })).statusCode, 404);
        assert.equal(
          (await t.request({ method: 'GET', url: `${commentUrl(commentId)}/thread`, token })).statusCode,
          404,
        );
        assert.equal(
          (await t.request({ method: 'GET', url: `${commentUrl(commentId)}/replies`, token })).statusCode,
          404,
        );
      }
      assert.equal((await post(alice, mediaId, { body: 'let me in' })).statusCode, 404);
      assert.equal((await post(alice, mediaId, { body: 'let me in', parentId: commentId })).statusCode, 404);
    }
    const avatar = await createMediaRow(t, owner.id, { kind: 'avatar' });
    assert.equal((await post(alice, avatar.id, { body: 'nice face' })).statusCode, 404);
  });

  it('rewards the author with experience (not on their own media) and storyteller progress', async () => {
    const writer = await createUser(t);
    const photo = await createMediaRow(t, owner.id);
    const mine = await createMediaRow(t, writer.id);
    const experience = async () =>
      (await t.request({ method: 'GET', url: '/api/auth/me', token: writer.token })).json.data.attributes
        .experience as number;
    const storyteller = async () =>
      (await t.request({ method: 'GET', url: `/api/users/${writer.id}/badges` })).json.data.find(
        (badge: any) => badge.attributes.slug === 'storyteller',
      );
    const start = await experience();
    // On one's own media: no experience for the comment, but the first comment reaches storyteller 1 (10 xp).
    await comment(writer, mine.id, 'my own photo');
    assert.equal(await experience(), start + 10);
    assert.equal((await storyteller()).attributes.level, 1);
    await comment(writer, photo.id, 'lovely');
    assert.equal(await experience(), start + 11);
    assert.equal((await storyteller()).attributes.nextThreshold, 10);
  });
});
