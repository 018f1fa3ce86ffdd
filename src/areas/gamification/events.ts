/** What gamification tells other areas (notifications announce each), published under the user's lock. */

declare module '../../platform/events/domain-events.ts' {
  interface DomainEvents {
    /** `userId` reached `level` (one event per level crossed, lowest first); `experience` after the award. */
    'user.levelReached': { userId: string; level: number; previousLevel: number; experience: number };
    /** `userId` reached a title (one event per title crossed); `displayTitle` in the default locale. */
    'user.titleReached': {
      userId: string;
      level: number;
      titleSlug: string;
      titleLabel: string;
      rankIndex: number;
      displayTitle: string;
    };
    /** `userId` earned a badge's `level` (one event per level crossed, lowest first). */
    'badge.earned': {
      userId: string;
      badgeId: string;
      badgeSlug: string;
      level: number;
      maxLevel: number;
      label: string;
      icon: string;
      xpReward: number;
    };
  }
}
