/** "My account": names, password, settings, postal address, sponsorship: /api/users/me/*. */
import { Type } from 'typebox';
import { CollectionSchema, DocumentSchema, Nullable } from '../../platform/http/jsonapi.ts';
import { listDocument } from '../../platform/http/page-document.ts';
import { perIp, type RateLimitRule } from '../../platform/http/rate-limit.ts';
import { type AnyRoute, route } from '../../platform/http/route.ts';
import {
  AddressPatchSchema,
  AddressSchema,
  presentAddress,
  presentSettings,
  SettingsPatchSchema,
  SettingsSchema,
} from './account.presenters.ts';
import { OwnUserSchema, PublicUserSchema, presentOwnUser, presentPublicUser } from './presenters.ts';
import type { AccountsServices } from './public.ts';
import { sponsoredKeyset } from './user-directory.repository.ts';
import { NicknameSchema, UsernameSchema } from './usernames.ts';

const OwnUser = { status: 200, schema: DocumentSchema(OwnUserSchema) } as const;
const UsernameBody = Type.Object({ username: UsernameSchema }, { additionalProperties: false });

/** Guessing the current password with a stolen token is slowed per account. */
const passwordChangeLimit: RateLimitRule = {
  name: 'password-change:user',
  max: 10,
  windowSeconds: 900,
  key: (request) => request.viewer?.userId ?? null,
};

export function accountRoutes({
  profile,
  passwords,
  settings,
  directory,
}: Pick<AccountsServices, 'profile' | 'passwords' | 'settings' | 'directory'>): AnyRoute[] {
  return [
    route({
      method: 'POST',
      path: '/api/users/me/username',
      auth: 'user',
      summary: 'Choose my first username (409 usernameAlreadySet once one is set)',
      body: UsernameBody,
      errors: ['usernameAlreadySet', 'usernameTaken', 'notFound'],
      success: OwnUser,
      handler: async ({ viewer, body }) => ({
        data: presentOwnUser(await profile.chooseUsername(viewer.userId, body.username)),
      }),
    }),
    route({
      method: 'POST',
      path: '/api/users/me/username/change',
      auth: 'user',
      summary: 'Change my username (at most once every 30 days)',
      body: UsernameBody,
      errors: ['usernameRequired', 'usernameChangeTooSoon', 'usernameTaken', 'notFound'],
      success: OwnUser,
      handler: async ({ viewer, body }) => ({
        data: presentOwnUser(await profile.changeUsername(viewer.userId, body.username)),
      }),
    }),
    route({
      method: 'PUT',
      path: '/api/users/me/nickname',
      auth: 'user',
      summary: 'Set my nickname (display name)',
      body: Type.Object({ nickname: NicknameSchema }, { additionalProperties: false }),
      errors: ['notFound'],
      success: OwnUser,
      handler: async ({ viewer, body }) => ({
        data: presentOwnUser(await profile.setNickname(viewer.userId, body.nickname)),
      }),
    }),
    route({
      method: 'POST',
      path: '/api/users/me/password',
      auth: 'user',
      summary: 'Change my password; every other session of mine ends, this one stays',
      rateLimit: [perIp('password-change', 30, 900), passwordChangeLimit],
      body: Type.Object(
        {
          currentPassword: Type.String({ minLength: 1, maxLength: 128 }),
          newPassword: Type.String({
            minLength: 1,
            maxLength: 128,
            description: '10 to 128 characters, a letter and a digit or symbol',
          }),
        },
        { additionalProperties: false },
      ),
      errors: ['wrongPassword', 'weakPassword', 'notFound'],
      success: { status: 204 },
      handler: async ({ viewer, body }) => {
        await passwords.change(viewer.userId, viewer.sessionId, body.currentPassword, body.newPassword);
      },
    }),
    route({
      method: 'GET',
      path: '/api/users/me/settings',
      auth: 'user',
      summary: 'My settings (defaults where never set)',
      errors: ['notFound'],
      success: { status: 200, schema: DocumentSchema(SettingsSchema) },
      handler: async ({ viewer }) => ({ data: presentSettings(viewer.userId, await settings.settings(viewer.userId)) }),
    }),
    route({
      method: 'PATCH',
      path: '/api/users/me/settings',
      auth: 'user',
      summary: 'Change some of my settings; all or nothing',
      body: SettingsPatchSchema,
      errors: ['notFound'],
      success: { status: 200, schema: DocumentSchema(SettingsSchema) },
      handler: async ({ viewer, body }) => ({
        data: presentSettings(viewer.userId, await settings.updateSettings(viewer.userId, body)),
      }),
    }),
    route({
      method: 'GET',
      path: '/api/users/me/address',
      auth: 'user',
      summary: 'My postal address (data null when none)',
      success: { status: 200, schema: DocumentSchema(Nullable(AddressSchema)) },
      handler: async ({ viewer }) => {
        const address = await settings.address(viewer.userId);
        return { data: address === null ? null : presentAddress(viewer.userId, address) };
      },
    }),
    route({
      method: 'PATCH',
      path: '/api/users/me/address',
      auth: 'user',
      summary: 'Set or change my postal address (a first one needs recipient, line1, postalCode, city, countryCode)',
      body: AddressPatchSchema,
      success: { status: 200, schema: DocumentSchema(AddressSchema) },
      handler: async ({ viewer, body }) => ({
        data: presentAddress(viewer.userId, await settings.updateAddress(viewer.userId, body)),
      }),
    }),
    route({
      method: 'DELETE',
      path: '/api/users/me/address',
      auth: 'user',
      summary: 'Remove my postal address',
      success: { status: 204 },
      handler: ({ viewer }) => settings.deleteAddress(viewer.userId),
    }),
    route({
      method: 'GET',
      path: '/api/users/me/sponsorship',
      auth: 'user',
      summary: 'My sponsor code and the accounts that registered with it, newest first',
      page: { keyset: sponsoredKeyset },
      errors: ['notFound'],
      success: {
        status: 200,
        schema: CollectionSchema(PublicUserSchema, { sponsorCode: Type.String(), total: Type.Integer() }),
      },
      handler: async ({ viewer, page, links }) => {
        const { sponsorCode, rows, total } = await directory.sponsorship(viewer.userId, page);
        return listDocument(rows, { page, links }, sponsoredKeyset, presentPublicUser, { sponsorCode, total });
      },
    }),
  ];
}
