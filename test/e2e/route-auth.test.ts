/**
 * Every route, as registered: `user` routes refuse a missing, unknown or revoked token; `admin` routes
 * refuse no token, a user token and a wrong token, and refuse everything while ADMIN_API_TOKEN is unset.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.ts';
import { adminToken, createTestApp, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/factories.ts';

/** Fills every `{param}` with something well-formed, so only the credential can refuse the request. */
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, () => randomUUID().replaceAll('-', ''));

describe('route authentication', () => {
  let t: TestApp;
  let userToken: string;
  let revokedToken: string;
  before(async () => {
    t = await createTestApp();
    userToken = (await createUser(t)).token;
    const revoked = await createUser(t);
    await t.request({ method: 'POST', url: '/api/auth/logout', token: revoked.token });
    revokedToken = revoked.token;
  });
  after(() => t.close());

  const routesOf = async (auth: string) => {
    const { routes, app } = await buildApp(t.deps, { logger: false });
    await app.close();
    return routes.filter((route) => route.auth === auth);
  };

  it('has user routes and admin routes to check', async () => {
    assert.ok((await routesOf('user')).length >= 5);
    assert.ok((await routesOf('admin')).length >= 1);
  });

  it('every user route refuses a missing, unknown or revoked token with 401 and WWW-Authenticate', async () => {
    for (const route of await routesOf('user')) {
      for (const token of [undefined, 'tms_unknown', revokedToken, adminToken]) {
        const res = await t.request({ method: route.method as 'GET', url: concrete(route.path), token });
        assert.equal(res.statusCode, 401, `${route.method} ${route.path} with ${token ?? 'no token'}`);
        assert.match(String(res.headers['www-authenticate']), /^Bearer/);
        assert.equal(res.json.errors[0].code, 'unauthenticated');
      }
    }
  });

  it('every admin route refuses no token, a user token and a wrong token', async () => {
    for (const route of await routesOf('admin')) {
      for (const token of [undefined, userToken, `${adminToken}x`]) {
        const res = await t.request({ method: route.method as 'GET', url: concrete(route.path), token });
        assert.equal(res.statusCode, 401, `${route.method} ${route.path} with ${token ?? 'no token'}`);
        assert.equal(res.json.errors[0].code, 'unauthenticated');
      }
    }
  });

  it('every admin route refuses even the old token while ADMIN_API_TOKEN is unset', async () => {
    const closed = await createTestApp({ env: { ADMIN_API_TOKEN: '' } });
    try {
      for (const route of await routesOf('admin')) {
        const res = await closed.request({
          method: route.method as 'GET',
          url: concrete(route.path),
          token: adminToken,
        });
        assert.equal(res.statusCode, 401, `${route.method} ${route.path}`);
      }
    } finally {
      await closed.close();
    }
  });
});
