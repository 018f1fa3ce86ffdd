/** The face of identities: its services, and what other areas may import of it (docs/development.md, How areas talk). */
import type { IdentitiesService } from './identities.service.ts';

export interface IdentitiesServices {
  identities: IdentitiesService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    identities: IdentitiesServices;
  }
}

/** Shared with the web sign-in, which takes the same credential. */
export { ProviderCredentialsBody } from './requests.ts';
