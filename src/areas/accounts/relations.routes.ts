/** Blocks and mutes: PUT/DELETE /api/users/me/blocks/{userId} and /mutes/{userId}, and my two lists. */
import { Type } from 'typebox';
import { CollectionSchema, DocumentSchema, Nullable, Timestamp } from '../../platform/http/jsonapi.ts';
import { listDocument } from '../../platform/http/page-document.ts';
import { perIp, perUser } from '../../platform/http/rate-limit.ts';
import { type AnyRoute, idParam, route } from '../../platform/http/route.ts';
import type { AccountsServices } from './public.ts';
import { BlockSchema, MuteSchema, presentBlock, presentMute } from './relations.presenters.ts';
import { blocksKeyset, mutesKeyset } from './relations.repository.ts';

const params = { userId: idParam('The other user: UUID or 32 hex digits') };

/** Writes per minute, per IP and per signed-in user (docs/api.md, Blocks and mutes). */
export const relationRateLimits = [perIp('relations', 120, 60), perUser('relations', 60, 60)];

const MuteBody = Type.Object(
  {
    notifications: Type.Optional(
      Type.Boolean({ description: 'true: their notifications to me stop too (default false: their content only)' }),
    ),
    expiresAt: Type.Optional(Nullable(Timestamp)),
  },
  {
    additionalProperties: false,
    description: 'expiresAt: when the mute ends by itself (in the future); absent or null: never',
  },
);

export function relationsRoutes({ relations }: Pick<AccountsServices, 'relations'>): AnyRoute[] {
  return [
    route({
      method: 'PUT',
      path: '/api/users/me/blocks/{userId}',
      auth: 'user',
      summary: 'Block a user (idempotent): both ways at once, our follows removed; they are never told',
      params,
      rateLimit: relationRateLimits,
      errors: ['notFound', 'cannotBlockSelf'],
      success: { status: 200, schema: DocumentSchema(BlockSchema) },
      handler: async ({ viewer, params }) => ({
        data: presentBlock(await relations.block(viewer.userId, params.userId)),
      }),
    }),
    route({
      method: 'DELETE',
      path: '/api/users/me/blocks/{userId}',
      auth: 'user',
      summary: 'Unblock a user (idempotent; follows do not come back)',
      params,
      rateLimit: relationRateLimits,
      errors: ['notFound'],
      success: { status: 204 },
      handler: ({ viewer, params }) => relations.unblock(viewer.userId, params.userId),
    }),
    route({
      method: 'GET',
      path: '/api/users/me/blocks',
      auth: 'user',
      summary: 'The users I block, newest block first',
      page: { keyset: blocksKeyset },
      success: { status: 200, schema: CollectionSchema(BlockSchema) },
      handler: async ({ viewer, page, links }) =>
        listDocument(await relations.blocks(viewer.userId, page), { page, links }, blocksKeyset, (row) =>
          presentBlock({ blockedId: row.user.id, createdAt: row.createdAt }, row.user),
        ),
    }),
    route({
      method: 'PUT',
      path: '/api/users/me/mutes/{userId}',
      auth: 'user',
      summary: 'Mute a user, or change the terms of my mute (one way, silent)',
      params,
      body: MuteBody,
      rateLimit: relationRateLimits,
      errors: ['notFound', 'cannotMuteSelf', 'expiryInPast'],
      success: { status: 200, schema: DocumentSchema(MuteSchema) },
      handler: async ({ viewer, params, body }) => ({
        data: presentMute(
          await relations.mute(viewer.userId, params.userId, {
            notifications: body.notifications ?? false,
            expiresAt: body.expiresAt == null ? null : new Date(body.expiresAt),
          }),
        ),
      }),
    }),
    route({
      method: 'DELETE',
      path: '/api/users/me/mutes/{userId}',
      auth: 'user',
      summary: 'Unmute a user (idempotent)',
      params,
      rateLimit: relationRateLimits,
      errors: ['notFound'],
      success: { status: 204 },
      handler: ({ viewer, params }) => relations.unmute(viewer.userId, params.userId),
    }),
    route({
      method: 'GET',
      path: '/api/users/me/mutes',
      auth: 'user',
      summary: 'The users I mute, newest mute first (expired mutes have ended and are not listed)',
      page: { keyset: mutesKeyset },
      success: { status: 200, schema: CollectionSchema(MuteSchema) },
      handler: async ({ viewer, page, links }) =>
        listDocument(await relations.mutes(viewer.userId, page), { page, links }, mutesKeyset, (row) =>
          presentMute({ mutedId: row.user.id, ...row }, row.user),
        ),
    }),
  ];
}
