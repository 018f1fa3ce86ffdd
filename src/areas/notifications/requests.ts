/** Request schemas of notifications that the web pages' routes take too (the security page's "Notify me on this device"). */
import { Type } from 'typebox';
import { StringEnum } from '../../platform/http/jsonapi.ts';
import { supportedLocales } from '../../platform/i18n/i18n.ts';

/** What PushSubscription.toJSON() gives, and the language of the pushes. */
export const PushSubscriptionBody = Type.Object(
  {
    endpoint: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'the push service URL: https, on a public address',
    }),
    expirationTime: Type.Optional(Type.Union([Type.Null(), Type.Number()], { description: 'ignored' })),
    keys: Type.Object(
      {
        p256dh: Type.String({ maxLength: 100, description: 'the uncompressed P-256 public key, base64url (65 bytes)' }),
        auth: Type.String({ maxLength: 100, description: 'the authentication secret, base64url (16 bytes)' }),
      },
      { additionalProperties: false },
    ),
    locale: Type.Optional(
      StringEnum(supportedLocales, { description: "the pushes' language; default the request's (Accept-Language)" }),
    ),
  },
  { additionalProperties: false },
);
