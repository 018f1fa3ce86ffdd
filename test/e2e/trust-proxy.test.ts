/**
 * TRUST_PROXY as an operator writes it: `true`, a list of proxy addresses, or a hop count. The client
 * address the service keeps (a session's `ip`, rate limits, click visitors) is the one the setting
 * says to believe, and never one a client wrote past the trusted proxies.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createTestApp } from '../helpers/app.ts';

/** The address the service kept for a sign-up sent with this X-Forwarded-For (the test peer is 127.0.0.1). */
async function keptAddress(trustProxy: string | null, forwardedFor: string): Promise<string | null> {
  const t = await createTestApp({ env: trustProxy === null ? {} : { TRUST_PROXY: trustProxy } });
  try {
    const registered = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      body: { email: 'proxied@example.test', password: 'a long enough password 1' },
      headers: { 'x-forwarded-for': forwardedFor },
    });
    assert.equal(registered.statusCode, 201, registered.body);
    const sessions = await t.request({
      method: 'GET',
      url: '/api/auth/sessions',
      token: registered.json.data.attributes.accessToken,
    });
    assert.equal(sessions.statusCode, 200, sessions.body);
    return sessions.json.data[0].attributes.ip;
  } finally {
    await t.close();
  }
}

describe('TRUST_PROXY', () => {
  const chain = '198.51.100.9, 203.0.113.5';

  it('believes no forwarded address without it', async () => {
    assert.equal(await keptAddress(null, chain), '127.0.0.1');
  });

  it('with a hop count, takes the address that many hops away (a client cannot reach past it)', async () => {
    assert.equal(await keptAddress('1', chain), '203.0.113.5');
    assert.equal(await keptAddress('2', chain), '198.51.100.9');
  });

  it('with the proxies named, takes the nearest address that is not one of them', async () => {
    assert.equal(await keptAddress('127.0.0.1', chain), '203.0.113.5');
    assert.equal(await keptAddress('127.0.0.1,203.0.113.5', chain), '198.51.100.9');
  });
});
