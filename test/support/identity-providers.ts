/**
 * The three local identity providers together (a Google-like and an Apple-like OIDC provider, and a
 * Facebook Graph API), and the app environment that points at them, with a short provider timeout.
 *
 *   const providers = await startIdentityProviders();
 *   const t = await createTestApp({ env: providers.env });
 *   ... providers.google.sign({ sub, aud: testClientIds.google, ... }) ...
 *   await providers.close();
 */
import { type FacebookGraph, startFacebookGraph } from './facebook-graph.ts';
import { type OidcProvider, startOidcProvider } from './oidc-provider.ts';

export const testClientIds = {
  google: 'web-client.apps.googleusercontent.test',
  googleAndroid: 'android-client.apps.googleusercontent.test',
  apple: 'com.example.travel',
} as const;

export interface IdentityProviders {
  google: OidcProvider;
  apple: OidcProvider;
  facebook: FacebookGraph;
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startIdentityProviders(): Promise<IdentityProviders> {
  const google = await startOidcProvider({ issuer: 'https://accounts.google.test' });
  const apple = await startOidcProvider({ issuer: 'https://appleid.apple.test' });
  const facebook = await startFacebookGraph();
  return {
    google,
    apple,
    facebook,
    env: {
      GOOGLE_CLIENT_IDS: `${testClientIds.google}, ${testClientIds.googleAndroid}`,
      GOOGLE_ISSUER: google.issuer,
      GOOGLE_JWKS_URL: google.jwksUrl,
      APPLE_CLIENT_IDS: testClientIds.apple,
      APPLE_ISSUER: apple.issuer,
      APPLE_JWKS_URL: apple.jwksUrl,
      FACEBOOK_APP_ID: facebook.appId,
      FACEBOOK_APP_SECRET: facebook.appSecret,
      FACEBOOK_GRAPH_URL: facebook.graphUrl,
      // Short, so the timeout tests end soon; long enough for a loaded test machine's loopback.
      IDENTITY_PROVIDER_TIMEOUT_MS: '1000',
    },
    async close() {
      await Promise.all([google.close(), apple.close(), facebook.close()]);
    },
  };
}
