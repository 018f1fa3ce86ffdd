/**
 * Moderation decisions and appeals, as users and operators see them: the decision mail (through the
 * mail outbox, over SMTP, in the user's locale) with the report's reason and the moderator's note; one
 * appeal per decision, by session or by a banned user's single-use link, until the window closes; the
 * operators' list and outcome, a reversal undoing the action (media, comment, ban) with its effects.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { adminToken, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, strongPassword, type TestUser } from '../../../test/helpers/factories.ts';
import { createMediaRow } from '../../../test/helpers/media-factory.ts';
import { startAppWithSmtpSink } from '../../../test/helpers/smtp-app.ts';
import type { SinkMessage, SmtpSink } from '../../../test/support/smtp-sink.ts';

describe('moderation decisions and appeals', () => {
  let t: TestApp;
  let sink: SmtpSink;
  let close: () => Promise<void>;
  before(async () => {
    ({ t, sink, close } = await startAppWithSmtpSink());
  });
  after(() => close());

  const admin = (method: 'GET' | 'PATCH' | 'PUT' | 'POST', url: string, body?: unknown) =>
    t.request({ method, url, token: adminToken, body });

  /** A person registering through the API in `locale`, signed in. */
  const register = async (locale: 'en-US' | 'fr-FR'): Promise<TestUser> => {
    const username = `appellant${randomBytes(4).toString('hex')}`;
    const email = `${username}@example.test`;
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      headers: { 'accept-language': locale },
      body: { email, password: strongPassword, username },
    });
    assert.equal(res.statusCode, 201, res.body);
    const id = res.json.data.relationships.user.data.id as string;
    const user = await t.services.areas.accounts.users.find(id);
    return {
      user: user!,
      id,
      hex: id.replaceAll('-', ''),
      token: res.json.data.attributes.accessToken,
      sessionId: res.json.data.id,
      email,
      username,
    };
  };

  /** Files a report and resolves it with an action; returns the report id. */
  const reportAndAct = async (url: string, reason: string, resolution: Record<string, unknown>) => {
    const reporter = await createUser(t);
    const filed = await t.request({ method: 'POST', url, token: reporter.token, body: { reason } });
    assert.equal(filed.statusCode, 201, filed.body);
    const resolved = await admin('PATCH', `/admin/reports/${filed.json.data.id}`, {
      resolution: 'actioned',
      ...resolution,
    });
    assert.equal(resolved.statusCode, 200, resolved.body);
    return filed.json.data.id as string;
  };

  const mailTo = (user: TestUser, subject: RegExp): Promise<SinkMessage> =>
    sink
      .waitForMessage((message) => message.to.includes(user.email) && subject.test(message.subject))
      .catch((error) => {
        const subjects = sink.messages.filter((message) => message.to.includes(user.email)).map((m) => m.subject);
        throw new Error(`${error.message}; to ${user.email}: ${JSON.stringify(subjects)}`);
      });

  const decisionsOf = async (user: TestUser) => {
    const res = await t.request({ method: 'GET', url: '/api/users/me/moderation-decisions', token: user.token });
    assert.equal(res.statusCode, 200, res.body);
    return res.json.data as any[];
  };

  const appeal = (
    user: TestUser,
    decisionId: string,
    text = 'This photo breaks no rule: it is my own work.',
    locale = 'en-US',
  ) =>
    t.request({
      method: 'POST',
      url: '/api/users/me/appeals',
      token: user.token,
      body: { decisionId, text },
      headers: { 'accept-language': locale },
    });

  const pendingAppealOf = async (decisionId: string) => {
    const res = await admin('GET', '/admin/appeals?status=pending&limit=200');
    assert.equal(res.statusCode, 200, res.body);
    return res.json.data.find((row: any) => row.attributes.decisionId === decisionId);
  };

  const hashtagUses = async (tag: string) => {
    const res = await t.request({ method: 'GET', url: `/api/media/hashtags/autocomplete?q=${tag}` });
    assert.equal(res.statusCode, 200, res.body);
    return res.json.data.find((row: any) => row.id === tag)?.attributes.uses ?? 0;
  };
  const publicMediaIds = async (owner: TestUser) => {
    const res = await t.request({ method: 'GET', url: `/api/users/${owner.id}/media` });
    assert.equal(res.statusCode, 200, res.body);
    return res.json.data.map((row: any) => row.id) as string[];
  };

  it('tells a hidden media to its owner in their locale, takes one appeal, and a reversal shows it again everywhere', async () => {
    const owner = await register('fr-FR');
    const tag = `appeal${randomBytes(3).toString('hex')}`;
    const media = await createMediaRow(t, owner.id, { hashtags: [tag] });
    assert.equal((await admin('POST', '/admin/jobs/flush/hashtags')).statusCode, 200);
    assert.equal(await hashtagUses(tag), 1);

    const reportId = await reportAndAct(`/api/media/${media.id}/reports`, 'copyright', {
      action: 'hideMedia',
      note: 'The photo is a copy of a postcard.',
    });
    const told = await mailTo(owner, /masquée/);
    assert.match(told.text, /atteinte au droit d’auteur/);
    assert.match(told.text, /La note du modérateur : The photo is a copy of a postcard\./);
    assert.equal(await hashtagUses(tag), 0);
    assert.ok(!(await publicMediaIds(owner)).includes(media.id));

    const [decision] = await decisionsOf(owner);
    assert.equal(decision.type, 'moderationDecisions');
    assert.equal(decision.attributes.kind, 'mediaHidden');
    assert.equal(decision.attributes.targetId, media.id);
    assert.equal(decision.attributes.reportReason, 'copyright');
    assert.equal(decision.attributes.note, 'The photo is a copy of a postcard.');
    assert.equal(decision.attributes.appealStatus, null);
    assert.equal(decision.attributes.appealUntil, '2026-12-21T12:00:00.000+00:00');
    assert.match(told.text, new RegExp(decision.id));

    // Someone else's decision, an empty or too long text: refused, nothing filed.
    const stranger = await createUser(t);
    const foreign = await appeal(stranger, decision.id);
    assert.equal(foreign.statusCode, 404);
    assert.equal((await appeal(owner, decision.id, '  \n ')).statusCode, 422);
    const tooLong = await appeal(owner, decision.id, 'x'.repeat(2001));
    assert.equal(tooLong.statusCode, 422);
    assert.equal(tooLong.json.errors[0].source.pointer, '/text');
    assert.equal(await pendingAppealOf(decision.id), undefined);

    const filed = await appeal(owner, decision.id, 'This photo breaks no rule: it is my own work.', 'fr-FR');
    assert.equal(filed.statusCode, 201, filed.body);
    assert.equal(filed.json.data.type, 'appeals');
    assert.equal(filed.json.data.attributes.status, 'pending');
    assert.equal(filed.json.data.attributes.decision.kind, 'mediaHidden');
    const second = await appeal(owner, decision.id, 'Again');
    assert.equal(second.statusCode, 409);
    assert.equal(second.json.errors[0].code, 'alreadyAppealed');
    const mine = await t.request({ method: 'GET', url: '/api/users/me/appeals', token: owner.token });
    assert.deepEqual(
      mine.json.data.map((row: any) => row.id),
      [filed.json.data.id],
    );

    const listed = await pendingAppealOf(decision.id);
    assert.equal(listed.id, filed.json.data.id);
    assert.equal(listed.attributes.userId, owner.id);
    assert.equal(listed.attributes.reportId, reportId);

    const reversed = await admin('PATCH', `/admin/appeals/${listed.id}`, {
      outcome: 'reversed',
      response: 'You are right, sorry.',
    });
    assert.equal(reversed.statusCode, 200, reversed.body);
    assert.equal(reversed.json.data.attributes.status, 'reversed');
    assert.equal(reversed.json.meta.undone, true);
    assert.equal(await hashtagUses(tag), 1);
    assert.ok((await publicMediaIds(owner)).includes(media.id));
    const comments = await t.request({ method: 'GET', url: `/api/media/${media.id}/comments` });
    assert.equal(comments.statusCode, 200);

    const outcome = await mailTo(owner, /Votre appel a été accepté/);
    assert.match(outcome.text, /votre photo est de nouveau visible/);
    assert.match(outcome.text, /You are right, sorry\./);
    const [after] = await decisionsOf(owner);
    assert.equal(after.attributes.appealStatus, 'reversed');
    assert.notEqual(after.attributes.reversedAt, null);

    const again = await admin('PATCH', `/admin/appeals/${listed.id}`, { outcome: 'upheld' });
    assert.equal(again.statusCode, 409);
    assert.equal(again.json.errors[0].code, 'appealAlreadyDecided');
    const audit = await admin('GET', `/admin/audit?action=appeal.decide&targetType=appeal`);
    assert.ok(audit.json.data.some((row: any) => row.attributes.target.id === listed.id));
  });

  it('keeps an upheld decision in force and tells the outcome; an appeal after the window is refused', async () => {
    const owner = await register('en-US');
    const media = await createMediaRow(t, owner.id);
    assert.equal((await admin('PUT', `/admin/media/${media.id}/flag`, { flag: 2 })).statusCode, 200);
    await mailTo(owner, /One of your photos was hidden/);
    t.clock.advance(1000);
    const late = await createMediaRow(t, owner.id);
    assert.equal((await admin('PUT', `/admin/media/${late.id}/flag`, { flag: 2 })).statusCode, 200);
    const [lateDecision, decision] = await decisionsOf(owner);
    assert.equal(decision.attributes.targetId, media.id);
    assert.equal(decision.attributes.reportReason, null);

    const filed = await appeal(owner, decision.id);
    assert.equal(filed.statusCode, 201, filed.body);
    const upheld = await admin('PATCH', `/admin/appeals/${filed.json.data.id}`, { outcome: 'upheld' });
    assert.equal(upheld.statusCode, 200, upheld.body);
    assert.equal(upheld.json.meta.undone, false);
    assert.ok(!(await publicMediaIds(owner)).includes(media.id));
    const outcome = await mailTo(owner, /Your appeal was reviewed/);
    assert.match(outcome.text, /They confirmed the decision/);

    t.clock.advance(31 * 86_400_000);
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { email: owner.email, password: strongPassword },
    });
    assert.equal(login.statusCode, 200, login.body);
    const signedIn = { ...owner, token: login.json.data.attributes.accessToken as string };
    const closed = await appeal(signedIn, lateDecision.id);
    assert.equal(closed.statusCode, 409);
    assert.equal(closed.json.errors[0].code, 'appealWindowClosed');
    assert.equal((await decisionsOf(signedIn))[0].attributes.appealStatus, null);
  });

  it('gives back a comment a moderator deleted, with its text and its count', async () => {
    const author = await register('en-US');
    const owner = await createUser(t);
    const media = await createMediaRow(t, owner.id);
    const posted = await t.request({
      method: 'POST',
      url: `/api/media/${media.id}/comments`,
      token: author.token,
      body: { body: 'Lovely light over the harbour #sunset' },
    });
    assert.equal(posted.statusCode, 201, posted.body);
    const commentId = posted.json.data.id as string;
    const commentsCount = async () => {
      const res = await t.request({ method: 'GET', url: `/api/users/${owner.id}/media` });
      return res.json.data.find((row: any) => row.id === media.id).attributes.commentsCount as number;
    };
    const listedBody = async () => {
      const res = await t.request({ method: 'GET', url: `/api/media/${media.id}/comments` });
      return res.json.data.find((row: any) => row.id === commentId)?.attributes.body ?? null;
    };
    assert.equal(await commentsCount(), 1);

    await reportAndAct(`/api/media/comments/${commentId}/reports`, 'harassment', { action: 'deleteComment' });
    const told = await mailTo(author, /One of your comments was deleted/);
    assert.match(told.text, /Your comment read: “Lovely light over the harbour #sunset”/);
    assert.match(told.text, /reported for harassment/);
    assert.equal(await commentsCount(), 0);
    assert.equal(await listedBody(), null);

    const [decision] = await decisionsOf(author);
    assert.equal(decision.attributes.kind, 'commentDeleted');
    assert.equal(decision.attributes.mediaId, media.id);
    const filed = await appeal(author, decision.id, 'It was a compliment.');
    assert.equal(filed.statusCode, 201, filed.body);
    const reversed = await admin('PATCH', `/admin/appeals/${filed.json.data.id}`, { outcome: 'reversed' });
    assert.equal(reversed.statusCode, 200, reversed.body);
    assert.equal(await commentsCount(), 1);
    assert.equal(await listedBody(), 'Lovely light over the harbour #sunset');
    await mailTo(author, /Your appeal was accepted/);
  });

  it('lets a banned user appeal once through the mailed link, and a reversal lets them sign in again', async () => {
    const user = await register('fr-FR');
    const banned = await admin('PUT', `/admin/users/${user.id}/ban`, {
      reason: 'Spam in every comment',
      until: '2027-06-01T00:00:00Z',
    });
    assert.equal(banned.statusCode, 200, banned.body);
    const told = await mailTo(user, /Votre compte a été suspendu/);
    assert.match(told.text, /La note du modérateur : Spam in every comment/);
    assert.match(told.text, /La suspension prend fin le 2027-06-01 00:00 UTC/);
    const token = /\/appeal\?token=([\w-]+)/.exec(told.text)?.[1];
    assert.ok(token, told.text);
    const login = () =>
      t.request({ method: 'POST', url: '/api/auth/login', body: { email: user.email, password: strongPassword } });
    assert.equal((await login()).statusCode, 401);

    const byLink = (body: Record<string, unknown>) =>
      t.request({ method: 'POST', url: '/api/appeals', body, headers: { 'accept-language': 'fr-FR' } });
    const unknown = await byLink({ token: 'tma_unknown', text: 'Please' });
    assert.equal(unknown.statusCode, 422);
    assert.equal(unknown.json.errors[0].code, 'invalidToken');
    assert.equal((await byLink({ token, text: '' })).statusCode, 422);
    const filed = await byLink({ token, text: 'I only shared my own posts.' });
    assert.equal(filed.statusCode, 201, filed.body);
    assert.equal(filed.json.data.attributes.decision.kind, 'userBanned');
    const used = await byLink({ token, text: 'Again' });
    assert.equal(used.statusCode, 422);
    assert.equal(used.json.errors[0].code, 'tokenUsed');

    const reversed = await admin('PATCH', `/admin/appeals/${filed.json.data.id}`, { outcome: 'reversed' });
    assert.equal(reversed.statusCode, 200, reversed.body);
    assert.equal((await login()).statusCode, 200);
    const outcome = await mailTo(user, /Votre appel a été accepté/);
    assert.match(outcome.text, /vous pouvez de nouveau vous connecter/);
  });

  it('refuses a mailed link once the window has closed, and records bans by the CLI path too', async () => {
    const user = await register('en-US');
    await t.services.areas.userAdmin.moderation.ban(user.id, { reason: 'Fake account', until: null }, 'cli');
    const told = await mailTo(user, /Your account was suspended/);
    assert.match(told.text, /The suspension lasts until it is lifted/);
    const token = /\/appeal\?token=([\w-]+)/.exec(told.text)?.[1];
    t.clock.advance(30 * 86_400_000 + 1);
    const expired = await t.request({ method: 'POST', url: '/api/appeals', body: { token, text: 'Too late?' } });
    assert.equal(expired.statusCode, 410);
    assert.equal(expired.json.errors[0].code, 'tokenExpired');
  });

  it("takes a banned user's appeal through the web page of the link: the GET shows a form and changes nothing", async () => {
    const user = await register('fr-FR');
    assert.equal(
      (await admin('PUT', `/admin/users/${user.id}/ban`, { reason: 'Fake reviews <b>everywhere</b>' })).statusCode,
      200,
    );
    const told = await mailTo(user, /Votre compte a été suspendu/);
    assert.match(told.html, /Fake reviews &lt;b&gt;everywhere&lt;\/b&gt;/);
    const token = /\/appeal\?token=([\w-]+)/.exec(told.text)?.[1] as string;
    const page = (method: 'GET' | 'POST', payload?: string) =>
      t.request({
        method,
        url: `/appeal?token=${token}`,
        headers: {
          'accept-language': 'fr-FR',
          ...(payload === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
        },
        ...(payload === undefined ? {} : { payload }),
      });

    const form = await page('GET');
    assert.equal(form.statusCode, 200, form.body);
    assert.match(String(form.headers['content-type']), /^text\/html/);
    assert.equal(form.headers['cache-control'], 'no-store');
    assert.match(form.body, /Faire appel d’une décision de modération/);
    assert.match(form.body, /<textarea id="appeal-text" name="text"/);
    assert.equal((await page('GET')).statusCode, 200);
    const [decision] = (await admin('GET', '/admin/appeals?limit=200')).json.data.filter(
      (row: any) => row.attributes.userId === user.id,
    );
    assert.equal(decision, undefined);

    const empty = await page('POST', 'text=%20');
    assert.equal(empty.statusCode, 422);
    const sent = await page('POST', `text=${encodeURIComponent('Ces avis sont les miens.')}`);
    assert.equal(sent.statusCode, 200, sent.body);
    assert.match(sent.body, /Votre appel a été envoyé/);
    const filed = (await admin('GET', '/admin/appeals?status=pending&limit=200')).json.data.find(
      (row: any) => row.attributes.userId === user.id,
    );
    assert.equal(filed.attributes.text, 'Ces avis sont les miens.');
    assert.equal(filed.attributes.decision.kind, 'userBanned');
    assert.equal((await page('GET')).statusCode, 422);
  });

  it('takes one of two appeals sent at once, and leaves an appeal pending when its target is gone', async () => {
    const owner = await register('en-US');
    const media = await createMediaRow(t, owner.id);
    assert.equal((await admin('PUT', `/admin/media/${media.id}/flag`, { flag: 2 })).statusCode, 200);
    const [decision] = await decisionsOf(owner);
    const both = await Promise.all([appeal(owner, decision.id, 'First'), appeal(owner, decision.id, 'Second')]);
    assert.deepEqual(both.map((res) => res.statusCode).sort(), [201, 409]);

    const pending = await pendingAppealOf(decision.id);
    const deleted = await t.request({ method: 'DELETE', url: `/admin/media/${media.id}`, token: adminToken });
    assert.equal(deleted.statusCode, 204, deleted.body);
    const refused = await admin('PATCH', `/admin/appeals/${pending.id}`, { outcome: 'reversed' });
    assert.equal(refused.statusCode, 409);
    assert.equal(refused.json.errors[0].code, 'decisionNotReversible');
    assert.equal((await pendingAppealOf(decision.id)).id, pending.id);
    const upheld = await admin('PATCH', `/admin/appeals/${pending.id}`, { outcome: 'upheld' });
    assert.equal(upheld.statusCode, 200, upheld.body);
  });

  it('answers 404 for an unknown appeal and 422 for a bad outcome', async () => {
    const missing = await admin('PATCH', '/admin/appeals/0b6f0b5e-3c0e-4a8e-9d6c-2f4f8f2a1c11', { outcome: 'upheld' });
    assert.equal(missing.statusCode, 404);
    const bad = await admin('PATCH', '/admin/appeals/0b6f0b5e-3c0e-4a8e-9d6c-2f4f8f2a1c11', { outcome: 'maybe' });
    assert.equal(bad.statusCode, 422);
  });
});
