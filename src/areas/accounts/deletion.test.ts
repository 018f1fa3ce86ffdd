import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, strongPassword, type TestUser, updateUserRow } from '../../../test/helpers/factories.ts';
import { upload } from '../../../test/helpers/media-uploads.ts';
import { makePng } from '../../../test/support/test-images.ts';
import { formatTimestamp } from '../../platform/http/time.ts';

const graceDays = 7;
const dayMs = 86_400_000;

describe('account deletion', () => {
  let t: TestApp;
  const askDeletion = (user: { token: string }, body: unknown = { password: strongPassword }) =>
    t.request({ method: 'DELETE', url: '/api/users/me', token: user.token, body });
  const confirm = (token: string) =>
    t.request({ method: 'POST', url: '/api/account/deletion/confirm', body: { token } });
  const me = (token: string) => t.request({ method: 'GET', url: '/api/auth/me', token });
  const login = (login: string, password = strongPassword) =>
    t.request({ method: 'POST', url: '/api/auth/login', body: { login, password } });
  const admin = (method: 'POST' | 'PUT', url: string, body?: unknown) =>
    t.request({ method, url, token: adminToken, ...(body !== undefined ? { body } : {}) });
  const newPost = async (user: TestUser) =>
    (await upload(t, '/api/users/me/media', user.token, await makePng({ width: 24, height: 24 }))).json.data;
  /** The user's public media; none while the account is hidden (its list answers 404, as for an unknown user). */
  const listedMedia = async (user: TestUser) => {
    const res = await t.request({ method: 'GET', url: `/api/users/${user.id}/media?limit=100` });
    if (res.statusCode === 404) return [];
    return res.json.data.map((item: { id: string }) => item.id);
  };
  const foundBySearch = async (user: TestUser) =>
    (await t.request({ method: 'GET', url: `/api/users/search?q=${user.username}` })).json.data.some(
      (item: { id: string }) => item.id === user.id,
    );
  /** The deletion token of the newest deletion mail sent to the user. */
  const mailedToken = async (user: TestUser) => {
    await t.services.areas.accounts.mailFlows.drain();
    const mail = t.mail.last(user.email);
    assert.ok(mail, 'a mail was sent');
    const token = /tmd_[A-Za-z0-9_-]+/.exec(mail.text)?.[0];
    assert.ok(token, 'the mail holds the token');
    return { mail, token };
  };
  const deletionConfirmed = async (user: TestUser) => {
    assert.equal((await askDeletion(user)).statusCode, 202);
    const { token } = await mailedToken(user);
    const res = await confirm(token);
    assert.equal(res.statusCode, 200, res.body);
    return res;
  };
  const flushErasure = async () => {
    const res = await admin('POST', '/admin/jobs/flush/account-erasure');
    assert.equal(res.statusCode, 200, res.body);
    return res.json.data.attributes.report as { erased: number; failed: number };
  };

  before(async () => {
    t = await createTestApp({ env: { ACCOUNT_DELETION_GRACE_DAYS: String(graceDays) } });
  });
  after(() => t.close());

  it('asks for the password, mails a single-use link, and confirming disables the account at once', async () => {
    const ada = await createUser(t);
    const bob = await createUser(t);
    const post = await newPost(ada);
    const bobsPost = await newPost(bob);
    const comment = await t.request({
      method: 'POST',
      url: `/api/media/${bobsPost.id}/comments`,
      token: ada.token,
      body: { body: 'Wonderful place' },
    });
    assert.equal(comment.statusCode, 201);
    assert.equal(
      (await t.request({ method: 'POST', url: `/api/users/me/following/${ada.id}`, token: bob.token })).statusCode,
      201,
    );
    const bobFollows = async () =>
      (await t.request({ method: 'GET', url: '/api/users/me/following', token: bob.token })).json.data.map(
        (item: { id: string }) => item.id,
      );
    assert.deepEqual(await bobFollows(), [ada.id]);
    const other = await login(ada.email);
    assert.equal(other.statusCode, 200);
    assert.deepEqual(await listedMedia(ada), [post.id]);
    assert.equal(await foundBySearch(ada), true);

    assert.equal((await t.request({ method: 'DELETE', url: '/api/users/me', body: {} })).statusCode, 401);
    const noPassword = await askDeletion(ada, {});
    assert.equal(noPassword.statusCode, 403);
    assert.equal(noPassword.json.errors[0].code, 'reauthenticationRequired');
    const wrong = await askDeletion(ada, { password: 'not the password 1' });
    assert.equal(wrong.statusCode, 422);
    assert.equal(wrong.json.errors[0].code, 'wrongPassword');
    assert.equal((await askDeletion(ada, { password: strongPassword, extra: 1 })).statusCode, 422);
    await t.services.areas.accounts.mailFlows.drain();
    assert.equal(t.mail.last(ada.email)?.subject.includes('delet'), false, 'no deletion mail for refused requests');

    assert.equal((await askDeletion(ada)).statusCode, 202);
    const { mail, token } = await mailedToken(ada);
    assert.match(mail.subject, /deletion of your account/);
    assert.match(mail.text, new RegExp(`${graceDays} days`));
    assert.ok(mail.text.includes(`/login?delete=${token}`));
    assert.equal((await me(ada.token)).statusCode, 200, 'nothing changes before the confirmation');
    assert.deepEqual(await listedMedia(ada), [post.id]);

    assert.equal((await confirm('tmd_forged0000000000000000000000000000000000')).json.errors[0].code, 'invalidToken');
    t.clock.advance(1000);
    const confirmed = await confirm(token);
    assert.equal(confirmed.statusCode, 200, confirmed.body);
    assert.equal(confirmed.json.data.type, 'accountDeletion');
    assert.equal(confirmed.json.data.id, ada.id);
    assert.equal(
      confirmed.json.data.attributes.eraseAfter,
      formatTimestamp(new Date(t.clock.now().getTime() + graceDays * dayMs)),
    );
    const again = await confirm(token);
    assert.equal(again.statusCode, 422, 'single use');
    assert.equal(again.json.errors[0].code, 'invalidToken');

    // Disabled at once: every session, content out of public lists, no lookup by name.
    assert.equal((await me(ada.token)).statusCode, 401);
    assert.equal((await me(other.json.data.attributes.accessToken)).statusCode, 401);
    assert.deepEqual(await listedMedia(ada), []);
    assert.equal(await foundBySearch(ada), false);
    assert.equal(await t.services.areas.accounts.users.findByUsername(ada.username), null);
    const comments = await t.request({ method: 'GET', url: `/api/media/${bobsPost.id}/comments` });
    assert.equal(comments.json.data.length, 0, "her comment left others' media");
    assert.deepEqual(await bobFollows(), [], 'she left the lists of users');
  });

  it('refuses an expired link and a link of another kind with the same error as a forged one', async () => {
    const cyd = await createUser(t);
    assert.equal((await askDeletion(cyd)).statusCode, 202);
    const { token } = await mailedToken(cyd);
    t.clock.advance(24 * 3_600_000 + 1000);
    const expired = await confirm(token);
    assert.equal(expired.statusCode, 422);
    assert.equal(expired.json.errors[0].code, 'invalidToken');

    await t.request({ method: 'POST', url: '/api/auth/forgot-password', body: { email: cyd.email } });
    await t.services.areas.accounts.mailFlows.drain();
    const reset = /tmr_[A-Za-z0-9_-]+/.exec(t.mail.last(cyd.email)!.text)![0];
    assert.equal((await confirm(reset)).json.errors[0].code, 'invalidToken');
    assert.equal((await t.request({ method: 'POST', url: '/api/account/deletion/confirm', body: {} })).statusCode, 422);
    assert.equal((await me(cyd.token)).statusCode, 200, 'still there');
  });

  it('every deletion link sent works until one of them confirms the deletion', async () => {
    const dee = await createUser(t);
    assert.equal((await askDeletion(dee)).statusCode, 202);
    const first = (await mailedToken(dee)).token;
    t.clock.advance(60_000);
    assert.equal((await askDeletion(dee)).statusCode, 202);
    const second = (await mailedToken(dee)).token;
    assert.notEqual(first, second);
    assert.equal((await confirm(first)).statusCode, 200, "the first mail's link, after a second was sent");
    assert.equal((await me(dee.token)).statusCode, 401, 'disabled');
    for (const token of [second, first]) {
      const again = await confirm(token);
      assert.equal(again.statusCode, 422, 'spent by the confirmation');
      assert.equal(again.json.errors[0].code, 'invalidToken');
    }
  });

  it('an account without a password needs a provider sign-in of the last 10 minutes', async () => {
    const dan = await createUser(t);
    await updateUserRow(t, dan.id, { passwordHash: null });
    const client = { ip: '127.0.0.1', userAgent: 'test' };
    const viaGoogle = await t.services.areas.accounts.sessions.create(dan.user, client, 'google');
    const google = { token: viaGoogle.accessToken };

    const withPasswordSession = await askDeletion(dan, {});
    assert.equal(withPasswordSession.statusCode, 403, 'a password session does not count');
    assert.equal(withPasswordSession.json.errors[0].code, 'reauthenticationRequired');
    t.clock.advance(9 * 60_000);
    assert.equal((await askDeletion(google, {})).statusCode, 202);
    t.clock.advance(2 * 60_000);
    const late = await askDeletion(google, {});
    assert.equal(late.statusCode, 403, 'more than 10 minutes after the sign-in');
    assert.equal(late.json.errors[0].code, 'reauthenticationRequired');
  });

  it('signing in during the grace period cancels the deletion; the job then leaves the account alone', async () => {
    const eve = await createUser(t);
    const post = await newPost(eve);
    await deletionConfirmed(eve);
    assert.deepEqual(await listedMedia(eve), []);
    t.clock.advance(3 * dayMs);

    const back = await login(eve.username);
    assert.equal(back.statusCode, 200, back.body);
    assert.deepEqual(await listedMedia(eve), [post.id], 'her content is back');
    assert.equal(await foundBySearch(eve), true);
    assert.ok(await t.services.areas.accounts.users.findByUsername(eve.username));

    t.clock.advance((graceDays + 1) * dayMs);
    await flushErasure();
    assert.equal((await login(eve.email)).statusCode, 200, 'not erased');
    assert.deepEqual(await listedMedia(eve), [post.id]);
  });

  it('a ban lifted during the grace period does not show the content; cancelling does not show a banned account', async () => {
    const fay = await createUser(t);
    const fayPost = await newPost(fay);
    await deletionConfirmed(fay);
    assert.equal((await admin('PUT', `/admin/users/${fay.hex}/ban`, { reason: 'spam' })).statusCode, 200);
    assert.equal((await admin('PUT', `/admin/users/${fay.hex}/unban`)).statusCode, 200);
    assert.deepEqual(await listedMedia(fay), [], 'still being deleted');

    const gus = await createUser(t);
    const gusPost = await newPost(gus);
    assert.equal((await askDeletion(gus)).statusCode, 202);
    const { token } = await mailedToken(gus);
    assert.equal((await admin('PUT', `/admin/users/${gus.hex}/ban`, { reason: 'spam' })).statusCode, 200);
    assert.equal((await confirm(token)).statusCode, 200, 'a link mailed before the ban still deletes');
    // A sign-in that does not check bans (what a provider sign-in would do) still cancels the deletion...
    const gusNow = (await t.services.areas.accounts.users.find(gus.id))!;
    await t.services.areas.accounts.sessions.create(gusNow, { ip: '127.0.0.1', userAgent: 'test' }, 'google');
    assert.equal((await t.services.areas.accounts.users.find(gus.id))?.deletionRequestedAt, null);
    assert.deepEqual(await listedMedia(gus), [], '...but the ban keeps the content hidden');
    assert.equal((await admin('PUT', `/admin/users/${gus.hex}/unban`)).statusCode, 200);
    assert.deepEqual(await listedMedia(gus), [gusPost.id]);

    // Fay signs in: the deletion ends and, not banned any more, her content is back.
    assert.equal((await login(fay.email)).statusCode, 200);
    assert.deepEqual(await listedMedia(fay), [fayPost.id]);
  });
  it('an account whose erasure fails is rolled back whole, reported, and erased by a later run', async () => {
    const hal = await createUser(t);
    const ivy = await createUser(t);
    const halPost = await newPost(hal);
    await deletionConfirmed(hal);
    await deletionConfirmed(ivy);
    let refuse = true;
    t.services.platform.events.subscribe('user.erasing', 'inTransaction', 'test.refuseHal', async ({ userId }) => {
      if (refuse && userId === hal.id) throw new Error('storage of an area is down');
    });
    t.clock.advance((graceDays + 1) * dayMs);
    const first = await flushErasure();
    assert.equal(first.failed, 1);
    assert.equal(await t.services.areas.accounts.users.find(ivy.id), null, 'the other account is erased');
    const kept = await t.services.areas.accounts.users.find(hal.id);
    assert.ok(kept?.deletionRequestedAt, 'the failed one is untouched, still due');
    const media = await t.services.areas.media.media.counters(halPost.id);
    assert.ok(media, 'its media too (the transaction rolled back)');

    refuse = false;
    const second = await flushErasure();
    assert.deepEqual(second, { erased: 1, failed: 0 });
    assert.equal(await t.services.areas.accounts.users.find(hal.id), null);
    assert.equal(await t.services.areas.media.media.counters(halPost.id), null);
  });
});
