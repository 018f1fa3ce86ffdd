/**
 * Inputs at the edges of what the moderation routes take: times a Date holds but PostgreSQL does not
 * (year 0, year 10000 once moved to UTC), and texts of nothing visible. Each is a 4xx that changes
 * nothing, never a 500.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminToken, createTestApp, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/factories.ts';
import { createMediaRow } from '../helpers/media-factory.ts';

const outOfRange = ['0000-01-01T00:00:00Z', '0001-01-01T00:00:00+01:00', '9999-12-31T23:59:59-23:59'];
const invisible = ['   ', '\u200b', ' \u200b\u2060 ', '\u202e', '\u2800'];

describe('moderation inputs at the edges', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const admin = (method: 'GET' | 'PUT' | 'PATCH', url: string, body?: unknown) =>
    t.request({ method, url, token: adminToken, ...(body === undefined ? {} : { body }) });

  it('answers 400 to audit times outside the years 1 to 9999', async () => {
    for (const time of outOfRange) {
      for (const parameter of ['since', 'until']) {
        const res = await admin('GET', `/admin/audit?${parameter}=${encodeURIComponent(time)}`);
        assert.equal(res.statusCode, 400, `${parameter}=${time}`);
        assert.equal(res.json.errors[0].source.parameter, parameter);
      }
    }
  });

  it('answers 422 to a ban ending outside the years 1 to 9999, and leaves the user unbanned', async () => {
    const user = await createUser(t);
    for (const until of outOfRange) {
      const res = await admin('PUT', `/admin/users/${user.hex}/ban`, { reason: 'spam', until });
      assert.equal(res.statusCode, 422, until);
    }
    assert.equal((await t.request({ method: 'GET', url: '/api/auth/me', token: user.token })).statusCode, 200);
  });

  it('answers 422 to a report resolution banning until year 10000, leaving the report open', async () => {
    const reporter = await createUser(t);
    const target = await createUser(t);
    const report = await t.request({
      method: 'POST',
      url: `/api/users/${target.hex}/reports`,
      token: reporter.token,
      body: { reason: 'spam' },
    });
    assert.equal(report.statusCode, 201);
    const url = `/admin/reports/${report.json.data.id}`;
    const res = await admin('PATCH', url, {
      resolution: 'actioned',
      action: 'banUser',
      banUntil: '9999-12-31T23:59:59-23:59',
    });
    assert.equal(res.statusCode, 422);
    const blank = await admin('PATCH', url, { resolution: 'actioned', action: 'banUser', banReason: ' \u200b ' });
    assert.equal(blank.statusCode, 422);
    assert.equal((await admin('GET', url)).json.data.attributes.status, 'open');
  });

  it('refuses comments, ban reasons and maintenance messages of nothing visible', async () => {
    const owner = await createUser(t);
    const post = await createMediaRow(t, owner.id);
    for (const text of invisible) {
      const comment = await t.request({
        method: 'POST',
        url: `/api/media/${post.id}/comments`,
        token: owner.token,
        body: { body: text },
      });
      assert.equal(comment.statusCode, 422, JSON.stringify(text));
      const ban = await admin('PUT', `/admin/users/${owner.hex}/ban`, { reason: text });
      assert.equal(ban.statusCode, 422, JSON.stringify(text));
      const maintenance = await admin('PUT', '/admin/maintenance', { enabled: true, message: text });
      assert.equal(maintenance.statusCode, 422, JSON.stringify(text));
    }
    assert.equal((await admin('GET', '/admin/maintenance')).json.data.attributes.enabled, false);
    const listed = await t.request({ method: 'GET', url: `/api/media/${post.id}/comments` });
    assert.equal(listed.json.data.length, 0);
  });

  it('keeps line breaks in a comment and drops the characters that reorder text', async () => {
    const owner = await createUser(t);
    const post = await createMediaRow(t, owner.id);
    const res = await t.request({
      method: 'POST',
      url: `/api/media/${post.id}/comments`,
      token: owner.token,
      body: { body: 'Sunset\nover \u202Eeht\u202C sea\u0007' },
    });
    assert.equal(res.statusCode, 201);
    assert.equal(res.json.data.attributes.body, 'Sunset\nover eht sea');
  });
});
