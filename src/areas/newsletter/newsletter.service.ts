/**
 * The newsletter's rules: double opt-in subscription, confirmation, unsubscription, the admin list.
 *
 * A subscription request answers at once and the same way for every address; the per-address work
 * (the row, the token, the mail) runs after the answer, so neither the answer nor its timing tells
 * whether the address was known. No address becomes confirmed but through the token mailed to it.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Mailer, MailMessage } from '../../adapters/mail/index.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { newId } from '../../platform/http/ids.ts';
import { type Page, type PageRequest, pageOf } from '../../platform/http/pagination.ts';
import { formatTimestamp } from '../../platform/http/time.ts';
import type { Locale } from '../../platform/i18n/i18n.ts';
import { hashToken, newSecretToken } from '../accounts/secrets.ts';
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

export class NewsletterService {
  readonly #inFlight = new Set<Promise<void>>();

  private readonly transactions: Transactions;
  private readonly repository: NewsletterRepository;
  private readonly mailer: Mailer;
  private readonly clock: Clock;
  private readonly publicUrl: string;
  private readonly logger: FastifyBaseLogger;

  constructor(deps: {
    transactions: Transactions;
    repository: NewsletterRepository;
    mailer: Mailer;
    clock: Clock;
    publicUrl: string;
    logger: FastifyBaseLogger;
  }) {
    this.transactions = deps.transactions;
    this.repository = deps.repository;
    this.mailer = deps.mailer;
    this.clock = deps.clock;
    this.publicUrl = deps.publicUrl;
    this.logger = deps.logger;
  }

  /** Runs work after the answer (as accounts' mail flows do); failures are logged, never answered. */
  #background(kind: string, work: () => Promise<void>): void {
    const running = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .catch((error: unknown) => {
        this.logger.error({ event: 'mail.requestFailed', kind, err: error }, 'could not prepare a newsletter e-mail');
      })
      .finally(() => this.#inFlight.delete(running));
    this.#inFlight.add(running);
  }

  #send(message: MailMessage, kind: string): void {
    this.#background(kind, () => this.mailer.send(message));
  }

  /** Waits for work and mails still in flight (a graceful stop calls it). */
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
    await this.repository.insertToken(row);
    return token;
  }

  /**
   * Answers at once. After the answer: a new address becomes a pending subscriber; a pending or
   * unsubscribed one gets a fresh confirmation link (earlier ones stop working) unless
   * `confirmationsPerHour` were sent in the last hour; a confirmed one gets nothing.
   */
  subscribe(email: string, locale: Locale): void {
    this.#background('newsletter-confirm', async () => {
      const prepared = await this.transactions.run(async () => {
        const now = this.clock.now();
        const { subscriber } = await this.repository.upsertAndLock({
          id: newId(),
          email: normalizeEmail(email),
          locale,
          now,
        });
        if (subscriber.status === 'confirmed') return null;
        const since = new Date(now.getTime() - 3_600_000);
        if ((await this.repository.countTokensSince(subscriber.id, 'confirm', since)) >= confirmationsPerHour) {
          return null;
        }
        if (subscriber.locale !== locale) await this.repository.update(subscriber.id, { locale, updatedAt: now });
        await this.repository.useAllTokens(subscriber.id, 'confirm', now);
        return {
          to: subscriber.email,
          confirm: await this.#issue(subscriber.id, 'confirm', now),
          unsubscribe: await this.#issue(subscriber.id, 'unsubscribe', now),
        };
      });
      if (prepared === null) return;
      this.#send(
        confirmationMail({
          locale,
          to: prepared.to,
          confirmUrl: confirmUrl(this.publicUrl, prepared.confirm),
          unsubscribeUrl: unsubscribeUrl(this.publicUrl, prepared.unsubscribe),
        }),
        'newsletter-confirm',
      );
    });
  }

  /** The stored token if it can be used; otherwise invalidToken (422), tokenUsed (422), tokenExpired (410). */
  async #check(token: string, purpose: NewsletterTokenPurpose, singleUse: boolean): Promise<NewsletterTokenRow> {
    const found = await this.repository.findToken(hashToken(token), purpose);
    if (found === null) throw new AppError('invalidToken', { source: { parameter: 'token' } });
    if (singleUse && found.usedAt !== null) throw new AppError('tokenUsed', { source: { parameter: 'token' } });
    if (found.expiresAt.getTime() <= this.clock.now().getTime()) {
      throw new AppError('tokenExpired', {
        source: { parameter: 'token' },
        meta: { expiredAt: formatTimestamp(found.expiresAt) },
      });
    }
    return found;
  }

  /** Confirms the address the token was mailed to (single use). */
  async confirm(token: string): Promise<SubscriberRow> {
    return this.transactions.run(async () => {
      const found = await this.#check(token, 'confirm', true);
      const now = this.clock.now();
      if (!(await this.repository.useToken(found.id, now))) {
        throw new AppError('tokenUsed', { source: { parameter: 'token' } });
      }
      const subscriber = await this.repository.lockById(found.subscriberId);
      if (subscriber === null) throw new AppError('invalidToken', { source: { parameter: 'token' } });
      return this.repository.update(subscriber.id, {
        status: 'confirmed',
        confirmedAt: now,
        unsubscribedAt: null,
        updatedAt: now,
      });
    });
  }

  /**
   * Unsubscribes the address the token was mailed to. Idempotent: the link (valid a year) may be
   * followed again and says the same. Open confirmation links stop working.
   */
  async unsubscribe(token: string): Promise<SubscriberRow> {
    return this.transactions.run(async () => {
      const found = await this.#check(token, 'unsubscribe', false);
      const subscriber = await this.repository.lockById(found.subscriberId);
      if (subscriber === null) throw new AppError('invalidToken', { source: { parameter: 'token' } });
      const now = this.clock.now();
      await this.repository.useAllTokens(subscriber.id, 'confirm', now);
      if (subscriber.status === 'unsubscribed') return subscriber;
      return this.repository.update(subscriber.id, { status: 'unsubscribed', unsubscribedAt: now, updatedAt: now });
    });
  }

  async list(
    status: SubscriberStatus | undefined,
    page: PageRequest,
  ): Promise<{ page: Page<SubscriberRow>; total: number }> {
    const [rows, total] = await Promise.all([
      this.repository.list(status, page),
      this.repository.countByStatus(status),
    ]);
    return { page: pageOf(rows, page, subscribersKeyset), total };
  }
}
