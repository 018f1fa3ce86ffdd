/** A user signed in on the web pages (POST /login from a page of the site): the Cookie header of their session. */
import assert from 'node:assert/strict';
import type { TestApp } from './app.ts';
import { strongPassword, type TestUser } from './factories.ts';

export async function webSignIn(t: TestApp, user: TestUser, origin: string): Promise<string> {
  const res = await t.request({
    method: 'POST',
    url: '/login',
    headers: { origin, accept: 'application/json' },
    body: { login: user.username, password: strongPassword },
  });
  assert.equal(res.statusCode, 200, res.body);
  const line = [res.headers['set-cookie'] ?? []].flat().find((cookie) => cookie.startsWith('tm_session='));
  assert.ok(line, 'no tm_session cookie');
  return line.split(';')[0]!;
}
