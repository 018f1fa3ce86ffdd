/**
 * JSON:API 1.1 as a client library expects it: exact media types, 415 and 406 for media type
 * parameters the spec forbids, non-JSON bodies refused, absolute links under PUBLIC_URL (path prefix
 * included), cursors bound to their list, and the language of an answer declared.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createUser, strongPassword, type TestUser } from '../helpers/factories.ts';

describe('JSON:API conventions', () => {
  let t: TestApp;
  let user: TestUser;
  before(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: 'https://travel.example.test/base' } });
    user = await createUser(t);
  });
  after(() => t.close());

  it('sends documents and errors as application/vnd.api+json with no parameter', async () => {
    const ok = await t.request({ method: 'GET', url: '/api/auth/me', token: user.token });
    assert.equal(ok.headers['content-type'], 'application/vnd.api+json');
    const error = await t.request({ method: 'GET', url: '/api/auth/me' });
    assert.equal(error.statusCode, 401);
    assert.equal(error.headers['content-type'], 'application/vnd.api+json');
    const notFound = await t.request({ method: 'GET', url: '/api/nothing-here' });
    assert.equal(notFound.headers['content-type'], 'application/vnd.api+json');
  });

  it('refuses a JSON:API body whose media type has parameters other than ext and profile (415)', async () => {
    const send = (contentType: string) =>
      t.request({
        method: 'PUT',
        url: '/api/users/me/nickname',
        token: user.token,
        headers: { 'content-type': contentType },
        payload: JSON.stringify({ nickname: 'Ana' }),
      });
    const refused = await send('application/vnd.api+json; charset=utf-8');
    assert.equal(refused.statusCode, 415);
    assert.equal(refused.json.errors[0].code, 'unsupportedMediaType');
    assert.equal(refused.json.errors[0].source.header, 'Content-Type');
    assert.equal((await send('application/vnd.api+json')).statusCode, 200);
    assert.equal((await send('application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"')).statusCode, 200);
    assert.equal((await send('application/json')).statusCode, 200);
  });

  it('answers 406 when every JSON:API type in Accept has a parameter other than ext and profile', async () => {
    const ask = (accept: string) =>
      t.request({ method: 'GET', url: '/api/auth/me', token: user.token, headers: { accept } });
    const refused = await ask('application/vnd.api+json; charset=utf-8');
    assert.equal(refused.statusCode, 406);
    assert.equal(refused.json.errors[0].code, 'notAcceptable');
    assert.equal((await ask('application/vnd.api+json; charset=utf-8, application/vnd.api+json')).statusCode, 200);
    assert.equal((await ask('application/vnd.api+json; profile="https://example.test/p"')).statusCode, 200);
    assert.equal((await ask('application/json, */*')).statusCode, 200);
  });

  it('refuses a text/plain (or any non-JSON) body with 415 pointing at the whole document, on body-less routes too', async () => {
    for (const [method, url] of [
      ['PUT', '/api/users/me/nickname'],
      ['POST', '/api/auth/logout-all'],
    ] as const) {
      const res = await t.request({
        method,
        url,
        token: user.token,
        headers: { 'content-type': 'text/plain' },
        payload: '{"nickname":"Ana"}',
      });
      assert.equal(res.statusCode, 415, url);
      assert.equal(res.json.errors[0].code, 'unsupportedMediaType');
      assert.equal(res.json.errors[0].source.pointer, '');
    }
  });

  it('writes absolute links under PUBLIC_URL, its path prefix included, and they can be followed', async () => {
    for (let i = 0; i < 3; i++)
      await t.request({
        method: 'POST',
        url: '/api/auth/login',
        body: { login: user.username, password: strongPassword },
      });
    const first = await t.request({ method: 'GET', url: '/api/auth/sessions?limit=1', token: user.token });
    assert.equal(first.json.links.self, 'https://travel.example.test/base/api/auth/sessions?limit=1');
    assert.match(first.json.links.next, /^https:\/\/travel\.example\.test\/base\/api\/auth\/sessions\?limit=1&cursor=/);
    // A client with base URL https://travel.example.test/base follows the link: the app sees the path after the base.
    const next = await t.request({
      method: 'GET',
      url: first.json.links.next.replace('https://travel.example.test/base', ''),
      token: user.token,
    });
    assert.equal(next.statusCode, 200);
    assert.notEqual(next.json.data[0].id, first.json.data[0].id);
  });

  it('refuses a cursor made for another list with 400 invalidCursor', async () => {
    const sessions = await t.request({ method: 'GET', url: '/api/auth/sessions?limit=1', token: user.token });
    const cursor = new URL(sessions.json.links.next).searchParams.get('cursor');
    assert.ok(cursor);
    const elsewhere = await t.request({
      method: 'GET',
      url: `/api/users/me/notifications?cursor=${cursor}`,
      token: user.token,
    });
    assert.equal(elsewhere.statusCode, 400);
    assert.equal(elsewhere.json.errors[0].code, 'invalidCursor');
    assert.equal(elsewhere.json.errors[0].source.parameter, 'cursor');
  });

  it('declares the language of an answer and that it varies with Accept-Language', async () => {
    const french = await t.request({
      method: 'GET',
      url: '/api/auth/me',
      headers: { 'accept-language': 'fr-FR,fr;q=0.9' },
    });
    assert.equal(french.statusCode, 401);
    assert.equal(french.headers['content-language'], 'fr-FR');
    assert.match(String(french.headers.vary), /Accept-Language/i);
    assert.equal(french.json.errors[0].title, french.json.errors[0].title.trim());
    const english = await t.request({ method: 'GET', url: '/api/ping' });
    assert.equal(english.headers['content-language'], 'en-US');
  });
});
