/**
 * Fedify's MessageQueue on the service's database and job queue: `enqueue` files a message in
 * federation_queue (sealed: an outgoing delivery carries its sender's private key) and asks the job
 * queue (pg-boss) for a run of the job federation-queue, which `drain`s every due message through
 * the handler Fedify gave `listen`. Several instances share the table; a message is leased to one at
 * a time. Fedify retries failed deliveries itself (nativeRetrial false) by enqueuing them again with a
 * delay; a handler that throws (a bug, the database gone) is retried here with backoff, then dropped.
 *
 * Outgoing deliveries (Fedify's outbox messages) pass three checks before Fedify sends them: one to a
 * domain an operator rejects is dropped (domain-blocks.service.ts), as is one to an inbox on a private
 * address without FEDERATION_ALLOW_PRIVATE_ADDRESS (inbox-addresses.ts), and one to a domain backed off for
 * failing is held until its back-off ends, or dropped once it has failed for days
 * (delivery-health.service.ts). What Fedify reports of the delivery (its onOutboxError, through
 * `noteDeliveryError`) counts toward the domain's health.
 */

import { AsyncLocalStorage } from 'node:async_hooks';
import type {
  MessageQueue,
  MessageQueueDepth,
  MessageQueueEnqueueOptions,
  MessageQueueListenOptions,
} from '@fedify/fedify';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.ts';
import { domainOfHost } from '../../platform/text/domain-names.ts';
import type { DeliveryHealthService } from './delivery-health.service.ts';
import type { FederationSecrets } from './federation-secrets.ts';
import type { QueueRepository } from './queue.repository.ts';

type Handler = (message: unknown) => Promise<void> | void;

export interface DatabaseMessageQueueDeps {
  repository: QueueRepository;
  secrets: FederationSecrets;
  clock: Clock;
  logger: FastifyBaseLogger;
  /** Asks for a run of the job federation-queue in `delayMs` (0: now). */
  wake(delayMs: number): void;
  /** Whether a host is on a domain operators reject (nothing is delivered there). */
  rejects(host: string): Promise<boolean>;
  /** Whether an inbox may be delivered to (off FEDERATION_ALLOW_PRIVATE_ADDRESS: a public address only). */
  deliverable(inbox: URL): Promise<boolean>;
  health: DeliveryHealthService;
}

/**
 * What a delivery's outcome says of its domain (docs/operations.md, Delivery health): `up` for a
 * delivery accepted (2xx); `down` with the error for no answer, a 5xx, 408 or 429 (the domain is not
 * taking deliveries now: retried, and counted toward its back-off); `answered` for any other 4xx,
 * whose server is there but refused this activity or this inbox (401, 403, 404, 410 Gone of a deleted
 * account, 422...): neither a success (`lastSuccessAt` stays) nor a failure of the domain.
 */
type DomainSignal = { type: 'up' } | { type: 'down'; error: string } | { type: 'answered' };

/** The outcome Fedify reported for the delivery in hand (set by `noteDeliveryError`). */
interface DeliveryInHand {
  signal: DomainSignal;
}

function domainSignalOf(error: unknown): DomainSignal {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500 && status !== 408 && status !== 429)
    return { type: 'answered' };
  return { type: 'down', error: error instanceof Error ? error.message : String(error) };
}

/** The inbox of one of Fedify's outgoing deliveries, or null for any other message. */
function deliveryInboxOf(message: unknown): URL | null {
  const { type, inbox } = (message ?? {}) as { type?: unknown; inbox?: unknown };
  if (type !== 'outbox' || typeof inbox !== 'string') return null;
  try {
    return new URL(inbox);
  } catch {
    return null;
  }
}

/** A message is held by the instance that claimed it this long; a crashed instance's message runs again after. */
const leaseMs = 5 * 60_000;
/** Attempts of a message whose handler throws, before it is dropped (logged). */
export const maxHandlerAttempts = 8;
/** At most this long is spent in one drain; the rest waits for the next run. */
const drainBudgetMs = 60_000;

export interface DrainReport {
  handled: number;
  failed: number;
  dropped: number;
  /** Deliveries to a rejected domain, or to a private address it may not reach, dropped unsent. */
  rejected: number;
  /** Deliveries to a backed-off domain: held, or dropped once it has failed for days. */
  held: number;
  givenUp: number;
}

export class DatabaseMessageQueue implements MessageQueue {
  readonly nativeRetrial = false;
  readonly #deps: DatabaseMessageQueueDeps;
  readonly #delivery = new AsyncLocalStorage<DeliveryInHand>();
  #handler: Handler | null = null;

  constructor(deps: DatabaseMessageQueueDeps) {
    this.#deps = deps;
  }

  enqueue(message: unknown, options?: MessageQueueEnqueueOptions): Promise<void> {
    return this.enqueueMany([message], options);
  }

  async enqueueMany(messages: readonly unknown[], options?: MessageQueueEnqueueOptions): Promise<void> {
    const { repository, secrets, clock, wake } = this.#deps;
    const now = clock.now();
    const delayMs = Math.max(0, options?.delay?.total('millisecond') ?? 0);
    const runAfter = new Date(now.getTime() + delayMs);
    await repository.insert(
      messages.map((message) => ({
        sealedMessage: secrets.seal('queued-messages', JSON.stringify(message)),
        orderingKey: options?.orderingKey ?? null,
        runAfter,
      })),
      now,
    );
    wake(delayMs);
  }

  /** Fedify's onOutboxError: the delivery in hand failed (the domain's failure unless the server answered). */
  noteDeliveryError(error: unknown): void {
    const delivery = this.#delivery.getStore();
    if (delivery !== undefined) delivery.signal = domainSignalOf(error);
  }

  /**
   * One outgoing delivery to `inbox`: dropped (rejected domain, private address, given up), held
   * (backed off), or sent with its outcome counted. False when the message was dealt with here
   * (deleted or held).
   */
  async #deliver(inbox: URL, seq: number, send: () => Promise<void> | void, report: DrainReport) {
    const { repository, health, logger } = this.#deps;
    const domain = domainOfHost(inbox.host);
    if (await this.#deps.rejects(inbox.host)) {
      await repository.delete(seq);
      report.rejected += 1;
      logger.info({ event: 'federation.deliveryRejected', domain }, 'delivery to a rejected domain dropped');
      return false;
    }
    if (!(await this.#deps.deliverable(inbox))) {
      await repository.delete(seq);
      report.rejected += 1;
      logger.warn({ event: 'federation.deliveryRefused', domain }, 'delivery to a private address dropped');
      return false;
    }
    const decision = await health.decide(domain);
    if (decision.type === 'drop') {
      await repository.delete(seq);
      report.givenUp += 1;
      logger.warn({ event: 'federation.deliveryGivenUp', domain }, 'delivery to an unavailable domain dropped');
      return false;
    }
    if (decision.type === 'hold') {
      await repository.hold(seq, decision.until);
      report.held += 1;
      return false;
    }
    const delivery: DeliveryInHand = { signal: { type: 'up' } };
    await this.#delivery.run(delivery, send);
    const { signal } = delivery;
    if (signal.type === 'up') await health.recordSuccess(domain);
    else if (signal.type === 'down') await health.recordFailure(domain, signal.error);
    return true;
  }

  /** Fedify's worker: this instance drains with `handler` until the signal aborts. */
  listen(handler: Handler, options?: MessageQueueListenOptions): Promise<void> {
    this.#handler = handler;
    return new Promise((resolve) => {
      const signal = options?.signal;
      if (signal === undefined) return;
      const stop = () => {
        if (this.#handler === handler) this.#handler = null;
        resolve();
      };
      if (signal.aborted) stop();
      else signal.addEventListener('abort', stop, { once: true });
    });
  }

  async getDepth(): Promise<MessageQueueDepth> {
    const { ready, delayed } = await this.#deps.repository.depth(this.#deps.clock.now());
    return { queued: ready + delayed, ready, delayed };
  }

  /** Handles every due message, one at a time, until none is due, the budget is spent or `stopped()`. */
  async drain(stopped: () => boolean): Promise<DrainReport> {
    const report: DrainReport = { handled: 0, failed: 0, dropped: 0, rejected: 0, held: 0, givenUp: 0 };
    const handler = this.#handler;
    if (handler === null) return report;
    const { repository, secrets, clock, logger } = this.#deps;
    const started = clock.now().getTime();
    while (!stopped() && clock.now().getTime() - started < drainBudgetMs) {
      const now = clock.now();
      const claimed = await repository.claimNext(now, new Date(now.getTime() + leaseMs));
      if (claimed === null) break;
      try {
        const message: unknown = JSON.parse(secrets.unseal('queued-messages', claimed.sealedMessage));
        const inbox = deliveryInboxOf(message);
        if (inbox === null) await handler(message);
        else if (!(await this.#deliver(inbox, claimed.seq, () => handler(message), report))) continue;
        await repository.delete(claimed.seq);
        report.handled += 1;
      } catch (error) {
        if (claimed.attempts >= maxHandlerAttempts) {
          await repository.delete(claimed.seq);
          report.dropped += 1;
          logger.error(
            { event: 'federation.messageDropped', err: error, attempts: claimed.attempts },
            'federation message dropped',
          );
        } else {
          const backoffMs = Math.min(60 * 60_000, 15_000 * 2 ** (claimed.attempts - 1));
          await repository.release(claimed.seq, new Date(clock.now().getTime() + backoffMs));
          report.failed += 1;
          logger.warn(
            { event: 'federation.messageFailed', err: error, attempts: claimed.attempts },
            'federation message failed',
          );
        }
      }
    }
    return report;
  }
}
