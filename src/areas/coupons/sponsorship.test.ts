/** Sponsorship rewards: a sponsor earns experience once when an account registered with their code confirms its e-mail. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, strongPassword } from '../../../test/helpers/factories.ts';
import { waitFor } from '../../../test/helpers/wait-for.ts';
import { experienceFor } from '../gamification/rewards.ts';

const reward = experienceFor.sponsoredAccountConfirmed;

describe('sponsorship rewards', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const experienceOf = async (token: string) =>
    (await t.request({ method: 'GET', url: '/api/auth/me', token })).json.data.attributes.experience as number;
  const sponsorCodeOf = async (token: string) =>
    (await t.request({ method: 'GET', url: '/api/auth/me', token })).json.data.attributes.sponsorCode as string;
  /** The token of the newest mail of this kind to the address (mails leave in the background). */
  const mailedToken = (email: string, kind: 'confirm' | 'reset', after = 0) =>
    waitFor(`${kind} mail to ${email}`, () => {
      const mails = t.mail.sent.filter((mail) => mail.to === email && mail.text.includes(`/login?${kind}=`));
      if (mails.length <= after) return null;
      return new RegExp(`/login\\?${kind}=([A-Za-z0-9_-]+)`).exec(mails.at(-1)!.text)![1];
    });
  const registerSponsored = async (email: string, sponsorCode: string) => {
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      body: { email, password: strongPassword, sponsorCode },
    });
    assert.equal(res.statusCode, 201);
  };

  it('rewards the sponsor once when the account confirms, even if it confirms again or resets', async () => {
    const sponsor = await createUser(t);
    const start = await experienceOf(sponsor.token);
    const email = 'sponsored-one@example.test';
    await registerSponsored(email, await sponsorCodeOf(sponsor.token));
    assert.equal(await experienceOf(sponsor.token), start, 'nothing before the confirmation');

    const token = await mailedToken(email, 'confirm');
    assert.equal(
      (await t.request({ method: 'POST', url: '/api/auth/confirm-email', body: { token } })).statusCode,
      204,
    );
    assert.equal(await experienceOf(sponsor.token), start + reward);

    // A second link, then a reset (which also confirms): nothing more.
    await t.request({ method: 'POST', url: '/api/auth/resend-confirmation', body: { email } });
    assert.equal(
      (await t.request({ method: 'POST', url: '/api/auth/confirm-email', body: { token } })).statusCode,
      422,
    );
    await t.request({ method: 'POST', url: '/api/auth/forgot-password', body: { email } });
    const reset = await mailedToken(email, 'reset');
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/reset-password',
      body: { token: reset, password: 'another horse 42' },
    });
    assert.equal(res.statusCode, 204);
    assert.equal(await experienceOf(sponsor.token), start + reward);
  });

  it('a reset link confirms too: the sponsor earns once, and a later confirmation link earns nothing', async () => {
    const sponsor = await createUser(t);
    const start = await experienceOf(sponsor.token);
    const email = 'sponsored-two@example.test';
    await registerSponsored(email, await sponsorCodeOf(sponsor.token));
    const confirm = await mailedToken(email, 'confirm');
    await t.request({ method: 'POST', url: '/api/auth/forgot-password', body: { email } });
    const reset = await mailedToken(email, 'reset');
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/reset-password',
      body: { token: reset, password: 'another horse 42' },
    });
    assert.equal(res.statusCode, 204);
    assert.equal(await experienceOf(sponsor.token), start + reward);
    assert.equal(
      (await t.request({ method: 'POST', url: '/api/auth/confirm-email', body: { token: confirm } })).statusCode,
      422,
      'the reset confirmed the address: its confirmation links are spent',
    );
    assert.equal(await experienceOf(sponsor.token), start + reward);
  });

  it('an account without a sponsor rewards nobody', async () => {
    const email = 'unsponsored@example.test';
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      body: { email, password: strongPassword },
    });
    const token = await mailedToken(email, 'confirm');
    assert.equal(
      (await t.request({ method: 'POST', url: '/api/auth/confirm-email', body: { token } })).statusCode,
      204,
    );
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { email, password: strongPassword },
    });
    assert.equal(login.json.included[0].attributes.emailConfirmed, true);
    assert.equal(
      (await t.request({ method: 'GET', url: '/api/auth/me', token: res.json.data.attributes.accessToken })).statusCode,
      401,
      'the confirmation ended the sessions opened before it',
    );
  });
});
