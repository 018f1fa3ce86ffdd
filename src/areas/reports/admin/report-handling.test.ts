/** Report handling: the admin list, one report with its target's state, resolutions, actions and the outcome mail. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { adminToken, createTestApp, type TestApp } from '../../../../test/helpers/app.ts';
import { createUser, type TestUser, updateUserRow } from '../../../../test/helpers/factories.ts';
import { createMediaRow } from '../../../../test/helpers/media-factory.ts';
import { ReportsStatsRepository } from '../reports-stats.repository.ts';

describe('report handling', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const admin = (method: 'GET' | 'PATCH', url: string, body?: unknown, token = adminToken) =>
    t.request({ method, url, token, body });
  const file = async (reporter: TestUser, url: string, reason = 'spam', locale = 'en-US') => {
    const res = await t.request({
      method: 'POST',
      url,
      token: reporter.token,
      body: { reason },
      headers: { 'accept-language': locale },
    });
    assert.equal(res.statusCode, 201, res.body);
    return res.json.data.id as string;
  };
  const commentOn = async (author: TestUser, mediaId: string, body = 'Nice spot') => {
    const res = await t.request({
      method: 'POST',
      url: `/api/media/${mediaId}/comments`,
      token: author.token,
      body: { body },
    });
    assert.equal(res.statusCode, 201);
    return res.json.data.id as string;
  };
  const outcomeSubjects = ['Your report has been reviewed', 'Votre signalement a été examiné'];
  /** The report outcome mails a user received (registration sent them a confirmation too). */
  const mailsTo = (user: TestUser) =>
    t.mail.sent.filter((mail) => mail.to === user.email && outcomeSubjects.includes(mail.subject));

  it('lists reports newest first with filters, keyset pages and meta.total', async () => {
    const owner = await createUser(t);
    const reporter = await createUser(t);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const media = await createMediaRow(t, owner.id);
      ids.push(await file(reporter, `/api/media/${media.id}/reports`, 'copyright'));
      t.clock.advance(1000);
    }
    const userReport = await file(reporter, `/api/users/${owner.id}/reports`, 'copyright');
    t.clock.advance(1000);

    const page1 = await admin('GET', '/admin/reports?kind=media&reason=copyright&limit=2');
    assert.equal(page1.statusCode, 200);
    assert.deepEqual(
      page1.json.data.map((row: any) => row.id),
      [ids[2], ids[1]],
    );
    assert.equal(page1.json.meta.limit, 2);
    assert.equal(page1.json.meta.total, 3);
    const row = page1.json.data[0];
    assert.equal(row.type, 'reports');
    assert.equal(row.attributes.reporterId, reporter.id);
    assert.equal(row.attributes.targetUserId, owner.id);
    assert.equal(row.attributes.locale, 'en-US');
    assert.equal(row.attributes.resolution, null);
    assert.equal(row.attributes.resolvedAt, null);
    const page2 = await t.request({
      method: 'GET',
      url: page1.json.links.next.replace(/^https?:\/\/[^/]+/, ''),
      token: adminToken,
    });
    assert.deepEqual(
      page2.json.data.map((row: any) => row.id),
      [ids[0]],
    );
    assert.equal(page2.json.links.next, null);

    const users = await admin('GET', '/admin/reports?kind=user&reason=copyright&status=open');
    assert.deepEqual(
      users.json.data.map((row: any) => row.id),
      [userReport],
    );
    assert.equal((await admin('GET', '/admin/reports?status=resolved&reason=copyright')).json.meta.total, 0);
    for (const query of [
      'status=closed',
      'kind=photo',
      'reason=boring',
      'limit=0',
      'limit=201',
      'cursor=zz',
      'sort=x',
    ]) {
      const res = await admin('GET', `/admin/reports?${query}`);
      assert.equal(res.statusCode, 400, query);
    }
  });

  it('shows one report with the media’s current state and the target’s report counts', async () => {
    const owner = await createUser(t);
    const [ana, bob] = [await createUser(t), await createUser(t)];
    const media = await createMediaRow(t, owner.id);
    const first = await file(ana, `/api/media/${media.id}/reports`, 'nudity');
    await file(bob, `/api/media/${media.id}/reports`, 'nudity');
    const res = await admin('GET', `/admin/reports/${first.replaceAll('-', '')}`);
    assert.equal(res.statusCode, 200);
    assert.equal(res.json.data.id, first);
    assert.equal(res.json.data.attributes.kind, 'media');
    assert.equal(res.json.data.attributes.status, 'open');
    assert.deepEqual(res.json.data.attributes.target, { deleted: false, published: true, flag: 0 });
    assert.deepEqual(res.json.data.attributes.targetReports, { open: 2, total: 2 });

    assert.equal((await admin('PATCH', `/admin/reports/${first}`, { resolution: 'dismissed' })).statusCode, 200);
    const after = await admin('GET', `/admin/reports/${first}`);
    assert.equal(after.json.data.attributes.status, 'resolved');
    assert.deepEqual(after.json.data.attributes.targetReports, { open: 1, total: 2 });

    assert.equal(
      (await t.request({ method: 'DELETE', url: `/admin/media/${media.id}`, token: adminToken })).statusCode,
      204,
    );
    assert.deepEqual((await admin('GET', `/admin/reports/${first}`)).json.data.attributes.target, { deleted: true });

    assert.equal((await admin('GET', `/admin/reports/${randomUUID()}`)).statusCode, 404);
    assert.equal((await admin('GET', '/admin/reports/nope')).statusCode, 422);
  });

  it('shows a user target as banned or anonymized, and a comment with its text, deleted and author state', async () => {
    const reporter = await createUser(t);
    const troll = await createUser(t);
    const userReport = await file(reporter, `/api/users/${troll.id}/reports`, 'harassment');
    assert.deepEqual((await admin('GET', `/admin/reports/${userReport}`)).json.data.attributes.target, {
      deleted: false,
      banned: false,
      anonymized: false,
    });
    const owner = await createUser(t);
    const media = await createMediaRow(t, owner.id);
    const commentId = await commentOn(troll, media.id, 'You all are idiots');
    const commentReport = await file(reporter, `/api/media/comments/${commentId}/reports`, 'harassment');
    assert.deepEqual((await admin('GET', `/admin/reports/${commentReport}`)).json.data.attributes.target, {
      deleted: false,
      authorBanned: false,
      body: 'You all are idiots',
    });
    await updateUserRow(t, troll.id, { bannedAt: t.clock.now() });
    assert.deepEqual((await admin('GET', `/admin/reports/${userReport}`)).json.data.attributes.target, {
      deleted: false,
      banned: true,
      anonymized: false,
    });
  });

  it('dismisses a report: 200, resolved, the others on the target stay open, the reporter is mailed in their locale', async () => {
    const owner = await createUser(t);
    const [ana, bob] = [await createUser(t), await createUser(t)];
    const media = await createMediaRow(t, owner.id);
    const anaReport = await file(ana, `/api/media/${media.id}/reports`, 'privacy', 'fr-FR');
    const bobReport = await file(bob, `/api/media/${media.id}/reports`, 'privacy');
    const res = await admin('PATCH', `/admin/reports/${anaReport}`, { resolution: 'dismissed', note: '  fine  ' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json.data.attributes.status, 'resolved');
    assert.equal(res.json.data.attributes.resolution, 'dismissed');
    assert.equal(res.json.data.attributes.action, null);
    assert.equal(res.json.data.attributes.note, 'fine');
    assert.equal(res.json.data.attributes.resolvedAt, t.clock.now().toISOString().replace('Z', '+00:00'));
    assert.deepEqual(res.json.meta.alsoResolved, []);
    assert.equal((await admin('GET', `/admin/reports/${bobReport}`)).json.data.attributes.status, 'open');
    // The media is untouched.
    assert.equal((await admin('GET', `/admin/reports/${bobReport}`)).json.data.attributes.target.flag, 0);

    const [mail] = mailsTo(ana);
    assert.ok(mail);
    assert.equal(mail.subject, 'Votre signalement a été examiné');
    assert.match(mail.text, /une photo pour atteinte à la vie privée/);
    assert.match(mail.text, /aucune mesure n’a été prise/);
    assert.match(mail.text, new RegExp(anaReport));
    assert.doesNotMatch(mail.text, new RegExp(owner.username));
    assert.match(mail.html!, /<html lang="fr">/);
    assert.equal(mailsTo(bob).length, 0);

    const again = await admin('PATCH', `/admin/reports/${anaReport}`, { resolution: 'actioned' });
    assert.equal(again.statusCode, 409);
    assert.equal(again.json.errors[0].code, 'reportAlreadyResolved');
    assert.equal(mailsTo(ana).length, 1);
    // A resolved report no longer blocks a new one by the same reporter.
    assert.equal(
      (
        await t.request({
          method: 'POST',
          url: `/api/media/${media.id}/reports`,
          token: ana.token,
          body: { reason: 'privacy' },
        })
      ).statusCode,
      201,
    );
  });

  it('hideMedia: the media answers 404 to others, every open report on it is resolved, each reporter mailed, audited', async () => {
    const owner = await createUser(t);
    const [ana, bob, carol] = [await createUser(t), await createUser(t), await createUser(t)];
    const media = await createMediaRow(t, owner.id);
    const anaReport = await file(ana, `/api/media/${media.id}/reports`, 'violence');
    const bobReport = await file(bob, `/api/media/${media.id}/reports`, 'spam');
    const res = await admin('PATCH', `/admin/reports/${anaReport}`, { resolution: 'actioned', action: 'hideMedia' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json.data.attributes.resolution, 'actioned');
    assert.equal(res.json.data.attributes.action, 'hideMedia');
    assert.deepEqual(res.json.meta.alsoResolved, [bobReport]);
    const bobs = (await admin('GET', `/admin/reports/${bobReport}`)).json.data.attributes;
    assert.equal(bobs.status, 'resolved');
    assert.equal(bobs.action, 'hideMedia');
    assert.deepEqual(bobs.target, { deleted: false, published: true, flag: 2 });

    // Others no longer see it; the owner still does.
    const comments = await t.request({ method: 'GET', url: `/api/media/${media.id}/comments`, token: carol.token });
    assert.equal(comments.statusCode, 404);
    const reported = await t.request({
      method: 'POST',
      url: `/api/media/${media.id}/reports`,
      token: carol.token,
      body: { reason: 'spam' },
    });
    assert.equal(reported.statusCode, 404);
    const own = await t.request({ method: 'GET', url: `/api/media/${media.id}/comments`, token: owner.token });
    assert.equal(own.statusCode, 200);

    for (const reporter of [ana, bob]) {
      const mails = mailsTo(reporter);
      assert.equal(mails.length, 1);
      assert.equal(mails[0]!.subject, 'Your report has been reviewed');
      assert.match(mails[0]!.text, /have taken action/);
      assert.doesNotMatch(mails[0]!.text, new RegExp(owner.username));
    }

    const audit = await admin('GET', `/admin/audit?targetType=report&targetId=${anaReport}`);
    assert.equal(audit.json.data.length, 1);
    const entry = audit.json.data[0].attributes;
    assert.equal(entry.actor, 'admin');
    assert.equal(entry.action, 'report.resolve');
    assert.equal(entry.payload.action, 'hideMedia');
    assert.deepEqual(entry.payload.alsoResolved, [bobReport]);
    const payload = JSON.stringify(entry.payload);
    for (const secret of [owner.email, ana.email, owner.username, ana.username]) assert.ok(!payload.includes(secret));
    const flagged = await admin('GET', `/admin/audit?action=media.flag&targetId=${media.id}`);
    assert.equal(flagged.json.data.length, 1);
  });

  it('deleteComment: the comment becomes a deleted placeholder', async () => {
    const owner = await createUser(t);
    const [troll, reporter] = [await createUser(t), await createUser(t)];
    const media = await createMediaRow(t, owner.id);
    const commentId = await commentOn(troll, media.id, 'Buy followers at example.test');
    // A reply keeps the deleted comment in the thread, as a placeholder.
    const reply = await t.request({
      method: 'POST',
      url: `/api/media/${media.id}/comments`,
      token: owner.token,
      body: { body: 'Please stop', parentId: commentId },
    });
    assert.equal(reply.statusCode, 201);
    const reportId = await file(reporter, `/api/media/comments/${commentId}/reports`, 'spam');
    const wrong = await admin('PATCH', `/admin/reports/${reportId}`, { resolution: 'actioned', action: 'hideMedia' });
    assert.equal(wrong.statusCode, 422);
    assert.equal(wrong.json.errors[0].code, 'actionNotApplicable');
    assert.equal(wrong.json.errors[0].source.pointer, '/action');

    const res = await admin('PATCH', `/admin/reports/${reportId}`, { resolution: 'actioned', action: 'deleteComment' });
    assert.equal(res.statusCode, 200);
    const list = await t.request({ method: 'GET', url: `/api/media/${media.id}/comments` });
    const shown = list.json.data.find((row: any) => row.id === commentId);
    assert.equal(shown.attributes.deleted, true);
    assert.doesNotMatch(JSON.stringify(shown), /Buy followers/);
    assert.deepEqual((await admin('GET', `/admin/reports/${reportId}`)).json.data.attributes.target, {
      deleted: true,
      authorBanned: false,
      body: null,
    });
  });

  it('banUser on a comment report bans its author: their token is refused; on a user report, with an end', async () => {
    const owner = await createUser(t);
    const [troll, reporter] = [await createUser(t), await createUser(t)];
    const media = await createMediaRow(t, owner.id);
    const commentId = await commentOn(troll, media.id);
    const reportId = await file(reporter, `/api/media/comments/${commentId}/reports`, 'harassment');
    const res = await admin('PATCH', `/admin/reports/${reportId}`, {
      resolution: 'actioned',
      action: 'banUser',
      banReason: 'repeated harassment',
    });
    assert.equal(res.statusCode, 200);
    const me = await t.request({ method: 'GET', url: '/api/auth/me', token: troll.token });
    assert.ok([401, 403].includes(me.statusCode), String(me.statusCode));
    assert.equal((await admin('GET', `/admin/reports/${reportId}`)).json.data.attributes.target.authorBanned, true);
    const bans = await admin('GET', `/admin/audit?action=user.ban&targetId=${troll.id}`);
    assert.equal(bans.json.data.length, 1);
    assert.equal(bans.json.data[0].attributes.payload.reason, 'repeated harassment');

    const spammer = await createUser(t);
    const userReport = await file(reporter, `/api/users/${spammer.id}/reports`, 'spam');
    const past = await admin('PATCH', `/admin/reports/${userReport}`, {
      resolution: 'actioned',
      action: 'banUser',
      banUntil: '2026-11-20T00:00:00.000+00:00',
    });
    assert.equal(past.statusCode, 422);
    assert.equal(past.json.errors[0].source.pointer, '/banUntil');
    const notATime = await admin('PATCH', `/admin/reports/${userReport}`, {
      resolution: 'actioned',
      action: 'banUser',
      banUntil: 'tomorrow',
    });
    assert.equal(notATime.statusCode, 422);
    assert.equal((await t.request({ method: 'GET', url: '/api/auth/me', token: spammer.token })).statusCode, 200);
    const ok = await admin('PATCH', `/admin/reports/${userReport}`, {
      resolution: 'actioned',
      action: 'banUser',
      banUntil: '2026-12-21T12:00:00.000+00:00',
    });
    assert.equal(ok.statusCode, 200);
    assert.ok(
      [401, 403].includes((await t.request({ method: 'GET', url: '/api/auth/me', token: spammer.token })).statusCode),
    );
    const target = (await admin('GET', `/admin/reports/${userReport}`)).json.data.attributes.target;
    assert.equal(target.banned, true);
    const ban = await admin('GET', `/admin/audit?action=user.ban&targetId=${spammer.id}`);
    assert.equal(ban.json.data[0].attributes.payload.reason, 'report: spam');
  });

  it('refuses what does not fit (422) and a failing action, leaving the report open and mailing nobody', async () => {
    const owner = await createUser(t);
    const reporter = await createUser(t);
    const media = await createMediaRow(t, owner.id);
    const mediaReport = await file(reporter, `/api/media/${media.id}/reports`);
    const userReport = await file(reporter, `/api/users/${owner.id}/reports`);
    const cases: [string, unknown, string, string][] = [
      [userReport, { resolution: 'actioned', action: 'hideMedia' }, 'actionNotApplicable', '/action'],
      [userReport, { resolution: 'actioned', action: 'deleteComment' }, 'actionNotApplicable', '/action'],
      [mediaReport, { resolution: 'actioned', action: 'deleteComment' }, 'actionNotApplicable', '/action'],
      [mediaReport, { resolution: 'dismissed', action: 'hideMedia' }, 'validationFailed', '/action'],
      [mediaReport, { resolution: 'actioned', action: 'hideMedia', banReason: 'x' }, 'validationFailed', '/banReason'],
      [mediaReport, { resolution: 'dismissed', banUntil: null }, 'validationFailed', '/banUntil'],
      [mediaReport, { resolution: 'closed' }, 'validationFailed', '/resolution'],
      [mediaReport, { resolution: 'actioned', action: 'deleteMedia' }, 'validationFailed', '/action'],
      [mediaReport, { resolution: 'dismissed', note: 'n'.repeat(2001) }, 'validationFailed', '/note'],
      [mediaReport, { resolution: 'dismissed', extra: true }, 'validationFailed', '/extra'],
      [mediaReport, {}, 'validationFailed', '/resolution'],
    ];
    for (const [id, body, code, pointer] of cases) {
      const res = await admin('PATCH', `/admin/reports/${id}`, body);
      assert.equal(res.statusCode, 422, JSON.stringify(body));
      assert.equal(res.json.errors[0].code, code, JSON.stringify(body));
      if (code !== 'validationFailed' || pointer !== '/extra') assert.equal(res.json.errors[0].source.pointer, pointer);
    }
    // The media disappears: hiding it fails, and the whole resolution with it.
    assert.equal(
      (await t.request({ method: 'DELETE', url: `/admin/media/${media.id}`, token: adminToken })).statusCode,
      204,
    );
    const gone = await admin('PATCH', `/admin/reports/${mediaReport}`, { resolution: 'actioned', action: 'hideMedia' });
    assert.equal(gone.statusCode, 422);
    assert.equal(gone.json.errors[0].code, 'actionNotApplicable');
    for (const id of [mediaReport, userReport]) {
      assert.equal((await admin('GET', `/admin/reports/${id}`)).json.data.attributes.status, 'open');
    }
    assert.equal(mailsTo(reporter).length, 0);
    assert.equal((await admin('GET', `/admin/audit?targetType=report&targetId=${mediaReport}`)).json.data.length, 0);
    assert.equal((await admin('PATCH', `/admin/reports/${randomUUID()}`, { resolution: 'dismissed' })).statusCode, 404);
    assert.equal((await admin('PATCH', '/admin/reports/nope', { resolution: 'dismissed' })).statusCode, 422);
    // Resolved without an action, the media report closes.
    assert.equal((await admin('PATCH', `/admin/reports/${mediaReport}`, { resolution: 'actioned' })).statusCode, 200);
  });

  it('resolves once when two resolutions race: one 200, one 409, one mail', async () => {
    const owner = await createUser(t);
    const reporter = await createUser(t);
    const media = await createMediaRow(t, owner.id);
    const reportId = await file(reporter, `/api/media/${media.id}/reports`);
    const answers = await Promise.all([
      admin('PATCH', `/admin/reports/${reportId}`, { resolution: 'dismissed' }),
      admin('PATCH', `/admin/reports/${reportId}`, { resolution: 'actioned', action: 'hideMedia' }),
      admin('PATCH', `/admin/reports/${reportId}`, { resolution: 'dismissed' }),
    ]);
    assert.deepEqual(answers.map((res) => res.statusCode).sort(), [200, 409, 409]);
    assert.equal(mailsTo(reporter).length, 1);
    assert.equal((await admin('GET', `/admin/audit?targetType=report&targetId=${reportId}`)).json.data.length, 1);
  });

  it('refuses user tokens and no token on every admin route (401)', async () => {
    const user = await createUser(t);
    const owner = await createUser(t);
    const media = await createMediaRow(t, owner.id);
    const reportId = await file(user, `/api/media/${media.id}/reports`);
    for (const [method, url, body] of [
      ['GET', '/admin/reports', undefined],
      ['GET', `/admin/reports/${reportId}`, undefined],
      ['PATCH', `/admin/reports/${reportId}`, { resolution: 'dismissed' }],
    ] as const) {
      for (const token of [user.token, undefined]) {
        const res = await t.request({ method, url, token, body });
        assert.equal(res.statusCode, 401, `${method} ${url}`);
        assert.match(String(res.headers['www-authenticate']), /realm="admin"/);
      }
    }
    assert.equal((await admin('GET', `/admin/reports/${reportId}`)).json.data.attributes.status, 'open');
  });

  it('counts reports against a target and in time windows, for other areas', async () => {
    const owner = await createUser(t);
    const reporter = await createUser(t);
    const { reports } = t.services.areas.reports;
    const reportStats = new ReportsStatsRepository(t.services.platform.transactions);
    const before = await reportStats.reports({
      now: t.clock.now(),
      day: t.clock.now(),
      week: t.clock.now(),
      month: t.clock.now(),
    });
    const id = await file(reporter, `/api/users/${owner.id}/reports`);
    assert.deepEqual(await reports.countAgainst('user', owner.id), { open: 1, total: 1 });
    await admin('PATCH', `/admin/reports/${id}`, { resolution: 'dismissed' });
    await file(reporter, `/api/users/${owner.id}/reports`);
    assert.deepEqual(await reports.countAgainst('user', owner.id), { open: 1, total: 2 });
    const now = t.clock.now();
    const stats = await reportStats.reports({ now, day: now, week: now, month: new Date(0) });
    assert.equal(stats.total, before.total + 2);
    assert.equal(stats.month, stats.total);
    assert.ok(stats.day >= 2);
    assert.ok(stats.open >= 1);
  });
});
