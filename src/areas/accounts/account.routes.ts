/** "My account": names, password, settings, postal address, sponsorship: /api/users/me/*. */
import { Type } from 'typebox';
import { CollectionSchema, DocumentSchema, Nullable } from '../../platform/http/jsonapi.ts';
import { pageLinks, pageOf, pageQuerySchema, pageRequest } from '../../platform/http/pagination.ts';
import { perIp, type RateLimitRule } from '../../platform/http/rate-limit.ts';
import { type App, requireViewer } from '../../platform/http/types.ts';
import {
  AddressPatchSchema,
  AddressSchema,
  presentAddress,
  presentSettings,
  SettingsPatchSchema,
  SettingsSchema,
} from './account.presenters.ts';
import type { AccountsServices } from './accounts.module.ts';
import { OwnUserSchema, PublicUserSchema, presentOwnUser, presentPublicUser } from './presenters.ts';
import { NicknameSchema, UsernameSchema } from './usernames.ts';

const tags = ['account'];
const OwnUserDocument = { 200: DocumentSchema(OwnUserSchema) };
const UsernameBody = Type.Object({ username: UsernameSchema }, { additionalProperties: false });

/** Guessing the current password with a stolen token is slowed per account. */
const passwordChangeLimit: RateLimitRule = {
  name: 'password-change:user',
  max: 10,
  windowSeconds: 900,
  key: (request) => request.viewer?.userId ?? null,
};

export function accountRoutes(app: App, { profile, passwords, settings, directory }: AccountsServices) {
  app.post(
    '/api/users/me/username',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Choose my first username (409 usernameAlreadySet once one is set)',
        body: UsernameBody,
        response: OwnUserDocument,
      },
    },
    async (request) => ({
      data: presentOwnUser(await profile.chooseUsername(requireViewer(request).userId, request.body.username)),
    }),
  );

  app.post(
    '/api/users/me/username/change',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Change my username (at most once every 30 days)',
        body: UsernameBody,
        response: OwnUserDocument,
      },
    },
    async (request) => ({
      data: presentOwnUser(await profile.changeUsername(requireViewer(request).userId, request.body.username)),
    }),
  );

  app.put(
    '/api/users/me/nickname',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Set my nickname (display name)',
        body: Type.Object({ nickname: NicknameSchema }, { additionalProperties: false }),
        response: OwnUserDocument,
      },
    },
    async (request) => ({
      data: presentOwnUser(await profile.setNickname(requireViewer(request).userId, request.body.nickname)),
    }),
  );

  app.post(
    '/api/users/me/password',
    {
      config: { auth: 'user', rateLimit: [perIp('password-change', 30, 900), passwordChangeLimit] },
      schema: {
        tags,
        summary: 'Change my password; every other session of mine ends, this one stays',
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
      },
    },
    async (request, reply) => {
      const viewer = requireViewer(request);
      await passwords.change(viewer.userId, viewer.sessionId, request.body.currentPassword, request.body.newPassword);
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/users/me/settings',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'My settings (defaults where never set)',
        response: { 200: DocumentSchema(SettingsSchema) },
      },
    },
    async (request) => {
      const userId = requireViewer(request).userId;
      return { data: presentSettings(userId, await settings.settings(userId)) };
    },
  );

  app.patch(
    '/api/users/me/settings',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Change some of my settings; all or nothing',
        body: SettingsPatchSchema,
        response: { 200: DocumentSchema(SettingsSchema) },
      },
    },
    async (request) => {
      const userId = requireViewer(request).userId;
      return { data: presentSettings(userId, await settings.updateSettings(userId, request.body)) };
    },
  );

  app.get(
    '/api/users/me/address',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'My postal address (data null when none)',
        response: { 200: DocumentSchema(Nullable(AddressSchema)) },
      },
    },
    async (request) => {
      const userId = requireViewer(request).userId;
      const address = await settings.address(userId);
      return { data: address === null ? null : presentAddress(userId, address) };
    },
  );

  app.patch(
    '/api/users/me/address',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Set or change my postal address (a first one needs recipient, line1, postalCode, city, countryCode)',
        body: AddressPatchSchema,
        response: { 200: DocumentSchema(AddressSchema) },
      },
    },
    async (request) => {
      const userId = requireViewer(request).userId;
      return { data: presentAddress(userId, await settings.updateAddress(userId, request.body)) };
    },
  );

  app.delete(
    '/api/users/me/address',
    { config: { auth: 'user' }, schema: { tags, summary: 'Remove my postal address' } },
    async (request, reply) => {
      await settings.deleteAddress(requireViewer(request).userId);
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/users/me/sponsorship',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'My sponsor code and the accounts that registered with it, newest first',
        querystring: Type.Object(pageQuerySchema(20, 100), { additionalProperties: false }),
        response: { 200: CollectionSchema(PublicUserSchema, { sponsorCode: Type.String(), total: Type.Integer() }) },
      },
    },
    async (request) => {
      const page = pageRequest(request.query, ['timestamp', 'uuid']);
      const { sponsorCode, rows, total } = await directory.sponsorship(requireViewer(request).userId, page);
      const result = pageOf(rows, page, (row) => [row.createdAt, row.id]);
      return {
        data: result.items.map(presentPublicUser),
        meta: { limit: page.limit, sponsorCode, total },
        links: pageLinks(request.url, result),
      };
    },
  );
}
