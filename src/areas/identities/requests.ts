/**
 * The request schemas of identities that routes of another area take too (the web sign-in's POST
 * /auth/oauth/{provider}); other request schemas live in the routes that take them.
 */
import { Type } from 'typebox';

/** A provider's credential, as POST /api/auth/oauth/{provider} and the web's POST /auth/oauth/{provider} take it. */
export const ProviderCredentialsBody = Type.Object(
  {
    idToken: Type.Optional(
      Type.String({ minLength: 1, maxLength: 8192, description: 'Google and Apple: the ID token (a JWT) of the SDK' }),
    ),
    nonce: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 512,
        description: 'Google and Apple: the nonce given to the SDK, when one was (required then)',
      }),
    ),
    accessToken: Type.Optional(
      Type.String({ minLength: 1, maxLength: 4096, description: 'Facebook: the user access token of the SDK' }),
    ),
  },
  {
    additionalProperties: false,
    description: '`idToken` (and `nonce`) for google and apple, `accessToken` for facebook',
  },
);
