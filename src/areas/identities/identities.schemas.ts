/** Request bodies shared with the web sign-in (POST /auth/oauth/{provider} declares the same input). */
import { Type } from 'typebox';

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
