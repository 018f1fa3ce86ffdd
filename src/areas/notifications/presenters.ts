import { Type } from 'typebox';
import { Nullable, ResourceSchema, resource, StringEnum, Timestamp } from '../../platform/http/jsonapi.ts';
import { formatNullableTimestamp, formatTimestamp } from '../../platform/http/time.ts';
import type { Locale } from '../../platform/i18n/i18n.ts';
import { FilteredMeta, type FilterResult, filteredMeta } from '../filters/public.ts';
import type { FeedItem } from './feed-statements.ts';
import { notificationKinds } from './kinds.ts';
import type { PreferenceMatrix } from './preference-patch.ts';
import { renderNotification } from './render.ts';

const NotificationResourceSchema = ResourceSchema(
  'notifications',
  Type.Object({
    type: StringEnum(notificationKinds),
    title: Type.String({ description: 'Rendered at read time in `locale`' }),
    body: Type.String({ description: 'Rendered at read time in `locale`' }),
    locale: Type.String({ description: 'The locale the texts are rendered in (language-region)' }),
    data: Type.Object({}, { additionalProperties: true, description: 'Frozen at dispatch; shape depends on type' }),
    isRead: Type.Boolean(),
    readAt: Nullable(Timestamp),
    createdAt: Timestamp,
  }),
  undefined,
  'Notification',
);

/** `meta.filtered` when a warn filter of the owner matched the notification (docs/api.md, Keyword filters). */
export const NotificationSchema = Type.Object(
  { ...NotificationResourceSchema.properties, meta: FilteredMeta },
  { title: 'Notification' },
);

/**
 * The data a notification shows: an actor others may not see (`actorHidden`) is unlinked, no id and no
 * username, as a mention of them in a comment; the name frozen in the text stays, as the mention's text.
 */
function shownData(data: Record<string, unknown>): Record<string, unknown> {
  if (data.actorHidden !== true) return data;
  const { actorHidden: _hidden, ...shown } = data;
  return { ...shown, actorId: null, actorUsername: null };
}

export function presentNotification(row: FeedItem & { filtered?: FilterResult[] }, locale: Locale) {
  const { title, body } = renderNotification(row.type, row.data, locale);
  const attributes = {
    type: row.type,
    title,
    body,
    locale,
    data: shownData(row.data),
    isRead: row.readAt !== null,
    readAt: formatNullableTimestamp(row.readAt),
    createdAt: formatTimestamp(row.createdAt),
  };
  // One object per item, `meta` only when a warn filter matched (a list presents twenty of these).
  const filtered = row.filtered ?? [];
  return filtered.length === 0
    ? resource('notifications', row.id, attributes)
    : { ...resource('notifications', row.id, attributes), ...filteredMeta(filtered) };
}

export const UnreadCountSchema = ResourceSchema('notificationUnreadCount', Type.Object({ count: Type.Integer() }));
export const BulkReadSchema = ResourceSchema('notificationBulkRead', Type.Object({ affected: Type.Integer() }));

const ChannelsSchema = Type.Object({ inApp: Type.Boolean(), push: Type.Boolean() });
export const PreferencesSchema = ResourceSchema(
  'notificationPreferences',
  Type.Object({
    matrix: Type.Object(Object.fromEntries(notificationKinds.map((kind) => [kind, ChannelsSchema]))),
  }),
);

export const presentPreferences = (userId: string, matrix: PreferenceMatrix) =>
  resource('notificationPreferences', userId, { matrix });
