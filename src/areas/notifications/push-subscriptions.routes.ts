/** Web Push: the VAPID key browsers subscribe with, and the signed-in user's push subscriptions. */
import { CollectionSchema, DocumentSchema } from '../../platform/http/jsonapi.ts';
import { listDocument } from '../../platform/http/page-document.ts';
import { perIp, perUser } from '../../platform/http/rate-limit.ts';
import { type AnyRoute, idParam, route } from '../../platform/http/route.ts';
import type { NotificationsServices } from './public.ts';
import {
  PushSubscriptionSchema,
  presentPushSubscription,
  VapidPublicKeySchema,
} from './push-subscriptions.presenters.ts';
import { pushSubscriptionsKeyset } from './push-subscriptions.repository.ts';
import { maxPushSubscriptionsPerUser } from './push-subscriptions.service.ts';
import { PushSubscriptionBody } from './requests.ts';

const base = '/api/users/me/push-subscriptions';

export function pushSubscriptionsRoutes({
  pushSubscriptions,
}: Pick<NotificationsServices, 'pushSubscriptions'>): AnyRoute[] {
  return [
    route({
      method: 'GET',
      path: '/api/push/vapid-public-key',
      auth: 'none',
      summary: 'The VAPID public key browsers subscribe with (404 providerNotConfigured without Web Push)',
      errors: ['providerNotConfigured'],
      success: { status: 200, schema: DocumentSchema(VapidPublicKeySchema) },
      handler: async () => {
        const publicKey = pushSubscriptions.vapidPublicKey();
        return { data: { type: 'vapidPublicKeys', id: 'current', attributes: { publicKey } } };
      },
    }),
    route({
      method: 'POST',
      path: base,
      auth: 'user',
      summary: `Register this browser's push subscription (at most ${maxPushSubscriptionsPerUser}: the oldest is deleted)`,
      description:
        'The body is what `PushSubscription.toJSON()` gives, with an optional `locale`. The endpoint must be https ' +
        'and resolve to public addresses only (422 `validationFailed`, `source.pointer` /endpoint); `keys.p256dh` ' +
        'an uncompressed P-256 point and `keys.auth` 16 bytes, both base64url (422, /keys/p256dh, /keys/auth). ' +
        'Registering an endpoint again (by this or another user) gives it to this user with the new keys.',
      rateLimit: [perIp('push-subscribe', 60, 900), perUser('push-subscribe', 20, 900)],
      body: PushSubscriptionBody,
      errors: ['providerNotConfigured'],
      success: { status: 201, schema: DocumentSchema(PushSubscriptionSchema) },
      handler: async ({ viewer, body, locale }) => ({
        data: presentPushSubscription(
          await pushSubscriptions.register(viewer.userId, {
            endpoint: body.endpoint,
            keys: body.keys,
            locale: body.locale ?? locale,
          }),
        ),
      }),
    }),
    route({
      method: 'GET',
      path: base,
      auth: 'user',
      summary: `My push subscriptions, newest first (at most ${maxPushSubscriptionsPerUser}; keyset pages over createdAt, id)`,
      page: { keyset: pushSubscriptionsKeyset },
      success: { status: 200, schema: CollectionSchema(PushSubscriptionSchema) },
      handler: async ({ viewer, page, links }) =>
        listDocument(
          await pushSubscriptions.list(viewer.userId, page),
          { page, links },
          pushSubscriptionsKeyset,
          presentPushSubscription,
        ),
    }),
    route({
      method: 'DELETE',
      path: `${base}/{id}`,
      auth: 'user',
      summary: 'Delete one of my push subscriptions: its browser gets no more pushes',
      params: { id: idParam('The push subscription UUID', { hex: false }) },
      rateLimit: [perIp('push-unsubscribe', 60, 900), perUser('push-unsubscribe', 30, 900)],
      errors: ['notFound'],
      success: { status: 204 },
      handler: ({ viewer, params }) => pushSubscriptions.delete(viewer.userId, params.id),
    }),
  ];
}
