/**
 * What a Web Push carries (docs/api.md, Push subscriptions): one JSON object in the subscription's
 * language, which the service worker shows as a notification and whose `url` it opens on a click.
 */
import type { WebPushOptions } from '../../adapters/push/index.ts';
import type { Locale } from '../../platform/i18n/i18n.ts';
import { renderDigest, renderNotification } from './render.ts';
import type { NotificationRow } from './tables.ts';

export interface WebPushPayload {
  title: string;
  body: string;
  /** A path of this site to open on a click. */
  url: string;
  /** The notification's tag: a digest replaces the digest still shown. */
  tag: string;
  type: string;
  notificationId?: string;
  count?: number;
}

const hour = 3600;

/** Individual pushes wait up to 48 hours at the push service, digests a day (a newer digest replaces them: Topic). */
export const individualPushOptions: WebPushOptions = { ttlSeconds: 48 * hour, urgency: 'normal' };
export const digestPushOptions: WebPushOptions = { ttlSeconds: 24 * hour, urgency: 'low', topic: 'digest' };

/** The page a notification leads to: the follower's profile for a follow, the home page otherwise. */
function linkOf(row: NotificationRow): string {
  const username = row.data.actorUsername;
  if (row.type === 'follow.received' && typeof username === 'string' && row.data.actorHidden !== true) {
    return `/@${encodeURIComponent(username)}`;
  }
  return '/';
}

/** One push for a single row (give the row), or one digest counting `count` rows. */
export function webPushPayload(only: NotificationRow | null, count: number, locale: Locale): WebPushPayload {
  if (only !== null && count === 1) {
    return {
      ...renderNotification(only.type, only.data, locale),
      url: linkOf(only),
      tag: `notification-${only.id}`,
      type: only.type,
      notificationId: only.id,
    };
  }
  return { ...renderDigest(count, locale), url: '/', tag: 'digest', type: 'digest', count };
}
