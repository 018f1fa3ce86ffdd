/**
 * Web Push beside OneSignal, end to end: subscriptions registered over the API, the push flush
 * sending to a local HTTPS push service that verifies the VAPID JWT and decrypts each payload with
 * the subscription's keys (test/support/web-push-service.ts), and OneSignal's stand-in beside it.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import pino from 'pino';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { dispatchFollow, dispatchLevelUp } from '../../../test/helpers/notifications.ts';
import { type FakeOneSignal, startFakeOneSignal } from '../../../test/support/fake-onesignal-server.ts';
import {
  type LocalPushService,
  pushServiceCa,
  startLocalPushService,
  type TestSubscription,
} from '../../../test/support/web-push-service.ts';
import { generateVapidKeys, OneSignalPushProvider, WebPushSender } from '../../adapters/push/index.ts';
import { formatTimestamp } from '../../platform/http/time.ts';

const subject = 'mailto:operators@example.test';
const base = '/api/users/me/push-subscriptions';

describe('Web Push', () => {
  const vapid = generateVapidKeys();
  let service: LocalPushService;
  let onesignal: FakeOneSignal;
  let t: TestApp;
  let actor: TestUser;
  let sleeps: number[] = [];
  const sleep = async (ms: number) => {
    sleeps.push(ms);
  };

  before(async () => {
    service = await startLocalPushService();
    onesignal = await startFakeOneSignal();
    const env = {
      PUSH_PROVIDER: 'onesignal,webpush',
      ONESIGNAL_APP_ID: onesignal.appId,
      ONESIGNAL_API_KEY: onesignal.apiKey,
      ONESIGNAL_API_URL: onesignal.url,
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      VAPID_SUBJECT: subject,
      WEB_PUSH_ALLOWED_HOSTS: 'localhost',
    };
    const push = new OneSignalPushProvider({
      appId: onesignal.appId,
      apiKey: onesignal.apiKey,
      apiUrl: onesignal.url,
      sleep,
    });
    const webPush = new WebPushSender({
      vapid: { ...vapid, subject },
      allowedHosts: ['localhost'],
      ca: pushServiceCa,
      sleep,
      logger: pino({ level: 'silent' }),
    });
    t = await createTestApp({ env, deps: { push, webPush } });
    actor = await createUser(t, { nickname: 'Ana' });
  });
  after(async () => {
    await t.close();
    await service.close();
    await onesignal.close();
  });
  beforeEach(async () => {
    await t.services.platform.jobs.run('notifications-push'); // nothing left over from an earlier test
    service.received.length = 0;
    service.requests.length = 0;
    onesignal.reset();
    sleeps = [];
  });

  const flush = async () => {
    const res = await t.request({ method: 'POST', url: '/admin/jobs/flush/notifications-push', token: adminToken });
    assert.equal(res.statusCode, 200);
    return res.json.data.attributes.report;
  };
  const follow = (recipient: TestUser, from = actor) => dispatchFollow(t, recipient, from);
  const levelUp = (recipient: TestUser, level: number) => dispatchLevelUp(t, recipient, level);
  const register = (
    user: TestUser,
    { endpoint, keys }: Omit<TestSubscription, 'id'>,
    extra: Record<string, unknown> = {},
  ) =>
    t.request({
      method: 'POST',
      url: base,
      token: user.token,
      body: { endpoint, keys, expirationTime: null, ...extra },
    });
  const listed = async (user: TestUser) => {
    const res = await t.request({ method: 'GET', url: base, token: user.token });
    assert.equal(res.statusCode, 200);
    return res.json.data as { id: string; attributes: { endpoint: string; locale: string } }[];
  };
  const pushesTo = (subscription: TestSubscription) =>
    service.received.filter((push) => push.subscriptionId === subscription.id);

  it('serves the VAPID public key browsers subscribe with', async () => {
    const res = await t.request({ method: 'GET', url: '/api/push/vapid-public-key' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json.data, {
      type: 'vapidPublicKeys',
      id: 'current',
      attributes: { publicKey: vapid.publicKey },
    });
  });

  it('registers a subscription and pushes a notification to it, encrypted, in its language, with VAPID', async () => {
    const recipient = await createUser(t);
    const browser = service.subscribe();
    const res = await register(recipient, browser, { locale: 'fr-FR' });
    assert.equal(res.statusCode, 201);
    assert.equal(res.json.data.type, 'pushSubscriptions');
    assert.deepEqual(res.json.data.attributes, {
      endpoint: browser.endpoint,
      locale: 'fr-FR',
      createdAt: formatTimestamp(t.clock.now()),
    });
    const { id } = await follow(recipient);

    const report = await flush();

    assert.deepEqual(service.problems, []);
    assert.equal(report.webPushSent, 1);
    const [push] = pushesTo(browser);
    assert.ok(push);
    assert.deepEqual(push.payload, {
      title: 'Nouvel abonné',
      body: push.payload.body,
      url: `/@${actor.username}`,
      tag: `notification-${id}`,
      type: 'follow.received',
      notificationId: id,
    });
    assert.match(push.payload.body, /Ana/);
    assert.equal(push.contentEncoding, 'aes128gcm');
    assert.equal(push.ttl, 48 * 3600);
    assert.equal(push.urgency, 'normal');
    assert.equal(push.topic, null);
    assert.equal(push.vapidKey, vapid.publicKey);
    assert.equal(push.claims.aud, service.origin);
    assert.equal(push.claims.sub, subject);
    // The same push went to OneSignal too.
    assert.equal(onesignal.notifications.filter((n) => n.externalIds.includes(recipient.hex)).length, 1);

    await flush();
    assert.equal(pushesTo(browser).length, 1, 'a second flush sends nothing again');
  });

  it('sends a digest to every subscription of the recipient, a day long, with the digest topic', async () => {
    const recipient = await createUser(t);
    const phone = service.subscribe();
    const laptop = service.subscribe();
    assert.equal((await register(recipient, phone, { locale: 'en-US' })).statusCode, 201);
    assert.equal((await register(recipient, laptop, { locale: 'en-US' })).statusCode, 201);
    await follow(recipient);
    await levelUp(recipient, 2);

    await flush();

    for (const browser of [phone, laptop]) {
      const pushes = pushesTo(browser);
      assert.equal(pushes.length, 1);
      assert.deepEqual(pushes[0]!.payload, {
        title: pushes[0]!.payload.title,
        body: pushes[0]!.payload.body,
        url: '/',
        tag: 'digest',
        type: 'digest',
        count: 2,
      });
      assert.match(pushes[0]!.payload.title, /2/);
      assert.equal(pushes[0]!.ttl, 24 * 3600);
      assert.equal(pushes[0]!.urgency, 'low');
      assert.equal(pushes[0]!.topic, 'digest');
    }
  });

  it('deletes a subscription whose push service answers 410, and goes on with the others', async () => {
    const recipient = await createUser(t);
    const gone = service.subscribe();
    const kept = service.subscribe();
    await register(recipient, gone);
    await register(recipient, kept);
    service.forget(gone);
    await follow(recipient);

    const report = await flush();

    assert.equal(report.webPushGone, 1);
    assert.deepEqual(
      service.requests.filter((r) => r.subscriptionId === gone.id).map((r) => r.status),
      [410],
    );
    assert.equal(pushesTo(kept).length, 1);
    assert.deepEqual(
      (await listed(recipient)).map((s) => s.attributes.endpoint),
      [kept.endpoint],
    );
  });

  it("retries a 429 after its Retry-After and a 5xx with backoff, as OneSignal's pushes are", async () => {
    const recipient = await createUser(t);
    const browser = service.subscribe();
    await register(recipient, browser);
    service.failNext(browser, { status: 429, retryAfter: 3 }, { status: 503 });
    await follow(recipient);

    const report = await flush();

    assert.deepEqual(
      service.requests.filter((r) => r.subscriptionId === browser.id).map((r) => r.status),
      [429, 503, 201],
    );
    assert.deepEqual(sleeps, [3000, 2000]);
    assert.equal(pushesTo(browser).length, 1);
    assert.equal(report.retryLater, 0);
  });

  it('gives the rows back when a push service stays down, and sends the next run only to the browsers missing it', async () => {
    const recipient = await createUser(t);
    const up = service.subscribe();
    const down = service.subscribe();
    await register(recipient, up);
    await register(recipient, down);
    service.failNext(down, { status: 500 }, { status: 502 }, { status: 503 });
    await follow(recipient);

    const first = await flush();
    assert.equal(first.retryLater, 1);
    assert.equal(pushesTo(up).length, 1);
    assert.equal(pushesTo(down).length, 0);

    const second = await flush();
    assert.equal(second.retryLater, 0);
    assert.equal(pushesTo(up).length, 1, 'the browser that had it gets nothing twice');
    assert.equal(pushesTo(down).length, 1);
    assert.deepEqual(pushesTo(down)[0]!.payload, pushesTo(up)[0]!.payload);
    // OneSignal got the same idempotency key twice and created one notification.
    const sent = onesignal.requests.filter((r) => r.body?.include_aliases?.external_id?.includes(recipient.hex));
    assert.equal(sent.length, 2);
    assert.deepEqual(
      sent.map((r) => r.repeat),
      [false, true],
    );
  });

  it('keeps at most 10 subscriptions a user, the oldest pruned', async () => {
    const user = await createUser(t);
    const browsers = Array.from({ length: 11 }, () => service.subscribe());
    for (const browser of browsers) {
      assert.equal((await register(user, browser)).statusCode, 201);
      t.clock.advance(1000);
    }
    const endpoints = (await listed(user)).map((s) => s.attributes.endpoint);
    assert.equal(endpoints.length, 10);
    assert.deepEqual(
      endpoints,
      browsers
        .slice(1)
        .reverse()
        .map((b) => b.endpoint),
    );
  });

  it('deletes a subscription of mine only', async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const created = await register(owner, service.subscribe());
    const id = created.json.data.id;

    assert.equal((await t.request({ method: 'DELETE', url: `${base}/${id}`, token: other.token })).statusCode, 404);
    assert.equal((await t.request({ method: 'DELETE', url: `${base}/${id}`, token: owner.token })).statusCode, 204);
    assert.equal((await t.request({ method: 'DELETE', url: `${base}/${id}`, token: owner.token })).statusCode, 404);
    assert.deepEqual(await listed(owner), []);
  });

  it('gives an endpoint registered again to its new user', async () => {
    const first = await createUser(t);
    const second = await createUser(t);
    const browser = service.subscribe();
    await register(first, browser);
    await register(second, browser);
    assert.deepEqual(await listed(first), []);
    assert.equal((await listed(second)).length, 1);
  });

  it('refuses a request without a credential', async () => {
    const browser = service.subscribe();
    assert.equal((await t.request({ method: 'POST', url: base, body: browser })).statusCode, 401);
    assert.equal((await t.request({ method: 'GET', url: base })).statusCode, 401);
  });

  describe('refuses bad subscriptions with 422, storing nothing', () => {
    const port = () => new URL(service.origin).port;
    const cases: [string, () => Omit<TestSubscription, 'id'>, string][] = [
      [
        'an http endpoint',
        () => ({ ...service.subscribe(), endpoint: `http://localhost:${port()}/push/x` }),
        '/endpoint',
      ],
      ['a loopback address not allowed', () => service.subscribe('127.0.0.1'), '/endpoint'],
      ['the IPv6 loopback', () => service.subscribe('[::1]'), '/endpoint'],
      ['a private address', () => ({ ...service.subscribe(), endpoint: 'https://10.1.2.3/push/x' }), '/endpoint'],
      [
        'a link-local address',
        () => ({ ...service.subscribe(), endpoint: 'https://169.254.169.254/push/x' }),
        '/endpoint',
      ],
      [
        'an IPv4-mapped IPv6 address',
        () => ({ ...service.subscribe(), endpoint: 'https://[::ffff:7f00:1]/x' }),
        '/endpoint',
      ],
      // /etc/hosts answers 127.0.0.1 for this name: the DNS answer is checked, not only literals.
      ['a name resolving to loopback', () => service.subscribe('vm'), '/endpoint'],
      ['a host that does not resolve', () => service.subscribe('no-such-host.invalid'), '/endpoint'],
      [
        'a p256dh that is not a P-256 point',
        () => {
          const browser = service.subscribe();
          const point = Buffer.from(browser.keys.p256dh, 'base64url');
          point[64] = point[64]! ^ 1;
          return { ...browser, keys: { ...browser.keys, p256dh: point.toString('base64url') } };
        },
        '/keys/p256dh',
      ],
      [
        'an auth secret of 15 bytes',
        () => ({ ...service.subscribe(), keys: { ...service.subscribe().keys, auth: 'AAAAAAAAAAAAAAAAAAAA' } }),
        '/keys/auth',
      ],
    ];
    for (const [problem, make, pointer] of cases) {
      it(problem, async () => {
        const user = await createUser(t);
        const res = await register(user, make());
        assert.equal(res.statusCode, 422);
        assert.equal(res.json.errors[0].code, 'validationFailed');
        assert.equal(res.json.errors[0].source.pointer, pointer);
        assert.deepEqual(await listed(user), []);
      });
    }

    it('an endpoint of 100 kB', async () => {
      const user = await createUser(t);
      const browser = service.subscribe();
      const res = await register(user, { ...browser, endpoint: `${browser.endpoint}?${'a'.repeat(100_000)}` });
      assert.equal(res.statusCode, 422);
      assert.equal(res.json.errors[0].code, 'validationFailed');
      assert.deepEqual(await listed(user), []);
    });

    it('keys missing', async () => {
      const user = await createUser(t);
      const res = await register(user, { endpoint: service.subscribe().endpoint } as TestSubscription);
      assert.equal(res.statusCode, 422);
      assert.deepEqual(await listed(user), []);
    });
  });
});

describe('Web Push not configured', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => {
    await t.close();
  });

  it('answers 404 providerNotConfigured for the key and a registration', async () => {
    const user = await createUser(t);
    const key = await t.request({ method: 'GET', url: '/api/push/vapid-public-key' });
    assert.equal(key.statusCode, 404);
    assert.equal(key.json.errors[0].code, 'providerNotConfigured');
    const subscription = {
      endpoint: 'https://push.example.test/x',
      keys: { p256dh: generateVapidKeys().publicKey, auth: 'AAAAAAAAAAAAAAAAAAAAAA' },
    };
    const res = await t.request({ method: 'POST', url: base, token: user.token, body: subscription });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json.errors[0].code, 'providerNotConfigured');
  });
});
