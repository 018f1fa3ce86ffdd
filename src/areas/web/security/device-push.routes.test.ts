/**
 * "Notify me on this device" on the security page: the section and its script appear only with Web
 * Push configured, the service worker is served from the root, and the page's cookie routes register
 * and forget this browser's subscription with the API's rules, refusing another site and no session.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../../test/helpers/factories.ts';
import { webSignIn } from '../../../../test/helpers/web-session.ts';
import { type LocalPushService, startLocalPushService } from '../../../../test/support/web-push-service.ts';
import { generateVapidKeys } from '../../../adapters/push/index.ts';

const origin = 'https://travel.example.test';
const fromSite = { origin, accept: 'application/json' };

describe('Notify me on this device', () => {
  const vapid = generateVapidKeys();
  let t: TestApp;
  let plain: TestApp;
  let service: LocalPushService;
  before(async () => {
    service = await startLocalPushService();
    t = await createTestApp({
      env: {
        PUBLIC_URL: origin,
        PUSH_PROVIDER: 'webpush',
        VAPID_PUBLIC_KEY: vapid.publicKey,
        VAPID_PRIVATE_KEY: vapid.privateKey,
        VAPID_SUBJECT: 'mailto:operators@example.test',
        WEB_PUSH_ALLOWED_HOSTS: 'localhost',
      },
    });
    plain = await createTestApp({ env: { PUBLIC_URL: origin } });
  });
  after(async () => {
    await t.close();
    await plain.close();
    await service.close();
  });

  const signIn = (app: TestApp, user: TestUser) => webSignIn(app, user, origin);

  it('shows the section with the VAPID key and its script only when Web Push is configured, in both languages', async () => {
    const user = await createUser(t);
    const cookie = await signIn(t, user);
    const page = await t.request({ method: 'GET', url: '/security', headers: { cookie } });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, />Notify me on this device</);
    assert.match(page.body, new RegExp(`data-vapid-key="${vapid.publicKey}"`));
    assert.match(page.body, /<script[^>]+nonce="[^"]+"[^>]+src="\/assets\/device-push\.[\w-]+\.js"/);
    const french = await t.request({
      method: 'GET',
      url: '/security',
      headers: { cookie, 'accept-language': 'fr-FR' },
    });
    assert.match(french.body, /M(&#39;|')avertir sur cet appareil/);

    const other = await createUser(plain);
    const without = await plain.request({
      method: 'GET',
      url: '/security',
      headers: { cookie: await signIn(plain, other) },
    });
    assert.equal(without.statusCode, 200);
    assert.doesNotMatch(without.body, /device-push/);
  });

  it('serves the service worker from the root, revalidated at each registration', async () => {
    const res = await t.request({ method: 'GET', url: '/push-worker.js' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.equal(res.headers['cache-control'], 'no-cache');
    assert.match(res.body, /showNotification/);
    assert.match(res.body, /notificationclick/);
  });

  it("registers and forgets this browser's subscription with the session cookie", async () => {
    const user = await createUser(t);
    const cookie = await signIn(t, user);
    const browser = service.subscribe();
    const body = { endpoint: browser.endpoint, expirationTime: null, keys: browser.keys };

    const created = await t.request({
      method: 'POST',
      url: '/security/push-subscriptions',
      headers: { ...fromSite, cookie, 'accept-language': 'fr-FR' },
      body,
    });
    assert.equal(created.statusCode, 201, created.body);
    assert.equal(created.json.data.attributes.locale, 'fr-FR');
    const listed = await t.request({ method: 'GET', url: '/api/users/me/push-subscriptions', token: user.token });
    assert.deepEqual(
      listed.json.data.map((s: { attributes: { endpoint: string } }) => s.attributes.endpoint),
      [browser.endpoint],
    );

    const refused = await t.request({
      method: 'POST',
      url: '/security/push-subscriptions',
      headers: { ...fromSite, cookie },
      body: { ...body, endpoint: 'https://127.0.0.1/push/x' },
    });
    assert.equal(refused.statusCode, 422);

    const removed = await t.request({
      method: 'POST',
      url: '/security/push-subscriptions/remove',
      headers: { ...fromSite, cookie },
      body: { endpoint: browser.endpoint },
    });
    assert.equal(removed.statusCode, 204);
    const after = await t.request({ method: 'GET', url: '/api/users/me/push-subscriptions', token: user.token });
    assert.deepEqual(after.json.data, []);
  });

  it('refuses another site and a request without a session', async () => {
    const user = await createUser(t);
    const cookie = await signIn(t, user);
    const browser = service.subscribe();
    const body = { endpoint: browser.endpoint, keys: browser.keys };
    const foreign = await t.request({
      method: 'POST',
      url: '/security/push-subscriptions',
      headers: { ...fromSite, cookie, origin: 'https://evil.example.test' },
      body,
    });
    assert.equal(foreign.statusCode, 403);
    assert.equal(foreign.json.errors[0].code, 'crossOriginRequest');
    const anonymous = await t.request({ method: 'POST', url: '/security/push-subscriptions', headers: fromSite, body });
    assert.equal(anonymous.statusCode, 401);
    const listed = await t.request({ method: 'GET', url: '/api/users/me/push-subscriptions', token: user.token });
    assert.deepEqual(listed.json.data, []);
  });
});
