/** The operators' user pages: list, detail, verified badge, ban, unban, erasure. Every change is audited (in accounts.moderation). */

import { Type } from 'typebox';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { CollectionSchema, DocumentSchema } from '../../platform/http/jsonapi.ts';
import { listDocument } from '../../platform/http/page-document.ts';
import { type AnyRoute, idParam, route } from '../../platform/http/route.ts';
import { parseClientTime } from '../../platform/http/time.ts';
import { adminUsersKeyset, maxBanReasonLength } from '../accounts/public.ts';
import { AdminUserDetailSchema, AdminUserSchema, presentAdminUser, presentAdminUserDetail } from './presenters.ts';
import type { UserAdminServices } from './public.ts';

const params = { hex: idParam('32 hex digits or UUID') };
const OneUser = { status: 200, schema: DocumentSchema(AdminUserSchema) } as const;
const Flag = (description: string) => Type.Optional(Type.Boolean({ description }));

/** An RFC 3339 time the format let through but a Date cannot hold is 422 too (the future is checked by the service). */
function banEnd(value: string | undefined): Date | null {
  if (value === undefined) return null;
  const date = parseClientTime(value);
  if (date === null) {
    throw new AppError('validationFailed', {
      source: { pointer: '/until' },
      detail: 'must be an RFC 3339 time between the years 1 and 9999',
    });
  }
  return date;
}

export function usersAdminRoutes({
  userAdmin,
  moderation,
}: Pick<UserAdminServices, 'userAdmin' | 'moderation'>): AnyRoute[] {
  return [
    route({
      method: 'GET',
      path: '/admin/users',
      auth: 'admin',
      summary: 'Every account, newest first, searched by e-mail, username or nickname and filtered by state',
      page: { keyset: adminUsersKeyset, defaultLimit: 50, maxLimit: 200 },
      query: {
        q: Type.Optional(
          Type.String({
            minLength: 1,
            maxLength: 100,
            description: 'Part of the e-mail, username or nickname, whatever the case (% and _ match themselves)',
          }),
        ),
        banned: Flag('true: banned accounts only; false: accounts not banned'),
        verified: Flag('true: verified accounts only; false: the others'),
        unconfirmed: Flag('true: e-mail not confirmed yet; false: confirmed'),
      },
      success: { status: 200, schema: CollectionSchema(AdminUserSchema) },
      handler: async ({ query, page, links }) => {
        const rows = await moderation.list(
          {
            ...(query.q !== undefined ? { q: query.q } : {}),
            ...(query.banned !== undefined ? { banned: query.banned } : {}),
            ...(query.verified !== undefined ? { verified: query.verified } : {}),
            ...(query.unconfirmed !== undefined ? { unconfirmed: query.unconfirmed } : {}),
          },
          page,
        );
        return listDocument(rows, { page, links }, adminUsersKeyset, presentAdminUser);
      },
    }),
    route({
      method: 'GET',
      path: '/admin/users/{hex}',
      auth: 'admin',
      summary: 'One account (erased ones included), with its counts and live sessions',
      params,
      errors: ['notFound'],
      success: { status: 200, schema: DocumentSchema(AdminUserDetailSchema) },
      handler: async ({ params }) => {
        const { user, counts, twoFactor } = await userAdmin.detail(params.hex);
        return { data: presentAdminUserDetail(user, counts, twoFactor) };
      },
    }),
    route({
      method: 'PUT',
      path: '/admin/users/{hex}/verified',
      auth: 'admin',
      summary: 'Give or take the verified badge',
      params,
      body: Type.Object({ verified: Type.Boolean() }, { additionalProperties: false }),
      errors: ['notFound'],
      success: OneUser,
      handler: async ({ params, body }) => ({
        data: presentAdminUser(await moderation.setVerified(params.hex, body.verified, 'admin')),
      }),
    }),
    route({
      method: 'PUT',
      path: '/admin/users/{hex}/ban',
      auth: 'admin',
      summary:
        'Ban the account (or change the reason and end of its ban): sessions end at once, login is refused, its content leaves public view',
      params,
      body: Type.Object(
        {
          reason: Type.String({ minLength: 1, maxLength: maxBanReasonLength * 2, description: '1 to 500 characters' }),
          until: Type.Optional(
            Type.String({ format: 'date-time', description: 'RFC 3339, in the future: the ban ends by itself then' }),
          ),
        },
        { additionalProperties: false },
      ),
      errors: ['notFound'],
      success: OneUser,
      handler: async ({ params, body }) => {
        const input = { reason: body.reason, until: banEnd(body.until) };
        return { data: presentAdminUser(await moderation.ban(params.hex, input, 'admin')) };
      },
    }),
    route({
      method: 'PUT',
      path: '/admin/users/{hex}/unban',
      auth: 'admin',
      summary: 'Lift the ban (an account not banned is answered as it is)',
      params,
      errors: ['notFound'],
      success: {
        status: 200,
        schema: DocumentSchema(AdminUserSchema, { meta: Type.Object({ changed: Type.Boolean() }) }),
      },
      handler: async ({ params }) => {
        const { user, changed } = await moderation.unban(params.hex, 'admin');
        return { data: presentAdminUser(user), meta: { changed } };
      },
    }),
    route({
      method: 'POST',
      path: '/admin/users/{hex}/anonymize',
      auth: 'admin',
      summary:
        'Erase the account for good: personal data replaced or deleted, sessions and media deleted (irreversible)',
      params,
      errors: ['notFound', 'conflict'],
      success: OneUser,
      handler: async ({ params }) => ({ data: presentAdminUser(await moderation.anonymize(params.hex, 'admin')) }),
    }),
  ];
}
