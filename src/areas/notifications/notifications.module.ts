/**
 * Notifications: the feed and preferences of the interface, `dispatcher` (the one way any area creates
 * a notification), and the push flush, scheduled as the job notifications-push.
 */
import { byId, keysetBatches } from '../../platform/exports/keyset-batches.ts';
import { registerRoutes } from '../../platform/http/route.ts';
import { everyMinutes } from '../../platform/jobs/jobs.ts';
import { defineArea } from '../../platform/modules/area-module.ts';
import { subscribeAnnouncements } from './announcements.ts';
import { NotificationDispatcher } from './notification-dispatcher.ts';
import { NotificationsRepository } from './notifications.repository.ts';
import { notificationsRoutes } from './notifications.routes.ts';
import { NotificationsService } from './notifications.service.ts';
import { NotificationsStatsRepository } from './notifications-stats.repository.ts';
import { PushFlush } from './push-flush.ts';
import { pushSubscriptionsRoutes } from './push-subscriptions.routes.ts';
import { pushVapidKeysCommand } from './push-vapid-keys.command.ts';
import { StreamRepository } from './stream/stream.repository.ts';
import { notificationStreamRoutes } from './stream/stream.routes.ts';
import { StreamHub } from './stream/stream-hub.ts';
import { setUpWebPush } from './web-push.ts';

export const notificationsArea = defineArea({
  name: 'notifications',
  needs: ['accounts', 'filters'],
  create(
    { transactions, events, clock, config, push, webPush, logger, jobs, stats, exports, broadcast },
    { accounts, filters },
  ) {
    const repository = new NotificationsRepository(transactions);
    const streamRepository = new StreamRepository(transactions);
    const streams = new StreamHub({
      broadcast,
      transactions,
      repository: streamRepository,
      filters: filters.filters,
      unreadCount: (ownerId) => repository.unreadCount(ownerId),
      sessions: accounts.sessions,
      users: accounts.users,
      clock,
      logger,
      heartbeatMs: 20_000,
      maxPerUser: 5,
    });
    exports.register({
      name: 'notifications',
      description: 'Your notifications: their kind and content, when they came, were read and were pushed.',
      rows: (userId) => byId((after, limit) => repository.exportRows(userId, after, limit)),
    });
    exports.register({
      name: 'notification-preferences',
      description: 'The notifications you turned on or off, per kind and channel (the others follow the defaults).',
      rows: (userId) =>
        keysetBatches(
          (after, limit) => repository.exportPreferences(userId, after, limit),
          (row) => row.key,
        ),
    });
    const notificationStats = new NotificationsStatsRepository(transactions);
    stats.register('notifications', (since) => notificationStats.notifications(since));
    stats.registerBacklog('notifications.pushWaiting', () => notificationStats.waitingForPush());
    const allowedHosts = config.push.webPush?.allowedHosts ?? [];
    const web = setUpWebPush({
      transactions,
      events,
      exports,
      clock,
      logger,
      webPush,
      allowedHosts,
      users: accounts.users,
    });
    const vendor = config.push.provider === 'none' ? null : push;
    const pushFlush = new PushFlush({ repository, push: vendor, webPush: web.delivery, clock, logger });
    jobs.register('notifications-push', {
      schedule: everyMinutes(config.notificationDigestIntervalMinutes),
      run: () => pushFlush.run(),
      // Rows whose push failed retryably are back in the table; the queue's retry (with backoff) sends them.
      retryWhen: (report) => Number(report.retryLater) > 0,
    });
    const dispatcher = new NotificationDispatcher({
      transactions,
      repository,
      users: accounts.users,
      clock,
      dedupWindowMinutes: config.notificationDedupWindowMinutes,
      changes: streams,
    });
    subscribeAnnouncements(events, dispatcher, accounts.relations);
    events.subscribe('user.erasing', 'inTransaction', 'notifications.erase', async ({ userId }) => {
      await repository.eraseUser(userId);
      await streamRepository.eraseUser(userId);
    });
    return {
      dispatcher,
      notifications: new NotificationsService({ repository, filters: filters.filters, clock, changes: streams }),
      pushFlush,
      streams,
      pushSubscriptions: web.pushSubscriptions,
    };
  },
  routes(app, services) {
    registerRoutes(app, 'notifications', [
      ...notificationsRoutes(services),
      ...notificationStreamRoutes(services),
      ...pushSubscriptionsRoutes(services),
    ]);
    // Open streams would hold the server's drain forever: they end as it starts to close.
    app.addHook('preClose', () => services.streams.closeAll());
  },
  cliCommands: [pushVapidKeysCommand],
});
