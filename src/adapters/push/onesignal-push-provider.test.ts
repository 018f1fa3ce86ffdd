import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import pino from 'pino';
import { type FakeOneSignal, startFakeOneSignal } from '../../../test/support/fake-onesignal-server.ts';
import { ManualClock } from '../../platform/clock.ts';
import { type OneSignalOptions, OneSignalPushProvider } from './onesignal-push-provider.ts';
import type { PushMessage } from './push-message.ts';

const recipient = '0123456789abcdef0123456789abcdef';

function message(overrides: Partial<PushMessage> = {}): PushMessage {
  return {
    externalId: recipient,
    headings: { en: 'New follower', fr: 'Nouvel abonné' },
    contents: { en: 'Ana follows you', fr: 'Ana vous suit' },
    data: { notificationIds: ['a'] },
    idempotencyKey: '2ed6657d-e927-568b-95e1-2665a8aea6a2',
    ...overrides,
  };
}

function memoryLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

describe('OneSignalPushProvider', () => {
  let onesignal: FakeOneSignal;
  let sleeps: number[];

  function provider(options: Partial<OneSignalOptions> = {}) {
    return new OneSignalPushProvider({
      appId: onesignal.appId,
      apiKey: onesignal.apiKey,
      apiUrl: onesignal.url,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      ...options,
    });
  }

  before(async () => {
    onesignal = await startFakeOneSignal();
  });
  after(async () => {
    await onesignal.close();
  });
  beforeEach(() => {
    onesignal.reset();
    sleeps = [];
  });

  it('posts the documented payload with the Key authorization and reports the notification id', async () => {
    const result = await provider().send(message({ collapseId: 'digest' }));

    assert.equal(onesignal.requests.length, 1);
    const [request] = onesignal.requests;
    assert.equal(request!.method, 'POST');
    assert.equal(request!.path, '/notifications');
    assert.equal(request!.headers.authorization, `Key ${onesignal.apiKey}`);
    assert.equal(request!.headers['content-type'], 'application/json');
    assert.deepEqual(request!.body, {
      app_id: onesignal.appId,
      target_channel: 'push',
      include_aliases: { external_id: [recipient] },
      headings: { en: 'New follower', fr: 'Nouvel abonné' },
      contents: { en: 'Ana follows you', fr: 'Ana vous suit' },
      data: { notificationIds: ['a'] },
      idempotency_key: '2ed6657d-e927-568b-95e1-2665a8aea6a2',
      collapse_id: 'digest',
    });
    assert.deepEqual(result, { delivered: true, providerId: onesignal.notifications[0]!.id });
  });

  it('sends the ?c=push query string', async () => {
    let seenUrl = '';
    const fetch: typeof globalThis.fetch = async (input) => {
      seenUrl = String(input);
      return Response.json({ id: 'n1', external_id: null });
    };
    await provider({ apiUrl: 'https://api.example.test/', fetch }).send(message());
    assert.equal(seenUrl, 'https://api.example.test/notifications?c=push');
  });

  it('omits data and collapse_id when the message has none', async () => {
    await provider().send(message({ data: undefined }));
    const body = onesignal.requests[0]!.body!;
    assert.equal('data' in body, false);
    assert.equal('collapse_id' in body, false);
  });

  it('sends a repeated idempotency key once: the service answers the original id', async () => {
    const first = await provider().send(message());
    const second = await provider().send(message());

    assert.deepEqual(second, first);
    assert.deepEqual(
      onesignal.requests.map((r) => r.repeat),
      [false, true],
    );
    assert.equal(onesignal.notifications.length, 1);
  });

  it('treats 200 with an empty id as not delivered and does not retry', async () => {
    onesignal.failFor(recipient, {
      status: 200,
      body: { id: '', errors: ['All included players are not subscribed'] },
    });

    const result = await provider().send(message());

    assert.deepEqual(result, {
      delivered: false,
      reason: 'onesignal: nothing sent: All included players are not subscribed',
      retryable: false,
    });
    assert.equal(onesignal.requests.length, 1);
  });

  it('treats an unknown external_id (invalid_aliases) as not delivered', async () => {
    onesignal.invalidAlias(recipient);

    const result = await provider().send(message());

    assert.equal(result.delivered, false);
    assert.equal(!result.delivered && result.retryable, false);
    assert.match(!result.delivered ? result.reason : '', /invalid_aliases/);
    assert.equal(onesignal.notifications.length, 0);
  });

  it('treats invalid_aliases as not delivered even when an id came back', async () => {
    onesignal.failFor(recipient, {
      status: 200,
      body: { id: 'b98881cc-1e94-4366-bbd9-db8f3429292b', errors: { invalid_aliases: { external_id: [recipient] } } },
    });

    const result = await provider().send(message());

    assert.equal(result.delivered, false);
  });

  it('waits Retry-After seconds after a 429 and retries with the same idempotency key', async () => {
    onesignal.failFor(recipient, { status: 429, retryAfter: 3, times: 1 });

    const result = await provider().send(message());

    assert.equal(result.delivered, true);
    assert.deepEqual(sleeps, [3000]);
    assert.deepEqual(
      onesignal.requests.map((r) => [r.status, r.body?.idempotency_key]),
      [
        [429, '2ed6657d-e927-568b-95e1-2665a8aea6a2'],
        [200, '2ed6657d-e927-568b-95e1-2665a8aea6a2'],
      ],
    );
  });

  it('reads an HTTP-date Retry-After against the injected clock', async () => {
    const clock = new ManualClock('2026-03-01T10:00:00.000Z');
    const answers = [
      new Response('{"errors":["API rate limit exceeded."]}', {
        status: 429,
        headers: { 'Retry-After': 'Sun, 01 Mar 2026 10:00:07 GMT' },
      }),
      Response.json({ id: 'n1', external_id: null }),
    ];
    const fetch: typeof globalThis.fetch = async () => answers.shift()!;

    const result = await provider({ fetch, clock }).send(message());

    assert.deepEqual(result, { delivered: true, providerId: 'n1' });
    assert.deepEqual(sleeps, [7000]);
  });

  it('gives up after maxRetries rate-limited attempts with a retryable failure', async () => {
    onesignal.failFor(recipient, { status: 429, retryAfter: 1 });

    const result = await provider({ maxRetries: 2 }).send(message());

    assert.equal(result.delivered, false);
    assert.equal(!result.delivered && result.retryable, true);
    assert.equal(onesignal.requests.length, 3);
    assert.deepEqual(sleeps, [1000, 1000]);
  });

  it('does not wait for a Retry-After longer than maxRetryDelayMs', async () => {
    onesignal.failFor(recipient, { status: 429, retryAfter: 120 });

    const result = await provider({ maxRetryDelayMs: 60_000 }).send(message());

    assert.equal(!result.delivered && result.retryable, true);
    assert.equal(onesignal.requests.length, 1);
    assert.deepEqual(sleeps, []);
  });

  it('holds back the next push after a 429 (the whole app is limited): no request before Retry-After', async () => {
    const clock = new ManualClock('2026-03-01T10:00:00.000Z');
    const single = provider({ clock, maxRetries: 0, maxRetryDelayMs: 60_000 });
    onesignal.failFor(recipient, { status: 429, retryAfter: 30, times: 1 });
    const first = await single.send(message());
    assert.equal(!first.delivered && first.retryable, true);

    clock.advance(10_000);
    const other = 'fedcba9876543210fedcba9876543210';
    const second = await single.send(
      message({ externalId: other, idempotencyKey: '3fa85f64-5717-3562-b3fc-2c963f66afa6' }),
    );
    assert.equal(second.delivered, true);
    assert.deepEqual(sleeps, [20_000], 'the other push waited out the 30 s first');

    onesignal.failFor(other, { status: 429, retryAfter: 120, times: 1 });
    await single.send(message({ externalId: other, idempotencyKey: '3fa85f64-5717-3562-b3fc-2c963f66afa7' }));
    const requests = onesignal.requests.length;
    const refused = await single.send(message());
    assert.equal(!refused.delivered && refused.retryable, true, 'a wait past maxRetryDelayMs fails at once');
    assert.equal(onesignal.requests.length, requests, 'without a request');
  });

  it('retries a 500 with exponential backoff and the same key, and logs the retry', async () => {
    onesignal.failFor(recipient, { status: 500, times: 2 });
    const { logger, lines } = memoryLogger();

    const result = await provider({ logger, retryBaseDelayMs: 100 }).send(message());

    assert.equal(result.delivered, true);
    assert.deepEqual(sleeps, [100, 200]);
    assert.deepEqual(
      onesignal.requests.map((r) => r.status),
      [500, 500, 200],
    );
    assert.equal(new Set(onesignal.requests.map((r) => r.body?.idempotency_key)).size, 1);
    assert.deepEqual(
      lines.map((line) => [line.event, line.waitMs, line.reason]),
      [
        ['push.retrying', 100, 'onesignal 500: Internal Server Error'],
        ['push.retrying', 200, 'onesignal 500: Internal Server Error'],
      ],
    );
    assert.equal(JSON.stringify(lines).includes(onesignal.apiKey), false);
  });

  for (const [status, keepForNextFlush] of [
    [400, false],
    [401, true],
    [403, true],
    [404, false],
  ] as const) {
    it(`does not retry a ${status} now${keepForNextFlush ? ', but keeps it for the next flush (credentials)' : ''}`, async () => {
      onesignal.failFor(recipient, { status });

      const result = await provider().send(message());

      assert.equal(result.delivered, false);
      assert.equal(!result.delivered && result.retryable, keepForNextFlush);
      assert.equal(onesignal.requests.length, 1);
      assert.deepEqual(sleeps, []);
    });
  }

  it('is refused by the service with a wrong app id (400) or a wrong key (403), without retrying', async () => {
    const wrongApp = await provider({ appId: '00000000-0000-4000-8000-000000000000' }).send(message());
    const wrongKey = await provider({ apiKey: 'not-the-key' }).send(message());

    assert.match(!wrongApp.delivered ? wrongApp.reason : '', /^onesignal 400: app_id not found/);
    assert.match(!wrongKey.delivered ? wrongKey.reason : '', /^onesignal 403: credentials refused: Access denied/);
    assert.equal(onesignal.requests.length, 2);
    assert.equal(onesignal.notifications.length, 0);
  });

  it('reports a refused connection as a retryable failure without throwing', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const result = await provider({ apiUrl: `http://127.0.0.1:${port}` }).send(message());

    assert.equal(result.delivered, false);
    assert.equal(!result.delivered && result.retryable, true);
    assert.match(!result.delivered ? result.reason : '', /ECONNREFUSED/);
    assert.deepEqual(sleeps, [1000, 2000]);
  });

  it('times out a request that hangs', async () => {
    const hanging: typeof globalThis.fetch = (_input, init) =>
      new Promise((_resolve, reject) => init!.signal!.addEventListener('abort', () => reject(init!.signal!.reason)));

    const result = await provider({ fetch: hanging, timeoutMs: 20, maxRetries: 0 }).send(message());

    assert.deepEqual(result, {
      delivered: false,
      reason: 'onesignal unreachable: timed out after 20 ms (gave up after 1 attempts)',
      retryable: true,
    });
  });

  it('reports a 200 that is not JSON as not delivered', async () => {
    const fetch: typeof globalThis.fetch = async () => new Response('<html>oops</html>', { status: 200 });

    const result = await provider({ fetch }).send(message());

    assert.deepEqual(result, {
      delivered: false,
      reason: 'onesignal 200: response is not a JSON object',
      retryable: true,
    });
  });

  it('refuses a message without English content before calling the service', async () => {
    const result = await provider().send(message({ contents: { fr: 'Ana vous suit' } }));

    assert.deepEqual(result, {
      delivered: false,
      reason: "invalid message: contents must include 'en'",
      retryable: false,
    });
    assert.equal(onesignal.requests.length, 0);
  });
});
