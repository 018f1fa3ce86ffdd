/** The three report routes: what a reporter sees, the rules (404, 409, 422), credentials and rate limits. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser, updateUserRow } from '../../../test/helpers/factories.ts';
import { createMediaRow } from '../../../test/helpers/media-factory.ts';

describe('reports', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const report = (user: TestUser | null, url: string, body: unknown, headers?: Record<string, string>) =>
    t.request({ method: 'POST', url, token: user?.token, body, headers });
  const commentOn = async (author: TestUser, mediaId: string) => {
    const res = await t.request({
      method: 'POST',
      url: `/api/media/${mediaId}/comments`,
      token: author.token,
      body: { body: 'What a view!' },
    });
    assert.equal(res.statusCode, 201);
    return res.json.data.id as string;
  };

  it('reports a media (201 with what the reporter may see), by UUID or 32-hex id', async () => {
    const owner = await createUser(t);
    const reporter = await createUser(t);
    const media = await createMediaRow(t, owner.id);
    const res = await report(reporter, `/api/media/${media.id.replaceAll('-', '')}/reports`, {
      reason: 'spam',
      details: '  Same photo posted ten times  ',
    });
    assert.equal(res.statusCode, 201);
    assert.equal(res.headers['content-type'], 'application/vnd.api+json');
    assert.match(res.json.data.id, /^[0-9a-f-]{36}$/);
    assert.deepEqual(res.json.data, {
      type: 'reports',
      id: res.json.data.id,
      attributes: {
        kind: 'media',
        targetId: media.id,
        reason: 'spam',
        details: 'Same photo posted ten times',
        status: 'open',
        createdAt: '2026-11-21T12:00:00.000+00:00',
      },
    });
  });

  it('reports a user by 32-hex id or UUID, and a comment; details are optional', async () => {
    const reporter = await createUser(t);
    const troll = await createUser(t);
    const byHex = await report(reporter, `/api/users/${troll.hex}/reports`, { reason: 'harassment' });
    assert.equal(byHex.statusCode, 201);
    assert.equal(byHex.json.data.attributes.kind, 'user');
    assert.equal(byHex.json.data.attributes.targetId, troll.id);
    assert.equal(byHex.json.data.attributes.details, null);

    const owner = await createUser(t);
    const media = await createMediaRow(t, owner.id);
    const commentId = await commentOn(troll, media.id);
    const res = await report(reporter, `/api/media/comments/${commentId}/reports`, { reason: 'other', details: null });
    assert.equal(res.statusCode, 201);
    assert.equal(res.json.data.attributes.kind, 'comment');
    assert.equal(res.json.data.attributes.targetId, commentId);
    assert.equal(res.json.data.attributes.details, null);
  });

  it('accepts every documented reason and refuses any other (422), and details over 1000 characters', async () => {
    const owner = await createUser(t);
    const reporter = await createUser(t);
    for (const reason of ['spam', 'nudity', 'harassment', 'violence', 'copyright', 'privacy', 'other']) {
      const media = await createMediaRow(t, owner.id);
      assert.equal((await report(reporter, `/api/media/${media.id}/reports`, { reason })).statusCode, 201, reason);
    }
    const media = await createMediaRow(t, owner.id);
    const url = `/api/media/${media.id}/reports`;
    for (const body of [{ reason: 'boring' }, { reason: 'SPAM' }, {}, { reason: 'spam', extra: 1 }, { reason: 3 }]) {
      const res = await report(reporter, url, body);
      assert.equal(res.statusCode, 422, JSON.stringify(body));
      assert.equal(res.json.errors[0].code, 'validationFailed');
    }
    const unknownReason = await report(reporter, url, { reason: 'boring' });
    assert.equal(unknownReason.json.errors[0].source.pointer, '/reason');
    const long = await report(reporter, url, { reason: 'spam', details: 'x'.repeat(1001) });
    assert.equal(long.statusCode, 422);
    assert.equal(long.json.errors[0].source.pointer, '/details');
    assert.equal((await report(reporter, url, { reason: 'spam', details: 'x'.repeat(1000) })).statusCode, 201);
  });

  it('refuses unknown and invisible targets (404) and malformed ids (422)', async () => {
    const owner = await createUser(t);
    const reporter = await createUser(t);
    const hidden = await createMediaRow(t, owner.id, { flag: 2 });
    const unpublished = await createMediaRow(t, owner.id, { published: false });
    for (const url of [
      `/api/media/${randomUUID()}/reports`,
      `/api/media/${hidden.id}/reports`,
      `/api/media/${unpublished.id}/reports`,
      `/api/users/${randomUUID()}/reports`,
      `/api/media/comments/${randomUUID()}/reports`,
    ]) {
      const res = await report(reporter, url, { reason: 'spam' });
      assert.equal(res.statusCode, 404, url);
      assert.equal(res.json.errors[0].code, 'notFound');
    }
    const banned = await createUser(t);
    await updateUserRow(t, banned.id, { bannedAt: t.clock.now() });
    assert.equal((await report(reporter, `/api/users/${banned.id}/reports`, { reason: 'spam' })).statusCode, 404);

    const media = await createMediaRow(t, owner.id);
    const commentId = await commentOn(owner, media.id);
    assert.equal(
      (await t.request({ method: 'DELETE', url: `/api/media/comments/${commentId}`, token: owner.token })).statusCode,
      204,
    );
    const deleted = await report(reporter, `/api/media/comments/${commentId}/reports`, { reason: 'spam' });
    assert.equal(deleted.statusCode, 404);
    assert.equal(deleted.json.errors[0].source.parameter, 'commentId');

    for (const [url, parameter] of [
      ['/api/media/nope/reports', 'mediaId'],
      ['/api/users/nope/reports', 'userHex'],
      [`/api/media/comments/${media.id.replaceAll('-', '')}/reports`, 'commentId'],
    ] as const) {
      const res = await report(reporter, url, { reason: 'spam' });
      assert.equal(res.statusCode, 422, url);
      assert.equal(res.json.errors[0].code, 'invalidId');
      assert.equal(res.json.errors[0].source.parameter, parameter);
    }
  });

  it('refuses self-reports: oneself, one’s own media, one’s own comment (422 cannotReportSelf)', async () => {
    const ana = await createUser(t);
    const media = await createMediaRow(t, ana.id, { flag: 2 });
    const commentId = await commentOn(ana, media.id);
    for (const url of [
      `/api/users/${ana.hex}/reports`,
      `/api/media/${media.id}/reports`,
      `/api/media/comments/${commentId}/reports`,
    ]) {
      const res = await report(ana, url, { reason: 'other' });
      assert.equal(res.statusCode, 422, url);
      assert.equal(res.json.errors[0].code, 'cannotReportSelf');
    }
  });

  it('allows one open report per reporter and target: a second is 409, two at once give one', async () => {
    const owner = await createUser(t);
    const reporter = await createUser(t);
    const other = await createUser(t);
    const media = await createMediaRow(t, owner.id);
    const url = `/api/media/${media.id}/reports`;
    assert.equal((await report(reporter, url, { reason: 'spam' })).statusCode, 201);
    const again = await report(reporter, url, { reason: 'nudity' });
    assert.equal(again.statusCode, 409);
    assert.equal(again.json.errors[0].code, 'alreadyReported');
    assert.equal(again.json.errors[0].source.parameter, 'mediaId');
    // Another reporter may report the same media.
    assert.equal((await report(other, url, { reason: 'spam' })).statusCode, 201);

    const target = await createUser(t);
    const racing = await Promise.all(
      Array.from({ length: 4 }, () => report(reporter, `/api/users/${target.id}/reports`, { reason: 'spam' })),
    );
    assert.deepEqual(racing.map((res) => res.statusCode).sort(), [201, 409, 409, 409]);
    const listed = await t.request({
      method: 'GET',
      url: '/admin/reports?kind=user&limit=200',
      token: adminToken,
    });
    assert.equal(listed.json.data.filter((row: any) => row.attributes.targetId === target.id).length, 1);
  });

  it('refuses a missing or unknown token (401) on every report route', async () => {
    const owner = await createUser(t);
    const media = await createMediaRow(t, owner.id);
    for (const url of [
      `/api/media/${media.id}/reports`,
      `/api/users/${owner.id}/reports`,
      `/api/media/comments/${randomUUID()}/reports`,
    ]) {
      const none = await report(null, url, { reason: 'spam' });
      assert.equal(none.statusCode, 401, url);
      assert.match(String(none.headers['www-authenticate']), /Bearer realm="api"/);
      const foreign = await t.request({ method: 'POST', url, token: 'tms_not-a-token', body: { reason: 'spam' } });
      assert.equal(foreign.statusCode, 401, url);
      const admin = await t.request({ method: 'POST', url, token: adminToken, body: { reason: 'spam' } });
      assert.equal(admin.statusCode, 401, url);
    }
  });
});

describe('reports: rate limits', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { RATE_LIMITS: 'on' } });
  });
  after(() => t.close());

  it('counts the three routes together: 20 reports an hour per account, then 429 with Retry-After', async () => {
    const reporter = await createUser(t);
    const owner = await createUser(t);
    for (let i = 0; i < 20; i++) {
      const media = await createMediaRow(t, owner.id);
      const res = await t.request({
        method: 'POST',
        url: `/api/media/${media.id}/reports`,
        token: reporter.token,
        body: { reason: 'spam' },
      });
      assert.equal(res.statusCode, 201);
      assert.equal(res.headers['x-ratelimit-limit'], '20');
    }
    const refused = await t.request({
      method: 'POST',
      url: `/api/users/${owner.id}/reports`,
      token: reporter.token,
      body: { reason: 'spam' },
    });
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.json.errors[0].code, 'rateLimited');
    assert.ok(Number(refused.headers['retry-after']) > 0);
    // Another account from the same IP still may (the per-IP limit is 60 an hour).
    const other = await createUser(t);
    const ok = await t.request({
      method: 'POST',
      url: `/api/users/${owner.id}/reports`,
      token: other.token,
      body: { reason: 'spam' },
    });
    assert.equal(ok.statusCode, 201);
    t.clock.advanceMinutes(61);
    const later = await t.request({
      method: 'POST',
      url: `/api/users/${owner.id}/reports`,
      token: reporter.token,
      body: { reason: 'spam' },
    });
    assert.equal(later.statusCode, 201);
  });
});
