/**
 * The newsletter's rules: double opt-in subscription, confirmation, unsubscription, the admin list.
 *
 * A subscription request answers at once and the same way for every address; the per-address work
 * (the row, the token, the mail filed in the outbox, in one transaction) runs after the answer, so
 * neither the answer nor its timing tells whether the address was known. No address becomes
 * confirmed but through the token mailed to it.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.ts';
import { type Page, pageOf } from '../../platform/db/page.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { formatTimestamp } from '../../platform/http/time.ts';
import type { Locale } from '../../platform/i18n/i18n.ts';
import { newId } from '../../platform/ids/ids.ts';
import type { MailOutbox } from '../../platform/mail-outbox/mail-outbox.ts';
import { hashToken, newSecretToken } from '../../platform/secrets/opaque-tokens.ts';
import { confirmationMail, confirmUrl, unsubscribeUrl } from './mails.ts';
import { type NewsletterRepository, subscribersKeyset } from './newsletter.repository.ts';
import type { NewsletterTokenPurpose, NewsletterTokenRow, SubscriberRow, SubscriberStatus } from './tables.ts';

/** Token lifetimes (docs/api.md): a confirmation link 48 hours, an unsubscribe link a year. */
export const tokenLifetimesMs: Record<NewsletterTokenPurpose, number> = {
  confirm: 48 * 3_600_000,
  unsubscribe: 365 * 24 * 3_600_000,
};
/** Confirmation mails to one address in an hour, at most: past it, requests send nothing (docs/api.md). */
export const confirmationsPerHour = 3;

const prefixes: Record<NewsletterTokenPurpose, string> = { confirm: 'nlc', unsubscribe: 'nlu' };

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export interface NewsletterServiceDeps {
  transactions: Transactions;
  repository: NewsletterRepository;
  mail: MailOutbox;
  clock: Clock;
  publicUrl: string;
  logger: FastifyBaseLogger;
}

export class NewsletterService {
  readonly #deps: NewsletterServiceDeps;

  readonly #inFlight = new Set<Promise<void>>();

  constructor(deps: NewsletterServiceDeps) {
    this.#deps = deps;
  }

  /** Runs work after the answer (as accounts' mail flows do); failures are logged, never answered. */
  #background(kind: string, work: () => Promise<void>): void {
    const running = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .catch((error: unknown) => {
        this.#deps.logger.error(
          { event: 'mail.requestFailed', kind, err: error },
          'could not prepare a newsletter e-mail',
        );
      })
      .finally(() => this.#inFlight.delete(running));
    this.#inFlight.add(running);
  }

  /** Waits for the work still running after answers (a graceful stop calls it). */
  async drain(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  async #issue(subscriberId: string, purpose: NewsletterTokenPurpose, now: Date): Promise<string> {
    const token = newSecretToken(prefixes[purpose]);
    const row: NewsletterTokenRow = {
      id: newId(),
      subscriberId,
      purpose,
      tokenHash: hashToken(token),
      createdAt: now,
      expiresAt: new Date(now.getTime() + tokenLifetimesMs[purpose]),
      usedAt: null,
    };
    await this.#deps.repository.insertToken(row);
    return token;
  }

  /**
   * Answers at once. After the answer: a new address becomes a pending subscriber; a pending or
   * unsubscribed one gets a fresh confirmation link (earlier ones keep working: people ask twice and
   * follow the first mail) unless `confirmationsPerHour` were sent in the last hour; a confirmed one
   * gets nothing.
   */
  subscribe(email: string, locale: Locale): void {
    this.#background('newsletter-confirm', async () => {
      await this.#deps.transactions.run(async () => {
        const now = this.#deps.clock.now();
        const { subscriber } = await this.#deps.repository.upsertAndLock({
          id: newId(),
          email: normalizeEmail(email),
          locale,
          now,
        });
        if (subscriber.status === 'confirmed') return;
        const since = new Date(now.getTime() - 3_600_000);
        if ((await this.#deps.repository.countTokensSince(subscriber.id, 'confirm', since)) >= confirmationsPerHour)
          return;
        if (subscriber.locale !== locale) await this.#deps.repository.update(subscriber.id, { locale, updatedAt: now });
        const mail = confirmationMail({
          locale,
          to: subscriber.email,
          confirmUrl: confirmUrl(this.#deps.publicUrl, await this.#issue(subscriber.id, 'confirm', now)),
          unsubscribeUrl: unsubscribeUrl(this.#deps.publicUrl, await this.#issue(subscriber.id, 'unsubscribe', now)),
        });
        await this.#deps.mail.file(mail, 'newsletter-confirm');
      });
    });
  }

  /** The stored token, or invalidToken (422). */
  async #find(token: string, purpose: NewsletterTokenPurpose): Promise<NewsletterTokenRow> {
    const found = await this.#deps.repository.findToken(hashToken(token), purpose);
    if (found === null) throw new AppError('invalidToken', { source: { parameter: 'token' } });
    return found;
  }

  /** Throws tokenUsed (422, single-use tokens) or tokenExpired (410) for a token that cannot be used. */
  #checkUsable(found: NewsletterTokenRow, singleUse: boolean): void {
    if (singleUse && found.usedAt !== null) throw new AppError('tokenUsed', { source: { parameter: 'token' } });
    if (found.expiresAt.getTime() <= this.#deps.clock.now().getTime()) {
      throw new AppError('tokenExpired', {
        source: { parameter: 'token' },
        meta: { expiredAt: formatTimestamp(found.expiresAt) },
      });
    }
  }

  /**
   * The subscriber of a confirmation token (locked for a write), if the token can confirm it or it is
   * confirmed already. Every confirmation link mailed works until the address is confirmed (then each
   * says so, whatever its age) or it expires; unsubscribing voids the open ones (tokenUsed).
   */
  async #confirmable(token: string, lock: boolean): Promise<{ found: NewsletterTokenRow; subscriber: SubscriberRow }> {
    const first = await this.#find(token, 'confirm');
    const subscriber = lock
      ? await this.#deps.repository.lockById(first.subscriberId)
      : await this.#deps.repository.findById(first.subscriberId);
    if (subscriber === null) throw new AppError('invalidToken', { source: { parameter: 'token' } });
    // Read again under the lock: an unsubscribe that committed while this waited has spent the token.
    const found = lock ? await this.#find(token, 'confirm') : first;
    if (subscriber.status !== 'confirmed') this.#checkUsable(found, true);
    return { found, subscriber };
  }

  /** What a confirmation link's page shows before the click (a GET changes nothing): the address and its state. */
  async confirmation(token: string): Promise<{ subscriber: SubscriberRow; alreadyConfirmed: boolean }> {
    const { subscriber } = await this.#confirmable(token, false);
    return { subscriber, alreadyConfirmed: subscriber.status === 'confirmed' };
  }

  /** Confirms the address the token was mailed to (the click); a confirmed one stays as it is. */
  async confirm(token: string): Promise<{ subscriber: SubscriberRow; alreadyConfirmed: boolean }> {
    return this.#deps.transactions.run(async () => {
      const { subscriber } = await this.#confirmable(token, true);
      if (subscriber.status === 'confirmed') return { subscriber, alreadyConfirmed: true };
      const now = this.#deps.clock.now();
      await this.#deps.repository.useAllTokens(subscriber.id, 'confirm', now);
      const confirmed = await this.#deps.repository.update(subscriber.id, {
        status: 'confirmed',
        confirmedAt: now,
        unsubscribedAt: null,
        updatedAt: now,
      });
      return { subscriber: confirmed, alreadyConfirmed: false };
    });
  }

  /** What an unsubscribe link's page shows before the click (a GET changes nothing): the address and its state. */
  async unsubscription(token: string): Promise<SubscriberRow> {
    const found = await this.#find(token, 'unsubscribe');
    this.#checkUsable(found, false);
    const subscriber = await this.#deps.repository.findById(found.subscriberId);
    if (subscriber === null) throw new AppError('invalidToken', { source: { parameter: 'token' } });
    return subscriber;
  }

  /**
   * Unsubscribes the address the token was mailed to. Idempotent: the link (valid a year) may be
   * followed again and says the same. Open confirmation links stop working.
   */
  async unsubscribe(token: string): Promise<SubscriberRow> {
    return this.#deps.transactions.run(async () => {
      const found = await this.#find(token, 'unsubscribe');
      this.#checkUsable(found, false);
      const subscriber = await this.#deps.repository.lockById(found.subscriberId);
      if (subscriber === null) throw new AppError('invalidToken', { source: { parameter: 'token' } });
      const now = this.#deps.clock.now();
      await this.#deps.repository.useAllTokens(subscriber.id, 'confirm', now);
      if (subscriber.status === 'unsubscribed') return subscriber;
      return this.#deps.repository.update(subscriber.id, {
        status: 'unsubscribed',
        unsubscribedAt: now,
        updatedAt: now,
      });
    });
  }

  async list(
    status: SubscriberStatus | undefined,
    page: PageRequest,
  ): Promise<{ page: Page<SubscriberRow>; total: number }> {
    const [rows, total] = await Promise.all([
      this.#deps.repository.list(status, page),
      this.#deps.repository.countByStatus(status),
    ]);
    return { page: pageOf(rows, page, subscribersKeyset), total };
  }
}
