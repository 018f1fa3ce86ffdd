/** The 7 follow routes: follow, unfollow, my following/followers, relationship, anyone's following/followers. */
import { CollectionSchema, DocumentSchema } from '../../platform/http/jsonapi.ts';
import { type Keyset, type Page, pageOf } from '../../platform/http/pagination.ts';
import { idParam, type RouteContext, registerRoutes, route } from '../../platform/http/route.ts';
import type { App } from '../../platform/http/types.ts';
import { PublicUserSchema, presentPublicUser } from '../accounts/presenters.ts';
import type { FollowsServices } from './follows.module.ts';
import { followersKeyset, followingKeyset } from './follows.repository.ts';
import type { FollowedUser } from './follows.service.ts';
import { presentRelationship, RelationshipSchema } from './presenters.ts';

const UsersPage = { status: 200, schema: CollectionSchema(PublicUserSchema) } as const;
const target = { targetUserId: idParam('The user to follow: UUID or 32 hex digits') };
const user = { userId: idParam('UUID or 32 hex digits') };

/** One page of a follow list as public users. */
function usersPage(
  rows: FollowedUser[],
  keyset: Keyset<FollowedUser>,
  { page, links }: Pick<RouteContext<'none', never, never, undefined>, 'page' | 'links'>,
) {
  const result: Page<FollowedUser> = pageOf(rows, page, keyset);
  return {
    data: result.items.map((row) => presentPublicUser(row.user)),
    meta: { limit: page.limit },
    links: links(result),
  };
}

export function followsRoutes(app: App, { follows }: FollowsServices) {
  registerRoutes(app, 'follows', [
    route({
      method: 'POST',
      path: '/api/users/me/following/{targetUserId}',
      auth: 'user',
      summary: 'Follow a user (409 alreadyFollowing if already followed, 422 cannotFollowSelf for oneself)',
      params: target,
      errors: ['notFound', 'alreadyFollowing', 'cannotFollowSelf'],
      success: { status: 201, schema: DocumentSchema(RelationshipSchema) },
      handler: async ({ viewer, params }) => ({
        data: presentRelationship(await follows.follow(viewer.userId, params.targetUserId)),
      }),
    }),
    route({
      method: 'DELETE',
      path: '/api/users/me/following/{targetUserId}',
      auth: 'user',
      summary: 'Stop following a user (idempotent)',
      params: target,
      errors: ['notFound'],
      success: { status: 204 },
      handler: ({ viewer, params }) => follows.unfollow(viewer.userId, params.targetUserId),
    }),
    route({
      method: 'GET',
      path: '/api/users/me/following',
      auth: 'user',
      summary: 'Users I follow, newest follow first',
      page: { keyset: followingKeyset },
      errors: ['notFound'],
      success: UsersPage,
      handler: async (context) =>
        usersPage(await follows.following(context.viewer.userId, context.page), followingKeyset, context),
    }),
    route({
      method: 'GET',
      path: '/api/users/me/followers',
      auth: 'user',
      summary: 'Users who follow me, newest follow first',
      page: { keyset: followersKeyset },
      errors: ['notFound'],
      success: UsersPage,
      handler: async (context) =>
        usersPage(await follows.followers(context.viewer.userId, context.page), followersKeyset, context),
    }),
    route({
      method: 'GET',
      path: '/api/users/{userId}/relationship',
      auth: 'user',
      summary: 'Whether I follow this user and whether they follow me',
      params: user,
      errors: ['notFound'],
      success: { status: 200, schema: DocumentSchema(RelationshipSchema) },
      handler: async ({ viewer, params }) => ({
        data: presentRelationship(await follows.relationship(viewer.userId, params.userId)),
      }),
    }),
    route({
      method: 'GET',
      path: '/api/users/{userId}/following',
      auth: 'none',
      summary: 'Users this user follows, newest follow first',
      params: user,
      page: { keyset: followingKeyset },
      errors: ['notFound'],
      success: UsersPage,
      handler: async (context) =>
        usersPage(await follows.following(context.params.userId, context.page), followingKeyset, context),
    }),
    route({
      method: 'GET',
      path: '/api/users/{userId}/followers',
      auth: 'none',
      summary: 'Users who follow this user, newest follow first',
      params: user,
      page: { keyset: followersKeyset },
      errors: ['notFound'],
      success: UsersPage,
      handler: async (context) =>
        usersPage(await follows.followers(context.params.userId, context.page), followersKeyset, context),
    }),
  ]);
}
