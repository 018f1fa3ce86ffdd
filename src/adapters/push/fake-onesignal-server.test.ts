// The fake in test/support is what every push test trusts, so its own rules are checked here.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { type FakeOneSignal, startFakeOneSignal } from '../../../test/support/fake-onesignal-server.ts';

describe('fake OneSignal server', () => {
  let onesignal: FakeOneSignal;
  const externalId = 'a'.repeat(32);

  function body(overrides: Record<string, unknown> = {}) {
    return {
      app_id: onesignal.appId,
      target_channel: 'push',
      include_aliases: { external_id: [externalId] },
      contents: { en: 'Hi' },
      idempotency_key: 'b98881cc-1e94-4366-bbd9-db8f3429292b',
      ...overrides,
    };
  }

  async function post(payload: unknown, apiKey = onesignal.apiKey) {
    const response = await fetch(`${onesignal.url}/notifications?c=push`, {
      method: 'POST',
      headers: { Authorization: `Key ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(payload),
    });
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json() };
  }

  before(async () => {
    onesignal = await startFakeOneSignal();
  });
  after(async () => {
    await onesignal.close();
  });
  beforeEach(() => onesignal.reset());

  for (const [problem, overrides] of [
    ['no target_channel', { target_channel: undefined }],
    ['no English contents', { contents: { fr: 'Salut' } }],
    ['an empty external_id list', { include_aliases: { external_id: [] } }],
    ['an idempotency key that is not a UUID', { idempotency_key: 'flush-1' }],
  ] as const) {
    it(`answers 400 with OneSignal-style errors for ${problem}`, async () => {
      const answer = await post(body(overrides));
      assert.equal(answer.status, 400);
      assert.equal(Array.isArray(answer.body.errors), true);
      assert.equal(onesignal.notifications.length, 0);
    });
  }

  it('answers 403 with a wrong key', async () => {
    assert.equal((await post(body(), 'wrong')).status, 403);
  });

  it('fails only as many times as asked, with Retry-After', async () => {
    onesignal.failFor(externalId, { status: 429, retryAfter: 5, times: 1 });

    const first = await post(body());
    const second = await post(body());

    assert.deepEqual(
      [first.status, first.retryAfter, first.body],
      [429, '5', { errors: ['API rate limit exceeded.'] }],
    );
    assert.equal(second.status, 200);
    assert.deepEqual(second.body, { id: onesignal.notifications[0]!.id, external_id: null });
  });

  it('creates nothing for a repeated idempotency key and answers the original result', async () => {
    const first = await post(body());
    const repeated = await post(body({ contents: { en: 'Different' } }));
    const other = await post(body({ idempotency_key: 'c98881cc-1e94-4366-bbd9-db8f3429292b' }));

    assert.deepEqual(repeated.body, first.body);
    assert.notDeepEqual(other.body, first.body);
    assert.deepEqual(
      onesignal.requests.map((r) => r.repeat),
      [false, true, false],
    );
    assert.equal(onesignal.notifications.length, 2);
  });

  it('forgets everything on reset', async () => {
    onesignal.failFor(externalId, { status: 500 });
    onesignal.invalidAlias(externalId);
    await post(body());

    onesignal.reset();
    const answer = await post(body());

    assert.equal(answer.status, 200);
    assert.equal(onesignal.requests.length, 1);
    assert.equal(onesignal.notifications.length, 1);
  });
});
