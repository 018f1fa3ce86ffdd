import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, strongPassword } from '../../../test/helpers/factories.ts';
import { queryRows } from '../../platform/db/rows.ts';

let t: TestApp;
before(async () => {
  t = await createTestApp();
});
after(() => t.close());

const me = async (token: string) =>
  (await t.request({ method: 'GET', url: '/api/auth/me', token })).json.data.attributes;

describe('my account routes refuse a missing or bad token', () => {
  it('answers 401 with WWW-Authenticate on every route', async () => {
    const routes: Array<[string, string, unknown?]> = [
      ['POST', '/api/users/me/username', { username: 'someone' }],
      ['POST', '/api/users/me/username/change', { username: 'someone' }],
      ['PUT', '/api/users/me/nickname', { nickname: 'x' }],
      ['POST', '/api/users/me/password', { currentPassword: strongPassword, newPassword: strongPassword }],
      ['GET', '/api/users/me/settings'],
      ['PATCH', '/api/users/me/settings', { discoverable: false }],
      ['GET', '/api/users/me/address'],
      ['PATCH', '/api/users/me/address', { city: 'Lyon' }],
      ['DELETE', '/api/users/me/address'],
      ['GET', '/api/users/me/sponsorship'],
    ];
    for (const [method, url, body] of routes) {
      for (const token of [undefined, 'tms_unknown']) {
        const res = await t.request({ method: method as 'GET', url, body, token });
        assert.equal(res.statusCode, 401, `${method} ${url}`);
        assert.match(res.headers['www-authenticate'] as string, /^Bearer/);
        assert.equal(res.json.errors[0].code, 'unauthenticated');
      }
    }
  });
});

describe('usernames and nickname', () => {
  it('lets a user without a username choose one, once', async () => {
    const reg = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      body: { email: 'nameless@example.test', password: strongPassword },
    });
    const token = reg.json.data.attributes.accessToken;
    assert.equal((await me(token)).username, null);
    const changeFirst = await t.request({
      method: 'POST',
      url: '/api/users/me/username/change',
      token,
      body: { username: 'too_early' },
    });
    assert.equal(changeFirst.statusCode, 422);
    assert.equal(changeFirst.json.errors[0].code, 'usernameRequired');

    const taken = await createUser(t, { username: 'taken_name' });
    const conflict = await t.request({
      method: 'POST',
      url: '/api/users/me/username',
      token,
      body: { username: 'TAKEN_name' },
    });
    assert.equal(conflict.statusCode, 409);
    assert.equal(conflict.json.errors[0].code, 'usernameTaken');
    assert.equal(conflict.json.errors[0].source.pointer, '/username');
    const reserved = await t.request({
      method: 'POST',
      url: '/api/users/me/username',
      token,
      body: { username: 'Admin' },
    });
    assert.equal(reserved.json.errors[0].code, 'usernameTaken');
    const invalid = await t.request({
      method: 'POST',
      url: '/api/users/me/username',
      token,
      body: { username: 'no spaces' },
    });
    assert.equal(invalid.statusCode, 422);
    assert.equal(invalid.json.errors[0].source.pointer, '/username');
    assert.equal((await me(token)).username, null, 'refusals wrote nothing');

    const chosen = await t.request({
      method: 'POST',
      url: '/api/users/me/username',
      token,
      body: { username: 'first.choice' },
    });
    assert.equal(chosen.statusCode, 200);
    assert.equal(chosen.json.data.type, 'users');
    assert.equal(chosen.json.data.attributes.username, 'first.choice');
    assert.equal(chosen.json.data.attributes.usernameChangedAt, null, 'the first choice starts no cool-down');
    const again = await t.request({
      method: 'POST',
      url: '/api/users/me/username',
      token,
      body: { username: 'second' },
    });
    assert.equal(again.statusCode, 409);
    assert.equal(again.json.errors[0].code, 'usernameAlreadySet');
    assert.equal(taken.username, 'taken_name');
  });

  it('changes a username at most once every 30 days, with availableAt in meta', async () => {
    const user = await createUser(t, { username: 'changer' });
    const first = await t.request({
      method: 'POST',
      url: '/api/users/me/username/change',
      token: user.token,
      body: { username: 'changer_two' },
    });
    assert.equal(first.statusCode, 200);
    assert.equal(first.json.data.attributes.username, 'changer_two');
    const changedAt = first.json.data.attributes.usernameChangedAt;
    assert.equal(changedAt, t.clock.now().toISOString().replace('Z', '+00:00'));

    t.clock.advance(29 * 86_400_000);
    const tooSoon = await t.request({
      method: 'POST',
      url: '/api/users/me/username/change',
      token: user.token,
      body: { username: 'changer_three' },
    });
    assert.equal(tooSoon.statusCode, 422);
    assert.equal(tooSoon.json.errors[0].code, 'usernameChangeTooSoon');
    const availableAt = new Date(new Date(changedAt).getTime() + 30 * 86_400_000).toISOString().replace('Z', '+00:00');
    assert.equal(tooSoon.json.errors[0].meta.availableAt, availableAt);
    assert.ok(tooSoon.json.errors[0].title.includes(availableAt));

    const login = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { login: 'changer', password: strongPassword },
    });
    assert.equal(login.statusCode, 401, 'the old username no longer signs in');

    t.clock.advance(86_400_000);
    const later = await t.request({
      method: 'POST',
      url: '/api/users/me/username/change',
      token: user.token,
      body: { username: 'changer_three' },
    });
    assert.equal(later.statusCode, 200);
    const freed = await createUser(t, { username: 'changer', email: 'new-changer@example.test' });
    assert.equal(freed.username, 'changer', 'an old username is free for others');
    const taken = await t.request({
      method: 'POST',
      url: '/api/users/me/username/change',
      token: freed.token,
      body: { username: 'Changer_Three' },
    });
    assert.equal(taken.statusCode, 409);
    assert.equal(taken.json.errors[0].code, 'usernameTaken');
  });

  it('sets the nickname, trimmed; refuses blank, over-long and extra fields', async () => {
    const user = await createUser(t);
    const ok = await t.request({
      method: 'PUT',
      url: '/api/users/me/nickname',
      token: user.token,
      body: { nickname: '  Élodie ✈  ' },
    });
    assert.equal(ok.statusCode, 200);
    assert.equal(ok.json.data.attributes.nickname, 'Élodie ✈');
    const cases: Array<[unknown, string]> = [
      [{ nickname: '   ' }, '/nickname'],
      [{ nickname: 'n'.repeat(51) }, '/nickname'],
      [{}, '/nickname'],
      [{ nickname: 'ok', extra: 1 }, '/extra'],
      [{ nickname: 42 }, '/nickname'],
    ];
    for (const [body, pointer] of cases) {
      const res = await t.request({ method: 'PUT', url: '/api/users/me/nickname', token: user.token, body });
      assert.equal(res.statusCode, 422, JSON.stringify(body));
      assert.ok(
        res.json.errors.some((e: any) => e.source?.pointer === pointer),
        JSON.stringify(res.json.errors),
      );
    }
    assert.equal((await me(user.token)).nickname, 'Élodie ✈');
  });
});

describe('registration nickname', () => {
  it('refuses a blank nickname at registration like the nickname route does', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      body: { email: 'blank-nick@example.test', password: strongPassword, nickname: '   ' },
    });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json.errors[0].source.pointer, '/nickname');
  });
});

describe('password change', () => {
  it('needs the current password, checks the new one, keeps this session and ends the others', async () => {
    const user = await createUser(t);
    const other = (
      await t.request({ method: 'POST', url: '/api/auth/login', body: { email: user.email, password: strongPassword } })
    ).json.data.attributes.accessToken;
    const wrong = await t.request({
      method: 'POST',
      url: '/api/users/me/password',
      token: user.token,
      body: { currentPassword: 'not it at all 1', newPassword: 'brand new pass 2' },
    });
    assert.equal(wrong.statusCode, 422);
    assert.equal(wrong.json.errors[0].code, 'wrongPassword');
    assert.equal(wrong.json.errors[0].source.pointer, '/currentPassword');
    const weak = await t.request({
      method: 'POST',
      url: '/api/users/me/password',
      token: user.token,
      body: { currentPassword: strongPassword, newPassword: 'weak' },
    });
    assert.equal(weak.statusCode, 422);
    assert.equal(weak.json.errors[0].code, 'weakPassword');
    assert.equal(weak.json.errors[0].source.pointer, '/newPassword');
    assert.equal(
      (await t.request({ method: 'GET', url: '/api/auth/me', token: other })).statusCode,
      200,
      'refusals end nothing',
    );

    const ok = await t.request({
      method: 'POST',
      url: '/api/users/me/password',
      token: user.token,
      body: { currentPassword: strongPassword, newPassword: 'brand new pass 2' },
    });
    assert.equal(ok.statusCode, 204);
    assert.equal(
      (await t.request({ method: 'GET', url: '/api/auth/me', token: user.token })).statusCode,
      200,
      'the current session stays',
    );
    assert.equal(
      (await t.request({ method: 'GET', url: '/api/auth/me', token: other })).statusCode,
      401,
      'the other session ended',
    );
    const oldLogin = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { email: user.email, password: strongPassword },
    });
    assert.equal(oldLogin.statusCode, 401);
    const newLogin = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { email: user.email, password: 'brand new pass 2' },
    });
    assert.equal(newLogin.statusCode, 200);
  });
});

describe('settings', () => {
  it('shows defaults, patches some keys, and refuses unknown keys and wrong types all-or-nothing', async () => {
    const user = await createUser(t);
    const defaults = await t.request({ method: 'GET', url: '/api/users/me/settings', token: user.token });
    assert.equal(defaults.statusCode, 200);
    assert.equal(defaults.json.data.type, 'userSettings');
    assert.equal(defaults.json.data.id, user.id);
    assert.deepEqual(defaults.json.data.attributes, {
      publishLocationByDefault: true,
      showReactionsPublicly: false,
      discoverable: true,
      marketingEmails: false,
      birthCityId: null,
      blurSensitiveMedia: true,
    });

    const patch = await t.request({
      method: 'PATCH',
      url: '/api/users/me/settings',
      token: user.token,
      body: { discoverable: false, marketingEmails: true, blurSensitiveMedia: false },
    });
    assert.equal(patch.statusCode, 200);
    assert.deepEqual(patch.json.data.attributes, {
      publishLocationByDefault: true,
      showReactionsPublicly: false,
      discoverable: false,
      marketingEmails: true,
      birthCityId: null,
      blurSensitiveMedia: false,
    });

    const bad = await t.request({
      method: 'PATCH',
      url: '/api/users/me/settings',
      token: user.token,
      body: { showReactionsPublicly: true, darkMode: true, discoverable: 'yes', blurSensitiveMedia: 'no' },
    });
    assert.equal(bad.statusCode, 422);
    const pointers = bad.json.errors.map((e: any) => e.source.pointer).sort();
    assert.ok(pointers.includes('/darkMode'), JSON.stringify(bad.json.errors));
    assert.ok(pointers.includes('/blurSensitiveMedia'), JSON.stringify(bad.json.errors));
    const after = await t.request({ method: 'GET', url: '/api/users/me/settings', token: user.token });
    assert.equal(after.json.data.attributes.showReactionsPublicly, false, 'nothing of a refused patch was applied');
    assert.equal(after.json.data.attributes.discoverable, false);
    assert.equal(after.json.data.attributes.blurSensitiveMedia, false);

    const other = await createUser(t);
    const theirs = await t.request({ method: 'GET', url: '/api/users/me/settings', token: other.token });
    assert.equal(theirs.json.data.attributes.discoverable, true, "another user's settings are their own");
  });

  it('shows only the settings it declares, whatever an older version left in the stored row', async () => {
    const user = await createUser(t);
    await queryRows(
      t.deps.database.db,
      sql`UPDATE users SET settings = settings || '{"darkMode": true, "legacyNewsletter": "weekly"}'::jsonb WHERE id = ${user.id}`,
    );
    const shown = await t.request({ method: 'GET', url: '/api/users/me/settings', token: user.token });
    assert.equal(shown.statusCode, 200);
    assert.deepEqual(Object.keys(shown.json.data.attributes).sort(), [
      'birthCityId',
      'blurSensitiveMedia',
      'discoverable',
      'marketingEmails',
      'publishLocationByDefault',
      'showReactionsPublicly',
    ]);
  });
});

describe('postal address', () => {
  const address = {
    recipient: 'Ana Silva',
    line1: '12 rue des Lilas',
    postalCode: '69003',
    city: 'Lyon',
    countryCode: 'fr',
  };

  it('is null until set; a first address needs every required field; PATCH merges; DELETE removes', async () => {
    const user = await createUser(t);
    const none = await t.request({ method: 'GET', url: '/api/users/me/address', token: user.token });
    assert.equal(none.statusCode, 200);
    assert.equal(none.json.data, null);

    const partial = await t.request({
      method: 'PATCH',
      url: '/api/users/me/address',
      token: user.token,
      body: { city: 'Lyon' },
    });
    assert.equal(partial.statusCode, 422);
    assert.deepEqual(partial.json.errors.map((e: any) => e.source.pointer).sort(), [
      '/countryCode',
      '/line1',
      '/postalCode',
      '/recipient',
    ]);

    const set = await t.request({ method: 'PATCH', url: '/api/users/me/address', token: user.token, body: address });
    assert.equal(set.statusCode, 200);
    assert.equal(set.json.data.type, 'postalAddresses');
    assert.deepEqual(set.json.data.attributes, {
      ...address,
      countryCode: 'FR',
      line2: null,
      region: null,
      phone: null,
    });

    const merged = await t.request({
      method: 'PATCH',
      url: '/api/users/me/address',
      token: user.token,
      body: { line2: 'Bât. B', phone: '+33 6 12 34 56 78' },
    });
    assert.equal(merged.statusCode, 200);
    assert.equal(merged.json.data.attributes.line1, '12 rue des Lilas');
    assert.equal(merged.json.data.attributes.line2, 'Bât. B');
    const read = await t.request({ method: 'GET', url: '/api/users/me/address', token: user.token });
    assert.deepEqual(read.json.data.attributes, merged.json.data.attributes);

    const other = await createUser(t);
    assert.equal(
      (await t.request({ method: 'GET', url: '/api/users/me/address', token: other.token })).json.data,
      null,
      'not shown to another user',
    );

    const removed = await t.request({ method: 'DELETE', url: '/api/users/me/address', token: user.token });
    assert.equal(removed.statusCode, 204);
    assert.equal((await t.request({ method: 'GET', url: '/api/users/me/address', token: user.token })).json.data, null);
  });

  it('refuses unknown country codes, bad lengths, blank required fields and unknown keys, writing nothing', async () => {
    const user = await createUser(t);
    await t.request({ method: 'PATCH', url: '/api/users/me/address', token: user.token, body: address });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ countryCode: 'XX' }, '/countryCode'],
      [{ countryCode: 'FRA' }, '/countryCode'],
      [{ postalCode: '1'.repeat(21) }, '/postalCode'],
      [{ recipient: 'r'.repeat(101) }, '/recipient'],
      [{ line1: '   ' }, '/line1'],
      [{ phone: 'call me maybe' }, '/phone'],
      [{ floor: 3 }, '/floor'],
      [{ city: null }, '/city'],
    ];
    for (const [body, pointer] of cases) {
      const res = await t.request({ method: 'PATCH', url: '/api/users/me/address', token: user.token, body });
      assert.equal(res.statusCode, 422, JSON.stringify(body));
      assert.ok(
        res.json.errors.some((e: any) => e.source?.pointer === pointer),
        `${JSON.stringify(body)} -> ${JSON.stringify(res.json.errors)}`,
      );
    }
    const read = await t.request({ method: 'GET', url: '/api/users/me/address', token: user.token });
    assert.equal(read.json.data.attributes.countryCode, 'FR');
    assert.equal(read.json.data.attributes.line1, '12 rue des Lilas');
  });
});

describe('sponsorship', () => {
  it('shows my code and the accounts that registered with it, newest first, paginated', async () => {
    const sponsor = await createUser(t);
    const mine = await t.request({ method: 'GET', url: '/api/users/me/sponsorship', token: sponsor.token });
    assert.equal(mine.statusCode, 200);
    const code = mine.json.meta.sponsorCode;
    assert.match(code, /^[A-Z2-9]{8}$/);
    assert.deepEqual(mine.json.data, []);
    assert.equal(mine.json.meta.total, 0);

    const names: string[] = [];
    for (let i = 0; i < 3; i++) {
      t.clock.advanceMinutes(1);
      const res = await t.request({
        method: 'POST',
        url: '/api/auth/register',
        body: {
          email: `sponsored${i}@example.test`,
          password: strongPassword,
          username: `sponsored_${i}`,
          sponsorCode: code.toLowerCase(),
        },
      });
      assert.equal(res.statusCode, 201);
      names.push(`sponsored_${i}`);
    }
    await createUser(t); // not sponsored
    const page1 = await t.request({ method: 'GET', url: '/api/users/me/sponsorship?limit=2', token: sponsor.token });
    assert.deepEqual(
      page1.json.data.map((u: any) => u.attributes.username),
      ['sponsored_2', 'sponsored_1'],
    );
    assert.equal(page1.json.data[0].type, 'users');
    assert.equal(page1.json.data[0].attributes.email, undefined, 'public user resources only');
    assert.equal(page1.json.meta.total, 3);
    assert.equal(page1.json.meta.limit, 2);
    const page2 = await t.request({ method: 'GET', url: page1.json.links.next, token: sponsor.token });
    assert.deepEqual(
      page2.json.data.map((u: any) => u.attributes.username),
      ['sponsored_0'],
    );
    assert.equal(page2.json.links.next, null);

    const sponsored = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { login: 'sponsored_0', password: strongPassword },
    });
    const theirs = await t.request({
      method: 'GET',
      url: '/api/users/me/sponsorship',
      token: sponsored.json.data.attributes.accessToken,
    });
    assert.deepEqual(theirs.json.data, [], "the sponsored account sees its own (empty) list, not its sponsor's");
    assert.notEqual(theirs.json.meta.sponsorCode, code);

    const badCursor = await t.request({
      method: 'GET',
      url: '/api/users/me/sponsorship?cursor=bad!',
      token: sponsor.token,
    });
    assert.equal(badCursor.statusCode, 400);
    assert.equal(badCursor.json.errors[0].code, 'invalidCursor');
    assert.equal(names.length, 3);
  });
});
