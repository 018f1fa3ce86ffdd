/** The identity providers' configuration: a provider without a client id is off; defaults are the providers' own. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../config.ts';

describe('identity providers configuration', () => {
  it('leaves every provider off by default, with a 5 s timeout', () => {
    const { identityProviders } = loadConfig({});
    assert.deepEqual(identityProviders, { timeoutMs: 5000, google: null, apple: null, facebook: null });
  });

  it("takes the providers' public URLs by default, and lists of client ids and issuers", () => {
    const { identityProviders } = loadConfig({
      GOOGLE_CLIENT_IDS: ' web.apps , ios.apps ,',
      APPLE_CLIENT_IDS: 'com.example.app',
      FACEBOOK_APP_ID: '42',
      FACEBOOK_APP_SECRET: 'secret',
      IDENTITY_PROVIDER_TIMEOUT_MS: '800',
    });
    assert.deepEqual(identityProviders, {
      timeoutMs: 800,
      google: {
        clientIds: ['web.apps', 'ios.apps'],
        issuers: ['https://accounts.google.com', 'accounts.google.com'],
        jwksUrl: 'https://www.googleapis.com/oauth2/v3/certs',
      },
      apple: {
        clientIds: ['com.example.app'],
        issuers: ['https://appleid.apple.com'],
        jwksUrl: 'https://appleid.apple.com/auth/keys',
      },
      facebook: { appId: '42', appSecret: 'secret', graphUrl: 'https://graph.facebook.com/v24.0' },
    });
  });

  it('reports every bad variable at once', () => {
    assert.throws(
      () =>
        loadConfig({
          GOOGLE_CLIENT_IDS: 'web.apps',
          GOOGLE_JWKS_URL: 'ftp://keys.example',
          FACEBOOK_APP_ID: '42',
          IDENTITY_PROVIDER_TIMEOUT_MS: '0',
        }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.ok(error.problems.some((problem) => problem.startsWith('GOOGLE_JWKS_URL')));
        assert.ok(error.problems.some((problem) => problem.startsWith('FACEBOOK_APP_SECRET is required')));
        assert.ok(error.problems.some((problem) => problem.startsWith('IDENTITY_PROVIDER_TIMEOUT_MS')));
        return true;
      },
    );
  });
});
