/** The four notification kinds of the interface's Events part, their frozen data and dedup keys. */
import type { DomainEvents } from '../../platform/events/domain-events.ts';
import { toHex } from '../../platform/ids/ids.ts';
import '../gamification/events.ts';

/** What an event of gamification tells, but for whom: the data of the notification announcing it. */
type Announced<E extends 'badge.earned' | 'user.levelReached' | 'user.titleReached'> = Omit<DomainEvents[E], 'userId'>;

export const notificationKinds = ['follow.received', 'badge.earned', 'user.level.up', 'user.title.up'] as const;
export type NotificationKind = (typeof notificationKinds)[number];

export const notificationChannels = ['inApp', 'push'] as const;
export type NotificationChannel = (typeof notificationChannels)[number];

export const isNotificationKind = (value: string): value is NotificationKind =>
  (notificationKinds as readonly string[]).includes(value);
export const isNotificationChannel = (value: string): value is NotificationChannel =>
  (notificationChannels as readonly string[]).includes(value);

export interface NotificationData {
  /** `actorHidden` while the actor is banned or being deleted (presenters.ts shows no link to them then). */
  'follow.received': { actorId: string; actorUsername: string | null; actorDisplayName: string; actorHidden?: true };
  /** Gamification's events say what these kinds freeze (announcements.ts). */
  'badge.earned': Announced<'badge.earned'>;
  'user.level.up': Announced<'user.levelReached'>;
  'user.title.up': Announced<'user.titleReached'>;
}

/** The dedup_key shapes of the Events part. */
export const dedupKeys = {
  followReceived: (actorId: string) => `follow.received:${toHex(actorId)}`,
  badgeEarned: (badgeId: string, level: number) => `badge.earned:${toHex(badgeId)}:${level}`,
  levelUp: (recipientId: string, level: number) => `user.level.up:${toHex(recipientId)}:${level}`,
  titleUp: (recipientId: string, titleSlug: string) => `user.title.up:${toHex(recipientId)}:${titleSlug}`,
};
