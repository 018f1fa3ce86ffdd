/**
 * The users' Web Push subscriptions: what a browser's PushSubscription gives (endpoint and keys),
 * registered under the signed-in user, at most `maxPushSubscriptionsPerUser` (the oldest pruned).
 * A subscription belongs to the user, not to the session that registered it: signing out (even
 * everywhere) keeps it; the user deletes it here, the browser by unsubscribing (the push service then
 * answers 410 and the flush deletes it), and an erasure with the rest of the user's data.
 */
import {
  EndpointRefused,
  isAuthSecret,
  isUncompressedP256Point,
  resolvePublicEndpoint,
  type WebPushSender,
} from '../../adapters/push/index.ts';
import type { Clock } from '../../platform/clock.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import type { Locale } from '../../platform/i18n/i18n.ts';
import { newId } from '../../platform/ids/ids.ts';
import type { UsersService } from '../accounts/public.ts';
import type { PushSubscriptionsRepository } from './push-subscriptions.repository.ts';
import type { PushSubscriptionRow } from './tables.ts';

export const maxPushSubscriptionsPerUser = 10;

export interface NewPushSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  locale: Locale;
}

export interface PushSubscriptionsServiceDeps {
  transactions: Transactions;
  repository: PushSubscriptionsRepository;
  users: UsersService;
  clock: Clock;
  /** Null when PUSH_PROVIDER does not name webpush: registering is then refused (404 providerNotConfigured). */
  webPush: WebPushSender | null;
  /** WEB_PUSH_ALLOWED_HOSTS. */
  allowedHosts: readonly string[];
}

export class PushSubscriptionsService {
  readonly #deps: PushSubscriptionsServiceDeps;

  constructor(deps: PushSubscriptionsServiceDeps) {
    this.#deps = deps;
  }

  /** The application server key browsers subscribe with (`applicationServerKey`). */
  vapidPublicKey(): string {
    return this.#sender().publicKey;
  }

  /** The same key, or null without Web Push (the security page then offers nothing). */
  vapidPublicKeyIfEnabled(): string | null {
    return this.#deps.webPush?.publicKey ?? null;
  }

  async register(userId: string, input: NewPushSubscription): Promise<PushSubscriptionRow> {
    this.#sender();
    if (!isUncompressedP256Point(input.keys.p256dh)) {
      throw new AppError('validationFailed', {
        source: { pointer: '/keys/p256dh' },
        detail: 'p256dh must be an uncompressed P-256 public key (65 bytes, base64url)',
      });
    }
    if (!isAuthSecret(input.keys.auth)) {
      throw new AppError('validationFailed', {
        source: { pointer: '/keys/auth' },
        detail: 'auth must be 16 bytes, base64url',
      });
    }
    try {
      await resolvePublicEndpoint(input.endpoint, this.#deps.allowedHosts);
    } catch (error) {
      if (!(error instanceof EndpointRefused)) throw error;
      throw new AppError('validationFailed', { source: { pointer: '/endpoint' }, detail: error.message });
    }
    return this.#deps.transactions.run(async () => {
      await this.#deps.users.lock(userId);
      const saved = await this.#deps.repository.upsert({
        id: newId(),
        userId,
        endpoint: input.endpoint,
        p256dh: input.keys.p256dh,
        auth: input.keys.auth,
        locale: input.locale,
        createdAt: this.#deps.clock.now(),
      });
      await this.#deps.repository.pruneBeyond(userId, maxPushSubscriptionsPerUser);
      return saved;
    });
  }

  list(userId: string, page: PageRequest): Promise<PushSubscriptionRow[]> {
    return this.#deps.repository.list(userId, page);
  }

  async delete(userId: string, id: string): Promise<void> {
    if (!(await this.#deps.repository.delete(userId, id))) throw new AppError('notFound');
  }

  /** The browser unsubscribed (the security page's "Stop"): its endpoint is the user's no more; idempotent. */
  async deleteEndpoint(userId: string, endpoint: string): Promise<void> {
    await this.#deps.repository.deleteEndpoint(userId, endpoint);
  }

  #sender(): WebPushSender {
    if (this.#deps.webPush === null) {
      throw new AppError('providerNotConfigured', { detail: 'Web Push is not configured on this server' });
    }
    return this.#deps.webPush;
  }
}
