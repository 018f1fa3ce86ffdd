/** The 7 notification endpoints of the interface (JSON:API), all for the signed-in user. */
import { Type } from 'typebox';
import { CollectionSchema, DocumentSchema } from '../../platform/http/jsonapi.ts';
import { listDocument } from '../../platform/http/page-document.ts';
import { type AnyRoute, idParam, route } from '../../platform/http/route.ts';
import { notificationsKeyset } from './notifications.repository.ts';
import {
  BulkReadSchema,
  NotificationSchema,
  PreferencesSchema,
  presentNotification,
  presentPreferences,
  UnreadCountSchema,
} from './presenters.ts';
import type { NotificationsServices } from './public.ts';

const base = '/api/users/me/notifications';
const params = { id: idParam('The notification UUID', { hex: false }) };

export function notificationsRoutes({ notifications }: Pick<NotificationsServices, 'notifications'>): AnyRoute[] {
  return [
    route({
      method: 'GET',
      path: base,
      auth: 'user',
      summary: 'My in-app feed, newest first (keyset pages over createdAt, id)',
      page: { keyset: notificationsKeyset },
      query: { filter: Type.Optional(Type.Literal('unread', { description: '`unread` keeps unread rows only' })) },
      success: {
        status: 200,
        schema: CollectionSchema(NotificationSchema, {
          unreadOnly: Type.Boolean(),
          total: Type.Integer({ description: 'Rows matching the same filter' }),
        }),
      },
      handler: async ({ viewer, query, page, locale, links }) => {
        const unreadOnly = query.filter === 'unread';
        const { rows, total } = await notifications.list(viewer.userId, unreadOnly, page);
        return listDocument(rows, { page, links }, notificationsKeyset, (row) => presentNotification(row, locale), {
          unreadOnly,
          total,
        });
      },
    }),
    route({
      method: 'GET',
      path: `${base}/unread-count`,
      auth: 'user',
      summary: 'How many of my notifications are unread',
      success: { status: 200, schema: DocumentSchema(UnreadCountSchema) },
      handler: async ({ viewer }) => {
        const count = await notifications.unreadCount(viewer.userId);
        return { data: { type: 'notificationUnreadCount', id: viewer.userId, attributes: { count } } };
      },
    }),
    route({
      method: 'PATCH',
      path: `${base}/{id}/read`,
      auth: 'user',
      summary: 'Mark one of my notifications read (idempotent)',
      params,
      errors: ['notFound'],
      success: { status: 200, schema: DocumentSchema(NotificationSchema) },
      handler: async ({ viewer, params, locale }) => ({
        data: presentNotification(await notifications.markRead(viewer.userId, params.id), locale),
      }),
    }),
    route({
      method: 'POST',
      path: `${base}/mark-all-read`,
      auth: 'user',
      summary: 'Mark all my unread notifications read',
      success: { status: 200, schema: DocumentSchema(BulkReadSchema) },
      handler: async ({ viewer }) => {
        const affected = await notifications.markAllRead(viewer.userId);
        return { data: { type: 'notificationBulkRead', id: viewer.userId, attributes: { affected } } };
      },
    }),
    route({
      method: 'DELETE',
      path: `${base}/{id}`,
      auth: 'user',
      summary: 'Delete one of my notifications for good',
      params,
      errors: ['notFound'],
      success: { status: 204 },
      handler: ({ viewer, params }) => notifications.delete(viewer.userId, params.id),
    }),
    route({
      method: 'GET',
      path: `${base}/preferences`,
      auth: 'user',
      summary: 'My notification preferences: kind x channel (inApp, push), default true',
      success: { status: 200, schema: DocumentSchema(PreferencesSchema) },
      handler: async ({ viewer }) => ({
        data: presentPreferences(viewer.userId, await notifications.preferences(viewer.userId)),
      }),
    }),
    route({
      method: 'PATCH',
      path: `${base}/preferences`,
      auth: 'user',
      summary: 'Change some cells of my preference matrix (all or nothing)',
      description:
        'Body: `{"follow.received": {"push": false}}`, flat or under `data.attributes`. A body that is not a JSON object is 400; ' +
        'bad cells are 422, one error each with `meta.code` (unknownType, unknownChannel, expectedObject, expectedBool) and `source.pointer`.',
      // Any JSON is accepted here and checked by hand, so each bad cell gets its own error.
      body: Type.Unknown({ description: 'kind -> channel -> boolean' }),
      success: { status: 200, schema: DocumentSchema(PreferencesSchema) },
      handler: async ({ viewer, body }) => ({
        data: presentPreferences(viewer.userId, await notifications.updatePreferences(viewer.userId, body)),
      }),
    }),
  ];
}
