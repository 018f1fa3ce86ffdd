/**
 * Web Push in the notifications area: the push subscriptions (their service, export section and
 * erasure) and, when PUSH_PROVIDER names webpush, the flush's delivery to browsers.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { WebPushSender } from '../../adapters/push/index.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import type { EventBus } from '../../platform/events/domain-events.ts';
import type { ExportRegistry } from '../../platform/exports/export-registry.ts';
import { byId } from '../../platform/exports/keyset-batches.ts';
import type { UsersService } from '../accounts/public.ts';
import { PushSubscriptionsRepository } from './push-subscriptions.repository.ts';
import { PushSubscriptionsService } from './push-subscriptions.service.ts';
import { WebPushDelivery } from './web-push-delivery.ts';

export interface WebPushSetUp {
  transactions: Transactions;
  events: EventBus;
  exports: ExportRegistry;
  clock: Clock;
  logger: FastifyBaseLogger;
  webPush: WebPushSender | null;
  allowedHosts: readonly string[];
  users: UsersService;
}

export function setUpWebPush({
  transactions,
  events,
  exports,
  clock,
  logger,
  webPush,
  allowedHosts,
  users,
}: WebPushSetUp) {
  const repository = new PushSubscriptionsRepository(transactions);
  exports.register({
    name: 'push-subscriptions',
    description: "The browsers you asked for push notifications on: their push service's address and language.",
    rows: (userId) => byId((after, limit) => repository.exportRows(userId, after, limit)),
  });
  events.subscribe('user.erasing', 'inTransaction', 'notifications.erasePushSubscriptions', ({ userId }) =>
    repository.eraseUser(userId),
  );
  return {
    pushSubscriptions: new PushSubscriptionsService({ transactions, repository, users, clock, webPush, allowedHosts }),
    delivery: webPush === null ? null : new WebPushDelivery({ repository, sender: webPush, clock, logger }),
  };
}
