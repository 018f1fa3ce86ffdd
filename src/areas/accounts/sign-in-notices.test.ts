/**
 * The new-device mail: a sign-in from a user agent and network (IPv4 /24, IPv6 /48) not seen on the
 * account in 90 days is mailed to the owner, in the request's language; the registration's first
 * sign-in and a known device are not.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, strongPassword, type TestUser } from '../../../test/helpers/factories.ts';
import { networkOf } from './sign-in-notices.ts';

describe('sign-in notices', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: 'true' } });
  });
  after(() => t.close());

  const newDeviceMails = (user: TestUser) =>
    t.mail.sent.filter(
      (mail) =>
        mail.to === user.email &&
        (mail.subject === 'New sign-in to your account' || mail.subject === 'Nouvelle connexion à votre compte'),
    );
  const login = (user: TestUser, userAgent: string, ip: string, locale = 'en-US') =>
    t.request({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'user-agent': userAgent, 'x-forwarded-for': ip, 'accept-language': locale },
      body: { login: user.username, password: strongPassword },
    });

  it('groups addresses by network', () => {
    assert.equal(networkOf('203.0.113.77'), '203.0.113.0/24');
    assert.equal(networkOf('::ffff:203.0.113.77'), '203.0.113.0/24');
    assert.equal(networkOf('2001:db8:abcd:12::1'), '2001:db8:abcd::/48');
    assert.equal(networkOf('2001:db8::1'), '2001:db8:0::/48');
  });

  it('mails a sign-in from a new device in the language of the request, and not one from a known device', async () => {
    const user = await createUser(t);
    assert.equal(newDeviceMails(user).length, 0, 'the registration tells nothing');
    assert.equal((await login(user, 'Phone/1.0', '198.51.100.7', 'fr-FR')).statusCode, 200);
    const [mail] = newDeviceMails(user);
    assert.ok(mail, 'a new device is mailed');
    assert.equal(mail.subject, 'Nouvelle connexion à votre compte');
    assert.match(mail.text, /Phone\/1\.0/);
    assert.match(mail.text, /198\.51\.100\.7/);

    assert.equal((await login(user, 'Phone/1.0', '198.51.100.99')).statusCode, 200);
    assert.equal(newDeviceMails(user).length, 1, 'same agent, same /24: a known device');
    assert.equal((await login(user, 'Phone/1.0', '192.0.2.5')).statusCode, 200);
    assert.equal(newDeviceMails(user).length, 2, 'another network is another device');
    assert.equal((await login(user, 'Laptop/2.0', '192.0.2.5')).statusCode, 200);
    assert.equal(newDeviceMails(user).length, 3, 'another agent is another device');

    t.clock.advance(91 * 86_400_000);
    assert.equal((await login(user, 'Laptop/2.0', '192.0.2.5')).statusCode, 200);
    assert.equal(newDeviceMails(user).length, 4, 'not seen in 90 days: new again');
  });
});
