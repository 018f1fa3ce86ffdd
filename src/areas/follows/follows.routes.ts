/** The 7 follow routes: follow, unfollow, my following/followers, relationship, anyone's following/followers. */
import { Type } from 'typebox';
import { requireUuidParam } from '../../platform/http/ids.ts';
import { CollectionSchema, DocumentSchema } from '../../platform/http/jsonapi.ts';
import {
  type Page,
  type PageRequest,
  pageLinks,
  pageOf,
  pageQuerySchema,
  pageRequest,
} from '../../platform/http/pagination.ts';
import { type App, requireViewer } from '../../platform/http/types.ts';
import { PublicUserSchema, presentPublicUser } from '../accounts/presenters.ts';
import type { FollowsServices } from './follows.module.ts';
import type { FollowedUser } from './follows.service.ts';
import { presentRelationship, RelationshipSchema } from './presenters.ts';

const tags = ['follows'];
const PageQuery = Type.Object(pageQuerySchema(20, 100), { additionalProperties: false });
const UsersPageSchema = CollectionSchema(PublicUserSchema);
const TargetParams = Type.Object({ targetUserId: Type.String({ description: 'UUID or 32 hex digits' }) });
const UserParams = Type.Object({ userId: Type.String({ description: 'UUID or 32 hex digits' }) });

function usersPage(rows: FollowedUser[], page: PageRequest, url: string) {
  const result: Page<FollowedUser> = pageOf(rows, page, (row) => [row.followedAt, row.user.id]);
  return {
    data: result.items.map((row) => presentPublicUser(row.user)),
    meta: { limit: page.limit },
    links: pageLinks(url, result),
  };
}

export function followsRoutes(app: App, { follows }: FollowsServices) {
  app.post(
    '/api/users/me/following/:targetUserId',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Follow a user (409 alreadyFollowing if already followed, 422 cannotFollowSelf for oneself)',
        params: TargetParams,
        response: { 201: DocumentSchema(RelationshipSchema) },
      },
    },
    async (request, reply) => {
      const target = requireUuidParam(request.params.targetUserId, 'targetUserId');
      const relationship = await follows.follow(requireViewer(request).userId, target);
      return reply.status(201).send({ data: presentRelationship(relationship) });
    },
  );

  app.delete(
    '/api/users/me/following/:targetUserId',
    { config: { auth: 'user' }, schema: { tags, summary: 'Stop following a user (idempotent)', params: TargetParams } },
    async (request, reply) => {
      await follows.unfollow(
        requireViewer(request).userId,
        requireUuidParam(request.params.targetUserId, 'targetUserId'),
      );
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/users/me/following',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Users I follow, newest follow first',
        querystring: PageQuery,
        response: { 200: UsersPageSchema },
      },
    },
    async (request) => {
      const page = pageRequest(request.query, ['timestamp', 'uuid']);
      return usersPage(await follows.following(requireViewer(request).userId, page), page, request.url);
    },
  );

  app.get(
    '/api/users/me/followers',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Users who follow me, newest follow first',
        querystring: PageQuery,
        response: { 200: UsersPageSchema },
      },
    },
    async (request) => {
      const page = pageRequest(request.query, ['timestamp', 'uuid']);
      return usersPage(await follows.followers(requireViewer(request).userId, page), page, request.url);
    },
  );

  app.get(
    '/api/users/:userId/relationship',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Whether I follow this user and whether they follow me',
        params: UserParams,
        response: { 200: DocumentSchema(RelationshipSchema) },
      },
    },
    async (request) => {
      const userId = requireUuidParam(request.params.userId, 'userId');
      return { data: presentRelationship(await follows.relationship(requireViewer(request).userId, userId)) };
    },
  );

  app.get(
    '/api/users/:userId/following',
    {
      config: { auth: 'none' },
      schema: {
        tags,
        summary: 'Users this user follows, newest follow first',
        params: UserParams,
        querystring: PageQuery,
        response: { 200: UsersPageSchema },
      },
    },
    async (request) => {
      const page = pageRequest(request.query, ['timestamp', 'uuid']);
      return usersPage(
        await follows.following(requireUuidParam(request.params.userId, 'userId'), page),
        page,
        request.url,
      );
    },
  );

  app.get(
    '/api/users/:userId/followers',
    {
      config: { auth: 'none' },
      schema: {
        tags,
        summary: 'Users who follow this user, newest follow first',
        params: UserParams,
        querystring: PageQuery,
        response: { 200: UsersPageSchema },
      },
    },
    async (request) => {
      const page = pageRequest(request.query, ['timestamp', 'uuid']);
      return usersPage(
        await follows.followers(requireUuidParam(request.params.userId, 'userId'), page),
        page,
        request.url,
      );
    },
  );
}
