/** JSON:API shapes of the caller's settings and postal address. */
import { Type } from 'typebox';
import { Nullable, ResourceSchema, resource } from '../../platform/http/jsonapi.ts';
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
};

export const SettingsSchema = ResourceSchema('userSettings', Type.Object(settingsFields));

/** PATCH body: any subset of the settings; an unknown key refuses the whole request. */
export const SettingsPatchSchema = Type.Object(
  Object.fromEntries(Object.entries(settingsFields).map(([key, schema]) => [key, Type.Optional(schema)])) as {
    [K in keyof typeof settingsFields]: ReturnType<typeof Type.Optional<(typeof settingsFields)[K]>>;
  },
  { additionalProperties: false },
);

export const presentSettings = (userId: string, settings: UserSettings) => resource('userSettings', userId, settings);

const addressFields = {
  recipient: Type.String({ minLength: 1, maxLength: 100 }),
  line1: Type.String({ minLength: 1, maxLength: 200 }),
  line2: Nullable(Type.String({ maxLength: 200 })),
  postalCode: Type.String({ minLength: 1, maxLength: 20 }),
  city: Type.String({ minLength: 1, maxLength: 100 }),
  region: Nullable(Type.String({ maxLength: 100 })),
  countryCode: Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2, stored upper-case' }),
  phone: Nullable(Type.String({ maxLength: 32, pattern: '^\\+?[0-9 ().-]{3,32}$' })),
};

export const AddressSchema = ResourceSchema('postalAddresses', Type.Object(addressFields));

export const AddressPatchSchema = Type.Object(
  Object.fromEntries(Object.entries(addressFields).map(([key, schema]) => [key, Type.Optional(schema)])) as {
    [K in keyof typeof addressFields]: ReturnType<typeof Type.Optional<(typeof addressFields)[K]>>;
  },
  { additionalProperties: false },
);

export const presentAddress = (userId: string, address: PostalAddress) => resource('postalAddresses', userId, address);
