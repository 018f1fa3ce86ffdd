/** Notification texts, rendered from the message catalogs at read (or push) time; never stored. */
import { hasMessage, type Locale, translate } from '../../platform/i18n/i18n.ts';
import { type NotificationKind, notificationKinds } from './kinds.ts';

const keysOf = (kind: string) => ({ title: `notifications.${kind}.title`, body: `notifications.${kind}.body` });
/** Each kind's message keys, made once: a list renders two per item. */
const messageKeys = new Map(notificationKinds.map((kind) => [kind, keysOf(kind)]));

/** Badge and title labels are frozen in the default locale; show the reader's translation when one exists. */
function localizedValues(data: Record<string, unknown>, locale: Locale): Record<string, unknown> {
  if (typeof data.badgeSlug !== 'string' && typeof data.titleSlug !== 'string') return data;
  const values = { ...data };
  if (typeof data.badgeSlug === 'string' && hasMessage(`gamification.badges.${data.badgeSlug}.label`, locale)) {
    values.label = translate(locale, `gamification.badges.${data.badgeSlug}.label`);
  }
  if (typeof data.titleSlug === 'string' && hasMessage(`gamification.titles.${data.titleSlug}`, locale)) {
    values.titleLabel = translate(locale, `gamification.titles.${data.titleSlug}`);
  }
  return values;
}

export function renderNotification(type: NotificationKind, data: Record<string, unknown>, locale: Locale) {
  const values = localizedValues(data, locale);
  const keys = messageKeys.get(type) ?? keysOf(type);
  return { title: translate(locale, keys.title, values), body: translate(locale, keys.body, values) };
}

export function renderDigest(count: number, locale: Locale) {
  return {
    title: translate(locale, 'notifications.digest.title', { count }),
    body: translate(locale, 'notifications.digest.body', { count }),
  };
}
