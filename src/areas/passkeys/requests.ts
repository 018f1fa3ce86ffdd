/**
 * The WebAuthn responses the passkey routes take (as @simplewebauthn/browser's startRegistration and
 * startAuthentication return them, base64url throughout). The web sign-in's POST /auth/passkey takes
 * the sign-in body too, hence here rather than in the routes file.
 */
import { Type } from 'typebox';

const base64url = (maxLength: number, description: string) =>
  Type.String({ minLength: 1, maxLength, pattern: '^[A-Za-z0-9_-]+$', description });

/** A credential id is at most 1,023 bytes (WebAuthn): 1,364 base64url characters. */
const CredentialId = base64url(1364, 'the credential id (base64url)');
const ClientDataJSON = base64url(8192, 'the client data, base64url of its JSON');
const AuthenticatorAttachment = Type.Optional(
  Type.Union([Type.Literal('platform'), Type.Literal('cross-platform')], { description: 'as the browser said' }),
);
/** What the browser's extensions answered (credProps...); kept as given, not used. */
const ClientExtensionResults = Type.Object({}, { additionalProperties: true, description: 'as the browser gave them' });
const Transport = Type.String({ minLength: 1, maxLength: 32 });

export const RegistrationResponse = Type.Object(
  {
    id: CredentialId,
    rawId: CredentialId,
    type: Type.Literal('public-key'),
    response: Type.Object(
      {
        clientDataJSON: ClientDataJSON,
        attestationObject: base64url(65536, 'the attestation object, base64url of its CBOR'),
        authenticatorData: Type.Optional(base64url(16384, 'ignored: read from the attestation object')),
        transports: Type.Optional(Type.Array(Transport, { maxItems: 8 })),
        publicKeyAlgorithm: Type.Optional(Type.Integer({ description: 'ignored' })),
        publicKey: Type.Optional(base64url(16384, 'ignored: read from the attestation object')),
      },
      { additionalProperties: false },
    ),
    authenticatorAttachment: AuthenticatorAttachment,
    clientExtensionResults: ClientExtensionResults,
  },
  { additionalProperties: false, description: 'navigator.credentials.create() as JSON (RegistrationResponseJSON)' },
);

export const AuthenticationResponse = Type.Object(
  {
    id: CredentialId,
    rawId: CredentialId,
    type: Type.Literal('public-key'),
    response: Type.Object(
      {
        clientDataJSON: ClientDataJSON,
        authenticatorData: base64url(16384, 'the authenticator data, base64url'),
        signature: base64url(2048, 'the assertion signature, base64url'),
        userHandle: Type.Optional(base64url(128, 'the user handle of a discoverable credential')),
      },
      { additionalProperties: false },
    ),
    authenticatorAttachment: AuthenticatorAttachment,
    clientExtensionResults: ClientExtensionResults,
  },
  { additionalProperties: false, description: 'navigator.credentials.get() as JSON (AuthenticationResponseJSON)' },
);

/** POST /api/auth/passkey and the web's POST /auth/passkey. */
export const PasskeySignInBody = Type.Object(
  { credential: AuthenticationResponse },
  { additionalProperties: false, description: 'the assertion made for a challenge of POST /api/auth/passkey/options' },
);

/** POST /api/users/me/passkeys and the web's POST /security/passkeys. */
export const PasskeyRegistrationBody = Type.Object(
  {
    name: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, pattern: '\\S', description: '1 to 64 characters' }),
    ),
    credential: RegistrationResponse,
  },
  { additionalProperties: false },
);

/** POST /api/users/me/passkeys/options and the web's POST /security/passkeys/options: "confirm it is you". */
export const RegistrationOptionsBody = Type.Object(
  {
    password: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 128,
        description: 'my password (not needed within 10 minutes of a sign-in)',
      }),
    ),
  },
  { additionalProperties: false },
);
