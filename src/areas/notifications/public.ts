/** The face of notifications: its services, and what other areas may import of it (docs/development.md, How areas talk). */
import type { NotificationDispatcher } from './notification-dispatcher.ts';
import type { NotificationsService } from './notifications.service.ts';
import type { PushFlush } from './push-flush.ts';
import type { PushSubscriptionsService } from './push-subscriptions.service.ts';
import type { StreamHub } from './stream/stream-hub.ts';

export interface NotificationsServices {
  dispatcher: NotificationDispatcher;
  notifications: NotificationsService;
  pushFlush: PushFlush;
  pushSubscriptions: PushSubscriptionsService;
  /** The live streams open on this instance (GET /api/users/me/notifications/stream). */
  streams: StreamHub;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    notifications: NotificationsServices;
  }
}

export { dedupKeys } from './kinds.ts';
export type { NotificationDispatcher } from './notification-dispatcher.ts';
export { PushSubscriptionSchema, presentPushSubscription } from './push-subscriptions.presenters.ts';
export type { PushSubscriptionsService } from './push-subscriptions.service.ts';
export { PushSubscriptionBody } from './requests.ts';
