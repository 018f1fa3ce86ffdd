/** Badges: the catalogue, mine, and anyone's (with their level, experience and title in meta). */

import { AppError } from '../../platform/http/error-catalogue.ts';
import { CollectionSchema } from '../../platform/http/jsonapi.ts';
import { listDocument } from '../../platform/http/page-document.ts';
import { type AnyRoute, idParam, type PagedContext, route } from '../../platform/http/route.ts';
import type { Locale } from '../../platform/i18n/i18n.ts';
import { badgesKeyset, earnedBadgesKeyset } from './gamification.repository.ts';
import type { GamificationService } from './gamification.service.ts';
import {
  BadgeSchema,
  ProgressMetaSchema,
  presentBadge,
  presentProgress,
  presentUserBadge,
  UserBadgeSchema,
} from './presenters.ts';
import type { GamificationServices } from './public.ts';

const UserBadgesPage = { status: 200, schema: CollectionSchema(UserBadgeSchema, ProgressMetaSchema) } as const;
const page = { keyset: earnedBadgesKeyset, defaultLimit: 50 };

/** A user's badges with their progress in meta; 404 for an unknown user. */
async function userBadges(
  gamification: GamificationService,
  userId: string,
  { page, locale, links }: PagedContext & { locale: Locale },
  viewerId: string | null,
) {
  const progress = await gamification.progress(userId, viewerId);
  if (progress === null) throw new AppError('notFound', { source: { parameter: 'userId' } });
  return listDocument(
    await gamification.earnedBadges(userId, page),
    { page, links },
    earnedBadgesKeyset,
    (row) => presentUserBadge(row, locale),
    presentProgress(progress, locale),
  );
}

export function gamificationRoutes({ gamification }: Pick<GamificationServices, 'gamification'>): AnyRoute[] {
  return [
    route({
      method: 'GET',
      path: '/api/badges',
      auth: 'none',
      summary: 'The badge catalogue, with the levels of each',
      page: { keyset: badgesKeyset, defaultLimit: 50 },
      success: { status: 200, schema: CollectionSchema(BadgeSchema) },
      handler: async ({ page, locale, links }) =>
        listDocument(await gamification.listBadges(page), { page, links }, badgesKeyset, (badge) =>
          presentBadge(badge, locale),
        ),
    }),
    route({
      method: 'GET',
      path: '/api/users/me/badges',
      auth: 'user',
      summary: 'My badges, most recently raised first',
      page,
      errors: ['notFound'],
      success: UserBadgesPage,
      handler: (context) => userBadges(gamification, context.viewer.userId, context, null),
    }),
    route({
      method: 'GET',
      path: '/api/users/{userId}/badges',
      auth: 'optional',
      description: 'Public; a valid token makes it 404 between the viewer and a user either blocks.',
      summary: "A user's badges, most recently raised first",
      params: { userId: idParam('UUID or 32 hex digits') },
      page,
      errors: ['notFound'],
      success: UserBadgesPage,
      handler: (context) => userBadges(gamification, context.params.userId, context, context.viewer?.userId ?? null),
    }),
  ];
}
