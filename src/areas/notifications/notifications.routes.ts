/** The 7 notification endpoints of the interface (JSON:API), all for the signed-in user. */
import { Type } from 'typebox';
import { requireUuidParam } from '../../platform/http/ids.ts';
import { CollectionSchema, DocumentSchema } from '../../platform/http/jsonapi.ts';
import { pageLinks, pageOf, pageQuerySchema, pageRequest } from '../../platform/http/pagination.ts';
import { type App, requireViewer } from '../../platform/http/types.ts';
import type { NotificationsServices } from './notifications.module.ts';
import {
  BulkReadSchema,
  NotificationSchema,
  PreferencesSchema,
  presentNotification,
  presentPreferences,
  UnreadCountSchema,
} from './presenters.ts';

const tags = ['notifications'];
const base = '/api/users/me/notifications';
const IdParams = Type.Object({ id: Type.String({ description: 'The notification UUID' }) });

export function notificationsRoutes(app: App, { notifications }: NotificationsServices) {
  app.get(
    base,
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'My in-app feed, newest first (keyset pages over createdAt, id)',
        querystring: Type.Object(
          {
            ...pageQuerySchema(20, 100),
            filter: Type.Optional(Type.Literal('unread', { description: '`unread` keeps unread rows only' })),
          },
          { additionalProperties: false },
        ),
        response: {
          200: CollectionSchema(NotificationSchema, {
            unreadOnly: Type.Boolean(),
            total: Type.Integer({ description: 'Rows matching the same filter' }),
          }),
        },
      },
    },
    async (request) => {
      const viewer = requireViewer(request);
      const page = pageRequest(request.query, ['timestamp', 'uuid']);
      const unreadOnly = request.query.filter === 'unread';
      const { rows, total } = await notifications.list(viewer.userId, unreadOnly, page);
      const result = pageOf(rows, page, (row) => [row.createdAt, row.id]);
      return {
        data: result.items.map((row) => presentNotification(row, request.locale)),
        meta: { limit: page.limit, unreadOnly, total },
        links: pageLinks(request.url, result),
      };
    },
  );

  app.get(
    `${base}/unread-count`,
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'How many of my notifications are unread',
        response: { 200: DocumentSchema(UnreadCountSchema) },
      },
    },
    async (request) => {
      const viewer = requireViewer(request);
      const count = await notifications.unreadCount(viewer.userId);
      return { data: { type: 'notificationUnreadCount', id: viewer.userId, attributes: { count } } };
    },
  );

  app.patch(
    `${base}/:id/read`,
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Mark one of my notifications read (idempotent)',
        params: IdParams,
        response: { 200: DocumentSchema(NotificationSchema) },
      },
    },
    async (request) => {
      const viewer = requireViewer(request);
      const row = await notifications.markRead(viewer.userId, requireUuidParam(request.params.id, 'id', false));
      return { data: presentNotification(row, request.locale) };
    },
  );

  app.post(
    `${base}/mark-all-read`,
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Mark all my unread notifications read',
        response: { 200: DocumentSchema(BulkReadSchema) },
      },
    },
    async (request) => {
      const viewer = requireViewer(request);
      const affected = await notifications.markAllRead(viewer.userId);
      return { data: { type: 'notificationBulkRead', id: viewer.userId, attributes: { affected } } };
    },
  );

  app.delete(
    `${base}/:id`,
    {
      config: { auth: 'user' },
      schema: { tags, summary: 'Delete one of my notifications for good', params: IdParams },
    },
    async (request, reply) => {
      await notifications.delete(requireViewer(request).userId, requireUuidParam(request.params.id, 'id', false));
      return reply.status(204).send();
    },
  );

  app.get(
    `${base}/preferences`,
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'My notification preferences: kind x channel (inApp, push), default true',
        response: { 200: DocumentSchema(PreferencesSchema) },
      },
    },
    async (request) => {
      const viewer = requireViewer(request);
      return { data: presentPreferences(viewer.userId, await notifications.preferences(viewer.userId)) };
    },
  );

  app.patch(
    `${base}/preferences`,
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Change some cells of my preference matrix (all or nothing)',
        description:
          'Body: `{"follow.received": {"push": false}}`, flat or under `data.attributes`. A body that is not a JSON object is 400; ' +
          'bad cells are 422, one error each with `meta.code` (unknownType, unknownChannel, expectedObject, expectedBool) and `source.pointer`.',
        // Any JSON is accepted here and checked by hand, so each bad cell gets its own error.
        body: Type.Unknown({ description: 'kind -> channel -> boolean' }),
        response: { 200: DocumentSchema(PreferencesSchema) },
      },
    },
    async (request) => {
      const viewer = requireViewer(request);
      return {
        data: presentPreferences(viewer.userId, await notifications.updatePreferences(viewer.userId, request.body)),
      };
    },
  );
}
