/**
 * The e-mailed flows: confirming an address and resetting a forgotten password. Requests for a mail
 * answer the same whatever the account (no enumeration); each mail is filed in the mail outbox in the
 * transaction that issues its token (platform.mail), so a mail server that is down delays it, never
 * loses it, and never changes the answer.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import type { EventBus } from '../../platform/events/domain-events.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import type { Locale } from '../../platform/i18n/i18n.ts';
import type { MailOutbox } from '../../platform/mail-outbox/mail-outbox.ts';
import type { AccountsRepository } from './accounts.repository.ts';
import type { MailTokens } from './mail-tokens.ts';
import { tokenMail } from './mails/token-mail.ts';
import { hashPassword, isStrongEnough } from './secrets.ts';
import type { UserRow } from './tables.ts';

const displayName = (user: UserRow) => user.nickname ?? user.username ?? null;
/**
 * Mails of one kind sent to one account in an hour, at most (docs/api.md). Requests past it send
 * nothing and void nothing: the newest link sent still works, so nobody can flood an inbox or, by
 * asking again and again, keep the owner from recovering the account.
 */
export const mailsPerHour = 5;
/** Accounts that may receive account mail at all. */
const canReceiveMail = (user: UserRow | null): user is UserRow =>
  user !== null && user.anonymizedAt === null && user.bannedAt === null;
const invalidToken = () => new AppError('invalidToken', { source: { pointer: '/token' } });

export interface MailFlowsServiceDeps {
  transactions: Transactions;
  repository: AccountsRepository;
  tokens: MailTokens;
  mail: MailOutbox;
  clock: Clock;
  publicUrl: string;
  logger: FastifyBaseLogger;
  events: EventBus;
}

export class MailFlowsService {
  readonly #deps: MailFlowsServiceDeps;

  readonly #inFlight = new Set<Promise<void>>();

  constructor(deps: MailFlowsServiceDeps) {
    this.#deps = deps;
  }

  /**
   * Runs the per-account part of a mail request after the answer: looking the account up, writing
   * its token and filing the mail take longer for an account that exists, so the answer (the same
   * 202 for every address) must not wait for them. Failures are logged.
   */
  #afterAnswer(kind: string, work: () => Promise<void>): void {
    const running = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .catch((error: unknown) => {
        this.#deps.logger.error(
          { event: 'mail.requestFailed', kind, err: error },
          'could not prepare an account e-mail',
        );
      })
      .finally(() => this.#inFlight.delete(running));
    this.#inFlight.add(running);
  }

  /** Waits for the work still running after answers (a graceful stop calls it, so no mail request is dropped). */
  async drain(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  /**
   * A new token of this kind for the account (earlier ones keep working), or null when `mailsPerHour`
   * were issued in the last hour: counted under the user's lock, so parallel requests cannot pass it.
   */
  #issueCapped(userId: string, purpose: 'confirm-email' | 'reset-password'): Promise<string | null> {
    return this.#deps.transactions.run(async () => {
      if ((await this.#deps.repository.lockUser(userId)) === null) return null;
      const since = new Date(this.#deps.clock.now().getTime() - 3_600_000);
      if ((await this.#deps.repository.countTokensSince(userId, purpose, since)) >= mailsPerHour) return null;
      return this.#deps.tokens.issue(this.#deps.repository, userId, purpose);
    });
  }

  /**
   * Files a mail with a fresh link of this kind (earlier ones keep working), in one transaction with
   * its token (the caller's, at registration), unless the hourly cap is reached.
   */
  async #mailToken(user: UserRow, locale: Locale, purpose: 'confirm-email' | 'reset-password'): Promise<void> {
    await this.#deps.transactions.run(async () => {
      const token = await this.#issueCapped(user.id, purpose);
      if (token === null) return;
      const mail = tokenMail(purpose === 'confirm-email' ? 'confirmEmail' : 'resetPassword', {
        locale,
        to: user.email,
        name: displayName(user),
        token,
        publicUrl: this.#deps.publicUrl,
      });
      await this.#deps.mail.file(mail, purpose);
    });
  }

  /** Mails a fresh confirmation link (earlier ones keep working), unless the hourly cap is reached. */
  sendConfirmation(user: UserRow, locale: Locale): Promise<void> {
    return this.#mailToken(user, locale, 'confirm-email');
  }

  /** Answers at once; the mail, if the address has an unconfirmed account, is prepared after the answer. */
  async resendConfirmation(email: string, locale: Locale): Promise<void> {
    this.#afterAnswer('confirm-email', async () => {
      const user = await this.#deps.repository.findUserByEmail(email.trim());
      if (!canReceiveMail(user) || user.emailConfirmedAt !== null) return;
      await this.sendConfirmation(user, locale);
    });
  }

  /**
   * What a confirmation link would do, without doing it (its page shows this before the click):
   * throws the token's error (tokenUsed once the address is confirmed), else returns.
   */
  async checkConfirmation(token: string): Promise<void> {
    const found = await this.#deps.tokens.check(this.#deps.repository, token, 'confirm-email');
    if (!canReceiveMail(await this.#deps.repository.findUserById(found.userId))) throw invalidToken();
  }

  /**
   * Confirms the address. Every confirmation link sent works until the address is confirmed (then
   * they are all spent) or it expires. Whoever registered an unconfirmed address had not shown they
   * could read it, so confirming it ends every session of the account, as a reset does (on every
   * instance: the session cache is told through the broadcast).
   */
  async confirmEmail(token: string): Promise<void> {
    await this.#deps.transactions.run(async () => {
      const found = await this.#deps.tokens.check(this.#deps.repository, token, 'confirm-email');
      // The user first (the lock order), so that of a confirmation and a reset at once only one
      // sees the address unconfirmed.
      const user = await this.#deps.repository.lockUser(found.userId);
      // A link mailed before a ban or an erasure no longer works.
      if (!canReceiveMail(user)) throw invalidToken();
      await this.#deps.tokens.spend(this.#deps.repository, found);
      if (user.emailConfirmedAt !== null) return;
      const now = this.#deps.clock.now();
      await this.#deps.repository.updateUser(user.id, { emailConfirmedAt: now, updatedAt: now });
      await this.#addressProven(user, now);
      await this.#deps.repository.deleteSessionsOfUser(user.id);
    });
  }

  /** A mailed link (a confirmation or a reset) proved an unconfirmed address: its confirmation links are spent. */
  async #addressProven(user: UserRow, now: Date): Promise<void> {
    await this.#deps.repository.useAllTokens(user.id, 'confirm-email', now);
    await this.#deps.events.publish('user.emailConfirmed', {
      userId: user.id,
      sponsoredBy: user.sponsoredBy,
      proof: 'mail',
    });
  }

  /** Answers at once; the reset mail, if the address has an account, is prepared after the answer. */
  async forgotPassword(email: string, locale: Locale): Promise<void> {
    this.#afterAnswer('reset-password', async () => {
      const user = await this.#deps.repository.findUserByEmail(email.trim());
      if (!canReceiveMail(user)) return;
      await this.#mailToken(user, locale, 'reset-password');
    });
  }

  /**
   * Sets a new password from a reset token and ends every session of the account. The link came by
   * e-mail, so it also proves the address: an unconfirmed one becomes confirmed. Every reset link
   * sent works until one of them is used (or the password changes) or it expires.
   */
  async resetPassword(token: string, password: string): Promise<void> {
    const found = await this.#deps.tokens.check(this.#deps.repository, token, 'reset-password');
    if (!isStrongEnough(password)) throw new AppError('weakPassword', { source: { pointer: '/password' } });
    const passwordHash = await hashPassword(password);
    await this.#deps.transactions.run(async () => {
      const user = await this.#deps.repository.lockUser(found.userId);
      // A link mailed before a ban or an erasure no longer works.
      if (!canReceiveMail(user)) throw invalidToken();
      await this.#deps.tokens.spend(this.#deps.repository, found);
      const now = this.#deps.clock.now();
      await this.#deps.repository.updateUser(user.id, {
        passwordHash,
        emailConfirmedAt: user.emailConfirmedAt ?? now,
        updatedAt: now,
      });
      if (user.emailConfirmedAt === null) await this.#addressProven(user, now);
      await this.#deps.repository.useAllTokens(user.id, 'reset-password', now);
      await this.#deps.repository.deleteSessionsOfUser(user.id);
    });
  }
}
