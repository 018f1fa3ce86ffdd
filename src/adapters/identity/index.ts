/** The identity providers this server is configured for; an unconfigured one is absent. */
import type { IdentityProvidersConfig } from '../../config.ts';
import type { Clock } from '../../platform/clock.ts';
import { FacebookIdentityProvider } from './facebook-identity-provider.ts';
import type { IdentityProvider, ProviderName } from './identity-provider.ts';
import { OidcIdentityProvider } from './oidc-identity-provider.ts';

export * from './identity-provider.ts';

export function createIdentityProviders(
  config: IdentityProvidersConfig,
  clock: Clock,
): Map<ProviderName, IdentityProvider> {
  const providers = new Map<ProviderName, IdentityProvider>();
  const { timeoutMs } = config;
  for (const name of ['google', 'apple'] as const) {
    const oidc = config[name];
    if (oidc !== null) providers.set(name, new OidcIdentityProvider({ name, ...oidc, timeoutMs, clock }));
  }
  if (config.facebook !== null) {
    providers.set('facebook', new FacebookIdentityProvider({ ...config.facebook, timeoutMs, clock }));
  }
  return providers;
}
