/** Push subscriptions and the VAPID key as JSON:API resources. */
import { Type } from 'typebox';
import { ResourceSchema, resource, StringEnum, Timestamp } from '../../platform/http/jsonapi.ts';
import { formatTimestamp } from '../../platform/http/time.ts';
import { supportedLocales } from '../../platform/i18n/i18n.ts';
import type { PushSubscriptionRow } from './tables.ts';

export const PushSubscriptionSchema = ResourceSchema(
  'pushSubscriptions',
  Type.Object({
    endpoint: Type.String({ description: "the browser's push service URL" }),
    locale: StringEnum(supportedLocales, { description: 'the language its pushes are written in' }),
    createdAt: Timestamp,
  }),
  undefined,
  'PushSubscription',
);

/** The browser's keys are not shown again: the client has them. */
export function presentPushSubscription(row: PushSubscriptionRow) {
  return resource('pushSubscriptions', row.id, {
    endpoint: row.endpoint,
    locale: row.locale,
    createdAt: formatTimestamp(row.createdAt),
  });
}

export const VapidPublicKeySchema = ResourceSchema(
  'vapidPublicKeys',
  Type.Object({
    publicKey: Type.String({
      description: "the application server key (base64url, 65 bytes): PushManager.subscribe's applicationServerKey",
    }),
  }),
  undefined,
  'VapidPublicKey',
);
