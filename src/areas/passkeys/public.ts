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
export { maxPasskeysPerUser as maxPasskeys } from './passkeys.service.ts';
// Shared with the web's sign-in and security page, which take the same bodies and answer the same documents.
export {
  PasskeySchema,
  presentOptions,
  presentPasskey,
  RegistrationOptionsSchema,
} from './presenters.ts';
export { PasskeyRegistrationBody, PasskeySignInBody, RegistrationOptionsBody } from './requests.ts';
