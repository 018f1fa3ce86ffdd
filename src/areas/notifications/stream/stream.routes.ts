/** GET /api/users/me/notifications/stream: the live feed as Server-Sent Events (docs/api.md, The live stream). */
import { Type } from 'typebox';
import { perIp, perUser, type RateLimitRule } from '../../../platform/http/rate-limit.ts';
import { type AnyRoute, route } from '../../../platform/http/route.ts';
import type { NotificationsServices } from '../public.ts';
import { streamStart } from './event-ids.ts';

/** Opening a stream reads the feed (a replay may read much of it): 30 a minute per user, after 120 per address. */
export const streamRateLimits: RateLimitRule[] = [
  perIp('notifications-stream', 120, 60),
  perUser('notifications-stream', 30, 60),
];

export function notificationStreamRoutes({ streams }: Pick<NotificationsServices, 'streams'>): AnyRoute[] {
  return [
    route({
      method: 'GET',
      path: '/api/users/me/notifications/stream',
      auth: 'user',
      webCookie: true,
      summary: 'My notifications as they come (Server-Sent Events), replayed from the database after a Last-Event-ID',
      description:
        "Events `notification` (the feed's resource, in the negotiated locale) and `unreadCount` (the `notificationUnreadCount` resource), " +
        'each with an `id:` of the form `<position>-<8 hex>`; a `: heartbeat` comment every 20 s; `retry: 3000`. ' +
        'With `Last-Event-ID` (header, or the `lastEventId` query parameter) every notification after that id is sent first, in order, then the live ones. ' +
        'At most 5 streams a user: opening a sixth closes the oldest. The stream ends when its session does. ' +
        'Bearer token, or the web sign-in cookie.',
      query: {
        lastEventId: Type.Optional(
          Type.String({
            maxLength: 64,
            description: 'The Last-Event-ID, for clients that cannot send the header (the header wins)',
          }),
        ),
      },
      errors: ['invalidLastEventId'],
      rateLimit: streamRateLimits,
      success: {
        status: 200,
        mediaType: 'text/event-stream',
        description:
          'The event stream; it stays open (heartbeats) until the client leaves, its session ends or the server stops',
      },
      handler: async ({ viewer, locale, query, request, reply }) => {
        const header = request.headers['last-event-id'];
        const start = streamStart(typeof header === 'string' ? header : query.lastEventId, viewer.userId);
        reply
          .header('Content-Type', 'text/event-stream; charset=utf-8')
          .header('Cache-Control', 'no-store')
          // nginx (and proxies that follow it) must pass each event on at once, not buffer the body.
          .header('X-Accel-Buffering', 'no');
        if (request.method === 'HEAD') return reply.send();
        const stream = await streams.open({ userId: viewer.userId, sessionId: viewer.sessionId, locale }, start);
        reply.raw.on('close', () => stream.close());
        // The client may have left while the stream opened.
        if (reply.raw.destroyed) stream.close();
        return reply.send(stream.body);
      },
    }),
  ];
}
