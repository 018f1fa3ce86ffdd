/**
 * The Web Push part of the push flush: the push of one recipient's rows, sent to each of the
 * recipient's browser subscriptions in its language. Web Push has no idempotency key, so each
 * subscription's accepted pushes are recorded under the flush's key (push_deliveries): a flush that
 * runs again for the same rows (another channel failed, or this one did for another browser) skips
 * the browsers that already have it. A push service's 404 or 410 deletes the subscription.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { WebPushSender } from '../../adapters/push/index.ts';
import type { Clock } from '../../platform/clock.ts';
import type { PushSubscriptionsRepository } from './push-subscriptions.repository.ts';
import type { NotificationRow } from './tables.ts';
import { digestPushOptions, individualPushOptions, webPushPayload } from './web-push-payload.ts';

export interface WebPushDeliveryDeps {
  repository: PushSubscriptionsRepository;
  sender: WebPushSender;
  clock: Clock;
  logger: FastifyBaseLogger;
}

export interface WebPushOutcome {
  /** Subscriptions that accepted the push now. */
  sent: number;
  /** Subscriptions deleted because their push service said they are gone. */
  gone: number;
  failed: number;
  /** A subscription failed in a way worth retrying: the flush gives the rows back. */
  retryLater: boolean;
}

/** Deliveries are remembered a week: longer than any push is retried (the queue's retries, a lease). */
export const deliveryMemoryMs = 7 * 24 * 3600_000;

export class WebPushDelivery {
  readonly #deps: WebPushDeliveryDeps;

  constructor(deps: WebPushDeliveryDeps) {
    this.#deps = deps;
  }

  /** Before a flush: forget the deliveries older than any retry. */
  forgetOldDeliveries(): Promise<void> {
    return this.#deps.repository.forgetDeliveriesBefore(new Date(this.#deps.clock.now().getTime() - deliveryMemoryMs));
  }

  async deliver(
    recipientId: string,
    ids: string[],
    only: NotificationRow | null,
    pushKey: string,
  ): Promise<WebPushOutcome> {
    const outcome: WebPushOutcome = { sent: 0, gone: 0, failed: 0, retryLater: false };
    const subscriptions = await this.#deps.repository.ofUser(recipientId);
    const done = await this.#deps.repository.deliveredTo(
      subscriptions.map((subscription) => subscription.id),
      pushKey,
    );
    const options = only !== null && ids.length === 1 ? individualPushOptions : digestPushOptions;
    for (const subscription of subscriptions) {
      if (done.has(subscription.id)) continue;
      const payload = JSON.stringify(webPushPayload(only, ids.length, subscription.locale));
      const target = {
        endpoint: subscription.endpoint,
        keys: { p256dh: subscription.p256dh, auth: subscription.auth },
      };
      const result = await this.#deps.sender.send(target, payload, options);
      if (result.delivered) {
        outcome.sent++;
        await this.#deps.repository.recordDelivery(subscription.id, pushKey, this.#deps.clock.now());
        continue;
      }
      const log = {
        subscriptionId: subscription.id,
        reason: result.reason,
        retryable: result.retryable,
        rows: ids.length,
      };
      if (result.gone) {
        outcome.gone++;
        await this.#deps.repository.deleteGone(subscription.id, subscription.p256dh);
        this.#deps.logger.info({ event: 'webpush.subscriptionGone', ...log }, 'push subscription gone, deleted');
        continue;
      }
      outcome.failed++;
      if (result.retryable) outcome.retryLater = true;
      this.#deps.logger.warn({ event: 'webpush.pushFailed', ...log }, 'web push failed');
    }
    return outcome;
  }
}
