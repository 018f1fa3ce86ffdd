/**
 * With the session cache on (its default), a revoked token answers 401 (a banned account 403) on the
 * very next request, through every path that revokes; and the cache really answers from memory: a
 * session row removed behind its back keeps working until SESSION_CACHE_SECONDS pass, no longer.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, strongPassword, type TestUser, updateUserRow } from '../../../test/helpers/factories.ts';

describe('session cache and revocation', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { SESSION_CACHE_SECONDS: '30' } });
  });
  after(() => t.close());

  const me = async (token: string) => (await t.request({ method: 'GET', url: '/api/auth/me', token })).statusCode;
  const login = async (user: TestUser) => {
    const response = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { email: user.email, password: strongPassword },
    });
    assert.equal(response.statusCode, 200);
    return {
      token: response.json.data.attributes.accessToken as string,
      sessionId: response.json.data.id as string,
    };
  };
  /** A user whose token has been used, so its session sits in the cache. */
  const warmUser = async () => {
    const user = await createUser(t);
    assert.equal(await me(user.token), 200);
    assert.ok(t.services.areas.accounts.sessionCache.size > 0);
    return user;
  };

  it('answers from memory within SESSION_CACHE_SECONDS, and from the database after', async () => {
    const user = await warmUser();
    // Removed behind the cache's back (no revocation), the session still works while cached...
    await t.deps.database.db.execute(sql`DELETE FROM sessions WHERE id = ${user.sessionId}`);
    assert.equal(await me(user.token), 200);
    t.clock.advance(29_000);
    assert.equal(await me(user.token), 200);
    // ...and no longer once the entry is older than the TTL.
    t.clock.advance(2_000);
    assert.equal(await me(user.token), 401);
  });

  it('logout: the token dies on the next request', async () => {
    const user = await warmUser();
    const logout = await t.request({ method: 'POST', url: '/api/auth/logout', token: user.token });
    assert.equal(logout.statusCode, 204);
    assert.equal(await me(user.token), 401);
  });

  it('revoking one session from another: that token dies, the other lives', async () => {
    const user = await warmUser();
    const second = await login(user);
    assert.equal(await me(second.token), 200);
    const revoke = await t.request({
      method: 'DELETE',
      url: `/api/auth/sessions/${second.sessionId}`,
      token: user.token,
    });
    assert.equal(revoke.statusCode, 204);
    assert.equal(await me(second.token), 401);
    assert.equal(await me(user.token), 200);
  });

  it('logout-all: every token of the user dies, those of others live', async () => {
    const user = await warmUser();
    const other = await warmUser();
    const second = await login(user);
    assert.equal(await me(second.token), 200);
    const all = await t.request({ method: 'POST', url: '/api/auth/logout-all', token: user.token });
    assert.equal(all.json.data.attributes.ended, 2);
    assert.equal(await me(user.token), 401);
    assert.equal(await me(second.token), 401);
    assert.equal(await me(other.token), 200);
  });

  it('a password change ends the other sessions at once, and keeps the current one', async () => {
    const user = await warmUser();
    const second = await login(user);
    assert.equal(await me(second.token), 200);
    const change = await t.request({
      method: 'POST',
      url: '/api/users/me/password',
      token: user.token,
      body: { currentPassword: strongPassword, newPassword: 'a brand new secret 9' },
    });
    assert.equal(change.statusCode, 204);
    assert.equal(await me(second.token), 401);
    assert.equal(await me(user.token), 200);
  });

  it('a password reset through the mailed link ends every session at once', async () => {
    const user = await warmUser();
    await t.request({ method: 'POST', url: '/api/auth/forgot-password', body: { email: user.email } });
    await t.services.areas.accounts.mailFlows.drain();
    const token = /reset=([A-Za-z0-9_-]+)/.exec(t.mail.last(user.email)!.text)![1];
    const reset = await t.request({
      method: 'POST',
      url: '/api/auth/reset-password',
      body: { token, password: 'reset and new 77' },
    });
    assert.ok(reset.statusCode < 300, `reset answered ${reset.statusCode}`);
    assert.equal(await me(user.token), 401);
  });

  it('a ban answers 403 on the next request; an erasure 401', async () => {
    const banned = await warmUser();
    await updateUserRow(t, banned.id, { bannedAt: t.clock.now() });
    assert.equal(await me(banned.token), 403);
    const erased = await warmUser();
    await updateUserRow(t, erased.id, { anonymizedAt: t.clock.now() });
    assert.equal(await me(erased.token), 401);
  });

  it('a revocation inside a transaction takes effect when it commits, not when it rolls back', async () => {
    const user = await warmUser();
    const { transactions } = t.services.platform;
    await assert.rejects(
      transactions.run(async () => {
        await t.services.areas.accounts.sessions.endAll(user.id);
        throw new Error('roll back');
      }),
    );
    assert.equal(await me(user.token), 200, 'rolled back: the session lives');
    await transactions.run(() => t.services.areas.accounts.sessions.endAll(user.id));
    assert.equal(await me(user.token), 401);
  });
});
