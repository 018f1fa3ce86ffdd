/**
 * Two-factor authentication as a client does it: enrol through the API, compute codes with otpauth
 * from the secret the enrolment answered (the real protocol), confirm, and keep the recovery codes.
 */
import assert from 'node:assert/strict';
import { Secret, TOTP } from 'otpauth';
import type { TestApp } from './app.ts';

export interface TwoFactorDevice {
  secret: string;
  uri: string;
  recoveryCodes: string[];
  /** The code the authenticator shows at `at` (now on the test clock by default). */
  code(at?: Date): string;
}

export const totpCode = (secret: string, at: Date): string =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: at.getTime(),
  });

/** Enrols and confirms; the clock moves on a step afterwards, so the next code is a fresh one. */
export async function enableTwoFactor(t: TestApp, token: string): Promise<TwoFactorDevice> {
  const enrolled = await t.request({ method: 'POST', url: '/api/users/me/two-factor', token });
  assert.equal(enrolled.statusCode, 201, enrolled.body);
  const { secret, uri } = enrolled.json.data.attributes as { secret: string; uri: string };
  const confirmed = await t.request({
    method: 'POST',
    url: '/api/users/me/two-factor/confirm',
    token,
    body: { code: totpCode(secret, t.clock.now()) },
  });
  assert.equal(confirmed.statusCode, 200, confirmed.body);
  t.clock.advance(30_000);
  return {
    secret,
    uri,
    recoveryCodes: confirmed.json.data.attributes.recoveryCodes,
    code: (at = t.clock.now()) => totpCode(secret, at),
  };
}
