import { Type } from 'typebox';
import { Nullable, ResourceSchema, resource, StringEnum, Timestamp } from '../../platform/http/jsonapi.ts';
import { formatNullableTimestamp, formatTimestamp } from '../../platform/http/time.ts';
import { type SubscriberRow, subscriberStatuses } from './tables.ts';

export const SubscriberSchema = ResourceSchema(
  'newsletterSubscribers',
  Type.Object({
    email: Type.String({ description: 'Trimmed and lower-cased' }),
    status: StringEnum(subscriberStatuses),
    locale: Type.String({ description: 'The locale of the latest subscription request; mails are written in it' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    confirmedAt: Nullable(Timestamp),
    unsubscribedAt: Nullable(Timestamp),
  }),
  undefined,
  'NewsletterSubscriber',
);

export const presentSubscriber = (row: SubscriberRow) =>
  resource('newsletterSubscribers', row.id, {
    email: row.email,
    status: row.status,
    locale: row.locale,
    createdAt: formatTimestamp(row.createdAt),
    updatedAt: formatTimestamp(row.updatedAt),
    confirmedAt: formatNullableTimestamp(row.confirmedAt),
    unsubscribedAt: formatNullableTimestamp(row.unsubscribedAt),
  });
