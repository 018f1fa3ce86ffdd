/** Rules of account bodies a client meets: one login name, blank optional fields, lengths once trimmed. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, strongPassword, type TestUser } from '../../../test/helpers/factories.ts';

describe('account body rules', () => {
  let t: TestApp;
  let user: TestUser;
  before(async () => {
    t = await createTestApp();
    user = await createUser(t);
  });
  after(() => t.close());

  it('login takes exactly one of email and login: both or neither is one clear 422', async () => {
    for (const body of [
      { email: user.email, login: user.username, password: strongPassword },
      { password: strongPassword },
    ]) {
      const res = await t.request({ method: 'POST', url: '/api/auth/login', body });
      assert.equal(res.statusCode, 422, JSON.stringify(body));
      assert.equal(res.json.errors.length, 1, 'one error, not one per alternative');
      assert.equal(res.json.errors[0].code, 'validationFailed');
      assert.match(res.json.errors[0].detail, /exactly one of email and login/);
      assert.ok(['/email', '/login'].includes(res.json.errors[0].source.pointer));
    }
    const unknownField = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { login: user.username, password: strongPassword, remember: true },
    });
    assert.equal(unknownField.statusCode, 422);
    assert.equal(unknownField.json.errors.length, 1);
    for (const body of [
      { email: user.email, password: strongPassword },
      { login: user.username, password: strongPassword },
    ]) {
      assert.equal((await t.request({ method: 'POST', url: '/api/auth/login', body })).statusCode, 200);
    }
  });

  it('blank optional address fields become null, and lengths count the trimmed text', async () => {
    const res = await t.request({
      method: 'PATCH',
      url: '/api/users/me/address',
      token: user.token,
      body: {
        recipient: `  ${'R'.repeat(100)}  `,
        line1: '1 rue de la Paix',
        line2: '   ',
        postalCode: '75002',
        city: 'Paris',
        region: '',
        countryCode: 'fr',
        phone: '',
      },
    });
    assert.equal(res.statusCode, 200, res.body);
    const address = res.json.data.attributes;
    assert.equal(address.recipient, 'R'.repeat(100));
    assert.equal(address.line2, null);
    assert.equal(address.region, null);
    assert.equal(address.phone, null);
    assert.equal(address.countryCode, 'FR');

    const tooLong = await t.request({
      method: 'PATCH',
      url: '/api/users/me/address',
      token: user.token,
      body: { recipient: 'R'.repeat(101), phone: 'call me' },
    });
    assert.equal(tooLong.statusCode, 422);
    assert.deepEqual(tooLong.json.errors.map((error: any) => error.source.pointer).sort(), ['/phone', '/recipient']);
    const after = await t.request({ method: 'GET', url: '/api/users/me/address', token: user.token });
    assert.equal(after.json.data.attributes.recipient, 'R'.repeat(100), 'a refused patch changes nothing');
  });

  it('a nickname is judged once trimmed, at registration and later', async () => {
    const padded = `${' '.repeat(60)}Ana${' '.repeat(60)}`;
    const set = await t.request({
      method: 'PUT',
      url: '/api/users/me/nickname',
      token: user.token,
      body: { nickname: padded },
    });
    assert.equal(set.statusCode, 200, set.body);
    assert.equal(set.json.data.attributes.nickname, 'Ana');
    const long = await t.request({
      method: 'PUT',
      url: '/api/users/me/nickname',
      token: user.token,
      body: { nickname: ` ${'é'.repeat(51)} ` },
    });
    assert.equal(long.statusCode, 422);
    assert.equal(long.json.errors[0].source.pointer, '/nickname');
    const registered = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      body: { email: 'padded@example.test', password: strongPassword, nickname: padded },
    });
    assert.equal(registered.statusCode, 201, registered.body);
    assert.equal(registered.json.included[0].attributes.nickname, 'Ana');
  });
});
