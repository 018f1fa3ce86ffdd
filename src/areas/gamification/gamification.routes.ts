/** Badges: the catalogue, mine, and anyone's (with their level, experience and title in meta). */
import { Type } from 'typebox';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { requireUuidParam } from '../../platform/http/ids.ts';
import { CollectionSchema } from '../../platform/http/jsonapi.ts';
import {
  type PageQuery as PageQueryValue,
  pageLinks,
  pageOf,
  pageQuerySchema,
  pageRequest,
} from '../../platform/http/pagination.ts';
import { type App, requireViewer } from '../../platform/http/types.ts';
import type { Locale } from '../../platform/i18n/i18n.ts';
import type { GamificationServices } from './gamification.module.ts';
import {
  BadgeSchema,
  ProgressMetaSchema,
  presentBadge,
  presentProgress,
  presentUserBadge,
  UserBadgeSchema,
} from './presenters.ts';

const tags = ['badges'];
const PageQuery = Type.Object(pageQuerySchema(50, 100), { additionalProperties: false });
const UserBadgesSchema = CollectionSchema(UserBadgeSchema, ProgressMetaSchema);

export function gamificationRoutes(app: App, { gamification }: GamificationServices) {
  app.get(
    '/api/badges',
    {
      config: { auth: 'none' },
      schema: {
        tags,
        summary: 'The badge catalogue, with the levels of each',
        querystring: PageQuery,
        response: { 200: CollectionSchema(BadgeSchema) },
      },
    },
    async (request) => {
      const page = pageRequest(request.query, ['int', 'uuid'], 50);
      const result = pageOf(await gamification.listBadges(page), page, (badge) => [-badge.position, badge.id]);
      return {
        data: result.items.map((badge) => presentBadge(badge, request.locale)),
        meta: { limit: page.limit },
        links: pageLinks(request.url, result),
      };
    },
  );

  async function userBadges(userId: string, query: PageQueryValue, url: string, locale: Locale) {
    const progress = await gamification.progress(userId);
    if (progress === null) throw new AppError('notFound', { source: { parameter: 'userId' } });
    const page = pageRequest(query, ['timestamp', 'uuid'], 50);
    const result = pageOf(await gamification.earnedBadges(userId, page), page, (row) => [row.updatedAt, row.badge.id]);
    return {
      data: result.items.map((row) => presentUserBadge(row, locale)),
      meta: { limit: page.limit, ...presentProgress(progress, locale) },
      links: pageLinks(url, result),
    };
  }

  app.get(
    '/api/users/me/badges',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'My badges, most recently raised first',
        querystring: PageQuery,
        response: { 200: UserBadgesSchema },
      },
    },
    async (request) => userBadges(requireViewer(request).userId, request.query, request.url, request.locale),
  );

  app.get(
    '/api/users/:userId/badges',
    {
      config: { auth: 'none' },
      schema: {
        tags,
        summary: "A user's badges, most recently raised first",
        params: Type.Object({ userId: Type.String({ description: 'UUID or 32 hex digits' }) }),
        querystring: PageQuery,
        response: { 200: UserBadgesSchema },
      },
    },
    async (request) =>
      userBadges(requireUuidParam(request.params.userId, 'userId'), request.query, request.url, request.locale),
  );
}
