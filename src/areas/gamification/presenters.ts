import { Type } from 'typebox';
import { Nullable, ResourceSchema, resource, Timestamp } from '../../platform/http/jsonapi.ts';
import { formatTimestamp } from '../../platform/http/time.ts';
import { hasMessage, type Locale, translate } from '../../platform/i18n/i18n.ts';
import type { EarnedBadgeRow } from './gamification.repository.ts';
import { badgeMaxLevel } from './gamification.service.ts';
import { experienceForLevel } from './level-curve.ts';
import type { BadgeRow, TitleRow } from './tables.ts';

const localized = (key: string, fallback: string, locale: Locale) =>
  hasMessage(key, locale) ? translate(locale, key) : fallback;

const badgeLabel = (badge: BadgeRow, locale: Locale) =>
  localized(`gamification.badges.${badge.slug}.label`, badge.label, locale);
const badgeDescription = (badge: BadgeRow, locale: Locale) =>
  localized(`gamification.badges.${badge.slug}.description`, badge.label, locale);

const LevelSchema = Type.Object({
  level: Type.Integer(),
  threshold: Type.Integer({ description: 'Value of the metric that reaches this level' }),
  xpReward: Type.Integer(),
});

export const BadgeSchema = ResourceSchema(
  'badges',
  Type.Object({
    slug: Type.String(),
    label: Type.String(),
    description: Type.String(),
    icon: Type.String(),
    metric: Type.String({ description: 'What the thresholds count, e.g. followers' }),
    maxLevel: Type.Integer(),
    levels: Type.Array(LevelSchema),
  }),
  undefined,
  'Badge',
);

export function presentBadge(badge: BadgeRow, locale: Locale) {
  return resource('badges', badge.id, {
    slug: badge.slug,
    label: badgeLabel(badge, locale),
    description: badgeDescription(badge, locale),
    icon: badge.icon,
    metric: badge.metric,
    maxLevel: badgeMaxLevel(badge),
    levels: badge.thresholds.map((threshold, index) => ({
      level: index + 1,
      threshold,
      xpReward: badge.xpRewards[index] ?? 0,
    })),
  });
}

export const UserBadgeSchema = ResourceSchema(
  'userBadges',
  Type.Object({
    slug: Type.String(),
    label: Type.String(),
    icon: Type.String(),
    level: Type.Integer(),
    maxLevel: Type.Integer(),
    nextThreshold: Nullable(Type.Integer({ description: 'Metric value of the next level; null at the top' })),
    earnedAt: Timestamp,
    updatedAt: Timestamp,
  }),
  undefined,
  'UserBadge',
);

/** id is the badge id: one resource per badge the user holds. */
export function presentUserBadge(row: EarnedBadgeRow, locale: Locale) {
  return resource('userBadges', row.badge.id, {
    slug: row.badge.slug,
    label: badgeLabel(row.badge, locale),
    icon: row.badge.icon,
    level: row.level,
    maxLevel: badgeMaxLevel(row.badge),
    nextThreshold: row.badge.thresholds[row.level] ?? null,
    earnedAt: formatTimestamp(row.earnedAt),
    updatedAt: formatTimestamp(row.updatedAt),
  });
}

export const ProgressMetaSchema = {
  level: Type.Integer(),
  experience: Type.Integer(),
  nextLevelExperience: Type.Integer({ description: 'Total experience that reaches the next level' }),
  title: Nullable(Type.Object({ slug: Type.String(), label: Type.String(), rankIndex: Type.Integer() })),
};

export function presentProgress(
  progress: { level: number; experience: number; title: TitleRow | null },
  locale: Locale,
) {
  const { title } = progress;
  return {
    level: progress.level,
    experience: progress.experience,
    nextLevelExperience: experienceForLevel(progress.level + 1),
    title: title && {
      slug: title.slug,
      label: localized(`gamification.titles.${title.slug}`, title.label, locale),
      rankIndex: title.rankIndex,
    },
  };
}
