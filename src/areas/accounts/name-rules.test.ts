/** Names under abuse: parallel username writes, invisible and bidi nicknames, token answers not cached. */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, strongPassword } from '../../../test/helpers/factories.ts';

let t: TestApp;
before(async () => {
  t = await createTestApp();
});
after(() => t.close());

const suffix = () => randomBytes(4).toString('hex');
const me = async (token: string) =>
  (await t.request({ method: 'GET', url: '/api/auth/me', token })).json.data.attributes;
const statuses = (responses: { statusCode: number }[]) => responses.map((res) => res.statusCode).sort();

describe('usernames are one conditional write', () => {
  it('lets exactly one of 8 parallel username changes through (the 30-day cool-down)', async () => {
    const user = await createUser(t);
    const names = Array.from({ length: 8 }, (_, i) => `racer_${i}_${suffix()}`);
    const responses = await Promise.all(
      names.map((username) =>
        t.request({ method: 'POST', url: '/api/users/me/username/change', token: user.token, body: { username } }),
      ),
    );
    assert.deepEqual(statuses(responses), [200, 422, 422, 422, 422, 422, 422, 422]);
    const winner = responses.find((res) => res.statusCode === 200)!;
    for (const refused of responses.filter((res) => res.statusCode === 422)) {
      assert.equal(refused.json.errors[0].code, 'usernameChangeTooSoon');
      assert.ok(refused.json.errors[0].meta.availableAt);
    }
    assert.equal((await me(user.token)).username, winner.json.data.attributes.username);
  });

  it('lets exactly one of 6 parallel first choices through, of the same name or of different ones', async () => {
    for (const sameName of [true, false]) {
      const reg = await t.request({
        method: 'POST',
        url: '/api/auth/register',
        body: { email: `first-${suffix()}@example.test`, password: strongPassword },
      });
      const token = reg.json.data.attributes.accessToken;
      const name = `first_${suffix()}`;
      const responses = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          t.request({
            method: 'POST',
            url: '/api/users/me/username',
            token,
            body: { username: sameName ? name : `${name}_${i}` },
          }),
        ),
      );
      assert.deepEqual(statuses(responses), [200, 409, 409, 409, 409, 409], `same name: ${sameName}`);
      const winner = responses.find((res) => res.statusCode === 200)!;
      for (const refused of responses.filter((res) => res.statusCode === 409)) {
        assert.equal(refused.json.errors[0].code, 'usernameAlreadySet');
      }
      assert.equal((await me(token)).username, winner.json.data.attributes.username);
      assert.equal((await me(token)).usernameChangedAt, null, 'a first choice starts no cool-down');
    }
  });
});

describe('nicknames', () => {
  const setNickname = (token: string, nickname: string) =>
    t.request({ method: 'PUT', url: '/api/users/me/nickname', token, body: { nickname } });

  it('refuses names that show nothing: zero-width, fillers, bidi controls, lone combining marks', async () => {
    const user = await createUser(t, { nickname: 'Visible Me' });
    for (const nickname of [
      '\u200b',
      '\u200b\u200c\u200d\u2060\ufeff',
      '\u3164\u3164',
      '\u202e\u202d',
      '\u2066\u2069\u200e',
      ' \u0301 ',
      '\u2800',
      '\t\n\u0007',
    ]) {
      const res = await setNickname(user.token, nickname);
      assert.equal(res.statusCode, 422, JSON.stringify(nickname));
      assert.equal(res.json.errors[0].code, 'validationFailed');
      assert.equal(res.json.errors[0].source.pointer, '/nickname');
    }
    assert.equal((await me(user.token)).nickname, 'Visible Me', 'nothing was written');
    const atRegistration = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      body: { email: `zw-${suffix()}@example.test`, password: strongPassword, nickname: '\u200b\u200b' },
    });
    assert.equal(atRegistration.statusCode, 422);
    assert.equal(atRegistration.json.errors[0].source.pointer, '/nickname');
  });

  it('strips control and bidi-override characters, keeps joiners inside emoji, stores NFC', async () => {
    const user = await createUser(t);
    const cases: Array<[string, string]> = [
      ['Ada\u202e\u2066 Lovelace\u2069', 'Ada Lovelace'],
      ['Line\none\ttab\u0007', 'Lineonetab'],
      ['\u200fEve\u200e', 'Eve'],
      ['Coder \u{1F469}\u200d\u{1F4BB}', 'Coder \u{1F469}\u200d\u{1F4BB}'],
      ['Zoe\u0308', 'Zo\u00eb'],
    ];
    for (const [sent, stored] of cases) {
      const res = await setNickname(user.token, sent);
      assert.equal(res.statusCode, 200, JSON.stringify(sent));
      assert.equal(res.json.data.attributes.nickname, stored);
      assert.equal((await me(user.token)).nickname, stored);
    }
  });
});

describe('answers that carry an access token', () => {
  it('are never stored by a cache (Cache-Control: no-store) on registration and login', async () => {
    const email = `no-store-${suffix()}@example.test`;
    const register = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      body: { email, password: strongPassword },
    });
    assert.equal(register.statusCode, 201);
    assert.ok(register.json.data.attributes.accessToken);
    assert.equal(register.headers['cache-control'], 'no-store');
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { email, password: strongPassword },
    });
    assert.equal(login.statusCode, 200);
    assert.equal(login.headers['cache-control'], 'no-store');
  });
});
