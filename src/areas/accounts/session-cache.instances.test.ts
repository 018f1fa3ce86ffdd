/**
 * Two instances of the service on one database, each with its session cache: a token revoked on one
 * dies on the other as soon as the broadcast arrives (Redis pub/sub with REDIS_URL, else PostgreSQL
 * NOTIFY, else in-process on PGlite); and when the broadcast is lost, no later than
 * SESSION_CACHE_SECONDS after.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestApp } from '../../../test/helpers/app.ts';
import { createUser } from '../../../test/helpers/factories.ts';
import { openBroadcastingInstances } from '../../../test/helpers/instance-broadcast.ts';
import { waitFor } from '../../../test/helpers/wait-for.ts';

describe('session revocation across instances', () => {
  let one: TestApp;
  let two: TestApp;
  let lossy: TestApp;
  let close: () => Promise<void>;
  before(async () => {
    ({ one, two, lossy, close } = await openBroadcastingInstances());
  });
  after(() => close());

  const me = async (t: TestApp, token: string) =>
    (await t.request({ method: 'GET', url: '/api/auth/me', token })).statusCode;

  it('a logout on one instance ends the token on the other once the broadcast arrives', async () => {
    const user = await createUser(one);
    assert.equal(await me(two, user.token), 200, 'the other instance has it cached');
    assert.equal((await one.request({ method: 'POST', url: '/api/auth/logout', token: user.token })).statusCode, 204);
    assert.equal(await me(one, user.token), 401, 'at once on the instance that revoked it');
    await waitFor('the revocation on the other instance', async () => (await me(two, user.token)) === 401);
  });

  it("confirming an address on one instance ends the registrant's token on the other once the broadcast arrives", async () => {
    const user = await createUser(one);
    assert.equal(await me(two, user.token), 200, 'the other instance has it cached');
    await one.services.areas.accounts.mailFlows.drain();
    const token = /\/login\?confirm=([A-Za-z0-9_-]+)/.exec(one.mail.last(user.email)!.text)![1];
    const confirmed = await one.request({ method: 'POST', url: '/api/auth/confirm-email', body: { token } });
    assert.equal(confirmed.statusCode, 204);
    assert.equal(await me(one, user.token), 401, 'at once on the instance that confirmed');
    await waitFor('the revocation on the other instance', async () => (await me(two, user.token)) === 401);
  });

  it('without the broadcast, the other instance stops accepting the token after SESSION_CACHE_SECONDS', async () => {
    const user = await createUser(one);
    assert.equal(await me(lossy, user.token), 200);
    await one.request({ method: 'POST', url: '/api/auth/logout', token: user.token });
    assert.equal(await me(lossy, user.token), 200, 'the message was lost: still cached');
    one.clock.advance(30_001);
    assert.equal(await me(lossy, user.token), 401);
  });
});
