/** JSON:API shapes of the caller's settings and postal address. */
import { Type } from 'typebox';
import { Nullable, ResourceSchema, resource } from '../../platform/http/jsonapi.ts';
import { addressLimits, phonePattern } from './address-rules.ts';
import type { PostalAddress, UserSettings } from './tables.ts';

const settingsFields = {
  publishLocationByDefault: Type.Boolean({
    description: 'new media show their position publicly unless the owner says otherwise (default true)',
  }),
  showReactionsPublicly: Type.Boolean({
    description: 'GET /api/users/{id}/likes and /dislikes answer for this user (default false)',
  }),
  discoverable: Type.Boolean({ description: 'the account appears in GET /api/users/search (default true)' }),
  marketingEmails: Type.Boolean({ description: 'product news by e-mail (default false)' }),
  birthCityId: Nullable(
    Type.String({
      format: 'uuid',
      description: 'a city id of GET /api/cities (unknown: 422); null clears it (default null)',
    }),
  ),
  blurSensitiveMedia: Type.Boolean({
    description: 'the web pages blur media marked sensitive behind their content warning until clicked (default true)',
  }),
};

export const SettingsSchema = ResourceSchema('userSettings', Type.Object(settingsFields));

/** PATCH body: any subset of the settings; an unknown key refuses the whole request. */
export const SettingsPatchSchema = Type.Object(
  Object.fromEntries(Object.entries(settingsFields).map(([key, schema]) => [key, Type.Optional(schema)])) as {
    [K in keyof typeof settingsFields]: ReturnType<typeof Type.Optional<(typeof settingsFields)[K]>>;
  },
  { additionalProperties: false },
);

/**
 * Only the declared fields of a value stored as JSON (settings, the address): a key an older shape
 * left in a stored row is not sent (answers are written as given: src/platform/http/serialization.ts).
 */
const declaredOf = <T extends object>(fields: object, stored: T): T =>
  Object.fromEntries(Object.keys(fields).map((key) => [key, (stored as Record<string, unknown>)[key]])) as T;

export const presentSettings = (userId: string, settings: UserSettings) =>
  resource('userSettings', userId, declaredOf(settingsFields, settings));

const addressFields = {
  recipient: Type.String({ maxLength: addressLimits.recipient }),
  line1: Type.String({ maxLength: addressLimits.line1 }),
  line2: Nullable(Type.String({ maxLength: addressLimits.line2 })),
  postalCode: Type.String({ maxLength: addressLimits.postalCode }),
  city: Type.String({ maxLength: addressLimits.city }),
  region: Nullable(Type.String({ maxLength: addressLimits.region })),
  countryCode: Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' }),
  phone: Nullable(Type.String({ maxLength: addressLimits.phone, pattern: phonePattern })),
};

export const AddressSchema = ResourceSchema('postalAddresses', Type.Object(addressFields));

/** What a patch may send: any text (checked once trimmed by the service), or null for an optional field. */
const patchText = (description: string) => Type.String({ maxLength: 1000, description });
export const AddressPatchSchema = Type.Object(
  {
    recipient: Type.Optional(patchText(`1 to ${addressLimits.recipient} characters once trimmed`)),
    line1: Type.Optional(patchText(`1 to ${addressLimits.line1} characters once trimmed`)),
    line2: Type.Optional(Nullable(patchText(`at most ${addressLimits.line2} characters; blank or null clears it`))),
    postalCode: Type.Optional(patchText(`1 to ${addressLimits.postalCode} characters once trimmed`)),
    city: Type.Optional(patchText(`1 to ${addressLimits.city} characters once trimmed`)),
    region: Type.Optional(Nullable(patchText(`at most ${addressLimits.region} characters; blank or null clears it`))),
    countryCode: Type.Optional(patchText('ISO 3166-1 alpha-2, any case; stored upper-case')),
    phone: Type.Optional(
      Nullable(patchText('digits, spaces, + ( ) . -, 3 to 32 once trimmed; blank or null clears it')),
    ),
  },
  { additionalProperties: false },
);

export const presentAddress = (userId: string, address: PostalAddress) =>
  resource('postalAddresses', userId, declaredOf(addressFields, address));
