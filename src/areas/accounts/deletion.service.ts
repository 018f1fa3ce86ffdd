/**
 * Account deletion, asked for by the account's owner (the operators' erasure is moderation's
 * `anonymize`):
 *
 * 1. `request` (DELETE /api/users/me): the owner proves it is them (the password, or for an account
 *    without one a provider sign-in in the last 10 minutes) and gets a single-use link by e-mail.
 * 2. `confirm` (POST /api/account/deletion/confirm): the account is disabled at once: sessions end
 *    (on every instance), `deletion_requested_at` is set, which takes it out of user lists and
 *    name lookups (accounts/read-model.ts `activeUser`), and its content is hidden through the ban
 *    machinery (`user.banned`, which media and comments follow).
 * 3. `cancelOnSignIn`: a sign-in during the grace period (SessionsService.create, whatever the
 *    method) restores the account.
 * 4. `eraseDue` (job `account-erasure`): once ACCOUNT_DELETION_GRACE_DAYS have passed, each account
 *    is erased in its own transaction: `user.erasing` lets every area delete its rows and repair
 *    counters on other people's rows, then accounts deletes the user's own rows. Files go after the
 *    commit (media's subscriber).
 *
 * Hidden is "banned or being deleted": `user.banned` is published when the first of the two starts
 * and `user.unbanned` when the last ends (here and in moderation.service.ts), so lifting a ban during
 * the grace period does not show the content again, nor does cancelling a deletion of a banned user.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { AuditLog } from '../../platform/audit/audit-log.ts';
import type { Clock } from '../../platform/clock.ts';
import { returned } from '../../platform/db/returned.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import type { EventBus } from '../../platform/events/domain-events.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import type { Locale } from '../../platform/i18n/i18n.ts';
import { toHex } from '../../platform/ids/ids.ts';
import type { MailOutbox } from '../../platform/mail-outbox/mail-outbox.ts';
import type { AccountsRepository } from './accounts.repository.ts';
import type { DeletionRepository } from './deletion.repository.ts';
import { mailsPerHour } from './mail-flows.service.ts';
import type { MailTokens } from './mail-tokens.ts';
import { deletionMail } from './mails/deletion-mail.ts';
import { verifyPassword } from './secrets.ts';
import type { SigningInUser } from './sessions.service.ts';
import type { UserRow } from './tables.ts';

/** How recent a provider sign-in must be to delete an account that has no password. */
export const recentSignInMs = 10 * 60_000;
/** Accounts one run of the job looks at per batch. */
const erasureBatch = 100;

const invalidToken = () => new AppError('invalidToken', { source: { pointer: '/token' } });
/** Used, expired and unknown tokens answer alike (docs/api.md). */
const asInvalidToken = (error: unknown): never => {
  throw error instanceof AppError ? invalidToken() : error;
};

export interface DeletionServiceDeps {
  transactions: Transactions;
  events: EventBus;
  audit: AuditLog;
  accounts: AccountsRepository;
  repository: DeletionRepository;
  tokens: MailTokens;
  mail: MailOutbox;
  clock: Clock;
  publicUrl: string;
  logger: FastifyBaseLogger;
  graceDays: number;
}

export class DeletionService {
  readonly #deps: DeletionServiceDeps;

  readonly graceDays: number;

  constructor(deps: DeletionServiceDeps) {
    this.#deps = deps;
    this.graceDays = deps.graceDays;
  }

  /**
   * DELETE /api/users/me: checks that the caller is the owner, then mails a confirmation link (every
   * link sent works until one confirms the deletion or it expires; at most `mailsPerHour` an hour,
   * past which nothing more is sent and the answer stays the same).
   */
  async request(userId: string, sessionId: string, password: string | undefined, locale: Locale): Promise<void> {
    const user = await this.#deps.accounts.findUserById(userId);
    if (user === null) throw new AppError('notFound');
    if (user.passwordHash !== null) {
      if (password === undefined) {
        throw new AppError('reauthenticationRequired', {
          source: { pointer: '/password' },
          detail: 'give the account password',
        });
      }
      if (!(await verifyPassword(user.passwordHash, password))) {
        throw new AppError('wrongPassword', { source: { pointer: '/password' } });
      }
    } else {
      const opening = await this.#deps.repository.sessionOpening(sessionId);
      const recent =
        opening !== null &&
        opening.signInMethod !== 'password' &&
        this.#deps.clock.now().getTime() - opening.createdAt.getTime() <= recentSignInMs;
      if (!recent) {
        throw new AppError('reauthenticationRequired', {
          detail: 'sign in again with your identity provider, then ask within 10 minutes',
        });
      }
    }
    // The token and its mail in one transaction: one exists if and only if the other does.
    await this.#deps.transactions.run(async () => {
      if ((await this.#deps.accounts.lockUser(userId)) === null) return;
      const since = new Date(this.#deps.clock.now().getTime() - 3_600_000);
      if ((await this.#deps.accounts.countTokensSince(userId, 'delete-account', since)) >= mailsPerHour) return;
      const token = await this.#deps.tokens.issue(this.#deps.accounts, userId, 'delete-account');
      const mail = deletionMail({
        locale,
        to: user.email,
        name: user.nickname ?? user.username ?? null,
        token,
        publicUrl: this.#deps.publicUrl,
        graceDays: this.graceDays,
      });
      await this.#deps.mail.file(mail, 'delete-account');
    });
  }

  /**
   * POST /api/account/deletion/confirm: disables the account at once. A used, expired or unknown
   * token all answer 422 invalidToken (nothing tells them apart). Returns when the erasure is due.
   */
  async confirm(token: string): Promise<{ userId: string; eraseAfter: Date }> {
    return this.#deps.transactions.run(async () => {
      const found = await this.#deps.tokens.check(this.#deps.accounts, token, 'delete-account').catch(asInvalidToken);
      // The user first (the lock order), then the token: confirming spends every link of the account.
      const user = await this.#deps.accounts.lockUser(found.userId);
      if (user === null || user.anonymizedAt !== null || user.deletionRequestedAt !== null) throw invalidToken();
      await this.#deps.tokens.spend(this.#deps.accounts, found).catch(asInvalidToken);
      const now = this.#deps.clock.now();
      const row = returned(
        await this.#deps.accounts.updateUser(user.id, { deletionRequestedAt: now, updatedAt: now }),
        'users.update',
      );
      await this.#deps.accounts.deleteSessionsOfUser(user.id);
      await this.#deps.accounts.useAllTokens(user.id, 'delete-account', now);
      await this.#deps.events.publish('user.changed', { user: row });
      if (user.bannedAt === null) await this.#deps.events.publish('user.banned', { userId: user.id });
      return { userId: user.id, eraseAfter: this.#eraseAfter(now) };
    });
  }

  #eraseAfter(requestedAt: Date): Date {
    return new Date(requestedAt.getTime() + this.graceDays * 86_400_000);
  }

  /**
   * A sign-in during the grace period (SessionsService.create calls it first, for every sign-in
   * method): the deletion is cancelled and the account shown again, unless it is banned.
   */
  async cancelOnSignIn(user: SigningInUser): Promise<void> {
    // The sign-in has just read the row: only an account being deleted costs a lock and a write.
    if (user.deletionRequestedAt === null) return;
    const userId = user.id;
    await this.#deps.transactions.run(async () => {
      const locked = await this.#deps.accounts.lockUser(userId);
      // Erased meanwhile (the job won the race): there is no account left to sign in to.
      if (locked === null) throw new AppError('invalidCredentials');
      if (locked.deletionRequestedAt === null) return;
      const row = returned(
        await this.#deps.accounts.updateUser(userId, { deletionRequestedAt: null, updatedAt: this.#deps.clock.now() }),
        'users.update',
      );
      await this.#deps.events.publish('user.changed', { user: row });
      if (locked.bannedAt === null) await this.#deps.events.publish('user.unbanned', { userId });
    });
  }

  /**
   * The `account-erasure` job: erases every account whose grace period has passed, each in its own
   * transaction. Idempotent: an erased or cancelled account is skipped. A failed account is logged,
   * left for the next run, and makes the report ask the queue to retry.
   */
  async eraseDue(): Promise<{ erased: number; failed: number }> {
    const cutoff = new Date(this.#deps.clock.now().getTime() - this.graceDays * 86_400_000);
    let erased = 0;
    let failed = 0;
    for (;;) {
      const ids = await this.#deps.repository.dueForErasure(cutoff, erasureBatch);
      let failedInBatch = 0;
      for (const id of ids) {
        try {
          if (await this.erase(id, cutoff)) erased += 1;
        } catch (error) {
          failedInBatch += 1;
          this.#deps.logger.error(
            { event: 'accounts.erasureFailed', userId: id, err: error },
            'could not erase an account',
          );
        }
      }
      failed += failedInBatch;
      // A batch with failures would come back whole: the next run (the queue's retry) takes it.
      if (ids.length < erasureBatch || failedInBatch > 0) return { erased, failed };
    }
  }

  /**
   * Erases one account whose deletion was confirmed at or before `cutoff`; false when there is
   * nothing to do (already erased, or cancelled meanwhile).
   */
  async erase(userId: string, cutoff: Date): Promise<boolean> {
    return this.#deps.transactions.run(async () => {
      const user = await this.#deps.accounts.lockUser(userId);
      if (user === null || user.deletionRequestedAt === null) return false;
      if (user.deletionRequestedAt.getTime() > cutoff.getTime()) return false;
      await this.#eraseLocked(user);
      return true;
    });
  }

  /**
   * Erases a remote actor's shadow at once (federation: the actor's `Delete`), as an account is erased:
   * every area drops its rows and repairs its counters. False when there is no such shadow.
   */
  async eraseRemote(userId: string): Promise<boolean> {
    return this.#deps.transactions.run(async () => {
      const user = await this.#deps.accounts.lockUser(userId);
      if (user?.remoteHandle == null) return false;
      await this.#eraseLocked(user);
      return true;
    });
  }

  async #eraseLocked(user: UserRow): Promise<void> {
    await this.#deps.events.publish('user.erasing', { userId: user.id });
    // Audit payloads carry no e-mail or username by rule (moderation.service.ts); the e-mail is
    // checked anyway since it cannot match anything else.
    await this.#deps.audit.forgetUser([user.id, toHex(user.id)], [user.email]);
    await this.#deps.mail.forgetRecipient(user.email);
    await this.#deps.repository.deleteUser(user.id);
  }
}
