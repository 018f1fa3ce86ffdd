/**
 * Passkeys in a real browser: Debian's chromium with the DevTools protocol's virtual authenticator
 * (`WebAuthn.enable`, `WebAuthn.addVirtualAuthenticator`: a CTAP2 platform authenticator with
 * resident keys and user verification), driven through playwright-core's CDP session. A user signs in
 * with their password, registers a passkey on the security page, signs out, and signs in again with
 * the passkey alone; the @simplewebauthn/browser bundle is served by the service itself.
 *
 * The server's PUBLIC_URL is http://localhost:<port> (a relying party id must be a host name, not an
 * IP address); the browser maps localhost to the loopback address the test app listens on.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { ManualClock } from '../../src/platform/clock.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createUser, strongPassword } from '../helpers/factories.ts';
import { freePort } from '../helpers/processes.ts';
import { browserUnavailable, launchChromiumForLocalhost, screenshot, watch } from '../support/browser.ts';

const generous = 60_000;

describe('passkeys in a browser', { skip: browserUnavailable() }, () => {
  let t: TestApp;
  let browser: Browser;
  let url: string;
  before(async () => {
    const port = await freePort();
    url = `http://localhost:${port}`;
    t = await createTestApp({ env: { PUBLIC_URL: url }, clock: new ManualClock(new Date().toISOString()) });
    await t.app.listen({ port, host: '127.0.0.1' });
    browser = await launchChromiumForLocalhost();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('registers a passkey on the security page, signs out, and signs in with the passkey alone', async () => {
    const user = await createUser(t);
    const context = await browser.newContext({ baseURL: url, locale: 'en-US' });
    const page = await context.newPage();
    page.setDefaultTimeout(generous);
    const problems = watch(page);
    await page.addInitScript(() => {
      if (sessionStorage.getItem('noAutofill') === '1') {
        PublicKeyCredential.isConditionalMediationAvailable = async () => false;
      }
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable', { enableUI: false });
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });

    // Sign in with the password.
    await page.goto('/login');
    await page.fill('#login-name', user.username);
    await page.fill('#login-password', strongPassword);
    await Promise.all([page.waitForURL(`${url}/`), page.click('#login-form button[type="submit"]')]);

    // The security page: add a passkey (the page reloads with it listed).
    await page.goto('/security');
    await page.fill('#passkey-name', 'Chromium key');
    await Promise.all([page.waitForEvent('load'), page.click('#passkey-form button[type="submit"]')]);
    await page.waitForSelector('.security__passkey-name');
    assert.equal(await page.textContent('.security__passkey-name'), 'Chromium key');
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    assert.equal(credentials.length, 1);
    assert.equal(credentials[0]?.isResidentCredential, true, 'a discoverable credential');
    await screenshot(page, 'security-passkeys');

    const signOut = async () => {
      await Promise.all([page.waitForURL(`${url}/`), page.click('.site-account__logout button')]);
      assert.equal(await page.locator('.site-account__me').count(), 0, 'signed out');
    };

    // Sign out (the layout's button), then sign in with the passkey alone through the button. The
    // virtual authenticator answers every request at once, the autofill's too: this step plays a
    // browser without autofill (conditional mediation unavailable), so only the button asks.
    await signOut();
    await page.evaluate(() => sessionStorage.setItem('noAutofill', '1'));
    await page.goto('/login');
    await page.waitForSelector('#passkey-button:visible');
    await Promise.all([page.waitForURL(`${url}/`), page.click('#passkey-button')]);
    assert.equal(await page.textContent('.site-account__me'), user.user.nickname);

    // Then through the login field's autofill: the page's quiet request gets the passkey (as a user
    // picking it in the autofill list) and signs in with no click.
    await signOut();
    await page.evaluate(() => sessionStorage.removeItem('noAutofill'));
    await Promise.all([page.waitForURL(`${url}/`), page.goto('/login')]);
    assert.equal(await page.textContent('.site-account__me'), user.user.nickname);

    const sessions = await t.request({ method: 'GET', url: '/api/auth/sessions', token: user.token });
    const methods = sessions.json.data.map(
      (session: { attributes: { signInMethod: string } }) => session.attributes.signInMethod,
    );
    // The factory's password session, and the last passkey one (signing out ended the first).
    assert.deepEqual(methods.sort(), ['passkey', 'password']);
    const listed = await t.request({ method: 'GET', url: '/api/users/me/passkeys', token: user.token });
    assert.notEqual(listed.json.data[0].attributes.lastUsedAt, null);
    assert.deepEqual(problems, []);
    await context.close();
  });
});
