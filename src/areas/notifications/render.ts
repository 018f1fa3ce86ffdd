/** Notification texts, rendered from the message catalogs at read (or push) time; never stored. */
import { hasMessage, type Locale, translate } from '../../platform/i18n/i18n.ts';
import type { NotificationKind } from './kinds.ts';

/** Badge and title labels are frozen in the default locale; show the reader's translation when one exists. */
function localizedValues(data: Record<string, unknown>, locale: Locale): Record<string, unknown> {
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
  return {
    title: translate(locale, `notifications.${type}.title`, values),
    body: translate(locale, `notifications.${type}.body`, values),
  };
}

export function renderDigest(count: number, locale: Locale) {
  return {
    title: translate(locale, 'notifications.digest.title', { count }),
    body: translate(locale, 'notifications.digest.body', { count }),
  };
}
