import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { createMediaRow, readMediaRow, updateMediaRow } from '../../../test/helpers/media-factory.ts';
import type { DomainEvents } from '../../platform/events/domain-events.ts';
import { CommentsStatsRepository } from './comments-stats.repository.ts';

const commentsUrl = (mediaId: string) => `/api/media/${mediaId}/comments`;
const commentUrl = (commentId: string) => `/api/media/comments/${commentId}`;

describe('comments: bans, erasure and moderation', () => {
  let t: TestApp;
  let owner: TestUser;
  let alice: TestUser;

  const comment = async (user: TestUser, mediaId: string, text: string, parentId?: string) => {
    t.clock.advance(1000);
    const res = await t.request({
      method: 'POST',
      url: commentsUrl(mediaId),
      token: user.token,
      body: parentId === undefined ? { body: text } : { body: text, parentId },
    });
    assert.equal(res.statusCode, 201, res.body);
    return res.json.data.id as string;
  };
  const ids = (res: { json: any }) => res.json.data.map((item: any) => item.id);
  const list = (mediaId: string) => t.request({ method: 'GET', url: commentsUrl(mediaId) });
  const publish = <N extends 'user.banned' | 'user.unbanned' | 'user.anonymized'>(event: N, payload: DomainEvents[N]) =>
    t.services.platform.transactions.run(() => t.services.platform.events.publish(event, payload));
  const comments = () => t.services.areas.comments.comments;

  before(async () => {
    t = await createTestApp();
    owner = await createUser(t);
    alice = await createUser(t);
  });
  after(() => t.close());

  it("takes a banned author's comments out of public threads and brings them back on unban", async () => {
    const troll = await createUser(t);
    const photo = await createMediaRow(t, owner.id);
    const other = await createMediaRow(t, owner.id);
    const answered = await comment(troll, photo.id, 'first!');
    const reply = await comment(alice, photo.id, 'please stop', answered);
    const alone = await comment(troll, photo.id, 'spam');
    await comment(troll, other.id, 'more spam');
    const deleted = await comment(troll, other.id, 'deleted before the ban');
    await t.request({ method: 'DELETE', url: commentUrl(deleted), token: troll.token });
    assert.equal((await readMediaRow(t, photo.id)).commentsCount, 3);
    assert.equal((await readMediaRow(t, other.id)).commentsCount, 1);

    await publish('user.banned', { userId: troll.id });
    assert.equal((await readMediaRow(t, photo.id)).commentsCount, 1);
    assert.equal((await readMediaRow(t, other.id)).commentsCount, 0);
    const hidden = await list(photo.id);
    assert.deepEqual(ids(hidden), [answered], 'the lone comment leaves; the answered one stays as a placeholder');
    assert.equal(hidden.json.data[0].attributes.deleted, true);
    assert.equal(hidden.json.data[0].attributes.body, null);
    assert.equal(hidden.json.data[0].relationships.author.data, null);
    assert.deepEqual(hidden.json.included, []);
    assert.deepEqual(ids(await list(other.id)), []);
    assert.equal((await t.request({ method: 'GET', url: `${commentUrl(alone)}/thread` })).statusCode, 404);
    const replyToHidden = await t.request({
      method: 'POST',
      url: commentsUrl(photo.id),
      token: alice.token,
      body: { body: 'hello?', parentId: alone },
    });
    assert.equal(replyToHidden.statusCode, 422);
    assert.equal(await comments().findReportable(alone, alice.id), null);
    assert.equal((await comments().findForModeration(alone))?.authorBanned, true);

    await publish('user.unbanned', { userId: troll.id });
    assert.equal((await readMediaRow(t, photo.id)).commentsCount, 3);
    assert.equal((await readMediaRow(t, other.id)).commentsCount, 1);
    const back = await list(photo.id);
    assert.deepEqual(ids(back), [answered, alone]);
    assert.equal(back.json.data[0].attributes.body, 'first!');
    const thread = await t.request({ method: 'GET', url: `${commentUrl(reply)}/thread` });
    assert.deepEqual(ids(thread), [answered, reply]);
  });

  it('follows the real ban route: comments leave and come back, counts move', async () => {
    const troll = await createUser(t);
    const photo = await createMediaRow(t, owner.id);
    const id = await comment(troll, photo.id, 'visible until the ban');
    const ban = await t.request({
      method: 'PUT',
      url: `/admin/users/${troll.hex}/ban`,
      token: adminToken,
      body: { reason: 'spam in comments' },
    });
    assert.equal(ban.statusCode, 200, ban.body);
    assert.deepEqual(ids(await list(photo.id)), []);
    assert.equal((await readMediaRow(t, photo.id)).commentsCount, 0);
    const refused = await t.request({
      method: 'POST',
      url: commentsUrl(photo.id),
      token: troll.token,
      body: { body: 'x' },
    });
    assert.equal(refused.statusCode, 401, 'the ban ended the sessions');
    const unban = await t.request({ method: 'PUT', url: `/admin/users/${troll.hex}/unban`, token: adminToken });
    assert.equal(unban.statusCode, 200, unban.body);
    assert.deepEqual(ids(await list(photo.id)), [id]);
    assert.equal((await readMediaRow(t, photo.id)).commentsCount, 1);
  });

  it('erases an anonymized author: placeholders, counts, and mentions renamed everywhere', async () => {
    const leaving = await createUser(t);
    const photo = await createMediaRow(t, owner.id);
    const theirs = await comment(leaving, photo.id, `bye #travel @${alice.username}`);
    const answer = await comment(
      alice,
      photo.id,
      `@${leaving.username.toUpperCase()} see you, @${leaving.username}x!`,
      theirs,
    );
    const alone = await comment(leaving, photo.id, 'nobody replied');
    assert.equal((await readMediaRow(t, photo.id)).commentsCount, 3);

    const anonymous = `deleted_${randomUUID().slice(0, 8)}`;
    await publish('user.anonymized', { userId: leaving.id, formerUsername: leaving.username, username: anonymous });
    assert.equal((await readMediaRow(t, photo.id)).commentsCount, 1);
    const thread = await t.request({ method: 'GET', url: `${commentUrl(answer)}/thread` });
    assert.deepEqual(ids(thread), [theirs, answer]);
    assert.equal(thread.json.data[0].attributes.deleted, true);
    assert.equal(thread.json.data[0].attributes.body, null);
    assert.equal(thread.json.data[1].attributes.body, `@${anonymous} see you, @${leaving.username}x!`);
    const moderated = await comments().findForModeration(alone);
    assert.equal(moderated?.deleted, true);
    assert.equal(moderated?.body, null);
  });

  it('serves the reports area: reportable, moderation view, removal and stats', async () => {
    const photo = await createMediaRow(t, owner.id);
    const draft = await createMediaRow(t, owner.id);
    const id = await comment(alice, photo.id, 'report me');
    const onDraft = await comment(alice, draft.id, 'on a draft');
    await updateMediaRow(t, draft.id, { published: false });

    assert.deepEqual(await comments().findReportable(id, owner.id), { id, mediaId: photo.id, authorId: alice.id });
    assert.equal(await comments().findReportable(randomUUID(), owner.id), null);
    assert.equal(await comments().findReportable('not-a-uuid', owner.id), null);
    assert.equal(await comments().findReportable(onDraft, alice.id), null, 'the draft is not visible to its commenter');
    assert.notEqual(await comments().findReportable(onDraft, owner.id), null);
    assert.equal(await comments().findForModeration(randomUUID()), null);

    const commentStats = new CommentsStatsRepository(t.services.platform.transactions);
    const windows = (day: Date, week: Date, month: Date) => ({ now: t.clock.now(), day, week, month });
    const before = await commentStats.comments(
      windows(
        new Date(t.clock.now().getTime() - 86_400_000),
        new Date(t.clock.now().getTime() - 7 * 86_400_000),
        new Date(t.clock.now().getTime() - 30 * 86_400_000),
      ),
    );
    assert.ok(before.total >= 2 && before.day >= 2 && before.week >= before.day && before.month >= before.week);
    const future = new Date(t.clock.now().getTime() + 1);
    assert.deepEqual(await commentStats.comments(windows(future, future, future)), {
      total: before.total,
      day: 0,
      week: 0,
      month: 0,
    });

    assert.equal(await t.services.platform.transactions.run(() => comments().removeAsModerator(id)), true);
    assert.equal(await comments().removeAsModerator(id), false);
    assert.equal(await comments().removeAsModerator(randomUUID()), false);
    assert.equal((await readMediaRow(t, photo.id)).commentsCount, 0);
    const view = await comments().findForModeration(id);
    assert.equal(view?.deleted, true);
    assert.equal(view?.authorId, alice.id);
    assert.equal(await comments().findReportable(id, owner.id), null);
    assert.deepEqual(ids(await list(photo.id)), []);
  });

  it('keeps commentsCount exact under 50 parallel comments and deletes', async () => {
    const photo = await createMediaRow(t, owner.id);
    const writers = await Promise.all(Array.from({ length: 5 }, () => createUser(t)));
    const existing: Array<{ id: string; user: TestUser }> = [];
    for (let i = 0; i < 25; i++) {
      const user = writers[i % writers.length]!;
      existing.push({ id: await comment(user, photo.id, `existing ${i}`), user });
    }
    const results = await Promise.all([
      ...Array.from({ length: 25 }, (_, i) =>
        t.request({
          method: 'POST',
          url: commentsUrl(photo.id),
          token: writers[i % writers.length]!.token,
          body: i % 3 === 0 ? { body: `reply ${i}`, parentId: existing[i]!.id } : { body: `parallel ${i}` },
        }),
      ),
      ...existing.map(({ id, user }, i) =>
        t.request({ method: 'DELETE', url: commentUrl(id), token: i % 2 === 0 ? user.token : owner.token }),
      ),
    ]);
    // A reply may lose the race against the deletion of its parent (422); everything else succeeds.
    for (const res of results) assert.ok([201, 204, 422].includes(res.statusCode), res.body);
    const created = results.filter((res) => res.statusCode === 201).length;
    assert.equal(results.filter((res) => res.statusCode === 204).length, 25);
    assert.ok(created >= 16);

    // Every visible comment, counted through the API: top-level ones and their replies.
    let visible = 0;
    let url: string | null = `${commentsUrl(photo.id)}?limit=100`;
    while (url !== null) {
      const page = await t.request({ method: 'GET', url });
      for (const item of page.json.data) {
        if (!item.attributes.deleted) visible += 1;
        if (item.attributes.repliesCount > 0) {
          const replies = await t.request({ method: 'GET', url: `${commentUrl(item.id)}/replies?limit=100` });
          visible += replies.json.data.filter((reply: any) => !reply.attributes.deleted).length;
        }
      }
      url =
        page.json.links.next === null
          ? null
          : new URL(page.json.links.next).pathname + new URL(page.json.links.next).search;
    }
    assert.equal(visible, created);
    assert.equal((await readMediaRow(t, photo.id)).commentsCount, created);

    // The admin recount agrees (comments register their recount source with media).
    await updateMediaRow(t, photo.id, { commentsCount: 999 });
    const recount = await t.request({
      method: 'POST',
      url: `/admin/media/${photo.id.replaceAll('-', '')}/recompute-stats`,
      token: adminToken,
    });
    assert.equal(recount.statusCode, 200);
    assert.equal((await readMediaRow(t, photo.id)).commentsCount, created);
  });
});
