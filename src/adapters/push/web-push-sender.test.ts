/** The Web Push sender's own rules: which addresses it reaches, checked again at each send. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type LocalPushService, pushServiceCa, startLocalPushService } from '../../../test/support/web-push-service.ts';
import { ConfigError, loadConfig } from '../../config.ts';
import { EndpointRefused, isPublicAddress, resolvePublicEndpoint } from '../../platform/net/public-address.ts';
import { generateVapidKeys, WebPushSender } from './web-push-sender.ts';

describe('public addresses', () => {
  for (const address of ['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '2a00:1450:4007:80e::200e']) {
    it(`${address} is public`, () => assert.equal(isPublicAddress(address), true));
  }
  for (const address of [
    '127.0.0.1',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    '::ffff:127.0.0.1',
    '::ffff:8.8.8.8',
    '64:ff9b::a00:1',
    '2002:a00:1::1',
    'ff02::1',
    'localhost',
  ]) {
    it(`${address} is not`, () => assert.equal(isPublicAddress(address), false));
  }

  it('refuses a host when any of its DNS answers is private, unless the host is allowed', async () => {
    const lookup = async () => [
      { address: '93.184.215.14', family: 4 as const },
      { address: '10.0.0.7', family: 4 as const },
    ];
    await assert.rejects(resolvePublicEndpoint('https://push.example.test/x', [], lookup), EndpointRefused);
    assert.deepEqual(await resolvePublicEndpoint('https://push.example.test/x', ['push.example.test'], lookup), {
      address: '93.184.215.14',
      family: 4,
    });
  });

  it('refuses credentials in the URL and any scheme but https', async () => {
    await assert.rejects(resolvePublicEndpoint('https://a:b@8.8.8.8/x', []), /credentials/);
    await assert.rejects(resolvePublicEndpoint('ftp://8.8.8.8/x', []), /https/);
    await assert.rejects(resolvePublicEndpoint('not a url', []), /not a URL/);
  });
});

describe('WebPushSender', () => {
  let service: LocalPushService;
  const vapid = { ...generateVapidKeys(), subject: 'mailto:operators@example.test' };
  before(async () => {
    service = await startLocalPushService();
  });
  after(async () => {
    await service.close();
  });

  it('checks the address again at send time: a host no longer allowed gets no request', async () => {
    const sender = new WebPushSender({ vapid, allowedHosts: [], ca: pushServiceCa });
    const result = await sender.send(service.subscribe(), '{}', { ttlSeconds: 60, urgency: 'normal' });
    assert.equal(result.delivered, false);
    assert.match(!result.delivered ? result.reason : '', /non-public address/);
    assert.equal(service.requests.length, 0);
  });

  it('sends to an allowed host, checking its certificate', async () => {
    const trusting = new WebPushSender({ vapid, allowedHosts: ['localhost'], ca: pushServiceCa });
    const subscription = service.subscribe();
    assert.deepEqual(await trusting.send(subscription, '{"a":1}', { ttlSeconds: 60, urgency: 'high' }), {
      delivered: true,
    });
    assert.deepEqual(service.received.at(-1)?.payload, { a: 1 });
    assert.equal(service.received.at(-1)?.urgency, 'high');

    // Without the test certificate the TLS handshake fails: retried as a network error, never sent.
    const untrusting = new WebPushSender({ vapid, allowedHosts: ['localhost'], sleep: async () => {} });
    const refused = await untrusting.send(subscription, '{}', { ttlSeconds: 60, urgency: 'normal' });
    assert.equal(refused.delivered, false);
    assert.equal(!refused.delivered && refused.retryable, true);
    assert.equal(service.received.length, 1);
  });
});

describe('Web Push configuration', () => {
  const keys = generateVapidKeys();

  it('takes webpush alone or beside onesignal', () => {
    const vapid = {
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
      VAPID_SUBJECT: 'mailto:a@b.test',
    };
    const alone = loadConfig({ PUSH_PROVIDER: 'webpush', ...vapid, WEB_PUSH_ALLOWED_HOSTS: 'Push.Local, [::1]' });
    assert.equal(alone.push.provider, 'none');
    assert.deepEqual(alone.push.webPush?.allowedHosts, ['push.local', '::1']);
    const both = loadConfig({
      PUSH_PROVIDER: 'onesignal,webpush',
      ONESIGNAL_APP_ID: 'a',
      ONESIGNAL_API_KEY: 'k',
      ...vapid,
    });
    assert.equal(both.push.provider, 'onesignal');
    assert.equal(both.push.webPush?.vapid.publicKey, keys.publicKey);
    assert.equal(loadConfig({}).push.webPush, null);
  });

  it('reports missing or malformed VAPID settings and unknown channels', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return '';
      } catch (error) {
        assert.ok(error instanceof ConfigError);
        return error.problems.join('\n');
      }
    };
    const missing = problems({ PUSH_PROVIDER: 'webpush' });
    for (const name of ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'VAPID_SUBJECT'])
      assert.match(missing, new RegExp(name));
    const malformed = problems({
      PUSH_PROVIDER: 'webpush',
      VAPID_PUBLIC_KEY: keys.privateKey,
      VAPID_PRIVATE_KEY: keys.publicKey,
      VAPID_SUBJECT: 'ops@example.test',
    });
    assert.match(malformed, /VAPID_PUBLIC_KEY must be an uncompressed P-256/);
    assert.match(malformed, /VAPID_PRIVATE_KEY must be a P-256 private key/);
    assert.match(malformed, /VAPID_SUBJECT must be a mailto/);
    assert.match(
      problems({ PUSH_PROVIDER: 'log,apns' }),
      /PUSH_PROVIDER must name one or more of log, onesignal, webpush/,
    );
    assert.match(problems({ PUSH_PROVIDER: 'log,onesignal' }), /either log or onesignal/);
  });
});
