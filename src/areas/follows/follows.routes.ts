/** The 7 follow routes: follow, unfollow, my following/followers, relationship, anyone's following/followers. */

import { alsoAnswer } from '../../platform/http/answers.ts';
import { CollectionSchema, DocumentSchema } from '../../platform/http/jsonapi.ts';
import { listDocument } from '../../platform/http/page-document.ts';
import { type AnyRoute, idParam, type PagedContext, route } from '../../platform/http/route.ts';
import { PublicUserSchema, presentPublicUser } from '../accounts/public.ts';
import { followersKeyset, followingKeyset } from './follows.repository.ts';
import type { FollowedUser } from './follows.service.ts';
import { presentRelationship, RelationshipSchema } from './presenters.ts';
import type { FollowsServices } from './public.ts';

const UsersPage = { status: 200, schema: CollectionSchema(PublicUserSchema) } as const;
const target = { targetUserId: idParam('The user to follow: UUID or 32 hex digits') };
const user = { userId: idParam('UUID or 32 hex digits') };

/** A follow list's row as the public user on the other side. */
const presentFollowed = (row: FollowedUser) => presentPublicUser(row.user);

export function followsRoutes({ follows }: Pick<FollowsServices, 'follows'>): AnyRoute[] {
  /** The two sides of a follow list: whom a user follows, and who follows them. */
  const sides = {
    following: {
      keyset: followingKeyset,
      page: async (userId: string, context: PagedContext, viewerId: string | null) =>
        listDocument(
          await follows.following(userId, context.page, viewerId),
          context,
          followingKeyset,
          presentFollowed,
        ),
    },
    followers: {
      keyset: followersKeyset,
      page: async (userId: string, context: PagedContext, viewerId: string | null) =>
        listDocument(
          await follows.followers(userId, context.page, viewerId),
          context,
          followersKeyset,
          presentFollowed,
        ),
    },
  };
  return [
    route({
      method: 'POST',
      path: '/api/users/me/following/{targetUserId}',
      auth: 'user',
      summary: 'Follow a user (409 alreadyFollowing if already followed, 422 cannotFollowSelf for oneself)',
      description:
        'A remote account (federation) is sent a Follow: 202 with `followRequested` until its server accepts; 409 federationOff while FEDERATION is off.',
      params: target,
      errors: ['notFound', 'alreadyFollowing', 'cannotFollowSelf', 'federationOff'],
      success: {
        status: 201,
        schema: DocumentSchema(RelationshipSchema),
        also: { 202: 'A remote account: the Follow is sent, and the follow waits for its acceptance (same body)' },
      },
      handler: async ({ viewer, params }) => {
        const relationship = await follows.follow(viewer.userId, params.targetUserId);
        const document = { data: presentRelationship(relationship) };
        return relationship.requested === null ? document : alsoAnswer(202, document);
      },
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
    ...(['following', 'followers'] as const).map((side) =>
      route({
        method: 'GET',
        path: `/api/users/me/${side}`,
        auth: 'user',
        summary:
          side === 'following' ? 'Users I follow, newest follow first' : 'Users who follow me, newest follow first',
        page: { keyset: sides[side].keyset },
        errors: ['notFound'],
        success: UsersPage,
        // A block removes the follows between the two, so my own lists need no rule of the viewer.
        handler: (context) => sides[side].page(context.viewer.userId, context, null),
      }),
    ),
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
    ...(['following', 'followers'] as const).map((side) =>
      route({
        method: 'GET',
        path: `/api/users/{userId}/${side}`,
        auth: 'optional',
        summary:
          side === 'following'
            ? 'Users this user follows, newest follow first'
            : 'Users who follow this user, newest follow first',
        description:
          'Public; a valid token leaves out the users the viewer blocks or is blocked by (404 if this user is one).',
        params: user,
        page: { keyset: sides[side].keyset },
        errors: ['notFound'],
        success: UsersPage,
        handler: (context) => sides[side].page(context.params.userId, context, context.viewer?.userId ?? null),
      }),
    ),
  ];
}
