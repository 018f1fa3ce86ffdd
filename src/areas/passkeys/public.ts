/** The face of passkeys: its services, and what other areas may import of it (docs/development.md, How areas talk). */
import type { PasskeySignInService } from './passkey-sign-in.service.ts';
import type { PasskeysService } from './passkeys.service.ts';

export interface PasskeysServices {
  passkeys: PasskeysService;
  passkeySignIn: PasskeySignInService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    passkeys: PasskeysServices;
  }
}

export type { PasskeySignInService } from './passkey-sign-in.service.ts';
export type { PasskeysService } from './passkeys.service.ts';
/** Shared with the web sign-in, which takes the same assertion. */
export { PasskeySignInBody } from './requests.ts';
